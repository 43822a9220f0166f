public import GameRules

/// What a key or click asks of the game screen.
public enum GameCommand: Hashable, Sendable {
  /// Move the cursor by rows and columns.
  case moveCursor(rows: Int, columns: Int)
  /// Play where the cursor is.
  case playAtCursor
  /// Play in a cell (a click).
  case play(Cell)
  /// A digit, which names a cell of a 3×3 board.
  case digit(Int)
  /// The game's commands; `analysis` shows or hides every empty cell's value, `newGame` also
  /// plays again, `quit` asks while a game is in progress, `confirm` and `cancel` answer a
  /// question (or close an overlay).
  case undo, redo, hint, analysis, newGame, quit, toggleHelp, confirm, cancel
}

/// The game screen's keys.
///
/// Arrows, `w` `a` `s` `d` and `k` `j` `l` move the cursor; `h` asks for a hint (so it does
/// not also move left). Digits 1–9 pick the cells of a 3×3 board in reading order.
public enum GameKeys {
  /// The command for `key` on a game screen laid out as `frame`: a click on a cell plays it, a
  /// click on a key in the footer is that key; `nil` if it means nothing there.
  public static func command(for key: Key, frame: Frame) -> GameCommand? {
    guard case .mouse(let event) = key else { return command(for: key) }
    guard event.isLeftClick, let target = frame.target(row: event.row, column: event.column)
    else { return nil }
    switch target {
    case .cell(let cell): return .play(cell)
    case .key(let key): return command(for: key)
    case .field: return nil
    }
  }

  /// The command for `key`, or `nil` if it means nothing on the game screen.
  public static func command(for key: Key) -> GameCommand? {
    switch key {
    case .up: .moveCursor(rows: -1, columns: 0)
    case .down: .moveCursor(rows: 1, columns: 0)
    case .left: .moveCursor(rows: 0, columns: -1)
    case .right: .moveCursor(rows: 0, columns: 1)
    case .enter: .playAtCursor
    case .escape: .cancel
    case .f1: .toggleHelp
    case .character(let character): command(for: character)
    case .mouse, .home, .end, .pageUp, .pageDown, .insert, .delete, .tab, .backTab, .backspace,
      .control, .paste, .unknown:
      nil
    }
  }

  private static func command(for character: Character) -> GameCommand? {
    if let digit = character.wholeNumberValue, character.isASCII { return .digit(digit) }
    switch character.lowercased() {
    case "w", "k": return .moveCursor(rows: -1, columns: 0)
    case "s", "j": return .moveCursor(rows: 1, columns: 0)
    case "a": return .moveCursor(rows: 0, columns: -1)
    case "d", "l": return .moveCursor(rows: 0, columns: 1)
    case " ": return .playAtCursor
    case "u": return .undo
    case "r": return .redo
    case "h": return .hint
    case "e": return .analysis
    case "n": return .newGame
    case "q": return .quit
    case "?": return .toggleHelp
    case "y": return .confirm
    default: return nil
    }
  }

  /// The cursor moved by `rows` and `columns`, kept on a board of `rows` × `columns` cells.
  public static func moving(
    _ cursor: Cell, rows deltaRows: Int, columns deltaColumns: Int, boardRows: Int,
    boardColumns: Int
  ) -> Cell {
    Cell(
      row: min(max(cursor.row + deltaRows, 0), boardRows - 1),
      column: min(max(cursor.column + deltaColumns, 0), boardColumns - 1))
  }

  /// The help overlay's first lines, the same for local and online games: the keys that move
  /// the cursor and play.
  static let playingKeys: [String] = [
    "Keys",
    "",
    "  ← ↑ → ↓, w a s d, k j l   move the cursor",
    "  Enter or Space            play where the cursor is",
    "  1 – 9                     play a cell of a 3×3 board",
    "  mouse click               play a cell or press a button",
  ]

  /// The help overlay's lines: the keys, then what the marks around a cell mean.
  public static let help: [String] =
    playingKeys + [
      "  u  undo        r  redo    h  hint",
      "  e  analysis: every empty cell's value",
      "  n  new game / play again",
      "  q  quit (asks while a game is on)",
      "  ?, F1  show or hide this help",
      "  Ctrl-Z  suspend    Ctrl-C  leave at once",
      "",
      "Marks: [X] the cursor, (X) the last move, <X> the winning line,",
      "       + the hint",
    ]
}
