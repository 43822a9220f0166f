public import LoginCore

/// The Sign in screen: user name, password, Sign in, Create account and Play as guest.
public final class LoginView {
  /// The screen's top widget.
  public let root: Element
  package let userNameEntry = Entry(placeholder: "User name")
  package let passwordEntry = Entry(isPassword: true)
  package let repeatedPasswordEntry = Entry(isPassword: true)
  package let signInButton = Button(mnemonic: "_Sign in").classes("suggested-action")
  package let createAccountButton = Button(mnemonic: "_Create account")
  package let guestButton = Button(mnemonic: "Play as _guest")
  package let errorLabel = Label().classes("error")

  private let titleLabel = Label().classes("title")
  private let repeatedPasswordLabel = Label("_Repeat the password")
  private let spinner = Spinner()

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (Login.Action.View) -> Void) {
    userNameEntry.onChange = { send(.userNameChanged($0)) }
    userNameEntry.onActivate = { send(.signInTapped) }
    passwordEntry.onChange = { send(.passwordChanged($0)) }
    passwordEntry.onActivate = { send(.signInTapped) }
    repeatedPasswordEntry.onChange = { send(.repeatedPasswordChanged($0)) }
    repeatedPasswordEntry.onActivate = { send(.createAccountTapped) }
    repeatedPasswordLabel.mnemonic(for: repeatedPasswordEntry)
    signInButton.action = { send(.signInTapped) }
    createAccountButton.action = { send(.createAccountTapped) }
    guestButton.action = { send(.playAsGuestTapped) }
    errorLabel.isVisible = false
    root = formColumn(
      titleLabel, Label("_User name").mnemonic(for: userNameEntry), userNameEntry,
      Label("_Password").mnemonic(for: passwordEntry), passwordEntry, repeatedPasswordLabel,
      repeatedPasswordEntry, Box.row(signInButton, createAccountButton, spinner), errorLabel,
      guestButton)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: Login.State) {
    titleLabel.text = state.title
    userNameEntry.text = state.userName
    passwordEntry.text = state.password
    let wasRepeating = repeatedPasswordEntry.isVisible
    repeatedPasswordLabel.isVisible = state.isRepeatingPassword
    repeatedPasswordEntry.isVisible = state.isRepeatingPassword
    repeatedPasswordEntry.text = state.repeatedPassword ?? ""
    repeatedPasswordEntry.isSensitive = state.isFormEnabled
    if state.isRepeatingPassword && !wasRepeating { repeatedPasswordEntry.grabFocus() }
    userNameEntry.isSensitive = state.isFormEnabled
    passwordEntry.isSensitive = state.isFormEnabled
    signInButton.isSensitive = state.canSubmit
    createAccountButton.isSensitive = state.canSubmit
    guestButton.isSensitive = state.isFormEnabled
    spinner.isSpinning = state.showsProgress
    errorLabel.message = state.errorMessage ?? state.repeatPasswordPrompt
    errorLabel.setClass("error", state.errorMessage != nil)
  }

  /// Puts the keyboard focus in the user name field.
  public func focus() {
    userNameEntry.grabFocus()
  }
}
