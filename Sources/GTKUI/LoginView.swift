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
    Entry.send(
      [userNameEntry: Login.Action.View.userNameChanged, passwordEntry: { .passwordChanged($0) }],
      submit: .signInTapped, to: send)
    Entry.send(
      [repeatedPasswordEntry: Login.Action.View.repeatedPasswordChanged],
      submit: .createAccountTapped, to: send)
    repeatedPasswordLabel.mnemonic(for: repeatedPasswordEntry)
    Button.send(
      [
        signInButton: .signInTapped, createAccountButton: .createAccountTapped,
        guestButton: .playAsGuestTapped,
      ], to: send)
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
    if state.isRepeatingPassword && !wasRepeating { repeatedPasswordEntry.grabFocus() }
    for field in [userNameEntry, passwordEntry, repeatedPasswordEntry] as [Element] + [guestButton]
    {
      field.isSensitive = state.isFormEnabled
    }
    for button in [signInButton, createAccountButton] { button.isSensitive = state.canSubmit }
    spinner.isSpinning = state.showsProgress
    errorLabel.message = state.errorMessage ?? state.repeatPasswordPrompt
    errorLabel.setClass("error", state.errorMessage != nil)
  }

  /// Puts the keyboard focus in the user name field.
  public func focus() {
    userNameEntry.grabFocus()
  }
}
