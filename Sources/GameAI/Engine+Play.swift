public import GameRules

extension Engine {
  // MARK: - Choosing a move

  /// The move the engine plays at `difficulty`, or `nil` when the game is over.
  ///
  /// Unbeatable plays a best move (chosen among equals with `generator`): where the engine
  /// proves that some moves hold, one of those. On boards of up to 64 cells the proof that a
  /// move holds is bounded by work, not by the budget, so it does not fail on a loaded
  /// machine; among such moves Unbeatable takes a forced win if the threat searches find one
  /// and otherwise presses, making lines the opponent must block, so that a fallible opponent
  /// has the most chances to go wrong. Lower levels err the way people do: now and then they
  /// miss a win or a block (and then play as if it were not there), and otherwise they often
  /// prefer a plausible move (one that builds or blocks lines) over the best one. The same
  /// generator state gives the same move.
  public func bestMove(
    for board: Board, difficulty: Difficulty, using generator: inout some RandomNumberGenerator
  ) -> Cell? {
    bestMove(for: board, difficulty: difficulty, budget: timeBudget, using: &generator)
  }

  /// The move the engine plays at `difficulty` thinking for at most `budget`, or `nil` when
  /// the game is over; see ``bestMove(for:difficulty:using:)``.
  public func bestMove(
    for board: Board, difficulty: Difficulty, budget: Duration,
    using generator: inout some RandomNumberGenerator
  ) -> Cell? {
    chooseMove(for: board, difficulty: difficulty, budget: budget, using: &generator)?.cell
  }

  /// The move the engine plays at `difficulty` thinking for at most `budget`, with what its
  /// deepening search saw of it where that search chose it (the top level off 3×3, where no
  /// proof settles the move), or `nil` when the game is over; the same move as
  /// ``bestMove(for:difficulty:budget:using:)`` from the same generator state.
  public func chooseMove(
    for board: Board, difficulty: Difficulty, budget: Duration,
    using generator: inout some RandomNumberGenerator
  ) -> ChosenMove? {
    guard board.outcome == .inProgress else { return nil }
    if difficulty.skill >= 1 {
      if board.rows == 3 && board.columns == 3 {
        return perfectChoices(board, budget: budget).randomElement(using: &generator)
          .map { ChosenMove(cell: $0) }
      }
      let examination = examine(board, budget: budget, forDisplay: false)
      return examination.choices.randomElement(using: &generator).map {
        ChosenMove(cell: $0, search: examination.search)
      }
    }
    return humanMove(board, skill: difficulty.skill, budget: budget, using: &generator)
      .map { ChosenMove(cell: $0) }
  }

  /// The moves the engine rates best: the moves its analysis would choose from (where some
  /// moves are proven to hold, those of them whose estimate is close to the strongest's).
  func perfectChoices(_ board: Board, budget: Duration) -> [Cell] {
    if board.rows == 3 && board.columns == 3 { return Engine.trappiest(board, analyze(board).best) }
    return examine(board, budget: budget, forDisplay: false).choices
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
}
