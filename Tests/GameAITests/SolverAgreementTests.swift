import GameAI
import GameRules
import Testing

/// The search used beyond 3×3 (pruning, symmetries, threat shortcuts) must give exactly what a
/// plain minimax gives, move by move.
struct SolverAgreementTests {
  static let shapes: [(rows: Int, columns: Int, k: Int, marks: Int)] = [
    (3, 4, 3, 4), (4, 3, 3, 3), (4, 4, 4, 8), (4, 4, 3, 9), (3, 5, 3, 6), (5, 5, 4, 17),
  ]

  @Test(arguments: shapes.indices)
  func analysisMatchesPlainMinimax(shape: Int) throws {
    let (rows, columns, k, marks) = SolverAgreementTests.shapes[shape]
    let engine = Engine(timeBudget: .seconds(30))
    let oracle = Oracle()
    var generator = SplitMix64(seed: UInt64(shape))
    var compared = 0
    for _ in 0..<12 {
      var board = try Board(rows: rows, columns: columns, k: k)
      while board.markCount < marks, board.outcome == .inProgress {
        try board.play(at: try #require(board.emptyCells.randomElement(using: &generator)))
      }
      guard board.outcome == .inProgress else { continue }
      let analysis = engine.analyze(board)
      #expect(analysis.evaluation == (try oracle.evaluation(of: board)), "\(board)")
      for move in analysis.moves {
        #expect(
          move.evaluation == (try oracle.moveEvaluation(of: move.cell, on: board)),
          "\(board) \(move.cell)")
      }
      compared += 1
    }
    #expect(compared > 0)
  }
}

struct UnusualShapeTests {
  @Test func longLinesOnNarrowBoardsAreHandled() throws {
    var board = try Board(rows: 3, columns: 15, k: 15)
    for name in ["a1", "a2", "b1", "b2"] { try board.play(at: try #require(Cell(name: name))) }
    let analysis = Engine(timeBudget: .milliseconds(200)).analyze(board)
    #expect(analysis.moves.count == 41)
    var generator = SplitMix64(seed: 2)
    for difficulty in [Difficulty.easy, .unbeatable] {
      let move = Engine(timeBudget: .milliseconds(200)).bestMove(
        for: board, difficulty: difficulty, using: &generator)
      #expect(move.map(board.isLegal) == true)
    }
  }

  @Test func firstMoverOIsAnalysedFromOsSide() throws {
    var board = try Board(rows: 3, columns: 3, k: 3, firstMover: .o)
    for name in ["a1", "b2", "b1"] { try board.play(at: try #require(Cell(name: name))) }
    // O holds a1 and b1, X b2; X to move must block c1.
    #expect(board.toMove == .x)
    let analysis = Engine().analyze(board)
    #expect(analysis.best == [try #require(Cell(name: "c1"))])
    let counts = try Enumeration.count(try Board(rows: 3, columns: 3, k: 3, firstMover: .o))
    #expect(counts.positions == 5_478)
    #expect(counts.oWinPositions == 626)
    #expect(counts.xWinGames == 77_904)
  }
}
