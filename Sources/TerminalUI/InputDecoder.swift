import GameRules

/// A mouse button press or release at a screen position.
public struct MouseEvent: Hashable, Sendable {
  /// The button: 0 left, 1 middle, 2 right, 64 and 65 the wheel.
  public var button: Int
  /// The screen row, counted from zero at the top.
  public var row: Int
  /// The screen column, counted from zero at the left.
  public var column: Int
  /// Whether the button went down (a release is `false`).
  public var isPress: Bool

  /// Creates a mouse event.
  public init(button: Int, row: Int, column: Int, isPress: Bool = true) {
    self.button = button
    self.row = row
    self.column = column
    self.isPress = isPress
  }

  /// Whether this is a press of the left button.
  public var isLeftClick: Bool { isPress && button == 0 }
}

/// A key press or mouse event decoded from the terminal's bytes.
public enum Key: Hashable, Sendable {
  /// A printable character, including space.
  case character(Character)
  case up
  case down
  case left
  case right
  case home
  case end
  case pageUp
  case pageDown
  case insert
  case delete
  case enter
  case tab
  case backTab
  /// The help key.
  case f1
  case backspace
  case escape
  /// A control key other than those named, by its letter: Ctrl-C is `control("c")`.
  case control(Character)
  /// A mouse press or release.
  case mouse(MouseEvent)
  /// Text the terminal pasted, its control characters (line ends among them) left out: a text
  /// field takes it whole, and no other screen acts on it, so that a pasted word cannot answer
  /// a question one letter at a time.
  case paste(String)
  /// A sequence the decoder does not know, ignored by the screens.
  case unknown

  /// Ctrl-C, which arrives as byte 3 in raw mode.
  public static let interrupt = Key.control("c")
  /// Ctrl-D, end of transmission.
  public static let endOfInput = Key.control("d")
  /// Ctrl-Z, which suspends the program in a shell.
  public static let suspend = Key.control("z")
}

/// Turns the bytes a terminal sends into keys, across reads.
///
/// A sequence split across two reads (an arrow's `ESC [` then `A`, half of a UTF-8 character)
/// is held until the rest arrives. A lone escape is ambiguous until more input or a pause: the
/// caller calls ``flush()`` after a short quiet period.
///
/// With bracketed paste on (``Terminal`` turns it on), a paste arrives between `ESC [ 200 ~` and
/// `ESC [ 201 ~` and becomes one ``Key/paste(_:)``, however many reads it takes.
public struct InputDecoder: Sendable {
  private var pending: [UInt8] = []
  /// The bytes of a paste begun and not yet ended, or `nil` outside a paste.
  private var pasted: [UInt8]?
  /// The pauses counted by ``flush()`` since the paste last grew.
  private var pauses = 0
  /// The kind of a sequence given up as too long whose rest is still to be dropped, or `nil`.
  private var runaway: Runaway?

  /// A sequence given up as too long: its rest, however many reads it takes, is dropped up to
  /// its end, so that none of it (the digits of a huge mouse report) is taken for keys.
  private enum Runaway: Sendable {
    /// `ESC [` or `ESC O`, which ends at a byte from `@` to `~`.
    case controlSequence
    /// A control string, which ends at BEL or an escape.
    case string
  }

  /// A sequence longer than this without an end is garbage and is dropped.
  private static let maximumSequenceLength = 32
  /// The most bytes of a paste kept, far more than any field takes; the rest is dropped.
  static let maximumPasteLength = 4_096
  /// A paste whose end has not come after this many pauses (about a second) is taken as ended:
  /// a terminal that lost the end would otherwise swallow every key, Ctrl-C too.
  private static let pausesEndingAPaste = 30
  private static let pasteEnd = Array("\u{1B}[201~".utf8)

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether bytes of an unfinished sequence or paste are held back.
  public var hasPending: Bool { !pending.isEmpty || pasted != nil }

