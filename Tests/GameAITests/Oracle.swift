import GameAI
import GameRules

/// A plain, memoised minimax over `Board` values, independent of the engine, that gives every
/// position's value and length under perfect play (fastest win, slowest loss).
final class Oracle {
  private var memo: [Board: Evaluation] = [:]

  func evaluation(of board: Board) throws -> Evaluation {
    if let known = memo[board] { return known }
    let result: Evaluation
    switch board.outcome {
    case .win: result = Evaluation(value: .loss, plies: 0)
    case .draw: result = Evaluation(value: .draw, plies: 0)
    case .inProgress:
      var best: Evaluation?
      for cell in board.emptyCells {
        let mine = try moveEvaluation(of: cell, on: board)
        if best.map({ mine.isBetter(than: $0) }) ?? true { best = mine }
      }
      guard let best else { throw OracleError.noMoves }
      result = best
    }
    memo[board] = result
    return result
  }

  /// The value of playing `cell` for the side that plays it.
  func moveEvaluation(of cell: Cell, on board: Board) throws -> Evaluation {
    let child = try evaluation(of: try board.playing(at: cell))
    let value: GameValue =
      switch child.value {
      case .win: .loss
      case .loss: .win
      case .draw: .draw
      }
    return Evaluation(value: value, plies: child.plies + 1)
  }

  enum OracleError: Error { case noMoves }
}

/// Board from notation, for fixtures.
func board(_ notation: String, k: Int? = nil) throws -> Board {
  try Board(notation: notation, k: k)
}
