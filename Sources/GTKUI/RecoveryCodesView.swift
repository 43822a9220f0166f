public import TwoFactorCore

/// The Recovery codes screen: how many one-time codes remain, and new ones on request.
///
/// New codes come after a question in a dialog. The header bar's back button closes it.
public final class RecoveryCodesView {
  /// The screen's top widget.
  public let root: Element
  package let remainingLabel = Label().centeredText()
  package let newCodesButton = Button(mnemonic: "_Make new codes").classes("pill")
  package let codesLabel = Label().classes("codes", "card").centeredText()
  /// The question asked before the old codes are replaced, while it is asked.
  package var confirmation: MessageDialog? { asked.dialog }

  private let asked: AskedQuestion
  private let send: (RecoveryCodes.Action.View) -> Void
  private let spinner = Spinner()
  private let noteLabel = Label().centeredText()
  private let errorLabel = Label().classes("error").centeredText()

  /// Creates the screen over `parent`; `send` receives the player's actions.
  public init(over parent: Window? = nil, send: @escaping (RecoveryCodes.Action.View) -> Void) {
    asked = AskedQuestion(over: parent)
    self.send = send
    Button.send([newCodesButton: .newCodesTapped], to: send)
    for hidden in [noteLabel, codesLabel, errorLabel] as [Element] { hidden.isVisible = false }
    root = formColumn(
      spinner.centered(), remainingLabel, noteLabel, codesLabel, errorLabel,
      newCodesButton.centered(), width: 420, spacing: 18)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: RecoveryCodes.State) {
    spinner.isSpinning = state.isRequestInFlight
    remainingLabel.message = state.remainingText
    noteLabel.message = state.newCodesNote
    codesLabel.message = state.newCodes?.joined(separator: "\n")
    newCodesButton.isSensitive = state.canMakeNewCodes && !state.isConfirming
    errorLabel.message = state.errorMessage
    renderQuestion(state)
  }

  private func renderQuestion(_ state: RecoveryCodes.State) {
    let answers = state.confirmationAnswers
    let question = Question(
      heading: state.confirmationHeading, body: state.confirmationDetail, keep: answers.keep,
      act: answers.confirm)
    asked.render(
      state.isConfirming ? question : nil, actions: (.newCodesCancelled, .newCodesConfirmed),
      send: send)
  }

  /// Puts the keyboard focus on Make new codes.
  public func focus() {
    newCodesButton.grabFocus()
  }
}
