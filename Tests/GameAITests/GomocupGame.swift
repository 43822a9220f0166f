import GameRules

/// A game of 15×15 freestyle written as the Gomocup protocol writes moves: `x,y` pairs
/// separated by spaces, x the column and y the row, counted from 0.
struct GomocupGame {
  let moves: String

  init(_ moves: String) { self.moves = moves }

  /// The board after the game's first `count` stones.
  func board(after count: Int) throws -> Board {
    var board = try Board(rows: 15, columns: 15, k: 5)
    for stone in moves.split(separator: " ").prefix(count) {
      let xy = stone.split(separator: ",").compactMap { Int($0) }
      try board.play(at: Cell(row: xy[1], column: xy[0]))
    }
    return board
  }
}
