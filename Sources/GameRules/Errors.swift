/// Why a move was refused.
///
/// A refused move changes nothing.
public enum MoveError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The cell already holds a mark.
  case occupied(Cell)
  /// The cell is not on the board.
  case outOfBounds(Cell)
  /// The game has already ended.
  case gameOver

  public var description: String {
    switch self {
    case .occupied(let cell): "\(cell.name) is taken."
    case .outOfBounds(let cell): "\(cell.name) is not on the board."
    case .gameOver: "The game is over."
    }
  }
}

/// Why a board's dimensions were refused.
public enum BoardError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Rows or columns outside 3…15.
  case sizeOutOfRange(rows: Int, columns: Int)
  /// `k` outside 3 and the longer side of the board.
  case lineLengthOutOfRange(k: Int, rows: Int, columns: Int)

  public var description: String {
    switch self {
    case .sizeOutOfRange(let rows, let columns):
      "A board of \(rows)×\(columns) is not supported; rows and columns must be 3 to \(Board.maximumSide)."
    case .lineLengthOutOfRange(let k, let rows, let columns):
      "k = \(k) does not fit a \(rows)×\(columns) board; it must be "
        + (max(rows, columns) == Board.minimumK
          ? "\(Board.minimumK)." : "\(Board.minimumK) to \(max(rows, columns)).")
    }
  }
}

/// Why a position in text notation was refused.
public enum NotationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text has no cells.
  case empty
  /// A row's length differs from the first row's.
  case raggedRows(row: Int, expected: Int, found: Int)
  /// A character other than `x`, `o` or `.`.
  case badCharacter(Character, row: Int, column: Int)
  /// The dimensions or `k` are out of range.
  case board(BoardError)
  /// The mark counts cannot arise with X moving first.
  case impossibleCounts(x: Int, o: Int)
  /// Both X and O have a line.
  case bothSidesWin
  /// The winner's opponent moved after the game was won.
  case playedAfterWin(Mark)
  /// The winner has lines that no single last move could have completed together.
  case tooManyLines(Mark)

  public var description: String {
    switch self {
    case .empty:
      "The position is empty; write rows of x, o and . separated by /."
    case .raggedRows(let row, let expected, let found):
      "Row \(row) has \(found) \(found == 1 ? "cell" : "cells") but the first row has \(expected)."
    case .badCharacter(let character, let row, let column):
      "Row \(row), column \(column) holds \"\(character)\"; cells are x, o or ."
    case .board(let error):
      error.description
    case .impossibleCounts(let x, let o):
      "The position is not reachable: X has \(x) marks and O has \(o), but X moves first, so X must have as many as O or one more."
    case .bothSidesWin:
      "The position is not reachable: both X and O have a line."
    case .playedAfterWin(let winner):
      "The position is not reachable: \(winner.opponent.symbol) moved after \(winner.symbol) had already won."
    case .tooManyLines(let winner):
      "The position is not reachable: \(winner.symbol) has lines that no single last move could complete together."
    }
  }
}
