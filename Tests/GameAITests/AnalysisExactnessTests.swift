import GameRules
import Testing

@testable import GameAI

/// Which values of a large board's analysis are proven: those the searches proved, and the
/// position's where they settle it.
struct AnalysisExactnessTests {
  /// The facts of three moves of a 15×15 position, each with the estimating search's score.
  private func analysis(_ scores: [Int]) throws -> Analysis {
    let board = try gomoku(x: ["g7", "h8", "i8", "i9"], o: ["a1", "o1", "a15"])
    let cells = ["f6", "j10", "h7"].compactMap(Cell.init(name:))
    let facts = zip(cells, scores).map { cell, score in
      Engine.MoveFacts(cell: cell, proven: nil, isSafe: false, estimate: score)
    }
    return Engine.examination(board, facts, moverCannotWin: false).analysis
  }

  @Test func everyMoveProvenLostMakesThePositionAProvenLoss() throws {
    let all = try analysis([Score.loss(in: 14), Score.loss(in: 12), Score.loss(in: 4)])
    // The lines were found, perhaps not the fastest: the loss comes in at most 14 plies.
    #expect(all.evaluation == Evaluation(value: .loss, plies: 14, isFastest: false))
    #expect(all.moves.allSatisfy { $0.evaluation.isExact })
    #expect(all.best.map(\.name) == ["f6"])
  }

  @Test func oneMoveOnlyEstimatedLeavesThePositionAnEstimate() throws {
    let some = try analysis([Score.loss(in: 14), -40, Score.loss(in: 4)])
    #expect(!some.evaluation.isExact)
    #expect(some.moves.map(\.evaluation.isExact) == [true, false, true])
    #expect(some.moves[1].evaluation.description == "draw (estimate)")
  }

  @Test func aProvenWinSettlesThePositionWhateverTheRest() throws {
    let win = try analysis([-40, Score.win(in: 3), 10])
    #expect(win.evaluation == Evaluation(value: .win, plies: 3, isFastest: false))
    #expect(win.best.map(\.name) == ["j10"])
  }
}

/// Where a quick forced win and a slow one both exist, Unbeatable plays the quick one.
struct QuickWinTests {
  /// 9×9, three in a row, X on e5 and O on a1, X to move: d4 (and its like) makes two threats
  /// at once and wins in 3 plies; c3 starts a forced chain of 9.
  @Test func unbeatablePlaysTheWinInThree() throws {
    let board = try Board(
      notation: "o......../........./........./........./....x..../........./........./"
        + "........./.........", k: 3)
    let engine = Engine(timeBudget: .seconds(1))
    var generator = SplitMix64(seed: 7)
    let move = try #require(
      engine.bestMove(for: board, difficulty: .unbeatable, using: &generator))
    let after = try board.playing(at: move)
    let reply = engine.analyze(after)
    #expect(reply.evaluation.value == .loss, "\(move.name)")
    #expect(reply.evaluation.plies <= 2, "\(move.name): \(reply.evaluation)")
  }
}
