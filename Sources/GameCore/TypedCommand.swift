package import GameRules

/// One line typed in plain mode, as the game reads it.
package enum TypedCommand: Equatable {
  /// A move by name, such as `b2`; the board checks that it is on the board.
  case cell(Cell)
  /// A digit: 1 to 9 name the cells of a 3×3 board.
  case digit(Int)
  /// The game's commands: `analysis` is every empty cell's value, `newGame` also plays again,
  /// `board` shows the board again, `nothing` is an empty line.
  case undo, redo, hint, analysis, newGame, quit, help, board, nothing
  /// Anything else, as typed (trimmed).
  case unknown(String)

  /// Parses a line.
  package init(_ line: String) {
    let text = line.trimmingWhitespace()
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
      if lowered.count == 1, let digit = Int(lowered), (1...9).contains(digit) {
        self = .digit(digit)
      } else if let cell = Cell(name: lowered) {
        self = .cell(cell)
      } else {
        self = .unknown(text)
      }
    }
  }
}
