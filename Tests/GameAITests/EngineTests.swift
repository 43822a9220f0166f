import GameAI
import GameRules
import Synchronization
import Testing

/// Collects progress reports from a solve.
final class Reports: Sendable {
  private let storage = Mutex<[SolveProgress]>([])
  func append(_ report: SolveProgress) { storage.withLock { $0.append(report) } }
  var all: [SolveProgress] { storage.withLock { $0 } }
}

@Suite(.serialized)
struct EngineTests {
  let engine = Engine()

  @Test func analysisAgreesWithPlainMinimaxOnEveryReachablePosition() throws {
    let oracle = Oracle()
    for position in Board.classic.reachablePositions().map(\.board) {
      let analysis = engine.analyze(position)
      #expect(analysis.evaluation == (try oracle.evaluation(of: position)), "\(position)")
      #expect(
        analysis.moves.map(\.cell) == position.emptyCells.filter { _ in !position.outcome.isOver })
      for move in analysis.moves {
        #expect(
          move.evaluation == (try oracle.moveEvaluation(of: move.cell, on: position)),
          "\(position) \(move.cell)")
      }
      let best = analysis.moves.filter { $0.evaluation == analysis.evaluation }.map(\.cell)
      #expect(analysis.best == best, "\(position)")
    }
  }

  @Test func finishedPositionsHaveNoMovesAndZeroPlies() throws {
    let won = engine.analyze(try board("xxx/oo./..."))
    #expect(won.evaluation == Evaluation(value: .loss, plies: 0))
    #expect(won.moves.isEmpty && won.best.isEmpty)
    let drawn = engine.analyze(try board("xox/xoo/oxx"))
    #expect(drawn.evaluation == Evaluation(value: .draw, plies: 0))
    #expect(drawn.moves.isEmpty)
  }

  @Test func emptyBoardIsADrawInNinePlies() {
    let analysis = engine.analyze(.classic)
    #expect(analysis.evaluation == Evaluation(value: .draw, plies: 9))
    #expect(analysis.best.count == 9)
  }

  @Test func afterAnXCornerOnlyTheCentreHolds() throws {
    for corner in ["a1", "c1", "a3", "c3"] {
      let position = try Board.classic.playing(at: try #require(Cell(name: corner)))
      let holding = engine.analyze(position).moves.filter { $0.evaluation.value != .loss }
      #expect(holding.map(\.cell.name) == ["b2"], "after \(corner)")
    }
  }

  @Test func afterAnXCentreOnlyTheCornersHold() throws {
    let position = try Board.classic.playing(at: Cell(row: 1, column: 1))
    let holding = engine.analyze(position).moves.filter { $0.evaluation.value != .loss }
    #expect(holding.map(\.cell.name) == ["a1", "c1", "a3", "c3"])
  }

  @Test func prefersAWinInOneToAWinInThree() throws {
    // X to move: a3 wins at once; b2 also wins, with a fork, two moves later.
    let position = try board("xo./x../..o")
    let analysis = engine.analyze(position)
    let winInOne = try #require(Cell(name: "a3"))
    #expect(analysis.best == [winInOne])
    #expect(analysis.evaluation == Evaluation(value: .win, plies: 1))
    #expect(analysis.moves.contains { $0.evaluation == Evaluation(value: .win, plies: 3) })
    var generator = SplitMix64(seed: 1)
    for _ in 0..<20 {
      #expect(
        engine.bestMove(for: position, difficulty: .unbeatable, using: &generator) == winInOne)
    }
  }

  @Test func prefersTheSlowestLoss() throws {
    // O to move has lost, but blocking a3 loses in four plies where the rest lose in two.
    let position = try board("xo./x../...")
    let analysis = engine.analyze(position)
    #expect(analysis.evaluation == Evaluation(value: .loss, plies: 4))
    #expect(analysis.best == [try #require(Cell(name: "a3"))])
    #expect(analysis.moves.count { $0.evaluation == Evaluation(value: .loss, plies: 2) } == 5)
  }

  @Test func unbeatableNeverLosesAPositionThatCanBeHeld() throws {
    let oracle = Oracle()
    var checked: [Board: Bool] = [:]
    var generator = SplitMix64(seed: 7)
    func holds(_ board: Board, for side: Mark, target: GameValue) throws -> Bool {
      if let known = checked[board] { return known }
      let result: Bool
      switch board.outcome {
      case .win(let winner, _): result = winner == side || target == .loss
      case .draw: result = target != .win
      case .inProgress where board.toMove == side:
        // Every move Unbeatable might choose must keep the result.
        let analysis = engine.analyze(board)
        let chosen = try #require(
          engine.bestMove(for: board, difficulty: .unbeatable, using: &generator))
        #expect(analysis.best.contains(chosen))
        result = try analysis.best.allSatisfy {
          try holds(try board.playing(at: $0), for: side, target: target)
        }
      case .inProgress:
        result = try board.emptyCells.allSatisfy {
          try holds(try board.playing(at: $0), for: side, target: target)
        }
      }
      checked[board] = result
      return result
    }
    var tested = 0
    for position in Board.classic.reachablePositions().map(\.board) where !position.outcome.isOver {
      let value = try oracle.evaluation(of: position).value
      guard value != .loss else { continue }
      checked.removeAll(keepingCapacity: true)
      #expect(try holds(position, for: position.toMove, target: value), "\(position)")
      tested += 1
    }
    #expect(tested > 3_000)
  }

  @Test func selfPlayAlwaysDraws() throws {
    for seed in 0..<50 {
      var generator = SplitMix64(seed: UInt64(seed))
      var game = Game()
      while let move = engine.bestMove(
        for: game.board, difficulty: .unbeatable, using: &generator)
      {
        try game.play(at: move)
      }
      #expect(game.board.outcome == .draw, "seed \(seed)")
    }
  }

  @Test func solvingEveryReachablePositionAgreesWithPlainMinimax() throws {
    // Solving 3×3 uses its own search, apart from the analysis table.
    let oracle = Oracle()
    let engine = Engine()
    for position in Board.classic.reachablePositions().map(\.board) where !position.outcome.isOver {
      let result = engine.solve(position, progress: nil)
      #expect(result.evaluation == (try oracle.evaluation(of: position)), "\(position)")
      #expect(result.moves.count == position.emptyCells.count)
      for move in result.moves {
        #expect(
          move.evaluation == (try oracle.moveEvaluation(of: move.cell, on: position)),
          "\(position) \(move.cell)")
      }
      #expect(result.best == engine.analyze(position).best, "\(position)")
    }
  }

  @Test func classicBoardSolvesToADraw() {
    let result = engine.solve(.classic, progress: nil)
    #expect(result.evaluation == Evaluation(value: .draw, plies: 9))
    #expect(result.best.count == 9)
    #expect((result.nodes ?? 0) > 0)
  }

  /// A board over 64 cells gets the searches of a move, which count no nodes: none are said.
  @Test func aBoardTooLargeToSolveCountsNoNodes() throws {
    let result = Engine(timeBudget: .milliseconds(50)).solve(
      try Board(rows: 9, columns: 9, k: 5), progress: nil)
    #expect(!result.evaluation.isExact)
    #expect(result.nodes == nil)
  }

  @Test func threeByFourWithThreeInARowIsAFirstPlayerWin() throws {
    let result = engine.solve(try Board(rows: 3, columns: 4, k: 3), progress: nil)
    #expect(result.evaluation.value == .win)
    #expect(result.evaluation.isExact)
    #expect(!result.best.isEmpty)
    for cell in result.best {
      let reply = engine.analyze(try Board(rows: 3, columns: 4, k: 3).playing(at: cell))
      #expect(reply.evaluation.value == .loss)
      #expect(reply.evaluation.plies == result.evaluation.plies - 1)
    }
  }

  @Test func fourByFourWithFourInARowIsADraw() throws {
    let result = engine.solve(try Board(rows: 4, columns: 4, k: 4), progress: nil)
    #expect(result.evaluation == Evaluation(value: .draw, plies: 16))
    #expect(result.best.count == 16)
  }

  @Test func solveReportsProgressAsFirstMovesSettle() throws {
    let reports = Reports()
    let result = engine.solve(try Board(rows: 3, columns: 4, k: 3)) { reports.append($0) }
    let last = try #require(reports.all.last)
    // 3×4 has four symmetries: the twelve first moves fall into four classes.
    #expect(last.movesTotal == 4)
    #expect(last.movesDone == 4)
    #expect(last.nodes == result.nodes)
  }

  @Test func solveOfAFinishedBoardIsImmediate() throws {
    let result = engine.solve(try board("xxx/oo./..."), progress: nil)
    #expect(result.evaluation == Evaluation(value: .loss, plies: 0))
    #expect(result.best.isEmpty)
  }

  @Test func bestMoveIsNilWhenTheGameIsOver() throws {
    var generator = SplitMix64(seed: 3)
    #expect(
      engine.bestMove(for: try board("xxx/oo./..."), difficulty: .easy, using: &generator)
        == nil)
  }

  @Test func generatorIsReproducible() {
    var first = SplitMix64(seed: 42)
    var second = SplitMix64(seed: 42)
    let a = (0..<8).map { _ in first.next() }
    #expect(a == (0..<8).map { _ in second.next() })
    #expect(Set(a).count == 8)
  }
}

struct ConcurrencyTests {
  @Test func oneEngineServesManyTasksAtOnce() async throws {
    // A generous budget: the answers must be exact however busy the machine is.
    let engine = Engine(timeBudget: .seconds(120))
    let boards = [Board.classic, try Board(rows: 4, columns: 4, k: 4), try board("x../.o./...")]
    let expected = boards.map(engine.analyze)
    let results = await withTaskGroup(of: (Int, Analysis).self) { group in
      for round in 0..<12 {
        let index = round % boards.count
        let board = boards[index]
        group.addTask { (index, engine.analyze(board)) }
      }
      var results: [(Int, Analysis)] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(results.count == 12)
    for (index, analysis) in results { #expect(analysis == expected[index]) }
  }
}
