import GameCore
public import GameRules

/// A button of a screen, pressed by its key or a click.
public struct ScreenButton: Hashable, Sendable {
  /// The key that presses it, such as `u`.
  public var key: Key
  /// What the key is called on the button: `u`, `Enter`, `Ctrl-G`.
  public var keyName: String
  /// The button's text: `Undo`.
  public var label: String
  /// Whether it can be pressed now; a disabled button is dim and ignores clicks.
  public var isEnabled: Bool

  /// Creates a button for a character key.
  public init(_ character: Character, _ label: String, isEnabled: Bool = true) {
    self.init(key: .character(character), keyName: String(character), label, isEnabled: isEnabled)
  }

  /// Creates a button for any key.
  public init(key: Key, keyName: String, _ label: String, isEnabled: Bool = true) {
    self.key = key
    self.keyName = keyName
    self.label = label
    self.isEnabled = isEnabled
  }

  /// The button as drawn: `[u] Undo`.
  var text: String { "[\(keyName)] \(label)" }
}

/// The game screen's content: everything the terminal shows while a game is on.
///
/// The texts come from the core; the terminal only arranges them.
public struct GameScreen: Hashable, Sendable {
  /// The title line: `Ada, place your X`, `Winner! Congrats Ada!`.
  public var title: String
  /// A line under the title, such as who plays whom.
  public var subtitle: String?
  /// The board.
  public var board: Board
  /// Cursor, last move and hint.
  public var decorations: BoardDecorations
  /// A line under the board: the last event or a problem (`b2 is taken.`).
  public var message: String?
  /// Whether the message reports a problem, drawn in red.
  public var messageIsError = false
  /// The buttons under the board.
  public var buttons: [ScreenButton]
  /// Lines shown instead of the board, such as the help.
  public var overlay: [String]?

  /// Creates a game screen.
  public init(
    title: String, subtitle: String? = nil, board: Board,
    decorations: BoardDecorations = BoardDecorations(), message: String? = nil,
    messageIsError: Bool = false, buttons: [ScreenButton] = [], overlay: [String]? = nil
  ) {
    self.title = title
    self.subtitle = subtitle
    self.board = board
    self.decorations = decorations
    self.message = message
    self.messageIsError = messageIsError
    self.buttons = buttons
    self.overlay = overlay
  }

  /// Lays the screen out for a `width` × `height` terminal.
  ///
  /// The board uses box lines around every cell when they fit, a compact frame otherwise, and
  /// when even that does not fit the frame says the terminal is too small.
  public func frame(width: Int, height: Int) -> Frame {
    let body: Frame
    if let overlay {
      // The help and the analysis wrap to the screen, a wrapped line indented under its start.
      body = Frame(
        lines: overlay.flatMap { Self.wrapped($0, width: width - ScreenLayout.margin) })
    } else {
      guard
        let layout = BoardLayout.allCases.first(where: { layout in
          fits(
            layout.width(rows: board.rows, columns: board.columns), layout.height(rows: board.rows),
            width: width, height: height)
        })
      else {
        let layout = BoardLayout.compact
        let neededWidth = ScreenLayout.neededWidth(
          body: layout.width(rows: board.rows, columns: board.columns), buttons: buttons)
        let buttonRows = ScreenLayout.buttonLines(
          buttons, width: max(width, neededWidth) - ScreenLayout.margin
        ).lines.count
        let neededHeight =
          layout.height(rows: board.rows)
          + ScreenLayout.chromeHeight(subtitle: subtitle, buttonRows: buttonRows)
        return ScreenLayout.tooSmall(
          needed: (neededWidth, neededHeight), width: width, height: height)
      }
      body = BoardRenderer.render(board, decorations: decorations, layout: layout)
    }
    return ScreenLayout.compose(
      title: title, subtitle: subtitle, body: body, message: message,
      messageIsError: messageIsError, buttons: buttons, width: width, height: height)
  }

  /// `line` as lines of at most `width` columns: as it is when it fits, else broken at the
  /// last space that fits (its spacing kept), each further line indented two columns more than
  /// the first.
  static func wrapped(_ line: String, width: Int) -> [StyledLine] {
    guard line.columns > width, width > 8 else { return [StyledLine(line)] }
    let indent = min(line.prefix { $0 == " " }.count, width / 2)
    var lines: [StyledLine] = []
    var rest = line
    while rest.columns > width {
      let head = String(rest.prefix(columns: width))
      let space = head.lastIndex(of: " ").flatMap { index in
        head.distance(from: head.startIndex, to: index) > indent ? index : nil
      }
      let taken = space.map { String(head[..<$0]) } ?? head
      lines.append(StyledLine(taken.trimmingTrailingWhitespace()))
      rest =
        String(repeating: " ", count: indent + 2)
        + rest.dropFirst(taken.count).drop { $0 == " " }
    }
    return lines + [StyledLine(rest)]
  }

  /// The smallest terminal a game on a `rows` × `columns` board fits, drawn compact with all of
  /// a game's buttons.
  static func neededSize(rows: Int, columns: Int) -> (width: Int, height: Int) {
    let layout = BoardLayout.compact
    let buttons =
      [GameControl.undo, .redo, .hint, .analysis, .newGame, .quit].map {
        ScreenButton($0.key, $0.title)
      } + [ScreenButton("?", "Help")]
    let width = ScreenLayout.neededWidth(
      body: layout.width(rows: rows, columns: columns), buttons: buttons)
    let buttonRows = ScreenLayout.buttonLines(buttons, width: width - ScreenLayout.margin).lines
      .count
    return (
      width,
      layout.height(rows: rows) + ScreenLayout.chromeHeight(subtitle: nil, buttonRows: buttonRows)
    )
  }

