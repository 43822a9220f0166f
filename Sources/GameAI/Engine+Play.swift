public import GameRules

extension Engine {
  // MARK: - Choosing a move

  /// The move the engine plays at `difficulty`, or `nil` when the game is over.
  ///
  /// Unbeatable plays a best move (chosen among equals with `generator`). Lower levels err the
  /// way people do: now and then they miss a win or a block, and otherwise they often prefer a
  /// plausible move (one that builds or blocks lines) over the best one. The same generator
  /// state gives the same move.
  public func bestMove(
    for board: Board, difficulty: Difficulty, using generator: inout some RandomNumberGenerator
  ) -> Cell? {
    guard board.outcome == .inProgress else { return nil }
    if difficulty.skill >= 1 {
      return perfectChoices(board, budget: timeBudget).randomElement(using: &generator)
    }
    return humanMove(board, skill: difficulty.skill, using: &generator)
  }

  /// The moves the engine rates best: all optimal moves when it can solve the position, else
  /// the best move of a deepening search.
  func perfectChoices(_ board: Board, budget: Duration) -> [Cell] {
    let start = ContinuousClock.now
    if board.rows == 3 && board.columns == 3 { return Engine.trappiest(board, analyze(board).best) }
    if Engine.mightSolve(board) {
      let exact = exactScores(board, deadline: start + budget * 0.5, progress: nil)
      if !exact.isAborted {
        let scores = exact.scores.compactMap { cell, score in score.map { (cell, $0) } }
        let top = scores.map(\.1).max()
        return scores.filter { $0.1 == top }.map(\.0)
      }
    }
    return [
      SearchMove(engine: self, board: board, deadline: start + budget).run(cells: board.cellCount)
    ]
  }

  /// The moves of `best` that leave the opponent the most losing replies, so that perfect play
  /// also gives a fallible opponent the most chances to go wrong (used where analysis is a
  /// table lookup).
  private static func trappiest(_ board: Board, _ best: [Cell]) -> [Cell] {
    let engine = Engine()
    let traps = best.map { cell in
      guard let after = try? board.playing(at: cell) else { return 0 }
      return engine.analyze(after).moves.count { $0.evaluation.value == .loss }
    }
    let most = traps.max()
    return zip(best, traps).filter { $0.1 == most }.map(\.0)
  }

  /// The large-board search's move.
  private struct SearchMove: BitBoardWork {
    let engine: Engine
    let board: Board
    let deadline: ContinuousClock.Instant

    func run<B: BitBoard>(on _: B.Type) -> Cell {
      engine.withExplorer(B.self, board, deadline: deadline) { explorer, geometry, mover, other in
        geometry.cell(at: explorer.bestMove(mover: mover, other: other).move)
      }
    }
  }
}
