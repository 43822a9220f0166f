public import TwoFactorCore

/// The Two-factor screen: a code from an authenticator app or a recovery code.
///
/// The header bar's back button cancels.
public final class TwoFactorView {
  /// The screen's top widget.
  public let root: Element
  package let codeEntry = Entry(rowTitle: "")
  package let verifyButton = Button(mnemonic: "_Verify").classes("suggested-action", "pill")

  private let promptLabel = Label().centeredText()
  private let spinner = Spinner()
  private let errorLabel = Label().classes("error").centeredText()

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (TwoFactor.Action.View) -> Void) {
    Entry.send([codeEntry: TwoFactor.Action.View.codeChanged], submit: .submitTapped, to: send)
    Button.send([verifyButton: .submitTapped], to: send)
    errorLabel.isVisible = false
    root = formColumn(
      promptLabel, BoxedList([codeEntry]), errorLabel,
      Box.row(spacing: 12, verifyButton, spinner).centered(), width: 420, spacing: 18)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: TwoFactor.State) {
    promptLabel.text = state.prompt
    codeEntry.title = state.codeTitle
    (codeEntry.text, codeEntry.accessibleDescription) = (state.code, state.prompt)
    (codeEntry.isSensitive, verifyButton.isSensitive) = (state.isFormEnabled, state.canSubmit)
    spinner.isSpinning = state.showsProgress
    errorLabel.message = state.errorMessage
  }

  /// Puts the keyboard focus in the code field.
  public func focus() {
    codeEntry.grabFocus()
  }
}
