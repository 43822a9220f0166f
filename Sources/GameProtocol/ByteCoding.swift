public import GameRules

/// Appends fields to a message payload in the protocol's encoding.
///
/// Integers are big-endian; a string is a 2-byte length and UTF-8; a list is a 2-byte count and
/// its elements; an optional is a 0 or 1 byte and, after a 1, the value.
public struct ByteWriter: Sendable {
  /// The payload so far.
  public private(set) var bytes: [UInt8] = []

  /// Creates a writer for a message of type `type`.
  public init(type: UInt8) { bytes = [type] }

  public mutating func write(_ value: UInt8) { bytes.append(value) }

  public mutating func write(_ value: UInt16) {
    bytes.append(UInt8(value >> 8))
    bytes.append(UInt8(value & 0xff))
  }

  public mutating func write(_ value: UInt32) {
    for shift in stride(from: 24, through: 0, by: -8) {
      bytes.append(UInt8((value >> shift) & 0xff))
    }
  }

  public mutating func write(_ value: UInt64) {
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8((value >> shift) & 0xff))
    }
  }

  public mutating func write(_ value: Int64) { write(UInt64(bitPattern: value)) }

  public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

  /// Writes a string, cut to ``ProtocolLimits/maximumStringLength`` bytes at a character
  /// boundary so a peer never refuses it for its length.
  public mutating func write(_ value: String) {
    var utf8 = Array(value.utf8)
    if utf8.count > ProtocolLimits.maximumStringLength {
      var cut = Substring(value)
      while cut.utf8.count > ProtocolLimits.maximumStringLength { cut = cut.dropLast() }
      utf8 = Array(cut.utf8)
    }
    write(UInt16(utf8.count))
    bytes += utf8
  }

  public mutating func write(_ value: Mark) { bytes.append(value == .x ? 0 : 1) }

  public mutating func write(_ cell: Cell) {
    bytes.append(UInt8(clamping: cell.row))
    bytes.append(UInt8(clamping: cell.column))
  }

  /// Writes a list's count and then each element with `element`.
  public mutating func write<Element>(
    list: [Element], _ element: (inout ByteWriter, Element) -> Void
  ) {
    precondition(list.count <= ProtocolLimits.maximumListCount, "a list field is too long")
    write(UInt16(list.count))
    for item in list { element(&self, item) }
  }

  /// Writes an optional's presence byte and then the value with `value`.
  public mutating func write<Value>(
    optional: Value?, _ value: (inout ByteWriter, Value) -> Void
  ) {
    guard let optional else { return write(false) }
    write(true)
    value(&self, optional)
  }
}

/// Reads the fields of a message payload, throwing ``ProtocolError`` for anything malformed.
public struct ByteReader: Sendable {
  private let bytes: [UInt8]
  private var offset: Int

  /// Creates a reader over a payload, positioned after its type byte.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    offset = 1
  }

  /// Bytes not read yet.
  public var remaining: Int { bytes.count - offset }

  /// Throws unless every byte has been read.
  public func finish() throws(ProtocolError) {
    guard remaining == 0 else { throw .trailingBytes(remaining) }
  }

  public mutating func readUInt8() throws(ProtocolError) -> UInt8 {
    guard remaining >= 1 else { throw .truncated }
    defer { offset += 1 }
    return bytes[offset]
  }

  public mutating func readUInt16() throws(ProtocolError) -> UInt16 {
    guard remaining >= 2 else { throw .truncated }
    defer { offset += 2 }
    return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
  }

  public mutating func readUInt32() throws(ProtocolError) -> UInt32 {
    guard remaining >= 4 else { throw .truncated }
    defer { offset += 4 }
    return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
  }

  public mutating func readUInt64() throws(ProtocolError) -> UInt64 {
    guard remaining >= 8 else { throw .truncated }
    defer { offset += 8 }
    return (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
  }

  public mutating func readInt64() throws(ProtocolError) -> Int64 {
    Int64(bitPattern: try readUInt64())
  }

  public mutating func readBool() throws(ProtocolError) -> Bool {
    switch try readUInt8() {
    case 0: false
    case 1: true
    case let other: throw .invalidField("a flag holds \(other), not 0 or 1")
    }
  }

  /// Reads a string of valid UTF-8 no longer than ``ProtocolLimits/maximumStringLength`` bytes.
  public mutating func readString() throws(ProtocolError) -> String {
    let length = Int(try readUInt16())
    guard length <= ProtocolLimits.maximumStringLength else {
      throw .invalidField("a string of \(length) bytes is longer than the limit")
    }
    guard remaining >= length else { throw .truncated }
    let slice = bytes[offset..<offset + length]
    offset += length
    guard let text = String(validating: slice, as: UTF8.self) else {
      throw .invalidField("a string is not valid UTF-8")
    }
    return text
  }

  public mutating func readMark() throws(ProtocolError) -> Mark {
    switch try readUInt8() {
    case 0: .x
    case 1: .o
    case let other: throw .invalidField("a mark holds \(other), not 0 or 1")
    }
  }

  /// Reads a cell whose row and column are below ``Board/maximumSide``.
  public mutating func readCell() throws(ProtocolError) -> Cell {
    let row = Int(try readUInt8())
    let column = Int(try readUInt8())
    guard row < Board.maximumSide, column < Board.maximumSide else {
      throw .invalidField("the cell (\(row), \(column)) lies outside every board")
    }
    return Cell(row: row, column: column)
  }

  /// Reads a list of at most ``ProtocolLimits/maximumListCount`` elements.
  public mutating func readList<Element>(
    _ element: (inout ByteReader) throws(ProtocolError) -> Element
  ) throws(ProtocolError) -> [Element] {
    let count = Int(try readUInt16())
    guard count <= ProtocolLimits.maximumListCount else {
      throw .invalidField("a list of \(count) elements is longer than the limit")
    }
    var elements: [Element] = []
    elements.reserveCapacity(min(count, remaining))
    for _ in 0..<count { elements.append(try element(&self)) }
    return elements
  }

  /// Reads an optional string.
  public mutating func readOptionalString() throws(ProtocolError) -> String? {
    try readBool() ? try readString() : nil
  }

  /// Reads an optional value.
  public mutating func readOptional<Value>(
    _ value: (inout ByteReader) throws(ProtocolError) -> Value
  ) throws(ProtocolError) -> Value? {
    try readBool() ? try value(&self) : nil
  }
}
