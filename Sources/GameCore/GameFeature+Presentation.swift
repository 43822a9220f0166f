import GameAI
public import GameRules

/// How one cell of the board is shown.
public struct CellPresentation: Equatable, Sendable {
  /// The cell.
  public var cell: Cell
  /// The mark's letter, `X` or `O`, or empty.
  public var label: String
  /// The name read by screen readers, such as `Row 1, column 2, X` or `Row 1, column 2, empty`.
  public var accessibleName: String
  /// Whether choosing the cell plays a move now.
  public var isEnabled: Bool
  /// Whether the cell is on the winning line.
  public var isWinning: Bool
  /// Whether the last move was played here.
  public var isLastMove: Bool
  /// Whether the engine suggests this cell.
  public var isHint: Bool
  /// The move's value when the analysis is shown, such as `win in 3` or `draw (estimate)`.
  public var analysisText: String?
  /// The same value in at most four characters, for small cells: `W3`, `D`, `L2`, and `~`
  /// after an estimate (`D~`).
  public var analysisCode: String?

  /// What a screen reader adds after the name: the analysis value, or that the engine
  /// suggests the cell, or nothing.
  public var accessibleDescription: String {
    analysisText ?? (isHint ? "Suggested move" : "")
  }

  /// Whether the cell should stand out: winning line, last move or hint.
  public var isHighlighted: Bool { isWinning || isLastMove || isHint }
}

extension GameFeature.State {
  /// The title line: whose turn, who is thinking, or the result.
  public var title: String {
    switch board.outcome {
    case .win(let mark, _):
      return "Winner! Congrats \(settings.name(of: mark))!"
    case .draw:
      return "Tied game!"
    case .inProgress:
      let mark = board.toMove
      let name = settings.name(of: mark)
      return settings.isComputer(mark)
        ? "\(name) is thinking…" : "\(name), place your \(mark.symbol)"
    }
  }

  /// Whether the board takes a move from a person now.
  public var isBoardEnabled: Bool {
    board.outcome == .inProgress && !settings.isComputer(board.toMove) && !isThinking
      && !isConfirmingQuit
  }

  /// Every cell's presentation, row by row.
  public var rows: [[CellPresentation]] {
    let winning = Set(board.outcome.winningLine)
    let enabled = isBoardEnabled
    var values: [Cell: String] = [:]
    var codes: [Cell: String] = [:]
    for move in analysis?.moves ?? [] {
      values[move.cell] = move.evaluation.description
      codes[move.cell] = Self.code(move.evaluation)
    }
    return (0..<board.rows).map { row in
      (0..<board.columns).map { column in
        let cell = Cell(row: row, column: column)
        let mark = board[cell]
        return CellPresentation(
          cell: cell,
          label: mark?.symbol ?? "",
          accessibleName: "Row \(row + 1), column \(column + 1), \(mark?.symbol ?? "empty")",
          isEnabled: enabled && mark == nil,
          isWinning: winning.contains(cell),
          isLastMove: game.lastMove == cell,
          isHint: hint == cell,
          analysisText: values[cell], analysisCode: codes[cell])
      }
    }
  }

  /// The cells to highlight: the winning line, the last move and the hint.
  public var highlightedCells: Set<Cell> {
    var cells = Set(board.outcome.winningLine)
    if let last = game.lastMove { cells.insert(last) }
    if let hint { cells.insert(hint) }
    return cells
  }

  /// Whether Undo does something: a person's move can be taken back while the game goes on.
  public var canUndo: Bool {
    guard board.outcome == .inProgress, !isConfirmingQuit else { return false }
    let starter = game.start.firstMover
    return game.moves.indices.contains { index in
      !settings.isComputer(index.isMultiple(of: 2) ? starter : starter.opponent)
    }
  }

  /// Whether Redo does something.
  public var canRedo: Bool {
    game.canRedo && board.outcome == .inProgress && !isThinking && !isConfirmingQuit
  }

  /// Whether Hint does something: a person is to move.
  public var canHint: Bool { isBoardEnabled }

  /// Whether Analysis can be asked for: the game goes on and the computer is not thinking.
  public var canAnalyze: Bool { board.outcome == .inProgress && !isThinking }

  /// A value in at most four characters: `W3` (win in 3), `D` (draw), `L2` (loss in 2), with
  /// `~` after an estimate.
  static func code(_ evaluation: Evaluation) -> String {
    // Past 99 plies the count no longer fits, and only estimates reach it.
    let plies = evaluation.plies <= 99 ? "\(evaluation.plies)" : ""
    let text =
      switch evaluation.value {
      case .win: "W" + plies
      case .draw: "D"
      case .loss: "L" + plies
      }
    return evaluation.isExact ? text : text + "~"
  }

  /// What the short analysis codes mean, for a legend beside them.
  public static let analysisLegend =
    "W3 win in 3 plies, D draw, L2 loss in 2 plies; ~ marks an estimate."

  /// The shown analysis in one sentence.
  ///
  /// For example `X to move: win in 3. Best: b2.`
  public var analysisSummary: String? {
    guard let analysis else { return nil }
    let best = analysis.best.map(\.name).joined(separator: ", ")
    return "\(board.toMove.symbol) to move: \(analysis.evaluation). Best: \(best)."
  }

  /// Whether the game has ended, so Play again is the obvious next step.
  public var isGameOver: Bool { board.outcome.isOver }

  /// The game told in sentences, one a move, then the result.
  ///
  /// For example `X plays b2.`, then `O wins with a1, b2, c3.` or `Tied game.`
  public var narration: [String] {
    var sentences: [String] = []
    var mark = game.start.firstMover
    for move in game.moves {
      sentences.append("\(mark.symbol) plays \(move.name).")
      mark = mark.opponent
    }
    if let result = resultSentence { sentences.append(result) }
    return sentences
  }

  /// The result in one sentence, once the game is over.
  public var resultSentence: String? {
    switch board.outcome {
    case .inProgress:
      nil
    case .win(let mark, let line):
      "\(mark.symbol) wins with \(line.map(\.name).joined(separator: ", "))."
    case .draw:
      "Tied game."
    }
  }

  /// The question asked before abandoning a game in progress.
  public var quitConfirmationMessage: String { "Quit this game? It will not be saved." }
}
