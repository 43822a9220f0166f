import GameRules
import Testing

@testable import GameAI

/// The proof-number search of "can the side to move force a line?", against the exact
/// searches.
struct WinSearchTests {
  /// The plies of the side to move's fastest win, by the exact search, or `nil` when it
  /// cannot win.
  func exactWin(_ board: Board, engine: Engine) -> Int? {
    let exact = engine.exactScores(board, deadline: nil, progress: nil)
    let top = exact.scores.compactMap(\.score).max() ?? 0
    return top >= Score.provenThreshold ? Score.mate - top : nil
  }

  @Test func agreesWithMinimaxOnEveryPositionOfThreeByThree() throws {
    let oracle = Oracle()
    var wins = 0
    var compared = 0
    for board in Board.classic.reachablePositions().map(\.board) where board.outcome == .inProgress
    {
      let proof = Engine.proveWin(board, tableBits: 8, fastest: true)
      let expected = try oracle.evaluation(of: board)
      #expect(proof.moverWins == (expected.value == .win), "\(board.notation)")
      #expect(proof.plies == (expected.value == .win ? expected.plies : nil), "\(board.notation)")
      if expected.value == .win { wins += 1 }
      compared += 1
    }
    #expect(compared == 4_520)
    #expect(wins > 1_000 && wins < compared - 1_000)
  }

  // About a dozen empty cells each, so that the exact search stays cheap.
  static let shapes: [(rows: Int, columns: Int, k: Int, marks: Int)] = [
    (4, 4, 4, 4), (4, 5, 4, 7), (5, 5, 4, 12), (4, 6, 4, 11), (4, 7, 4, 14), (4, 8, 4, 18),
    (4, 9, 4, 22), (6, 5, 4, 17), (5, 5, 3, 12), (6, 6, 5, 22), (3, 4, 3, 3), (4, 4, 3, 5),
  ]

  @Test(arguments: shapes.indices)
  func agreesWithTheExactSearch(shape: Int) throws {
    let (rows, columns, k, marks) = WinSearchTests.shapes[shape]
    var generator = SplitMix64(seed: UInt64(700 + shape))
    var compared = 0
    let engine = Engine()
    for _ in 0..<24 {
      guard
        let board = try randomPosition(
          rows: rows, columns: columns, k: k, marks: marks, using: &generator)
      else { continue }
      let proof = Engine.proveWin(board, tableBits: 14, fastest: true)
      let expected = exactWin(board, engine: engine)
      #expect(proof.moverWins == (expected != nil), "\(board.notation)")
      #expect(proof.plies == expected, "\(board.notation)")
      compared += 1
    }
    #expect(compared >= 8)
  }

  @Test(arguments: [0, 2, 3])
  func provenMovesThroughTheProofNumberSearchGiveTheExactScores(shape: Int) throws {
    // With no budget for the depth-first prover, every real-game question of the move proofs
    // goes to the proof-number search; value and length must still be the exact ones.
    try ProofTests.expectExactProofs(shape: shape, seed: UInt64(900 + shape)) { engine, board in
      engine.provenMoves(
        board, deadline: nil, fastest: true, proofNumberBits: 14, depthFirstBudget: 0)
    }
  }

  @Test func sixByFiveIsAFirstPlayerWin() throws {
    // A known value (the exact solve in the benchmark): a first-player win in 11 plies.
    let win = Engine.proveWin(try Board(rows: 6, columns: 5, k: 4), tableBits: 18)
    #expect(win.moverWins == true)
    #expect(win.proof == 0)
  }

  @Test func aNodeLimitStopsTheSearchWithoutAnAnswer() throws {
    let proof = Engine.proveWin(
      try Board(rows: 6, columns: 5, k: 4), tableBits: 14, nodeLimit: 100)
    #expect(proof.moverWins == nil)
    #expect(proof.nodes <= 101)
  }
}
