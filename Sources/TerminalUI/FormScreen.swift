public import NewGameCore

/// The items of the app's forms, named by type so that a key's meaning never depends on
/// parsing a name back.
public enum FormID: Hashable, Sendable {
  // Sign in and Two-factor.
  case userName, password, repeatedPassword, signIn, createAccount, guest, code, verify, back
  // New game.
  case xName, oName, play, resume, discard, stats, recoveryCodes, signOut, exit
  case choice(NewGame.Choice)
  // Stats and Recovery codes.
  case recentGame(Int)
  case reset, resetPassword, resetCode, resetConfirmed, resetCancelled
  case newCodes, newCodesConfirmed, newCodesCancelled
  // Online: the Server field, New game's online items and the Open games list.
  case server, inviteCode, createOnline, joinOnline, watchOnline, openGames
  case listedGame(Int)
  case refreshGames
}

/// One line of a form: a text field, a choice among values, or a button.
public struct FormItem: Hashable, Sendable {
  /// What kind of line it is.
  public enum Kind: Hashable, Sendable {
    /// Typed text; a secret shows as stars.
    case text(String, isSecret: Bool)
    /// One value of several, changed with ← and →.
    case choice(String)
    /// Pressed with Enter, Space or a click.
    case button
  }

  /// What the item is; it stays the same while the screen is shown, to keep the focus on it.
  public var id: FormID
  /// The label (a button's text).
  public var label: String
  /// The kind and its value.
  public var kind: Kind
  /// Whether it takes input now.
  public var isEnabled: Bool

  /// Creates an item.
  public init(id: FormID, label: String, kind: Kind, isEnabled: Bool = true) {
    self.id = id
    self.label = label
    self.kind = kind
    self.isEnabled = isEnabled
  }

  /// Whether typing goes into it.
  var isText: Bool {
    if case .text = kind { return true }
    return false
  }
}

/// A screen of the app other than the game: a title, some lines, a form and shortcut keys.
public struct FormScreen: Hashable, Sendable {
  /// The title line.
  public var title: String
  /// Lines under the title, such as who is signed in.
  public var notes: [String]
  /// Lines of content before the form, such as stats.
  public var body: [StyledLine]
  /// The fields and buttons, top to bottom.
  public var items: [FormItem]
  /// The focused item's id.
  public var focus: FormID?
  /// A line under the form: a problem, a question or progress.
  public var message: String?
  /// Whether the message reports a problem.
  public var messageIsError: Bool
  /// The shortcut keys listed at the bottom.
  public var shortcuts: [ScreenButton]
  /// The question of the moment with its answers, asked even where the terminal is too small
  /// for the form.
  public var question: String?

  /// Creates a form screen.
  public init(
    title: String, notes: [String] = [], body: [StyledLine] = [], items: [FormItem],
    focus: FormID?, message: String? = nil, messageIsError: Bool = false,
    shortcuts: [ScreenButton] = []
  ) {
    self.title = title
    self.notes = notes
    self.body = body
    self.items = items
    self.focus = focus
    self.message = message
    self.messageIsError = messageIsError
    self.shortcuts = shortcuts
  }

  /// The width of a text field's box.
  static let fieldWidth = 28

  /// The fewest characters of a button's label shown, however narrow the terminal.
  static let shortestButtonLabel = 12

  /// The smallest terminal every form fits: the New game form with an offer to resume is the
  /// largest, and Stats lists as many recent games as this leaves room for.
  static let neededSize = (width: 50, height: 22)

