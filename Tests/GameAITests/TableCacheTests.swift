import GameAI
import GameRules
import Testing

/// An engine keeps its transposition tables between searches.
struct TableCacheTests {
  @Test func solvingAgainReusesWhatTheFirstSolveLearnt() throws {
    let engine = Engine()
    let board = try Board(rows: 3, columns: 4, k: 3)
    let first = engine.solve(board, progress: nil)
    let second = engine.solve(board, progress: nil)
    #expect(second.evaluation == first.evaluation)
    #expect(second.best == first.best)
    #expect(second.moves == first.moves)
    #expect((second.nodes ?? .max) < (first.nodes ?? 0))
    #expect(Engine().solve(board, progress: nil).nodes == first.nodes)
  }

  @Test func analysesAfterASolveAgreeWithAFreshEngine() throws {
    let engine = Engine(timeBudget: .seconds(60))
    let board = try Board(rows: 4, columns: 4, k: 4)
    _ = engine.solve(board, progress: nil)
    var position = board
    for name in ["b2", "c3", "a1", "d4"] {
      try position.play(at: try #require(Cell(name: name)))
      #expect(engine.analyze(position) == Engine(timeBudget: .seconds(60)).analyze(position))
    }
  }
}
