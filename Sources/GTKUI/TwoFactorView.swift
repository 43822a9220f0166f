public import TwoFactorCore

/// The Two-factor screen: a code from an authenticator app or a recovery code.
public final class TwoFactorView {
  /// The screen's top widget.
  public let root: Element
  package let codeEntry = Entry(placeholder: "123456", accessibleName: "Code")
  package let verifyButton = Button(mnemonic: "_Verify").classes("suggested-action")
  package let cancelButton = Button(mnemonic: "_Cancel")

  private let titleLabel = Label().classes("title")
  private let promptLabel = Label()
  private let spinner = Spinner()
  private let errorLabel = Label().classes("error")

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (TwoFactor.Action.View) -> Void) {
    Entry.send([codeEntry: TwoFactor.Action.View.codeChanged], submit: .submitTapped, to: send)
    Button.send([verifyButton: .submitTapped, cancelButton: .cancelTapped], to: send)
    errorLabel.isVisible = false
    root = formColumn(
      titleLabel, promptLabel, codeEntry, Box.row(verifyButton, cancelButton, spinner),
      errorLabel)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: TwoFactor.State) {
    (titleLabel.text, promptLabel.text) = (state.title, state.prompt)
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