  /// Decodes `bytes` after whatever was pending.
  ///
  /// - Returns: The keys completed by these bytes, in order.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      if let kind = runaway {
        index = skipRunaway(kind, from: index)
        continue
      }
      if pasted != nil {
        pauses = 0
        guard let end = Self.position(of: Self.pasteEnd, in: pending, from: index) else {
          // The end may be split across reads: its first bytes stay pending.
          let kept = max(index, pending.count - (Self.pasteEnd.count - 1))
          appendPasted(pending[index..<kept])
          pending.removeFirst(kept)
          return keys
        }
        appendPasted(pending[index..<end])
        keys.append(endPaste())
        index = end + Self.pasteEnd.count
        continue
      }
      switch Self.decodeOne(pending, at: index) {
      case .key(let key, let length):
        keys.append(key)
        index += length
      case .pasteBegins(let length):
        pasted = []
        index += length
      case .incomplete:
        if pending.count - index > Self.maximumSequenceLength {
          keys.append(.unknown)
          runaway = Self.runawayKind(pending, at: index)
          index = runaway == nil ? pending.count : index + 2
        } else {
          pending.removeFirst(index)
          return keys
        }
      }
    }
    pending.removeAll()
    return keys
  }

  /// Where the rest of a runaway sequence of `kind` ends in `pending`, from `start`: past its
  /// final byte (the runaway is over), or at the end of what arrived so far.
  private mutating func skipRunaway(_ kind: Runaway, from start: Int) -> Int {
    for index in start..<pending.count {
      let byte = pending[index]
      switch kind {
      case .controlSequence where !(0x20...0x3F).contains(byte):
        runaway = nil
        return (0x40...0x7E).contains(byte) ? index + 1 : index
      case .string where byte == 0x07 || byte == 0x1B:
        runaway = nil
        // An escape ends the string and begins what follows (`ESC \` is a key of its own).
        return byte == 0x07 ? index + 1 : index
      default:
        continue
      }
    }
    return pending.count
  }

  /// The kind of the sequence at `start`, if it is one whose rest can be told apart.
  private static func runawayKind(_ bytes: [UInt8], at start: Int) -> Runaway? {
    guard bytes[start] == 0x1B, start + 1 < bytes.count else { return nil }
    if bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O") {
      return .controlSequence
    }
    return stringIntroducers.contains(bytes[start + 1]) ? .string : nil
  }

  /// Gives up waiting for the rest of a pending sequence, after a pause in the input.
  ///
  /// - Returns: A lone escape as ``Key/escape``; an escape followed by a partial sequence as the
  ///   escape and then its bytes as keys; anything else unfinished as ``Key/unknown``.
  public mutating func flush() -> [Key] {
    // A runaway sequence whose end never came ends with the pause: keys typed after it count.
    runaway = nil
    if pasted != nil {
      pauses += 1
      guard pauses >= Self.pausesEndingAPaste else { return [] }
      appendPasted(pending[...])
      pending.removeAll()
      return [endPaste()]
    }
    guard !pending.isEmpty else { return [] }
    let bytes = pending
    pending.removeAll()
    if bytes == [0x1B] { return [.escape] }
    // A control string cut off (or Alt-Shift-P, Alt-] and the like): nothing is typed or asked.
    if bytes.first == 0x1B, Self.stringIntroducers.contains(bytes[1]) { return [.unknown] }
    if bytes.first == 0x1B {
      var rest = InputDecoder()
      let keys = rest.decode(bytes.dropFirst())
      return [.escape] + keys + (rest.hasPending ? [.unknown] : [])
    }
    return [.unknown]
  }

  private mutating func appendPasted(_ bytes: ArraySlice<UInt8>) {
    let room = Self.maximumPasteLength - (pasted?.count ?? 0)
    pasted?.append(contentsOf: bytes.prefix(max(room, 0)))
  }

  /// Ends the paste under way; its text keeps only printable characters.
  private mutating func endPaste() -> Key {
    let bytes = pasted ?? []
    pasted = nil
    pauses = 0
    var text = ""
    text.unicodeScalars.append(
      contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars.filter {
        $0.isPrintable && $0 != "\u{FFFD}"
      })
    return .paste(text)
  }

  /// Where `needle` first occurs in `bytes` at or after `start`.
  private static func position(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count - start >= needle.count else { return nil }
    return (start...(bytes.count - needle.count)).first {
      bytes[$0] == needle[0] && bytes[$0..<$0 + needle.count].elementsEqual(needle)
    }
  }

  private enum Step {
    case key(Key, length: Int)
    /// `ESC [ 200 ~`: what follows is pasted, up to `ESC [ 201 ~`.
    case pasteBegins(length: Int)
    case incomplete
  }

  private static func decodeOne(_ bytes: [UInt8], at start: Int) -> Step {
    let byte = bytes[start]
    switch byte {
    case 0x1B:
      return decodeEscape(bytes, at: start)
    case 0x0D, 0x0A:
      // A terminal sends CR for Enter; a CR LF pair from a paste is one Enter.
      if byte == 0x0D, start + 1 < bytes.count, bytes[start + 1] == 0x0A {
        return .key(.enter, length: 2)
      }
      return .key(.enter, length: 1)
    case 0x09:
      return .key(.tab, length: 1)
    case 0x7F, 0x08:
      return .key(.backspace, length: 1)
    case 0x00:
      return .key(.control(" "), length: 1)
    case 0x01...0x1A:
      return .key(.control(Character(Unicode.Scalar(byte + 0x60))), length: 1)
    case 0x1C...0x1F:
      return .key(.unknown, length: 1)
    case 0x20...0x7E:
      return .key(.character(Character(Unicode.Scalar(byte))), length: 1)
    default:
      return decodeUTF8(bytes, at: start)
    }
  }

  private static func decodeUTF8(_ bytes: [UInt8], at start: Int) -> Step {
    let lead = bytes[start]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .key(.unknown, length: 1)
    }
    var index = start + 1
    while index < start + length {
      guard index < bytes.count else { return .incomplete }
      guard bytes[index] & 0xC0 == 0x80 else { return .key(.unknown, length: index - start) }
      index += 1
    }
    var decoder = UTF8()
    var iterator = bytes[start..<start + length].makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
      return .key(.unknown, length: length)
    }
    // A C1 control, a bidirectional override or an invisible format character is never text:
    // typed into a field, it would later drive the terminal that shows the field.
    guard scalar.isPrintable else { return .key(.unknown, length: length) }
    return .key(.character(Character(scalar)), length: length)
  }

  private static func decodeEscape(_ bytes: [UInt8], at start: Int) -> Step {
    guard start + 1 < bytes.count else { return .incomplete }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      return decodeCSI(bytes, at: start)
    case UInt8(ascii: "O"):
      // Some terminals put a modifier's parameters before the final byte (`ESC O 1 ; 5 P`):
      // they belong to the key, and are never typed.
      var index = start + 2
      while index < bytes.count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
      guard index < bytes.count else { return .incomplete }
      let final = bytes[index]
      let key =
        cursorKey(final)
        ?? (final == UInt8(ascii: "M") ? .enter : final == UInt8(ascii: "P") ? .f1 : .unknown)
      return .key(key, length: index + 1 - start)
    case 0x1B:
      // Escape pressed twice: the first is a key of its own.
      return .key(.escape, length: 1)
    case _ where stringIntroducers.contains(second):
      return decodeString(bytes, at: start)
    default:
      // Alt plus a key (or an escape and a key that came in one read, as a paste does): one
      // key no screen acts on. Taken as Escape then the key, Alt-y would ask to leave and
      // answer yes at once.
      switch decodeOne(bytes, at: start + 1) {
      case .incomplete: return .incomplete
      case .key(_, let length), .pasteBegins(let length): return .key(.unknown, length: 1 + length)
      }
    }
  }

  /// The bytes after an escape that begin a control string.
  private static let stringIntroducers: Set<UInt8> = Set("]PX^_".utf8)

  /// Decodes a control string (`ESC ]` for a title, `ESC P`, `ESC X`, `ESC ^`, `ESC _`),
  /// which runs to BEL or `ESC \`: one key no screen acts on, so that none of its text is
  /// typed, and its escape does not ask to leave.
  private static func decodeString(_ bytes: [UInt8], at start: Int) -> Step {
    var index = start + 2
    while index < bytes.count {
      if bytes[index] == 0x07 { return .key(.unknown, length: index + 1 - start) }
      if bytes[index] == 0x1B {
        guard index + 1 < bytes.count else { return .incomplete }
        // ESC \ ends the string; another escape ends it too and begins what follows.
        let end = bytes[index + 1] == UInt8(ascii: "\\") ? index + 2 : index
        return .key(.unknown, length: end - start)
      }
      index += 1
    }
    return .incomplete
  }

  /// Decodes `ESC [` sequences: cursor keys, editing keys and mouse reports.
  private static func decodeCSI(_ bytes: [UInt8], at start: Int) -> Step {
    let body = start + 2
    guard body < bytes.count else { return .incomplete }
    if bytes[body] == UInt8(ascii: "M") {
      // The legacy X10 mouse report: three bytes, each offset by 32.
      guard body + 3 < bytes.count else { return .incomplete }
      let button = Int(bytes[body + 1]) - 32
      let event = MouseEvent(
        button: button & 0b1100_0011, row: Int(bytes[body + 3]) - 33,
        column: Int(bytes[body + 2]) - 33, isPress: button & 3 != 3)
      return .key(.mouse(event), length: 6)
    }
    var index = body
    // Parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, then one final byte 0x40–0x7E.
    while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
    guard index < bytes.count else { return .incomplete }
    let final = bytes[index]
    let length = index - start + 1
    guard (0x40...0x7E).contains(final) else { return .key(.unknown, length: length - 1) }
    let parameterText = String(decoding: bytes[body..<index], as: UTF8.self)
    if parameterText.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
      // Button, column and row: whole numbers a terminal can send, never negative.
      let numbers = parameterText.dropFirst().split(separator: ";").compactMap {
        UInt16($0).map(Int.init)
      }
      guard numbers.count == 3 else { return .key(.unknown, length: length) }
      let event = MouseEvent(
        button: numbers[0] & 0b1100_0011, row: numbers[2] - 1, column: numbers[1] - 1,
        isPress: final == UInt8(ascii: "M"))
      return .key(.mouse(event), length: length)
    }
    let parameters = parameterText.split(separator: ";").map { Int($0) }
    if final == UInt8(ascii: "~"), parameters == [200] { return .pasteBegins(length: length) }
    if let key = cursorKey(final) { return .key(key, length: length) }
    let key: Key =
      switch final {
      case UInt8(ascii: "Z"): .backTab
      case UInt8(ascii: "~"):
        switch parameters.first ?? nil {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11: .f1
        default: .unknown
        }
      default: .unknown
      }
    return .key(key, length: length)
  }

  /// The arrow, Home or End key that a final byte names in both `ESC [` and `ESC O` sequences.
  private static func cursorKey(_ final: UInt8) -> Key? {
    switch final {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    default: nil
    }
  }
}
