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
    codeEntry.onChange = { send(.codeChanged($0)) }
    codeEntry.onActivate = { send(.submitTapped) }
    verifyButton.action = { send(.submitTapped) }
    cancelButton.action = { send(.cancelTapped) }
    errorLabel.isVisible = false
    root = formColumn(
      titleLabel, promptLabel, codeEntry, Box.row(verifyButton, cancelButton, spinner),
      errorLabel)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: TwoFactor.State) {
    titleLabel.text = state.title
    promptLabel.text = state.prompt
    codeEntry.accessibleDescription = state.prompt
    codeEntry.text = state.code
    codeEntry.isSensitive = state.isFormEnabled
    verifyButton.isSensitive = state.canSubmit
    spinner.isSpinning = state.showsProgress
    errorLabel.message = state.errorMessage
  }

  /// Puts the keyboard focus in the code field.
  public func focus() {
    codeEntry.grabFocus()
  }
}
