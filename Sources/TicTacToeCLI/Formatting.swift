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

  static func boardText(_ board: Board) -> String {
    (0..<board.rows).map { row in
      (0..<board.columns).map { column in
        board[row, column]?.symbol ?? "."
      }.joined(separator: " ")
    }.joined(separator: "\n")
  }

  static func analysisText(_ board: Board, _ analysis: Analysis) -> String {
    var lines = [
      boardText(board),
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

  static func json(string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  static func outcomeKey(_ outcome: Outcome) -> String {
    switch outcome {
    case .inProgress: "inProgress"
    case .win(.x, _): "xWins"
    case .win(.o, _): "oWins"
    case .draw: "draw"
    }
  }

  private static func evaluationFields(_ evaluation: Evaluation) -> String {
    var text = "\"value\":\"\(evaluation.value.rawValue)\",\"plies\":\(evaluation.plies)"
    if !evaluation.isExact { text += ",\"exact\":false" }
    return text
  }

  private static func cellFields(_ cell: Cell) -> String {
    "\"cell\":\"\(cell.name)\",\"row\":\(cell.row + 1),\"column\":\(cell.column + 1)"
  }

  static func analysisJSON(_ board: Board, _ analysis: Analysis) -> String {
    let moves = analysis.moves.map { "{\(cellFields($0.cell)),\(evaluationFields($0.evaluation))}" }
    let best = analysis.best.map { "\"\($0.name)\"" }
    return "{\"position\":\(json(string: board.notation)),\"k\":\(board.k),"
      + "\"toMove\":\"\(board.toMove.rawValue)\",\"outcome\":\"\(outcomeKey(board.outcome))\","
      + "\(evaluationFields(analysis.evaluation)),"
      + "\"moves\":[\(moves.joined(separator: ","))],\"best\":[\(best.joined(separator: ","))]}"
  }

  static func bestMoveJSON(_ board: Board, _ move: Cell, _ difficulty: Difficulty) -> String {
    "{\"position\":\(json(string: board.notation)),\"k\":\(board.k),"
      + "\"toMove\":\"\(board.toMove.rawValue)\",\"difficulty\":\(json(string: difficulty.name)),"
      + "\(cellFields(move))}"
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
    let best = result.best.map { "\"\($0.name)\"" }.joined(separator: ",")
    return "{\"rows\":\(board.rows),\"columns\":\(board.columns),\"k\":\(board.k),"
      + "\(evaluationFields(result.evaluation)),\"exact\":\(result.evaluation.isExact),"
      + "\"best\":[\(best)],\"nodes\":\(result.nodes),"
      + "\"seconds\":\(formatted(seconds(result.duration)))}"
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
    let fields: [(String, Int)] = [
      ("positions", counts.positions), ("terminalPositions", counts.terminalPositions),
      ("xWinPositions", counts.xWinPositions), ("oWinPositions", counts.oWinPositions),
      ("drawPositions", counts.drawPositions), ("games", counts.games),
      ("xWinGames", counts.xWinGames), ("oWinGames", counts.oWinGames),
      ("drawGames", counts.drawGames),
    ]
    let body = fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
    return "{\"rows\":\(board.rows),\"columns\":\(board.columns),\"k\":\(board.k),\(body)}"
  }

  /// A number with three decimals, without Foundation's formatters.
  static func formatted(_ value: Double) -> String {
    let thousandths = Int((value * 1_000).rounded())
    let fraction = String(thousandths % 1_000)
    return "\(thousandths / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}
