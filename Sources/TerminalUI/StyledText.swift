import GameRules

/// A colour of the terminal's basic eight-colour palette.
public enum TerminalColor: UInt8, Hashable, Sendable {
  case black = 0
  case red
  case green
  case yellow
  case blue
  case magenta
  case cyan
  case white
}

/// How a run of text looks: colours and attributes.
public struct TextStyle: Hashable, Sendable {
  /// The text colour, or the terminal's default.
  public var foreground: TerminalColor?
  /// The background colour, or the terminal's default.
  public var background: TerminalColor?
  /// Bold (or bright) text.
  public var isBold = false
  /// Faint text.
  public var isDim = false
  /// Underlined text.
  public var isUnderlined = false
  /// Foreground and background swapped.
  public var isReversed = false

  /// Creates a style; by default the terminal's own.
  public init(
    foreground: TerminalColor? = nil, background: TerminalColor? = nil, isBold: Bool = false,
    isDim: Bool = false, isUnderlined: Bool = false, isReversed: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.isBold = isBold
    self.isDim = isDim
    self.isUnderlined = isUnderlined
    self.isReversed = isReversed
  }

  /// The terminal's default look.
  public static let plain = TextStyle()
  /// Bold text.
  public static let bold = TextStyle(isBold: true)
  /// Faint text.
  public static let dim = TextStyle(isDim: true)

  /// The select-graphic-rendition parameters, with or without colours.
  ///
  /// Without colours, attributes such as bold and reverse remain: `NO_COLOR` asks for no colour,
  /// and the reverse-video cursor still helps.
  func parameters(colors: Bool) -> [String] {
    var result: [String] = []
    if isBold { result.append("1") }
    if isDim { result.append("2") }
    if isUnderlined { result.append("4") }
    if isReversed { result.append("7") }
    if colors {
      if let foreground { result.append(String(30 + Int(foreground.rawValue))) }
      if let background { result.append(String(40 + Int(background.rawValue))) }
    }
    return result
  }
}

/// How styled text becomes characters for the terminal.
public enum ColorMode: Hashable, Sendable {
  /// Colours and attributes.
  case color
  /// Attributes (bold, reverse) but no colours, for `NO_COLOR` and `--no-color`.
  case monochrome
  /// No escape sequences at all: what plain mode and the tests read.
  case none
}

/// A run of characters in one style.
public struct TextSpan: Hashable, Sendable {
  /// The characters; one column each.
  public var text: String
  /// Their look.
  public var style: TextStyle

  /// Creates a span.
  public init(_ text: String, _ style: TextStyle = .plain) {
    self.text = text
    self.style = style
  }
}

/// One line of styled text.
///
/// Every character counts as one column: the renderer uses ASCII, box drawing and names, and
/// lines are cut to the terminal's width by characters.
public struct StyledLine: Hashable, Sendable, ExpressibleByStringLiteral {
  /// The runs, left to right.
  public var spans: [TextSpan]

  /// Creates a line from runs.
  public init(_ spans: [TextSpan] = []) { self.spans = spans }

  /// Creates an unstyled line.
  public init(stringLiteral value: String) { self.init([TextSpan(value)]) }

  /// Creates a line of one run.
  public init(_ text: String, _ style: TextStyle = .plain) { self.init([TextSpan(text, style)]) }

  /// The characters without styles.
  public var text: String { spans.map(\.text).joined() }

  /// The number of columns the line takes.
  public var width: Int { spans.reduce(0) { $0 + $1.text.columns } }

  /// Appends a run.
  public mutating func append(_ text: String, _ style: TextStyle = .plain) {
    guard !text.isEmpty else { return }
    if let last = spans.last, last.style == style {
      spans[spans.count - 1].text += text
    } else {
      spans.append(TextSpan(text, style))
    }
  }

  /// Appends another line's runs.
  public mutating func append(_ line: StyledLine) {
    for span in line.spans { append(span.text, span.style) }
  }

  /// The line cut to at most `width` columns.
  public func truncated(to width: Int) -> StyledLine {
    var result = StyledLine()
    var remaining = max(0, width)
    for span in spans where remaining > 0 {
      let text = String(span.text.prefix(columns: remaining))
      result.append(text, span.style)
      // A wide character that does not fit ends the line.
      remaining = text.count < span.text.count ? 0 : remaining - text.columns
    }
    return result
  }

  /// The line padded with spaces on the left.
  func indented(by columns: Int) -> StyledLine {
    guard columns > 0, width > 0 else { return self }
    var result = StyledLine(String(repeating: " ", count: columns))
    result.append(self)
    return result
  }

  /// The words of `text` as lines of at most `width` columns; a longer word is cut.
  static func wrapping(_ text: String, width: Int, style: TextStyle = .plain) -> [StyledLine] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      let candidate = current.isEmpty ? String(word) : current + " " + word
      if candidate.columns <= width {
        current = candidate
      } else {
        if !current.isEmpty { lines.append(current) }
        // A word longer than a line (a fingerprint) goes on over the next lines rather than
        // losing its end.
        var rest = word
        while rest.columns > width {
          let head = rest.prefix(columns: width)
          // A character wider than the line is dropped, as the line could not show it.
          if !head.isEmpty { lines.append(String(head)) }
          rest = rest.dropFirst(max(1, head.count))
        }
        current = String(rest)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines.map { StyledLine($0, style) }
  }

  /// The characters with escape sequences for `mode`; styles are reset after each run.
  public func rendered(_ mode: ColorMode) -> String {
    var output = ""
    // Whatever a line holds, only printable text reaches the terminal; the escapes are ours.
    for span in spans.map({ TextSpan($0.text.escapingControlCharacters, $0.style) }) {
      let parameters = mode == .none ? [] : span.style.parameters(colors: mode == .color)
      if parameters.isEmpty {
        output += span.text
      } else {
        output += "\u{1B}[" + parameters.joined(separator: ";") + "m" + span.text + "\u{1B}[0m"
      }
    }
    return output
  }
}
