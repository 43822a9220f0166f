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
}

/// A button of the Game screen, offered only while it can do something.
public enum GameControl: Hashable, Sendable {
  case undo
  case redo
  case hint
  case analysis
  /// A new game, asking first while this one goes on.
  case newGame
  /// Another game once this one is over.
  case playAgain
  case quit
  /// Yes to the question.
  case confirm
  /// No to the question.
  case keepPlaying

  /// The button's label.
  public var title: String {
    switch self {
    case .undo: "Undo"
    case .redo: "Redo"
    case .hint: "Hint"
    case .analysis: "Analysis"
    case .newGame: "New game"
    case .playAgain: "Play again"
    case .quit, .confirm: "Quit"
    case .keepPlaying: "Keep playing"
    }
  }
}

extension GameFeature.State {
  /// The title line: whose turn, who is thinking, or the result.
  public var title: String {
    switch board.outcome {
    case .win(let mark, _):
      return "Winner! Congrats \(shownName(of: mark))!"
    case .draw:
      return "Tied game!"
    case .inProgress:
      let mark = board.toMove
      let name = shownName(of: mark)
      guard settings.isComputer(mark) else { return "\(name), place your \(mark.symbol)" }
      switch phase {
      case .confirming, .stopped:
        // Its move waits for the answer (or for ever): it is not thinking meanwhile.
        return "\(name)'s turn"
      case .playing, .thinking, .saving, .finished:
        return "\(name) is thinking…"
      }
    }
  }

