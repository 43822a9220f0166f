import GameAI
import GameRules

/// Text and JSON renderings of the engine's answers.
enum Formatting {
  // MARK: - Text

  static func valueText(_ evaluation: Evaluation) -> String { evaluation.description }

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
    JSON.line(AnalysisOutput(board: board, analysis: analysis))
  }

  /// `analyze - --json`'s result for a line that is not a position: its number and why.
  static func lineErrorJSON(line: Int, _ message: String) -> String {
    JSON.line(LineErrorOutput(line: line, error: message.escapingControlCharacters))
  }

  static func bestMoveJSON(_ board: Board, _ move: Cell, _ difficulty: Difficulty) -> String {
    JSON.line(BestMoveOutput(board: board, move: move, difficulty: difficulty))
  }

  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  static func solveText(_ board: Board, _ result: SolveResult) -> String {
    let value =
      switch result.evaluation.value {
      case .win: "a first-player win \(solveLength(result.evaluation))"
      case .loss: "a second-player win \(solveLength(result.evaluation))"
      case .draw: "a draw"
      }
    let proof = result.evaluation.isExact ? "" : " (estimate: the search did not finish)"
    return """
      \(board.rows)×\(board.columns), k = \(board.k): \(value) with perfect play\(proof).
      Best first moves: \(result.best.map(\.name).joined(separator: ", ")).
      \(result.nodes.map { "Nodes: \($0), time" } ?? "Nodes not counted (the searches of a move), time"): \
      \(formatted(seconds(result.duration))) s.
      """
  }

  /// `in 5 plies`, or where the proof found a line without showing that none is faster,
  /// `in at most 7 plies`.
  private static func solveLength(_ evaluation: Evaluation) -> String {
    evaluation.isFastest ? "in \(evaluation.plies) plies" : "in at most \(evaluation.plies) plies"
  }

  static func solveJSON(_ board: Board, _ result: SolveResult) -> String {
    JSON.line(SolveOutput(board: board, result: result))
  }

  static func valueText(_ value: ProvedValue) -> String {
    let board = value.board
    let text =
      value.firstPlayerWins
      ? "a first-player win with perfect play (the first moves and the length not settled)"
      : "a draw with perfect play (the first player cannot force a line, so neither can the second)"
    return """
      \(board.rows)×\(board.columns), k = \(board.k): \(text).
      Nodes: \(value.nodes), time: \(formatted(seconds(value.duration))) s.
      """
  }

  static func valueJSON(_ value: ProvedValue) -> String {
    JSON.line(ValueOutput(value: value))
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
    JSON.line(CountOutput(board: board, counts: counts))
  }

  /// A number with three decimals, without Foundation's formatters.
  static func formatted(_ value: Double) -> String {
    let thousandths = Int((value * 1_000).rounded())
    let fraction = String(thousandths % 1_000)
    return "\(thousandths / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}

// MARK: - JSON outputs

/// The fields of a position: its notation, `k` and the side to move.
private func positionFields(_ board: Board) -> [(key: String, value: (any Encodable)?)] {
  [("position", board.notation), ("k", board.k), ("toMove", board.toMove.rawValue)]
}

/// The fields of a board's shape.
private func shapeFields(_ board: Board) -> [(key: String, value: (any Encodable)?)] {
  [("rows", board.rows), ("columns", board.columns), ("k", board.k)]
}

/// The fields of a cell: its name, and its row and column counted from 1.
private func cellFields(_ cell: Cell) -> [(key: String, value: (any Encodable)?)] {
  [("cell", cell.name), ("row", cell.row + 1), ("column", cell.column + 1)]
}

/// The fields of a value: `exact` only for an estimate, `fastest` only for a proven win or loss
/// whose `plies` are those of a line found, perhaps not the fastest.
private func valueFields(_ evaluation: Evaluation) -> [(key: String, value: (any Encodable)?)] {
  [("value", evaluation.value.rawValue), ("plies", evaluation.plies)]
    + (evaluation.isExact ? [] : [("exact", false)]) + fastestField(evaluation)
}

private func fastestField(_ evaluation: Evaluation) -> [(key: String, value: (any Encodable)?)] {
  evaluation.isExact && !evaluation.hasExactLength ? [("fastest", false)] : []
}

/// `analyze --json`: the keys of PRODUCT.md §7, in that order.
private struct AnalysisOutput: JSONObject {
  let board: Board
  let analysis: Analysis

  var fields: [(key: String, value: (any Encodable)?)] {
    positionFields(board) + [("outcome", Formatting.outcomeKey(board.outcome))]
      + valueFields(analysis.evaluation)
      + [
        ("moves", analysis.moves.map(MoveOutput.init)), ("best", analysis.best.map(\.name)),
      ]
  }
}

/// A line of `analyze - --json` that is not a position.
private struct LineErrorOutput: JSONObject {
  let line: Int
  let error: String

  var fields: [(key: String, value: (any Encodable)?)] { [("line", line), ("error", error)] }
}

/// One legal move's value in `analyze --json`.
private struct MoveOutput: JSONObject {
  let move: MoveEvaluation

  var fields: [(key: String, value: (any Encodable)?)] {
    cellFields(move.cell) + valueFields(move.evaluation)
  }
}

/// `bestmove --json`.
private struct BestMoveOutput: JSONObject {
  let board: Board
  let move: Cell
  let difficulty: Difficulty

  var fields: [(key: String, value: (any Encodable)?)] {
    positionFields(board) + [("difficulty", difficulty.name)] + cellFields(move)
  }
}

/// `solve --json`: `exact` says, always, whether the search proved the value.
private struct SolveOutput: JSONObject {
  let board: Board
  let result: SolveResult

  var fields: [(key: String, value: (any Encodable)?)] {
    shapeFields(board)
      + [
        ("value", result.evaluation.value.rawValue), ("plies", result.evaluation.plies),
        ("exact", result.evaluation.isExact),
      ] + fastestField(result.evaluation)
      + [
        ("best", result.best.map(\.name)),
        ("nodes", result.nodes),
        ("seconds", (Formatting.seconds(result.duration) * 1_000).rounded() / 1_000),
      ]
  }
}

/// The value of an empty board settled by `solve --value`.
struct ProvedValue {
  var board: Board
  var firstPlayerWins: Bool
  var nodes: Int
  var duration: Duration
}

/// `solve --value --json`: the board, the value, and that the first moves were not settled.
private struct ValueOutput: JSONObject {
  let value: ProvedValue

  var fields: [(key: String, value: (any Encodable)?)] {
    shapeFields(value.board)
      + [
        ("value", value.firstPlayerWins ? "win" : "draw"), ("exact", true),
        ("valueOnly", true), ("nodes", value.nodes),
        ("seconds", (Formatting.seconds(value.duration) * 1_000).rounded() / 1_000),
      ]
  }
}

/// `count --json`: the board, then the counts under the names of PRODUCT.md §7.
private struct CountOutput: JSONObject {
  let board: Board
  let counts: PositionCounts

  var fields: [(key: String, value: (any Encodable)?)] {
    shapeFields(board)
      + [
        ("positions", counts.positions), ("terminalPositions", counts.terminalPositions),
        ("xWinPositions", counts.xWinPositions), ("oWinPositions", counts.oWinPositions),
        ("drawPositions", counts.drawPositions), ("games", counts.games),
        ("xWinGames", counts.xWinGames), ("oWinGames", counts.oWinGames),
        ("drawGames", counts.drawGames),
      ]
  }
}