  /// Lays the screen out for a `width` × `height` terminal.
  public func frame(width: Int, height: Int) -> Frame {
    let labelWidth = items.filter { $0.kind != .button }.map(\.label.columns).max() ?? 0
    var block = Frame(lines: body)
    if !body.isEmpty, !items.isEmpty { block.append("") }
    for item in items {
      let isFocused = item.id == focus && item.isEnabled
      var line = StyledLine(isFocused ? "> " : "  ", ScreenLayout.keyStyle)
      let start = line.width
      switch item.kind {
      case .text(let value, let isSecret):
        line.append(item.label.padding(to: labelWidth) + "  ", labelStyle(item))
        var shown = isSecret ? String(repeating: "*", count: value.count) : value
        if isFocused { shown += "_" }
        // A value longer than the field shows its end, where typing goes, marked as cut.
        shown = shown.fittedFromTheEnd(columns: Self.fieldWidth).padding(to: Self.fieldWidth)
        line.append("[" + shown + "]", fieldStyle(isFocused: isFocused, item: item))
      case .choice(let value):
        line.append(item.label.padding(to: labelWidth) + "  ", labelStyle(item))
        line.append("‹ " + value + " ›", fieldStyle(isFocused: isFocused, item: item))
      case .button:
        // A long label (a recent game, a listed game) is cut to the terminal's width rather
        // than asking for a wider terminal.
        let room = max(Self.shortestButtonLabel, width - ScreenLayout.margin - line.width - 4)
        line.append(
          "< " + item.label.fitted(columns: room) + " >",
          buttonStyle(isFocused: isFocused, item: item))
      }
      if item.isEnabled {
        block.regions.append(
          HitRegion(
            row: block.lines.count, columns: start..<line.width, target: .field(index(item))))
      }
      block.append(line)
    }
    let needed = (
      ScreenLayout.neededWidth(body: block.width, buttons: shortcuts),
      block.lines.count
        + ScreenLayout.chromeHeight(
          subtitle: nil,
          buttonRows: ScreenLayout.buttonLines(
            shortcuts, width: max(1, width - ScreenLayout.margin)
          ).lines.count)
        + ([title] + notes).map {
          StyledLine.wrapping($0, width: max(1, width - ScreenLayout.margin)).count
        }
        .reduce(0, +) - 1
    )
    guard needed.0 <= width, needed.1 <= height else {
      return ScreenLayout.tooSmall(
        needed: (max(needed.0, Self.neededSize.width), max(needed.1, Self.neededSize.height)),
        width: width, height: height, question: question)
    }
    var frame = Frame()
    // A long title (a replayed game's players) wraps as the notes do.
    for line in StyledLine.wrapping(
      title, width: width - ScreenLayout.margin, style: ScreenLayout.titleStyle)
    {
      frame.append(line.indented(by: ScreenLayout.margin))
    }
    for note in notes {
      for line in StyledLine.wrapping(
        note, width: width - ScreenLayout.margin, style: ScreenLayout.subtitleStyle)
      {
        frame.append(line.indented(by: ScreenLayout.margin))
      }
    }
    frame.append("")
    frame.append(block, indent: ScreenLayout.margin)
    frame.append("")
    // A long message (a server's refusal) wraps into the rows the form leaves free.
    let style = messageIsError ? ScreenLayout.errorStyle : .plain
    let wrapped = StyledLine.wrapping(
      message ?? "", width: max(1, width - ScreenLayout.margin), style: style)
    let room = 1 + max(0, height - needed.1)
    var shown = wrapped.isEmpty ? [StyledLine("")] : Array(wrapped.prefix(room))
    if wrapped.count > room, let last = shown.popLast() {
      // What does not fit is marked, never cut silently: it may be a command to copy.
      let kept = last.text.prefix(columns: max(0, width - ScreenLayout.margin - 1))
      shown.append(StyledLine(kept + "…", style))
    }
    for line in shown {
      frame.append(line.indented(by: ScreenLayout.margin))
    }
    frame.append(
      ScreenLayout.buttonLines(shortcuts, width: width - ScreenLayout.margin),
      indent: ScreenLayout.margin)
    return frame.clipped(width: width, height: height)
  }

  private func index(_ item: FormItem) -> Int { items.firstIndex(of: item) ?? 0 }

  private func labelStyle(_ item: FormItem) -> TextStyle {
    item.isEnabled ? .plain : .dim
  }

  private func fieldStyle(isFocused: Bool, item: FormItem) -> TextStyle {
    guard item.isEnabled else { return .dim }
    return isFocused ? TextStyle(foreground: .cyan, isBold: true) : .plain
  }

