import GameAI
import GameRules
import Testing

/// Forced wins on 15×15, k = 5 that go through open threes, not only fours.
struct ThreatSpaceTests {
  // Each win is found in a few milliseconds on an idle machine; the budget leaves room for a
  // loaded one, since the tests run beside other suites on two cores.
  let engine = Engine(timeBudget: .seconds(1))

  /// Whether `evaluation` is a win the engine has read to the end: an estimate of a win
  /// reports the empty cells as its length, a found forced win its real length.
  func isForcedWin(_ evaluation: Evaluation, on board: Board) -> Bool {
    evaluation.value == .win && evaluation.plies < board.emptyCells.count
  }

  /// Plays the engine against itself from `board` for at most `moves` moves of each side.
  func playOut(_ board: Board, moves: Int) throws -> Board {
    var board = board
    var generator = SplitMix64(seed: 3)
    for _ in 0..<2 * moves where board.outcome == .inProgress {
      let move = try #require(
        engine.bestMove(for: board, difficulty: .unbeatable, using: &generator))
      try board.play(at: move)
    }
    return board
  }

  /// Positions, X to move, that X wins through open threes.
  static let winsThroughOpenThrees = [
    // A three-three: h8 makes open threes on row 8 and on column h.
    (["f8", "g8", "h6", "h7"], ["a1", "o15", "a15", "o1"]),
    // A three first: an open three forces a reply, and a three-three or four-three follows.
    (["f4", "g5", "h7", "f8", "g8"], ["a1", "o15", "a15", "o1", "a8"]),
    // A four that forces a block, then a four-three built on an open three.
    (["d4", "e4", "f4", "h2", "h3", "j6"], ["c4", "a15", "o15", "o1", "a8", "o8"]),
  ]

  @Test(arguments: winsThroughOpenThrees)
  func findsAndPlaysAWinThroughOpenThrees(x: [String], o: [String]) throws {
    let board = try gomoku(x: x, o: o)
    let analysis = engine.analyze(board)
    #expect(isForcedWin(analysis.evaluation, on: board), "\(analysis.evaluation)")
    var generator = SplitMix64(seed: 1)
    let move = try #require(engine.bestMove(for: board, difficulty: .unbeatable, using: &generator))
    #expect(analysis.best.contains(move))
    let end = try playOut(board, moves: 8)
    #expect(end.outcome.winner == .x, "\(end.notation)")
  }

  @Test func claimsNoForcedWinFromAThreeWithBothEndsTaken() throws {
    // X: f8 g8 h8 with O on e8 and i8; the three can never become a line.
    let board = try gomoku(x: ["f8", "g8", "h8", "a1"], o: ["e8", "i8", "o15", "o1"])
    let analysis = engine.analyze(board)
    #expect(!isForcedWin(analysis.evaluation, on: board), "\(analysis.evaluation)")
  }
}
