import GameProtocol
import GameRules
import Testing

/// A finished game a server sends is listed only when its winner follows from its moves.
struct FinishedGameTests {
  private func game(_ moves: [String], winner: Mark?, k: Int = 3) -> FinishedGame {
    FinishedGame(
      id: 1, xName: "ann", oName: "bob", rows: 3, columns: 3, k: k, firstMover: .x,
      moves: moves.compactMap(Cell.init(name:)), winner: winner, startedAt: 0, endedAt: 1)
  }

  @Test func aWinnerFollowsFromTheLineOrAnEndBeforeIt() {
    let line = ["a1", "a2", "b1", "b2", "c1"]
    #expect(game(line, winner: .x).resultFollowsFromItsMoves)
    // A resignation or a forfeit before any line.
    #expect(game(["b2"], winner: .o).resultFollowsFromItsMoves)
    let full = ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"]
    #expect(game(full, winner: nil).resultFollowsFromItsMoves)
  }

  @Test func aWinnerTheMovesContradictDoesNotFollow() {
    let line = ["a1", "a2", "b1", "b2", "c1"]
    #expect(!game(line, winner: .o).resultFollowsFromItsMoves)
    #expect(!game(line, winner: nil).resultFollowsFromItsMoves)
    // A draw before the board is full, a cell played twice, a board that cannot be.
    #expect(!game(["b2"], winner: nil).resultFollowsFromItsMoves)
    #expect(!game(["b2", "b2"], winner: .x).resultFollowsFromItsMoves)
    #expect(!game(["b2"], winner: .x, k: 9).resultFollowsFromItsMoves)
  }
}