  /// A player's name as shown: a resumed game's names come from the records, so anything that
  /// is not printable is escaped.
  func shownName(of mark: Mark) -> String {
    settings.name(of: mark).escapingControlCharacters
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

  /// Whether Undo takes a move back now.
  public var canUndo: Bool { refusal(of: .undo) == nil }

  /// Whether Redo plays an undone move again now.
  public var canRedo: Bool { refusal(of: .redo) == nil }

  /// Whether Hint asks the engine now: a person is to move.
  public var canHint: Bool { isBoardEnabled }

  /// Whether Analysis can be asked for: the game goes on and the computer is not thinking.
  public var canAnalyze: Bool { refusal(of: .analysis) == nil }

  /// The buttons to offer now, in order, each with whether it does something at this moment.
  ///
  /// A question offers its two answers; a finished game offers Play again and Quit; a game in
  /// progress offers everything, the buttons that do nothing this moment disabled.
  public var controls: [(control: GameControl, isEnabled: Bool)] {
    switch phase {
    case .confirming:
      return [(.confirm, true), (.keepPlaying, true)]
    case .stopped:
      return []
    case .playing, .thinking, .saving, .finished:
      if board.outcome.isOver { return [(.playAgain, !isSaving), (.quit, true)] }
      return [
        (.undo, canUndo), (.redo, canRedo), (.hint, canHint),
        (.analysis, canAnalyze || analysis != nil), (.newGame, true), (.quit, true),
      ]
    }
  }

  /// A value in at most four characters: `W3` (win in 3), `D` (draw), `L2` (loss in 2),
  /// `W≤7` (a forced win found in 7 plies, perhaps not the fastest); an estimate has no length
  /// and ends in `~` (`W~`).
  static func code(_ evaluation: Evaluation) -> String {
    // Past 99 plies the count no longer fits.
    let bound = evaluation.isFastest ? "" : "≤"
    let plies = evaluation.isExact && evaluation.plies <= 99 ? "\(bound)\(evaluation.plies)" : ""
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
    "W3 win in 3 plies, D draw, L2 loss in 2 plies, ≤ at most; ~ marks an estimate."

  /// The shown analysis in one sentence.
  ///
  /// For example `X to move: win in 3. Best: b2.`
  public var analysisSummary: String? {
    guard let analysis else { return nil }
    let best = analysis.best.map(\.name).joined(separator: ", ")
    return "\(board.toMove.symbol) to move: \(analysis.evaluation). Best: \(best)."
  }

  /// The analysis in two sentences: the summary, then every empty cell's value.
  ///
  /// For example `X to move: draw. Best: b2.` and `Values: a1 draw, b1 loss in 2.`
  public var analysisSentences: [String] {
    guard let summary = analysisSummary else { return [] }
    let values = rows.joined().compactMap { cell in
      cell.analysisText.map { "\(cell.cell.name) \($0)" }
    }
    return [summary, "Values: \(values.joined(separator: ", "))."]
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
  public var quitConfirmationMessage: String {
    "\(quitConfirmationHeading) \(quitConfirmationDetail)"
  }

  /// The question alone, as a dialog's heading, such as `Quit this game?`.
  public var quitConfirmationHeading: String {
    if case .confirming(.newGame) = phase { return "Start a new game?" }
    return "Quit this game?"
  }

  /// What follows from yes, under the heading.
  public var quitConfirmationDetail: String {
    if case .confirming(.newGame) = phase { return "This one will not be saved." }
    return "It will not be saved."
  }

  /// The label of the answer that abandons the game: `Quit game` or `New game`.
  public var quitConfirmationAnswer: String {
    if case .confirming(.newGame) = phase { return "New game" }
    return "Quit game"
  }

  /// Who plays whom, as a window's title: `Ann vs Computer`.
  public var matchTitle: String { "\(shownName(of: .x)) vs \(shownName(of: .o))" }

  /// The board, the line to win and the computer's strength, in one line.
  ///
  /// For example `3×3, 3 in a row, Hard`. The top level is named as on New game: `Strongest`
  /// where it cannot promise never to lose.
  public var matchDescription: String {
    let (rows, columns, k) = (self.board.rows, self.board.columns, self.board.k)
    let board = "\(rows)×\(columns), \(k) in a row"
    guard settings.mode != .hotSeat else { return board }
    return "\(board), \(settings.difficulty.displayName(rows: rows, columns: columns, k: k))"
  }

  /// What a front end shows briefly over the game, if anything.
  ///
  /// The latest notice (the analysis has a line of its own), or the result once the game is
  /// over. The `key` changes with every new message, so one said twice shows twice.
  public var toast: (key: Int, text: String)? {
    if let notice, notice.kind != .analysis, !isConfirmingQuit, failure == nil {
      return (notice.number, line(for: notice.kind))
    }
    if let resultSentence, case .finished(let recordID) = phase {
      // Negative, so it never meets a notice's number.
      return (-Int(truncatingIfNeeded: recordID) - 1, resultSentence)
    }
    return nil
  }

  /// The line under the board: the question, why the game stopped, the notice, or the last
  /// move's sentence.
  public var statusLine: String? {
    if isConfirmingQuit { return quitConfirmationMessage }
    if let failure { return failure.sentence }
    if let notice { return line(for: notice.kind) }
    return narration.last
  }

  /// Whether ``statusLine`` reports a problem.
  public var statusIsProblem: Bool {
    if isConfirmingQuit { return false }
    if failure != nil { return true }
    return notice?.kind.isProblem ?? false
  }

  /// A notice on one line, for a status line.
  public func line(for notice: Notice.Kind) -> String {
    switch notice {
    case .analysis: analysisSummary ?? "There is no analysis now."
    case .board: title
    case .help: Self.typingHelp
    default: sentences(for: notice).joined(separator: " ")
    }
  }

  /// A notice in full, as plain mode says it: the board, the help and the analysis take
  /// several lines.
  public func sentences(for notice: Notice.Kind) -> [String] {
    switch notice {
    case .refused(let error): [error.description]
    case .notYourTurn: ["It is not your turn."]
    case .stillSaving: ["That did nothing: the last move was still being saved."]
    case .answerYesOrNo: [typedQuestion ?? "Answer yes or no."]
    case .stopped: [failure?.sentence ?? "The game stopped."]
    case .nothingToUndo:
      // The computer's moves alone (it moved first, or plays both sides) are not taken back.
      [
        game.moves.isEmpty
          ? "There is no move to undo."
          : "Undo takes back only a person's moves; the computer's stay."
      ]
    case .nothingToRedo: ["There is no move to redo."]
    case .undone(let count):
      [count == 1 ? "One move taken back." : "\(count) moves taken back."]
    case .redone(let count):
      [count == 1 ? "One move played again." : "\(count) moves played again."]
    case .hint(let cell): ["Hint: \(cell.name)."]
    case .analysis: analysisSentences
    case .keptPlaying: ["The game goes on."]
    case .noMoveFound: ["The computer could not find a move."]
    case .digitsNeedTheClassicBoard:
      ["Digits pick cells only on a 3×3 board; name the cell, such as b2."]
    case .help: [Self.typingHelp]
    case .board: [board.diagram, title]
    case .unknownCommand(let text):
      ["Unknown command \"\(text.quotable)\". \(Self.typingHelp)"]
    }
  }

  /// The question as plain mode asks it, or `nil` when nothing is asked.
  public var typedQuestion: String? {
    isConfirmingQuit ? "\(quitConfirmationMessage) Type yes or no." : nil
  }

  /// The commands of plain mode, in one sentence.
  public static let typingHelp =
    "Type a cell such as b2 (or 1 to 9 on a 3×3 board) to play; undo, redo, hint, analysis, new, "
    + "board, quit."

  /// The board as plain mode shows it after a move: the diagram, or on a board of more than
  /// 49 cells, where a diagram a move would drown the sentences, a one-line summary.
  public var boardForTyping: String {
    guard board.rows * board.columns > 49 else { return board.diagram }
    let moves = game.moves.count
    return "\(board.rows)×\(board.columns) board, \(moves) move\(moves == 1 ? "" : "s") played; "
      + "type board to see it."
  }

  /// What plain mode says when its input ends: that the game is saved only when it is.
  public var endOfInputSentence: String? {
    guard failure == nil, !isGameOver, !game.moves.isEmpty, !isSaving else { return nil }
    return "Input ended; the unfinished game is saved."
  }
}

extension Notice.Kind {
  /// Whether the notice refuses something, shown as a problem.
  public var isProblem: Bool {
    switch self {
    case .refused, .notYourTurn, .stillSaving, .answerYesOrNo, .stopped, .nothingToUndo,
      .nothingToRedo, .noMoveFound, .digitsNeedTheClassicBoard, .unknownCommand:
      true
    case .undone, .redone, .hint, .analysis, .keptPlaying, .help, .board:
      false
    }
  }
}

extension GameFeature.SaveFailure {
  /// The failure in one sentence: why, and what is not stored.
  ///
  /// For example `The database … is full (…); the game stopped, and X's move c3 is not stored.`
  public var sentence: String {
    var reason = self.reason
    while reason.last == "." { reason.removeLast() }
    return "\(reason); the game stopped, and \(whatIsLost)."
  }

  private var whatIsLost: String {
    let common = zip(stored.moves, unstored.moves).prefix { $0 == $1 }.count
    let added = unstored.moves.dropFirst(common)
    if isDatabaseGone, write == .abandon || stored.moves == unstored.moves {
      return "nothing of the game is kept"
    }
    if write == .abandon { return "the abandoned game is still saved" }
    if stored.moves == unstored.moves { return "the unfinished game may not be kept" }
    guard !added.isEmpty else {
      let taken = stored.moves.count - common
      return "taking back \(taken == 1 ? "a move" : "\(taken) moves") is not stored"
    }
    var mark = unstored.start.firstMover
    if !common.isMultiple(of: 2) { mark = mark.opponent }
    var names: [String] = []
    for move in added {
      names.append("\(mark.symbol)'s move \(move.name)")
      mark = mark.opponent
    }
    return names.joined(separator: " and ") + (names.count == 1 ? " is" : " are") + " not stored"
  }
}
