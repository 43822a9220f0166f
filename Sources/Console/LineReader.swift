import Glibc

/// One line of input as bytes, without its line ending.
public struct InputLine: Equatable, Sendable {
  /// The bytes, up to the reader's ``LineReader/maximumLineBytes``.
  public var bytes: [UInt8]
  /// Whether the line went on past the bytes kept.
  public var isTooLong: Bool

  /// Creates a line.
  public init(bytes: [UInt8], isTooLong: Bool = false) {
    self.bytes = bytes
    self.isTooLong = isTooLong
  }

  /// The line as text, invalid UTF-8 replaced.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Standard input (or another descriptor) a line at a time: the one reader of input lines for
/// every command.
///
/// Each line is held to ``maximumLineBytes``. A longer one is returned, marked too long, as soon
/// as it is known to be, so that endless input without a newline cannot hold a reader that
/// answers it; the rest of it is read and dropped before the next line, so that no input can
/// take more memory than that and the next line starts where it should. A read that fails is
/// told apart from the end of input. The last line counts without a final
/// newline, and a carriage return before the newline is dropped.
///
/// Reading ahead, the reader reads in blocks of 64 KiB, for commands that read input to its
/// end. Without, it reads a byte at a time and takes nothing past the newline, so that whatever
/// reads the descriptor next (the moves after a password) sees every following line.
public final class LineReader {
  /// Why the input could not be read.
  public struct Failure: Error, Equatable, Sendable {
    /// The `errno` of the read.
    public var code: Int32

    /// The failure of a read that set `errno` to `code`.
    public init(code: Int32) { self.code = code }

    /// The system's reason, such as `Is a directory`.
    public var reason: String { String(cString: strerror(code)) }

    /// The sentence to say; for a folder, `The input could not be read (Is a directory).`.
    public var message: String { "The input could not be read (\(reason))." }
  }

  /// The most bytes of a line kept; a longer line is marked too long.
  public let maximumLineBytes: Int
  private let descriptor: Int32
  private let blockSize: Int
  private var buffer: [UInt8] = []
  private var position = 0
  private var isAtEnd = false
  /// Whether the rest of a line returned too long is still to be dropped.
  private var isDroppingRest = false

  /// Creates a reader of `descriptor` (0 is standard input) that keeps at most `maximumLineBytes` of a line and,
  /// unless `readsAhead` is false, reads in blocks.
  public init(descriptor: Int32 = 0, maximumLineBytes: Int, readsAhead: Bool = true) {
    self.descriptor = descriptor
    self.maximumLineBytes = maximumLineBytes
    blockSize = readsAhead ? 1 << 16 : 1
  }

  /// The next line, or `nil` at the end of input.
  ///
  /// - Returns: The line, or `nil` once the input has ended.
  /// - Throws: ``Failure`` when the input cannot be read.
  public func next() throws(Failure) -> InputLine? {
    var line = InputLine(bytes: [])
    var sawByte = false
    while true {
      if position == buffer.count {
        if isAtEnd { return sawByte ? finished(line) : nil }
        try fill()
        continue
      }
      let end = buffer[position...].firstIndex(of: UInt8(ascii: "\n"))
      if isDroppingRest {
        isDroppingRest = end == nil
        position = end.map { $0 + 1 } ?? buffer.count
        continue
      }
      sawByte = true
      keep(buffer[position..<(end ?? buffer.count)], in: &line)
      position = end.map { $0 + 1 } ?? buffer.count
      if end == nil && line.isTooLong { isDroppingRest = true }
      if end != nil || line.isTooLong { return finished(line) }
    }
  }

  private func keep(_ bytes: ArraySlice<UInt8>, in line: inout InputLine) {
    guard !bytes.isEmpty else { return }
    let carriageReturn = UInt8(ascii: "\r")
    if line.bytes.count > maximumLineBytes {
      // The byte kept past the limit was a CR that no line end followed: the line is too long.
      line.bytes.removeLast()
      line.isTooLong = true
      return
    }
    let room = maximumLineBytes - line.bytes.count
    // One byte past the limit may be the CR of a CR LF ending, which is not the line's: it is
    // kept until what follows tells.
    let kept = bytes.count == room + 1 && bytes.last == carriageReturn ? room + 1 : room
    line.bytes += bytes.prefix(kept)
    if bytes.count > kept { line.isTooLong = true }
  }

  private func finished(_ line: InputLine) -> InputLine {
    var line = line
    if !line.isTooLong, line.bytes.last == UInt8(ascii: "\r") { line.bytes.removeLast() }
    return line
  }

  private func fill() throws(Failure) {
    buffer = [UInt8](repeating: 0, count: blockSize)
    position = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        let code = errno
        buffer = []
        isAtEnd = true
        throw Failure(code: code)
      }
      buffer.removeSubrange(count...)
      if count == 0 { isAtEnd = true }
      return
    }
  }
}