  private func buttonStyle(isFocused: Bool, item: FormItem) -> TextStyle {
    guard item.isEnabled else { return .dim }
    return isFocused ? TextStyle(isBold: true, isReversed: true) : TextStyle(isBold: true)
  }
}

/// What a key on a form leads to.
public enum FormEvent: Hashable, Sendable {
  /// Nothing (the focus may have moved).
  case none
  /// A text field's new value.
  case edit(id: FormID, value: String)
  /// A choice moved by one step, -1 or 1.
  case step(id: FormID, by: Int)
  /// A button was pressed.
  case activate(id: FormID)
  /// Enter in a field or on a choice: the form's main action, as the screen defines it.
  case submit(from: FormID)
  /// A key the form does not handle: a shortcut for the screen.
  case key(Key)
}

/// Turns keys and clicks on a form into edits, steps and presses.
///
/// Tab, Shift-Tab and the up and down arrows move the focus; typing edits the focused field;
/// ← and → change a choice; Enter or Space presses a button; Enter in a field or on a choice
/// submits the form, which the screen turns into its main action.
public enum FormInput {
  /// The most characters a text field takes: more than any name (24) or password (256) may
  /// have, so that what is too long is still said so.
  public static let maximumFieldLength = 512

  /// Handles `key` on `form` laid out as `frame`; `focus` follows Tab, arrows and clicks.
  public static func handle(
    _ key: Key, form: FormScreen, frame: Frame, focus: inout FormID?
  ) -> FormEvent {
    let enabled = form.items.filter(\.isEnabled)
    let current = enabled.first { $0.id == focus }
    switch key {
    case .tab, .down:
      focus = next(after: current, in: enabled, by: 1)?.id
      return .none
    case .backTab, .up:
      focus = next(after: current, in: enabled, by: -1)?.id
      return .none
    case .mouse(let event):
      guard event.isLeftClick, let target = frame.target(row: event.row, column: event.column)
      else { return .none }
      switch target {
      case .field(let index) where form.items.indices.contains(index):
        let item = form.items[index]
        focus = item.id
        return item.kind == .button ? .activate(id: item.id) : .none
      case .key(let key):
        return .key(key)
      default:
        return .none
      }
    default:
      break
    }
    guard let current else { return .key(key) }
    switch (current.kind, key) {
    case (.text(let value, _), .character(let character)):
      // A paste of thousands of characters stops at the field's end instead of making every
      // keystroke slower than the last.
      guard value.count < maximumFieldLength else { return .none }
      return .edit(id: current.id, value: value + String(character))
    case (.text(let value, _), .paste(let text)):
      let room = maximumFieldLength - value.count
      guard room > 0, !text.isEmpty else { return .none }
      return .edit(id: current.id, value: value + text.prefix(room))
    case (.text(let value, _), .backspace):
      return value.isEmpty ? .none : .edit(id: current.id, value: String(value.dropLast()))
    case (.text(let value, _), .control("u")):
      // As in a shell, what is before the cursor goes: the whole field, typed at its end.
      return value.isEmpty ? .none : .edit(id: current.id, value: "")
    case (.text, .enter), (.choice, .enter):
      return .submit(from: current.id)
    case (.choice, .left):
      return .step(id: current.id, by: -1)
    case (.choice, .right), (.choice, .character(" ")):
      return .step(id: current.id, by: 1)
    case (.button, .enter), (.button, .character(" ")):
      return .activate(id: current.id)
    default:
      return .key(key)
    }
  }

  private static func next(after current: FormItem?, in items: [FormItem], by step: Int)
    -> FormItem?
  {
    guard !items.isEmpty else { return nil }
    guard let current, let index = items.firstIndex(of: current) else {
      return step > 0 ? items.first : items.last
    }
    return items[(index + step + items.count) % items.count]
  }
}

extension String {
  /// The text padded with spaces to `width` columns.
  func padding(to width: Int) -> String {
    columns >= width ? self : self + String(repeating: " ", count: width - columns)
  }
}