  private func fits(_ bodyWidth: Int, _ bodyHeight: Int, width: Int, height: Int) -> Bool {
    let buttonRows = ScreenLayout.buttonLines(buttons, width: width - ScreenLayout.margin).lines
      .count
    return ScreenLayout.neededWidth(body: bodyWidth, buttons: buttons) <= width
      && bodyHeight + ScreenLayout.chromeHeight(subtitle: subtitle, buttonRows: buttonRows)
        <= height
  }
}

/// The arrangement every screen shares: title, body, message and buttons.
enum ScreenLayout {
  /// The left margin of everything but a too-small notice.
  static let margin = 1
  /// The widest a line of buttons may be before it wraps.
  static let narrowestButtonLine = 24

  static let titleStyle = TextStyle(isBold: true)
  static let subtitleStyle = TextStyle.dim
  static let errorStyle = TextStyle(foreground: .red, isBold: true)
  static let keyStyle = TextStyle(isBold: true)
  static let disabledStyle = TextStyle.dim

  /// Lines around the body: title, optional subtitle, blank, blank, message, buttons.
  static func chromeHeight(subtitle: String?, buttonRows: Int) -> Int {
    4 + (subtitle == nil ? 0 : 1) + buttonRows
  }

  /// The width a screen needs: its body, and its widest button, with the margin.
  static func neededWidth(body: Int, buttons: [ScreenButton]) -> Int {
    max(body, buttons.map(\.text.count).max() ?? 0) + margin
  }

  static func compose(
    title: String, subtitle: String?, body: Frame, message: String?, messageIsError: Bool,
    buttons: [ScreenButton], width: Int, height: Int
  ) -> Frame {
    var frame = Frame()
    // A title or subtitle wider than the screen (long names, a long server name) is cut where
    // the cut shows.
    let room = width - margin
    frame.append(StyledLine(title.fitted(columns: room), titleStyle).indented(by: margin))
    if let subtitle {
      frame.append(StyledLine(subtitle.fitted(columns: room), subtitleStyle).indented(by: margin))
    }
    frame.append("")
    let buttonRows = buttonLines(buttons, width: width - margin)
    // A body taller than the room left by the status line and the buttons (the help on the
    // smallest screen) is cut, with a last line saying so, so that the buttons stay in view.
    let bodyRoom = height - frame.lines.count - 2 - buttonRows.lines.count
    if body.lines.count > bodyRoom, bodyRoom >= 2, body.regions.isEmpty {
      frame.append(
        Frame(
          lines: body.lines.prefix(bodyRoom - 1) + [
            StyledLine("… (a taller window shows the rest)")
          ]),
        indent: margin)
    } else {
      frame.append(body, indent: margin)
    }
    frame.append("")
    // A long status line wraps into the rows the screen leaves free.
    let freeRows = max(1, height - frame.lines.count - buttonRows.lines.count)
    let style = messageIsError ? errorStyle : .plain
    let wrapped = StyledLine.wrapping(message ?? "", width: max(1, width - margin))
    if wrapped.count > 1, wrapped.count <= freeRows {
      for line in wrapped { frame.append(StyledLine(line.text, style).indented(by: margin)) }
    } else {
      frame.append(StyledLine(message ?? "", style).indented(by: margin))
    }
    frame.append(buttonRows, indent: margin)
    return frame.clipped(width: width, height: height)
  }

  /// Buttons two spaces apart, wrapped to `width`, each clickable when enabled.
  static func buttonLines(_ buttons: [ScreenButton], width: Int) -> Frame {
    var frame = Frame()
    var line = StyledLine()
    var regions: [HitRegion] = []
    for button in buttons {
      let gap = line.width == 0 ? 0 : 2
      if line.width > 0, line.width + gap + button.text.count > width {
        frame.append(line)
        line = StyledLine()
      }
      if line.width > 0 { line.append("  ") }
      let start = line.width
      if button.isEnabled {
        line.append("[\(button.keyName)]", keyStyle)
        line.append(" " + button.label)
        regions.append(
          HitRegion(
            row: frame.lines.count, columns: start..<line.width, target: .key(button.key)))
      } else {
        line.append(button.text, disabledStyle)
      }
    }
    if line.width > 0 || frame.lines.isEmpty { frame.append(line) }
    frame.regions = regions
    return frame
  }

  /// The notice shown instead of a screen that does not fit, wrapped to the terminal's width,
  /// with the question of the moment, which keys still answer.
  static func tooSmall(
    needed: (width: Int, height: Int), width: Int, height: Int, question: String? = nil
  ) -> Frame {
    var frame = Frame()
    frame.isTooSmall = true
    let notice =
      StyledLine.wrapping("Terminal too small", width: width, style: titleStyle)
      + StyledLine.wrapping(
        "Need \(needed.width)×\(needed.height), have \(width)×\(height).", width: width)
    // A question asked comes first, so that even the smallest terminal shows what y answers.
    frame.lines =
      if let question {
        StyledLine.wrapping(question, width: width) + notice
      } else {
        notice + StyledLine.wrapping("Enlarge the window, or press q to quit.", width: width)
      }
    if frame.lines.count > height, height > 0, width > 0 {
      // What does not fit is marked, never cut silently.
      frame.lines = Array(frame.lines.prefix(height))
      let last = frame.lines[height - 1]
      frame.lines[height - 1] = StyledLine(last.text.prefix(columns: width - 1) + "…")
    }
    frame = frame.clipped(width: width, height: height)
    frame.isTooSmall = true
    return frame
  }
}
