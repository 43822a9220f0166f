import GameAI
import GameRules
import Synchronization
import Testing

/// A 15×15, k = 5 board after X and O play their cells alternately, X first.
func gomoku(x: [String], o: [String]) throws -> Board {
  var board = try Board(rows: 15, columns: 15, k: 5)
  for index in 0..<max(x.count, o.count) {
    if index < x.count { try board.play(at: try #require(Cell(name: x[index]))) }
    if index < o.count { try board.play(at: try #require(Cell(name: o[index]))) }
  }
  return board
}

struct LargeBoardTests {
  // The tactics are found in milliseconds on an idle machine; the budget leaves room for a
  // loaded one.
  let engine = Engine(timeBudget: .seconds(1))

  func move(_ board: Board) throws -> String {
    #expect(board.toMove == .x)
    var generator = SplitMix64(seed: 5)
    return try #require(engine.bestMove(for: board, difficulty: .unbeatable, using: &generator))
      .name
  }

  @Test func theSearchReportsWhatItSawOfTheMoveItChose() throws {
    // A quiet position: the move comes from the deepening search, with an estimate.
    let quiet = try gomoku(x: ["h8", "j9"], o: ["i9", "g7"])
    var generator = SplitMix64(seed: 5)
    let chosen = try #require(
      engine.chooseMove(
        for: quiet, difficulty: .unbeatable, budget: .milliseconds(300), using: &generator))
    let search = try #require(chosen.search)
    #expect(search.depth >= 2 && search.nodes > 1_000, "\(search)")
    #expect(!search.evaluation.isExact && search.estimate != nil, "\(search)")
    #expect(abs(search.estimate ?? .max) < 600)
    #expect(quiet[chosen.cell] == nil)
    // A forced win: the report says it is proven, and in how many plies.
    let win = try gomoku(x: ["g8", "h8", "i8"], o: ["a1", "o15", "a15"])
    let winning = try #require(
      engine.chooseMove(
        for: win, difficulty: .unbeatable, budget: .milliseconds(300), using: &generator))
    let proof = try #require(winning.search)
    #expect(proof.estimate == nil && proof.evaluation.isExact, "\(proof)")
    #expect(proof.evaluation.value == .win && proof.evaluation.plies == 3, "\(proof)")
    // The lower levels and 3×3 have no search to report.
    let human = engine.chooseMove(
      for: quiet, difficulty: .medium, budget: .milliseconds(100), using: &generator)
    #expect(human != nil && human?.search == nil)
    let classic = engine.chooseMove(
      for: try Board(rows: 3, columns: 3, k: 3), difficulty: .unbeatable,
      budget: .milliseconds(100), using: &generator)
    #expect(classic != nil && classic?.search == nil)
  }

  @Test func fixturesHaveXToMove() throws {
    #expect(try gomoku(x: ["a1"], o: ["b1"]).toMove == .x)
  }

  @Test func takesAWinInOne() throws {
    // X: h8 i8 j8 k8, blocked at g8 by O; l8 wins.
    let board = try gomoku(
      x: ["h8", "i8", "j8", "k8", "c3"], o: ["g8", "a1", "o15", "a15", "a8"])
    #expect(try move(board) == "l8")
  }

  @Test func blocksALossInOne() throws {
    // O: e5 f5 g5 h5 with d5 blocked by X; X must take i5.
    let board = try gomoku(x: ["d5", "m12", "n3", "b14"], o: ["e5", "f5", "g5", "h5"])
    #expect(try move(board) == "i5")
  }

  @Test func makesAnOpenFour() throws {
    // X: g8 h8 i8 open at both ends; f8 or j8 makes a four O cannot stop.
    let board = try gomoku(x: ["g8", "h8", "i8"], o: ["a1", "o15", "a15"])
    #expect(["f8", "j8"].contains(try move(board)))
  }

  @Test func playsAFourThreeFork() throws {
    // X: d4 e4 f4 (row 4, blocked at c4) and h2 h3 (column h); g4 would make a closed four,
    // h4 a four on row 4 and an open three on column h.
    let board = try gomoku(
      x: ["d4", "e4", "f4", "h2", "h3"], o: ["c4", "a15", "o15", "o1", "a8"])
    let chosen = try move(board)
    let after = try board.playing(at: try #require(Cell(name: chosen)))
    let analysis = engine.analyze(after)
    #expect(chosen == "h4")
    #expect(analysis.evaluation.value == .loss, "after \(chosen): \(analysis.evaluation)")
  }

  @Test func defusesAFourThreeForkBeforeItIsPlayed() throws {
    // O: d4 e4 f4 (blocked at c4) and h2 h3; O's h4 would make a four and an open three.
    // X's e3 and e5 take away O's other attacks, so that only g4 and h4 save X.
    let board = try gomoku(
      x: ["c4", "e3", "e5", "a15", "o15"], o: ["d4", "e4", "f4", "h2", "h3"])
    let chosen = try move(board)
    let after = try board.playing(at: try #require(Cell(name: chosen)))
    let reply = engine.analyze(after)
    // A proven win reports its length; an estimate reports the empty cells.
    let provenWin =
      reply.evaluation.value == .win && reply.evaluation.plies < after.emptyCells.count
    #expect(!provenWin, "after \(chosen): \(reply.evaluation)")
  }

  @Test func searchStopsSoonAfterCancellation() async throws {
    // A thread that the scheduler happens to pause on a busy machine also reads as a slow stop,
    // so the best of three tries must be under 50 ms; a search that ignored cancellation would
    // run on for its whole 60-second budget every time.
    var delays: [Duration] = []
    for attempt in 0..<3 {
      let (move, delay, board) = try await cancelledSearch(seed: UInt64(9 + attempt))
      #expect(move.map(board.isLegal) == true)
      delays.append(delay)
      if delay < .milliseconds(50) { break }
    }
    #expect(try #require(delays.min()) < .milliseconds(50), "\(delays)")
  }

  /// Starts a long search on 15×15, cancels it after 300 ms and returns how long it took to stop.
  private func cancelledSearch(seed: UInt64) async throws -> (Cell?, Duration, Board) {
    let slow = Engine(timeBudget: .seconds(60))
    let board = try gomoku(x: ["h8", "i9"], o: ["h9", "g7"])
    let clock = ContinuousClock()
    let cancelledAt = Mutex<ContinuousClock.Instant?>(nil)
    // The search measures its own stop, so a busy test runner cannot delay the reading.
    let task = Task.detached {
      var generator = SplitMix64(seed: seed)
      let move = slow.bestMove(for: board, difficulty: .unbeatable, using: &generator)
      let stopped = clock.now
      return (move, cancelledAt.withLock { $0 }.map { stopped - $0 })
    }
    try await Task.sleep(for: .milliseconds(300))
    cancelledAt.withLock { $0 = clock.now }
    task.cancel()
    let (move, delay) = await task.value
    return (move, try #require(delay), board)
  }

  @Test func largeBoardAnalysisIsMarkedAsAnEstimate() throws {
    let board = try gomoku(x: ["h8"], o: ["h9"])
    let analysis = engine.analyze(board)
    #expect(!analysis.evaluation.isExact)
    #expect(analysis.moves.count == 223)
    #expect(analysis.best.allSatisfy(board.isLegal))
  }

  @Test func aWinTheSearchProvesIsExactOnALargeBoard() throws {
    // X completes five at e1; O's four on row 2 comes too late.
    let board = try gomoku(x: ["a1", "b1", "c1", "d1"], o: ["a2", "b2", "c2", "d2"])
    let analysis = engine.analyze(board)
    let e1 = try #require(analysis.moves.first { $0.cell.name == "e1" })
    #expect(e1.evaluation == Evaluation(value: .win, plies: 1))
    #expect(analysis.evaluation == Evaluation(value: .win, plies: 1))
    #expect(analysis.best.map(\.name) == ["e1"])
    // A move elsewhere lets O complete five at e2: a proven loss in 2.
    let elsewhere = try #require(analysis.moves.first { $0.cell.name == "h8" })
    #expect(elsewhere.evaluation == Evaluation(value: .loss, plies: 2))
  }

  @Test func theDeepeningAloneReadsToItsDepthAndNoFurther() throws {
    // X's open three on f8 g8 h8 becomes an open four at e8 or i8: a win in 3 plies, which
    // the deepening alone finds once it reads 3 plies, with no threat search at the root.
    let board = try gomoku(x: ["f8", "g8", "h8", "c3"], o: ["a1", "o15", "a15", "o1"])
    let deep = Engine.deepen(board, to: 3)
    #expect(["e8", "i8"].contains(deep.move.name), "\(deep.move)")
    #expect(deep.score > 900, "\(deep.score)")
    // A quiet position read to 1 ply and to 4: an estimate both times, and more positions
    // for the deeper read, the same for the same depth.
    let quiet = try gomoku(x: ["h8", "j9"], o: ["i9", "g7"])
    let shallow = Engine.deepen(quiet, to: 1)
    let deeper = Engine.deepen(quiet, to: 4)
    #expect(abs(shallow.score) < 600 && abs(deeper.score) < 600)
    #expect(shallow.nodes < deeper.nodes, "\(shallow.nodes) and \(deeper.nodes)")
    #expect(Engine.deepen(quiet, to: 4).nodes == deeper.nodes)
    #expect(quiet[deeper.move] == nil)
  }
}
