public import AppCore
import GameCore
import NewGameCore

/// Plain mode's narration: what to say after each change of the app's state, in the core's
/// sentences, so that a screen reader or a script hears every event once.
public struct PlainNarrator: Sendable {
  /// Lines for standard output and for standard error.
  public struct Output: Equatable, Sendable {
    /// What is said.
    public var lines: [String] = []
    /// Problems with the records, for standard error.
    public var errors: [String] = []
  }

  private var said: [String] = []
  private var lastTitle: String?
  private var lastNotice: Int?
  private var wasConfirming = false
  private var boardIsDue = true
  private var lastOffer: (message: String, reminders: Int)?
  private var lastError: String?

  /// Creates a narrator that has said nothing.
  public init() {}

  /// What to say for `state`: new moves, what the last action did, the board once the computer
  /// is done, the result, a new title, a question, and problems on standard error.
  public mutating func output(for state: TicTacToe.State) -> Output {
    var output = Output()
    if let newGame = state.newGameState {
      if let error = newGame.errorMessage, error != lastError { output.errors.append(error) }
      lastError = newGame.errorMessage
      if newGame.game == nil, let question = newGame.typedResumeQuestion {
        let offer = (question, newGame.unansweredLines)
        if lastOffer?.message != offer.0 || lastOffer?.reminders != offer.1 {
          output.lines.append(question)
        }
        lastOffer = offer
      }
      if let game = newGame.game { output.lines += lines(for: game) }
    }
    return output
  }

  private mutating func lines(for state: GameFeature.State) -> [String] {
    var output: [String] = []
    var moves = state.narration
    let result = state.resultSentence
    if result != nil { moves.removeLast() }
    let common = zip(said, moves).prefix { $0 == $1 }.count
    if common < said.count || moves.count > said.count { boardIsDue = true }
    output += moves.dropFirst(common)
    said = moves
    if let notice = state.notice, notice.number != lastNotice {
      output += state.sentences(for: notice.kind)
      switch notice.kind {
      case .board: boardIsDue = false
      case .undone, .redone: lastTitle = nil
      default: break
      }
      lastNotice = notice.number
    }
    let isPersonsTurn = state.phase == .playing || state.recordID != nil
    if boardIsDue && isPersonsTurn {
      output.append(state.boardForTyping)
      boardIsDue = false
      if let result { output.append(result) }
      // A board shown anew (a new game, whoever starts) is followed by whose turn it is.
      lastTitle = nil
    }
    // After a question is answered, say again whose turn it is.
    if wasConfirming, !state.isConfirmingQuit { lastTitle = nil }
    // At the end the result sentence is the announcement; the title would say it again.
    if state.title != lastTitle, isPersonsTurn || state.isThinking {
      if result == nil { output.append(state.title) }
      lastTitle = state.title
    }
    if state.isConfirmingQuit, !wasConfirming, let question = state.typedQuestion {
      output.append(question)
    }
    wasConfirming = state.isConfirmingQuit
    return output
  }
}
