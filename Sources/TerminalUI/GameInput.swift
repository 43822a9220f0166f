public import GameRules

/// What a key or click asks of the game screen.
public enum GameCommand: Hashable, Sendable {
  /// Move the cursor by rows and columns.
  case moveCursor(rows: Int, columns: Int)
  /// Play where the cursor is.
  case playAtCursor
  /// Play in a cell (a digit on 3×3, a click).
  case play(Cell)
  case undo
  case redo
  case hint
  /// Show or hide every empty cell's value.
  case analysis
  /// A new game, or play again after one ends.
  case newGame
  /// Leave the game (confirmed while it is in progress).
  case quit
  /// Show or hide the help.
  case toggleHelp
  /// Answer yes to a question such as "Quit this game?".
  case confirm
  /// Answer no, or close an overlay.
  case cancel
  /// Leave the program at once: Ctrl-C, Ctrl-D.
  case exit
}

/// The game screen's keys.
///
/// Arrows, `w` `a` `s` `d` and `k` `j` `l` move the cursor; `h` asks for a hint (so it does
/// not also move left). Digits 1–9 pick the cells of a 3×3 board in reading order.
public enum GameKeys {
  /// The command for `key` on a board of `rows` × `columns`, or `nil` if it means nothing here.
  public static func command(for key: Key, rows: Int, columns: Int) -> GameCommand? {
    switch key {
    case .up: return .moveCursor(rows: -1, columns: 0)
    case .down: return .moveCursor(rows: 1, columns: 0)
    case .left: return .moveCursor(rows: 0, columns: -1)
    case .right: return .moveCursor(rows: 0, columns: 1)
    case .enter: return .playAtCursor
    case .escape: return .cancel
    case .interrupt, .endOfInput: return .exit
    case .character(let character):
      return command(for: character, rows: rows, columns: columns)
    case .mouse, .home, .end, .pageUp, .pageDown, .insert, .delete, .tab, .backTab, .backspace,
      .control, .unknown:
      return nil
    }
  }

  private static func command(for character: Character, rows: Int, columns: Int) -> GameCommand? {
    if let digit = character.wholeNumberValue, character.isASCII,
      let cell = PlainCommand.cell(forDigit: digit, rows: rows, columns: columns)
    {
      return .play(cell)
    }
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

  /// The help overlay's lines.
  public static let help: [String] = [
    "Keys",
    "",
    "  ← ↑ → ↓, w a s d, k j l   move the cursor",
    "  Enter or Space            play where the cursor is",
    "  1 – 9                     play a cell of a 3×3 board",
    "  mouse click               play a cell or press a button",
    "  u  undo        r  redo    h  hint",
    "  e  analysis: every empty cell's value",
    "  n  new game / play again",
    "  q  quit (asks while a game is on)",
    "  ?  show or hide this help",
    "  Ctrl-C  leave at once",
  ]
}

/// One line typed in plain mode.
public enum PlainCommand: Hashable, Sendable {
  /// A move: `b2`, or `5` on a 3×3 board.
  case play(Cell)
  case undo
  case redo
  case hint
  /// Every empty cell's value.
  case analysis
  /// A new game, or play again.
  case newGame
  case quit
  case help
  /// Show the board again.
  case board
  /// An empty line.
  case nothing
  /// Anything else, as typed (trimmed).
  case unknown(String)

  /// Parses a line for a board of `rows` × `columns`.
  ///
  /// Cell names are checked against the board by the game, not here, so `z9` is a move that the
  /// game refuses with its own sentence.
  public init(parsing line: String, rows: Int, columns: Int) {
    let text = String(line.filter { $0 != "\r" }).trimmingWhitespace()
    let lowered = text.lowercased()
    switch lowered {
    case "": self = .nothing
    case "u", "undo": self = .undo
    case "r", "redo": self = .redo
    case "h", "hint": self = .hint
    case "e", "analysis", "analyze", "values": self = .analysis
    case "n", "new", "new game", "again", "play again": self = .newGame
    case "q", "quit", "exit": self = .quit
    case "?", "help": self = .help
    case "b", "board", "show": self = .board
    default:
      if let digit = Int(lowered),
        let cell = Self.cell(forDigit: digit, rows: rows, columns: columns)
      {
        self = .play(cell)
      } else if let cell = Cell(name: lowered) {
        self = .play(cell)
      } else {
        self = .unknown(text)
      }
    }
  }

  /// The cell a digit 1–9 names on a 3×3 board, in reading order; `nil` on other boards.
  public static func cell(forDigit digit: Int, rows: Int, columns: Int) -> Cell? {
    guard rows == 3, columns == 3, (1...9).contains(digit) else { return nil }
    return Cell(row: (digit - 1) / 3, column: (digit - 1) % 3)
  }
}
