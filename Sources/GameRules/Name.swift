/// The one rule for the names of players and accounts.
///
/// A name is printable text, trimmed of surrounding whitespace, of 1 to
/// ``maximumLength`` characters. Every way a name enters (a form, an option, the database, the
/// network) goes through ``validated(_:)``, so a name can never carry a terminal control
/// sequence, a bidirectional override or an invisible character.
public enum Name {
  /// The longest name, in characters.
  public static let maximumLength = 24

  /// The name trimmed of surrounding whitespace, if it follows the rule.
  ///
  /// - Parameter text: The name as typed or read.
  /// - Returns: The trimmed name.
  /// - Throws: ``NameError`` saying which part of the rule the name breaks.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func validated(_ text: String) throws(NameError) -> String {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { throw .empty }
    guard trimmed.unicodeScalars.allSatisfy({ $0.isPrintable && !blanks.contains($0) }),
      trimmed.unicodeScalars.first?.isMark != true
    else { throw .notPrintable }
    let count = trimmed.count
    guard count <= maximumLength else { throw .tooLong(count) }
    // A character is a letter with its accents, or a flag of two scalars; hundreds of accents
    // on one letter are a name of one character that draws over the lines around it.
    guard trimmed.allSatisfy({ $0.unicodeScalars.count <= maximumScalarsPerCharacter }) else {
      throw .overloaded
    }
    return trimmed
  }

  /// The most Unicode scalars one character of a name may hold.
  public static let maximumScalarsPerCharacter = 8

  /// Letters, marks and symbols that print as nothing: the Hangul fillers, the combining
  /// grapheme joiner and the blank braille pattern, which would make a name that looks empty or
  /// like another.
  static let blanks: Set<Unicode.Scalar> = [
    "\u{034F}",
    "\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}", "\u{2800}",
  ]

  /// Whether `text` is a valid name as it stands (already trimmed).
  public static func isValid(_ text: String) -> Bool {
    (try? validated(text)) == text
  }
}

/// Why a name was refused.
public enum NameError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nothing but whitespace.
  case empty
  /// More characters than ``Name/maximumLength``.
  case tooLong(Int)
  /// A control, format or unassigned character, one that prints as nothing, or an accent with
  /// no letter before it.
  case notPrintable
  /// A character with more than ``Name/maximumScalarsPerCharacter`` scalars.
  case overloaded

  public var description: String {
    switch self {
    case .empty:
      "A name needs at least one character."
    case .tooLong(let count):
      "A name is at most \(Name.maximumLength) characters; this one has \(count)."
    case .notPrintable:
      "A name may hold only characters that print as themselves: no control, format or blank "
        + "characters, and no accent at its start."
    case .overloaded:
      "A name's characters may each hold at most \(Name.maximumScalarsPerCharacter) Unicode "
        + "scalars (a letter and its accents)."
    }
  }
}

extension Unicode.Scalar {
  /// Whether the scalar is a combining mark, which draws on the character before it.
  var isMark: Bool {
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: true
    default: false
    }
  }

  /// Whether the scalar shows as itself: not a control, format, surrogate, private-use or
  /// unassigned code point, nor a line or paragraph separator.
  public var isPrintable: Bool {
    switch properties.generalCategory {
    case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
      .paragraphSeparator:
      false
    default:
      true
    }
  }
}

extension String {
  /// The text with every character that is not printable written as an escape (`\u{1B}`), so
  /// that text read from a file, a database or the network cannot drive a terminal.
  ///
  /// A backslash is left as it is: the escapes are for a reader, not for a parser.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public var escapingControlCharacters: String {
    guard !unicodeScalars.allSatisfy(\.isPrintable) else { return self }
    var result = ""
    result.unicodeScalars.reserveCapacity(unicodeScalars.count)
    for scalar in unicodeScalars {
      if scalar.isPrintable {
        result.unicodeScalars.append(scalar)
      } else {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// The text as a message may quote it: control characters escaped, and cut after 40
  /// characters, so that a hostile argument of 100,000 characters is not echoed whole.
  public var quotable: String { escaped(cutTo: 41) }

  /// The text with its control characters escaped (``escapingControlCharacters``), and, when
  /// that is longer than `length` characters, cut to `length - 1` and ended with `…`: cut
  /// between characters, never inside an escape such as `\u{1B}`.
  public func escaped(cutTo length: Int) -> String {
    let escaped = escapingControlCharacters
    guard escaped.count > length else { return escaped }
    var result = ""
    var count = 0
    for character in self {
      let piece = String(character).escapingControlCharacters
      guard count + piece.count <= length - 1 else { break }
      result += piece
      count += piece.count
    }
    return result + "…"
  }

  /// The text without leading and trailing whitespace (spaces, tabs, newlines and the other
  /// Unicode white space).
  public func trimmingWhitespace() -> String {
    var characters = Substring(self)
    while characters.first?.isWhitespace == true { characters.removeFirst() }
    return String(characters).trimmingTrailingWhitespace()
  }

  /// The text without trailing whitespace, as a line is drawn.
  public func trimmingTrailingWhitespace() -> String {
    var characters = Substring(self)
    while characters.last?.isWhitespace == true { characters.removeLast() }
    return String(characters)
  }
}
