public import TwoFactorCore

/// The Recovery codes screen: how many one-time codes remain, and new ones on request.
public final class RecoveryCodesView {
  /// The screen's top widget.
  public let root: Element
  package let remainingLabel = Label()
  package let newCodesButton = Button(mnemonic: "_Make new codes")
  package let confirmButton = Button(mnemonic: "Make _new codes").classes("destructive-action")
  package let codesLabel = Label().classes("codes")
  package let closeButton = Button(mnemonic: "_Done")

  private let titleLabel = Label().classes("title")
  private let spinner = Spinner()
  private let noteLabel = Label()
  private let confirmBar: Box
  private let confirmLabel = Label()
  private let errorLabel = Label().classes("error")

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (RecoveryCodes.Action.View) -> Void) {
    Button.send(
      [
        newCodesButton: .newCodesTapped, confirmButton: .newCodesConfirmed,
        closeButton: .closeTapped,
      ],
      to: send)
    confirmBar = Box.row(
      confirmLabel, confirmButton,
      Button(mnemonic: "_Keep the old ones") { send(.newCodesCancelled) })
    for hidden in [confirmBar, noteLabel, codesLabel, errorLabel] as [Element] {
      hidden.isVisible = false
    }
    root = formColumn(
      Box.row(spacing: 12, titleLabel, spinner), remainingLabel, noteLabel, codesLabel,
      confirmBar, errorLabel, Box.row(newCodesButton, closeButton))
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: RecoveryCodes.State) {
    titleLabel.text = state.title
    spinner.isSpinning = state.isRequestInFlight
    remainingLabel.message = state.remainingText
    noteLabel.message = state.newCodesNote
    codesLabel.message = state.newCodes?.joined(separator: "\n")
    confirmBar.isVisible = state.isConfirming
    confirmLabel.text = state.confirmationMessage
    newCodesButton.isSensitive = state.canMakeNewCodes && !state.isConfirming
    errorLabel.message = state.errorMessage
  }

  /// Puts the keyboard focus on Done.
  public func focus() {
    closeButton.grabFocus()
  }
}
