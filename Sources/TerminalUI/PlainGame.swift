public import GameCore
import GameRules

/// Plain mode's pure parts: what to say after each change, and what a typed
/// line asks of the core.
public enum PlainGame {
  /// What a typed line leads to.
  public enum Response: Equatable, Sendable {
    /// Send these to the core, in order.
    case send([GameFeature.Action.View])
    /// Print this, and send nothing.
    case say(String)
    /// Print the board and title again.
    case showBoard
    /// Leave the program.
    case exit
  }

  /// The help printed for `help`.
  public static let help =
    "Type a cell such as b2 (or 1 to 9 on a 3×3 board) to play; undo, redo, hint, analysis, new, "
    + "board, quit."

  /// What `line` asks of the core in `state`.
  public static func respond(to line: String, state: GameFeature.State) -> Response {
    let board = state.board
    let command = PlainCommand(parsing: line, rows: board.rows, columns: board.columns)
    if state.isConfirmingQuit {
      switch line.trimmingWhitespace().lowercased() {
      case "y", "yes", "q", "quit": return .send([.quitConfirmed])
      case "n", "no": return .send([.quitCancelled])
      default: return .say("\(state.quitConfirmationMessage) Type yes or no.")
      }
    }
    switch command {
    case .nothing: return .send([])
    case .play(let cell):
      do {
        _ = try board.playing(at: cell)
      } catch {
        return .say(error.description)
      }
      guard state.isBoardEnabled else { return .say("It is not your turn.") }
      return .send([.cellTapped(cell)])
    case .undo:
      return state.canUndo ? .send([.undoTapped]) : .say("There is no move to undo.")
    case .redo:
      return state.canRedo ? .send([.redoTapped]) : .say("There is no move to redo.")
    case .hint:
      return state.canHint ? .send([.hintTapped]) : .say("No hint now.")
    case .analysis:
      // Shown already (no move since): say it again rather than hide it.
      if state.analysis != nil { return .say(analysisSentences(state).joined(separator: "\n")) }
      return state.canAnalyze ? .send([.analysisTapped]) : .say("No analysis now.")
    case .newGame: return .send([.playAgainTapped])
    case .quit: return .send([.quitTapped])
    case .help: return .say(help)
    case .board: return .showBoard
    case .unknown(let text):
      return .say("Unknown command \"\(text)\". \(help)")
    }
  }

  /// The analysis in two sentences: the summary, then every empty cell's value.
  ///
  /// For example `X to move: draw. Best: b2.` and `Values: a1 draw, b1 loss in 2.`
  static func analysisSentences(_ state: GameFeature.State) -> [String] {
    guard let summary = state.analysisSummary else { return [] }
    let values = state.rows.joined().compactMap { cell in
      cell.analysisText.map { "\(cell.cell.name) \($0)" }
    }
    return [summary, "Values: \(values.joined(separator: ", "))."]
  }

  /// Remembers what plain mode has said, to say only what is new after each change.
  public struct Narrator: Sendable {
    private var said: [String] = []
    private var lastTitle: String?
    private var lastHint: Cell?
    private var wasAnalysing = false
    private var lastError: String?
    private var wasConfirming = false
    private var boardIsDue = true

    /// Creates a narrator that has said nothing.
    public init() {}

    /// The lines to print for `state`: new moves, the board once the computer is done, the
    /// result, a new title, a hint, a problem or a question.
    public mutating func lines(for state: GameFeature.State) -> [String] {
      var output: [String] = []
      var moves = state.narration
      let result = state.resultSentence
      if result != nil { moves.removeLast() }
      let common = zip(said, moves).prefix { $0 == $1 }.count
      if common < said.count || moves.count > said.count { boardIsDue = true }
      let takenBack = said.count - common
      if takenBack > 0 {
        output.append(takenBack == 1 ? "One move taken back." : "\(takenBack) moves taken back.")
      }
      output += moves.dropFirst(common)
      said = moves
      let isPersonsTurn = !state.isThinking
      if boardIsDue && isPersonsTurn {
        output.append(state.board.diagram)
        boardIsDue = false
        if let result { output.append(result) }
      }
      if state.title != lastTitle || (takenBack > 0 && isPersonsTurn),
        isPersonsTurn || state.isThinking
      {
        output.append(state.title)
        lastTitle = state.title
      }
      if let hint = state.hint, hint != lastHint { output.append("Hint: \(hint.name).") }
      lastHint = state.hint
      if state.analysis != nil, !wasAnalysing { output += PlainGame.analysisSentences(state) }
      wasAnalysing = state.analysis != nil
      if let error = state.errorMessage, error != lastError { output.append(error) }
      lastError = state.errorMessage
      if state.isConfirmingQuit, !wasConfirming {
        output.append("\(state.quitConfirmationMessage) Type yes or no.")
      }
      wasConfirming = state.isConfirmingQuit
      return output
    }

    /// Forgets the board so that the next change prints it, as `board` asks.
    public mutating func showBoardAgain() {
      boardIsDue = true
      lastTitle = nil
    }
  }
}
