import GameAI
import GameRules
import Testing

/// The guard behind Unbeatable on boards of up to 64 cells: the moves it proves to hold, by
/// a search bounded in positions rather than time, keep the opponent off every line.
struct GuardTests {
  /// Plays Unbeatable at `budget` against `opponent` from `board`, checking after each of
  /// Unbeatable's moves, with a separate engine and an unbounded search under the real rules,
  /// that the opponent cannot force a line.
  ///
  /// - Returns: The finished board.
  func play(
    _ board: Board, unbeatableIs side: Mark, against opponent: Difficulty, budget: Duration,
    seed: UInt64, checksEveryMove: Bool
  ) throws -> Board {
    let engine = Engine(timeBudget: budget)
    let checker = Engine()
    var generator = SplitMix64(seed: seed)
    var board = board
    while board.outcome == .inProgress {
      let isUnbeatable = board.toMove == side
      let move = try #require(
        engine.bestMove(
          for: board, difficulty: isUnbeatable ? .unbeatable : opponent, using: &generator))
      try board.play(at: move)
      if isUnbeatable && checksEveryMove && board.outcome == .inProgress {
        #expect(
          checker.sideToMoveCannotWin(board) == true,
          "after \(move.name): \(board.notation), seed \(seed)")
      }
    }
    return board
  }

  @Test(arguments: [Mark.x, .o])
  func unbeatableAtATinyBudgetNeverLosesOnSixBySix(side: Mark) throws {
    // 6×6 with five in a row is a draw. A millisecond a move is far too little for the
    // proofs that run against the clock: only the guard stands between Unbeatable and a loss.
    let start = try Board(rows: 6, columns: 6, k: 5)
    for seed in 0..<3 {
      let board = try play(
        start, unbeatableIs: side, against: .hard, budget: .milliseconds(1),
        seed: UInt64(seed), checksEveryMove: true)
      #expect(board.outcome.winner != side.opponent, "\(board.notation), seed \(seed)")
    }
  }

  @Test(arguments: [Mark.x, .o])
  func unbeatableAtATinyBudgetNeverLosesOnSevenBySeven(side: Mark) throws {
    let start = try Board(rows: 7, columns: 7, k: 5)
    for (seed, opponent) in [Difficulty.hard, .medium, .unbeatable].enumerated() {
      let board = try play(
        start, unbeatableIs: side, against: opponent, budget: .milliseconds(1),
        seed: UInt64(10 + seed), checksEveryMove: false)
      #expect(board.outcome.winner != side.opponent, "\(board.notation), seed \(seed)")
    }
  }

  @Test func everyMoveTheGuardGivesHoldsFromRandomOpenings() throws {
    // Positions a few random moves in, where the side to move may already be lost: each move
    // the guard claims must leave the opponent unable to force a line.
    var generator = SplitMix64(seed: 77)
    let checker = Engine()
    var claims = 0
    var positions = 0
    while positions < 12 {
      guard
        let board = try randomPosition(
          rows: 6, columns: 6, k: 5, marks: 3 + positions % 6, using: &generator)
      else { continue }
      positions += 1
      let engine = Engine(timeBudget: .milliseconds(1))
      for index in engine.guardedMoves(board) {
        let after = try board.playing(at: Cell(row: index / 6, column: index % 6))
        if after.outcome != .inProgress {
          #expect(after.outcome.winner != after.toMove)
          continue
        }
        claims += 1
        #expect(checker.sideToMoveCannotWin(after) == true, "\(after.notation)")
      }
    }
    #expect(claims > 20)
  }

  @Test func theGuardFindsNoHoldingMoveWhereTheOpponentHasTwoFours() throws {
    // O: a1–d1 and a1–a4, each one move from five (e1, a5); X, with no four of its own,
    // cannot block both.
    var board = try Board(rows: 6, columns: 6, k: 5)
    let moves = [
      "f6", "a1", "f4", "b1", "d6", "c1", "e3", "d1", "c5", "a2", "f2", "a3", "b6", "a4",
    ]
    for name in moves {
      try board.play(at: try #require(Cell(name: name)))
    }
    #expect(board.toMove == .x)
    #expect(Engine().guardedMoves(board).isEmpty, "\(board.notation)")
  }
}
