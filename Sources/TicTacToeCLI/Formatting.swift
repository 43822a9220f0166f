import GameAI
import GameRules

/// Text and JSON renderings of the engine's answers.
enum Formatting {
  // MARK: - Text

  static func valueText(_ evaluation: Evaluation) -> String {
    let text =
      switch evaluation.value {
      case .win: "win in \(evaluation.plies)"
      case .loss: "loss in \(evaluation.plies)"
      case .draw: "draw"
      }
    return evaluation.isExact ? text : "\(text) (estimate)"
  }

  static func outcomeText(_ outcome: Outcome) -> String {
    switch outcome {
    case .inProgress: "in progress"
    case .win(let mark, let line):
      "\(mark.symbol) has won with \(line.map(\.name).joined(separator: ", "))"
    case .draw: "drawn"
    }
  }

  static func analysisText(_ board: Board, _ analysis: Analysis) -> String {
    var lines = [
      board.diagram,
      "Position \(board.notation), k = \(board.k).",
    ]
    if board.outcome.isOver {
      lines.append("The game is over: \(outcomeText(board.outcome)).")
      return lines.joined(separator: "\n")
    }
    lines.append("\(board.toMove.symbol) to move: \(valueText(analysis.evaluation)).")
    let moves = analysis.moves.map { "\($0.cell.name) \(valueText($0.evaluation))" }
    lines.append("Moves: \(moves.joined(separator: ", ")).")
    lines.append("Best: \(analysis.best.map(\.name).joined(separator: ", ")).")
    return lines.joined(separator: "\n")
  }

  // MARK: - JSON

  static func outcomeKey(_ outcome: Outcome) -> String {
    switch outcome {
    case .inProgress: "inProgress"
    case .win(.x, _): "xWins"
    case .win(.o, _): "oWins"
    case .draw: "draw"
    }
  }

  static func analysisJSON(_ board: Board, _ analysis: Analysis) -> String {
    JSON.line(
      AnalysisOutput(
        position: board.notation, k: board.k, toMove: board.toMove.rawValue,
        outcome: outcomeKey(board.outcome), value: analysis.evaluation.value.rawValue,
        plies: analysis.evaluation.plies, exact: analysis.evaluation.isExact ? nil : false,
        moves: analysis.moves.map { move in
          MoveOutput(
            cell: move.cell.name, row: move.cell.row + 1, column: move.cell.column + 1,
            value: move.evaluation.value.rawValue, plies: move.evaluation.plies,
            exact: move.evaluation.isExact ? nil : false)
        },
        best: analysis.best.map(\.name)))
  }

  static func bestMoveJSON(_ board: Board, _ move: Cell, _ difficulty: Difficulty) -> String {
    JSON.line(
      BestMoveOutput(
        position: board.notation, k: board.k, toMove: board.toMove.rawValue,
        difficulty: difficulty.name, cell: move.name, row: move.row + 1, column: move.column + 1))
  }

  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  static func solveText(_ board: Board, _ result: SolveResult) -> String {
    let value =
      switch result.evaluation.value {
      case .win: "a first-player win in \(result.evaluation.plies) plies"
      case .loss: "a second-player win in \(result.evaluation.plies) plies"
      case .draw: "a draw"
      }
    let proof = result.evaluation.isExact ? "" : " (estimate: the search did not finish)"
    return """
      \(board.rows)×\(board.columns), k = \(board.k): \(value) with perfect play\(proof).
      Best first moves: \(result.best.map(\.name).joined(separator: ", ")).
      Nodes: \(result.nodes), time: \(formatted(seconds(result.duration))) s.
      """
  }

  static func solveJSON(_ board: Board, _ result: SolveResult) -> String {
    JSON.line(
      SolveOutput(
        rows: board.rows, columns: board.columns, k: board.k,
        value: result.evaluation.value.rawValue, plies: result.evaluation.plies,
        exact: result.evaluation.isExact, best: result.best.map(\.name), nodes: result.nodes,
        seconds: (seconds(result.duration) * 1_000).rounded() / 1_000))
  }

  static func countText(_ board: Board, _ counts: PositionCounts) -> String {
    """
    \(board.rows)×\(board.columns), k = \(board.k):
    Reachable positions: \(counts.positions)
    Terminal positions: \(counts.terminalPositions) (X wins \(counts.xWinPositions), O wins \(counts.oWinPositions), draws \(counts.drawPositions))
    Complete games: \(counts.games) (X wins \(counts.xWinGames), O wins \(counts.oWinGames), draws \(counts.drawGames))
    """
  }

  static func countJSON(_ board: Board, _ counts: PositionCounts) -> String {
    JSON.line(CountOutput(rows: board.rows, columns: board.columns, k: board.k, counts: counts))
  }

  /// A number with three decimals, without Foundation's formatters.
  static func formatted(_ value: Double) -> String {
    let thousandths = Int((value * 1_000).rounded())
    let fraction = String(thousandths % 1_000)
    return "\(thousandths / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}

// MARK: - JSON outputs

/// `analyze --json`: the keys of PRODUCT.md §7, in that order; `exact` only for an estimate.
private struct AnalysisOutput: Encodable {
  let position: String
  let k: Int
  let toMove: String
  let outcome: String
  let value: String
  let plies: Int
  let exact: Bool?
  let moves: [MoveOutput]
  let best: [String]
}

/// One legal move's value in `analyze --json`.
private struct MoveOutput: Encodable {
  let cell: String
  let row: Int
  let column: Int
  let value: String
  let plies: Int
  let exact: Bool?
}

/// `bestmove --json`.
private struct BestMoveOutput: Encodable {
  let position: String
  let k: Int
  let toMove: String
  let difficulty: String
  let cell: String
  let row: Int
  let column: Int
}

/// `solve --json`: `exact` says whether the search proved the value.
private struct SolveOutput: Encodable {
  let rows: Int
  let columns: Int
  let k: Int
  let value: String
  let plies: Int
  let exact: Bool
  let best: [String]
  let nodes: Int
  let seconds: Double
}

/// `count --json`: the board, then the counts under the names of PRODUCT.md §7.
private struct CountOutput: Encodable {
  let rows: Int
  let columns: Int
  let k: Int
  let counts: PositionCounts

  private enum CodingKeys: String, CodingKey {
    case rows, columns, k, positions, terminalPositions, xWinPositions, oWinPositions
    case drawPositions, games, xWinGames, oWinGames, drawGames
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rows, forKey: .rows)
    try container.encode(columns, forKey: .columns)
    try container.encode(k, forKey: .k)
    let fields: [(CodingKeys, Int)] = [
      (.positions, counts.positions), (.terminalPositions, counts.terminalPositions),
      (.xWinPositions, counts.xWinPositions), (.oWinPositions, counts.oWinPositions),
      (.drawPositions, counts.drawPositions), (.games, counts.games),
      (.xWinGames, counts.xWinGames), (.oWinGames, counts.oWinGames),
      (.drawGames, counts.drawGames),
    ]
    for (key, value) in fields { try container.encode(value, forKey: key) }
  }
}
