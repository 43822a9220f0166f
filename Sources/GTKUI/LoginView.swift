import AppCore
import GameCore
import GameRules
public import LoginCore

/// The Sign in screen: a boxed list with the user name, the password and the server, Sign in,
/// Create account and Play as guest.
///
/// The title is the window's. A server seen for the first time is trusted only after the
/// core's question, asked in a message dialog, is answered.
public final class LoginView {
  /// The screen's top widget.
  public let root: Element
  package let userNameEntry = Entry(rowTitle: Login.State.fieldTitles.userName)
  package let passwordEntry = Entry(isPassword: true)
  package let repeatedPasswordEntry = Entry(isPassword: true)
  package let signInButton = Button(mnemonic: "_Sign in").classes("suggested-action", "pill")
  package let createAccountButton = Button(mnemonic: "_Create account").classes("pill")
  package let guestButton = Button(mnemonic: "Play as _guest").classes("flat")
  package let errorLabel = Label().classes("error").centeredText()
  /// The game server; empty means this computer.
  package let serverEntry = Entry(rowTitle: Login.State.serverFieldTitle)
  /// Whose accounts the form uses: this computer's, or the server's.
  package let serverNoteLabel = Label().classes("dim-label", "caption").centeredText()
  /// The question about a server seen for the first time, while it is asked.
  package var trustDialog: MessageDialog? { asked.dialog }

  private let promptLabel = Label().centeredText().classes("dim-label")
  /// A won game drawn small above the form, skipped by assistive technologies.
  private let logo = Canvas().size(width: 112, height: 112).centered()
  private let repeatedPasswordRow: FieldRow
  private let spinner = Spinner()
  private let progressLabel = Label().classes("dim-label").centeredText()
  private let asked: AskedQuestion
  private let send: (Login.Action.View) -> Void

  /// Creates the screen over `parent`, which its questions are asked over; `send` receives the
  /// player's actions.
  public init(over parent: Window? = nil, send: @escaping (Login.Action.View) -> Void) {
    asked = AskedQuestion(over: parent)
    self.send = send
    Entry.send(
      [
        userNameEntry: Login.Action.View.userNameChanged, passwordEntry: { .passwordChanged($0) },
        serverEntry: { .serverChanged($0) },
      ],
      submit: .signInTapped, to: send)
    Entry.send(
      [repeatedPasswordEntry: Login.Action.View.repeatedPasswordChanged],
      submit: .createAccountTapped, to: send)
    Button.send(
      [
        signInButton: .signInTapped, createAccountButton: .createAccountTapped,
        guestButton: .playAsGuestTapped,
      ], to: send)
    let titles = Login.State.fieldTitles
    repeatedPasswordRow = FieldRow(caption: titles.repeatedPassword, field: repeatedPasswordEntry)
    repeatedPasswordRow.isVisible = false
    errorLabel.isVisible = false
    let fields = BoxedList([
      userNameEntry, FieldRow(caption: titles.password, field: passwordEntry), repeatedPasswordRow,
      serverEntry,
    ])
    logo.onDraw { [logo] context, width, height in
      BoardPainter.paint(
        BoardPicture(rows: Self.logoCells), palette: logo.themePalette(), on: context,
        width: width, height: height)
    }
    let name = Label(AppInfo.name, wraps: false).classes("title-1").centeredText()
    root = Scrolled(
      formColumn(
        logo, name, promptLabel, fields, serverNoteLabel, errorLabel,
        Box.row(spacing: 12, signInButton, createAccountButton, spinner).centered(), progressLabel,
        guestButton.centered(), width: 420, spacing: 18))
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: Login.State) {
    promptLabel.text = state.prompt
    userNameEntry.text = state.userName
    passwordEntry.text = state.password
    let wasRepeating = repeatedPasswordRow.isVisible
    repeatedPasswordRow.isVisible = state.isRepeatingPassword
    repeatedPasswordEntry.text = state.repeatedPassword ?? ""
    if state.isRepeatingPassword && !wasRepeating { repeatedPasswordEntry.grabFocus() }
    serverEntry.text = state.server
    serverNoteLabel.text = state.serverNote
    progressLabel.message = state.progressMessage
    for field
      in [userNameEntry, passwordEntry, repeatedPasswordEntry, serverEntry] as [Element]
      + [guestButton]
    {
      field.isSensitive = state.isFormEnabled
    }
    for button in [signInButton, createAccountButton] { button.isSensitive = state.canSubmit }
    spinner.isSpinning = state.showsProgress
    errorLabel.message = state.errorMessage ?? state.repeatPasswordPrompt
    errorLabel.setClass("error", state.errorMessage != nil)
    renderTrustQuestion(state)
  }

  /// Asks whether to trust a server seen for the first time, while the core asks it.
  private func renderTrustQuestion(_ state: Login.State) {
    let answers = Login.State.trustAnswers
    let question = state.trustQuestionMessage.map {
      Question(
        heading: Login.State.trustQuestionTitle, body: $0, keep: answers.refuse,
        act: answers.trust, actStyle: .suggested)
    }
    asked.render(question, actions: (.trustCancelled, .trustConfirmed), send: send)
  }

  /// The logo's game: X wins along a diagonal.
  private static let logoCells: [[CellPresentation]] = {
    let moves = ["a1", "b1", "b2", "c1", "c3"].compactMap { Cell(name: $0) }
    guard let game = try? Game(start: .classic, moves: moves) else { return [] }
    let shown = GameFeature.State(
      settings: GameSettings(xName: "", oName: ""), game: game, startedAt: 0)
    return shown.rows
  }()

  /// Whether the field asking for the password again shows.
  package var isAskingForThePasswordAgain: Bool { repeatedPasswordRow.isVisible }

  /// Puts the keyboard focus in the user name field.
  public func focus() {
    userNameEntry.grabFocus()
  }
}
