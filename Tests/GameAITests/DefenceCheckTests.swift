import GameRules
import Testing

@testable import GameAI

/// The root's check of moves against the opponent's forced wins through threats.
struct DefenceCheckTests {
  /// Only the moves shown to lose are dropped.
  ///
  /// O, not to move, has an open three on row 8; X's moves are e8, which stops it, then 30
  /// cells far from every stone, which do not. The check reaches only its first 24 moves:
  /// e8 is safe, the 23 far cells it reached are shown to lose and dropped, and the 7 it
  /// did not reach are set aside, not dropped, since a move not checked may still hold.
  @Test func dropsOnlyTheMovesShownToLose() throws {
    let board = try gomoku(x: ["a1", "o15", "a15", "o1"], o: ["f8", "g8", "h8", "m3"])
    let columns = board.columns
    func index(_ name: String) throws -> Int {
      let cell = try #require(Cell(name: name))
      return cell.row * columns + cell.column
    }
    let far = try (3...12).flatMap { column in
      try ["13", "12", "2"].map { row in
        try index(String(UnicodeScalar(UInt8(96 + column))) + row)
      }
    }
    #expect(far.count == 30)
    let moves = [try index("e8")] + far
    let split = try #require(ChainOfFoursTests.withThreats(board) { $0.defences(among: moves) })
    #expect(split.safe == [try index("e8")])
    #expect(split.unchecked == Array(far.suffix(7)))
  }

  /// Where the opponent has no forced win through threats, every move is safe.
  @Test func keepsEveryMoveWithoutAThreat() throws {
    let board = try gomoku(x: ["a1", "o15", "a15", "o1"], o: ["f8", "h6", "c3", "m12"])
    let moves = Array(100..<140)
    let split = try #require(ChainOfFoursTests.withThreats(board) { $0.defences(among: moves) })
    #expect(split.safe == moves)
    #expect(split.unchecked.isEmpty)
  }
}
