import GameCore
import GameRules
public import NewGameCore

/// The New game screen: players, mode, the computer's side and strength, board, who starts.
public final class NewGameView {
  /// The screen's top widget.
  public let root: Element
  package let xNameEntry = Entry(placeholder: "Name")
  package let oNameEntry = Entry(placeholder: "Name")
  package let letsPlayButton = Button(mnemonic: "_Let's play!").classes("suggested-action")
  package let statsButton = Button(mnemonic: "S_tats")
  package let signOutButton = Button(mnemonic: "Sign _out")
  package let recoveryCodesButton = Button(mnemonic: "Re_covery codes")
  package let resumeButton = Button(mnemonic: "_Resume")
  package let discardButton = Button(mnemonic: "_Discard")
  package let sizeField = NumberField(range: Board.minimumSide...Board.maximumSide)
  package let kField = NumberField(range: Board.kRange(rows: 3, columns: 3))

  private let titleLabel = Label().classes("title")
  private let accountLabel = Label().classes("dim-label")
  private let resumeLabel = Label()
  private let resumeBar: Box
  private let validationLabel = Label().classes("dim-label")
  private let errorLabel = Label().classes("error")
  private let modeChoice = Choice(GameMode.allCases.map { ($0, $0.title, $0.title) })
  private let computerChoice = Choice(
    Mark.allCases.map { ($0, $0.symbol, "Computer plays \($0.symbol)") })
  private let difficultyChoice = Choice(
    Difficulty.named.map { ($0.difficulty, $0.difficulty.displayName, $0.difficulty.displayName) }
  )
  private let startChoice = Choice(StartingRule.allCases.map { ($0, $0.title, $0.title) })
  private var computerRow: [Element] = []
  private var difficultyRow: [Element] = []

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (NewGame.Action.View) -> Void) {
    Entry.send(
      [xNameEntry: NewGame.Action.View.xNameChanged, oNameEntry: { .oNameChanged($0) }],
      submit: .letsPlayTapped, to: send)
    modeChoice.onSelect = { send(.modeChanged($0)) }
    computerChoice.onSelect = { send(.computerMarkChanged($0)) }
    difficultyChoice.onSelect = { send(.difficultyChanged($0)) }
    startChoice.onSelect = { send(.startingRuleChanged($0)) }
    sizeField.onChange = { send(.sizeChanged($0)) }
    kField.onChange = { send(.kChanged($0)) }
    Button.send(
      [
        letsPlayButton: .letsPlayTapped, statsButton: .statsTapped,
        signOutButton: .signOutTapped, recoveryCodesButton: .recoveryCodesTapped,
        resumeButton: .resumeTapped, discardButton: .discardResumeTapped,
      ], to: send)
    resumeBar = Box.row(resumeLabel, resumeButton, discardButton).classes("resume")
    resumeBar.isVisible = false
    errorLabel.isVisible = false

    let form = Grid(rowSpacing: 8, columnSpacing: 12)
    var row = 0
    func addRow(_ title: String, _ control: Element, mnemonic: Bool = false) -> [Element] {
      let label = Label(title, wraps: false)
      if mnemonic { label.mnemonic(for: control) }
      form.attach(label, row: row, column: 0)
      form.attach(control, row: row, column: 1)
      row += 1
      return [label, control]
    }
    _ = addRow("_X player", xNameEntry, mnemonic: true)
    _ = addRow("_O player", oNameEntry, mnemonic: true)
    _ = addRow("Mode", modeChoice)
    computerRow = addRow("Computer plays", computerChoice)
    difficultyRow = addRow("Difficulty", difficultyChoice)
    _ = addRow("_Board size", sizeField, mnemonic: true)
    _ = addRow("_In a row to win", kField, mnemonic: true)
    _ = addRow("Who starts", startChoice)

    root = Scrolled(
      formColumn(
        titleLabel, accountLabel, resumeBar, form, validationLabel,
        Box.row(letsPlayButton, statsButton, recoveryCodesButton, signOutButton), errorLabel,
        width: 480,
        spacing: 12))
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: NewGame.State) {
    let settings = state.settings
    titleLabel.text = state.title
    accountLabel.text = state.accountLine
    resumeLabel.message = state.resumeMessage
    resumeBar.isVisible = state.resumeMessage != nil
    (xNameEntry.text, oNameEntry.text) = (settings.xName, settings.oName)
    (modeChoice.selected, computerChoice.selected) = (settings.mode, settings.computerMark)
    (difficultyChoice.selected, startChoice.selected) = (settings.difficulty, settings.startingRule)
    for element in computerRow { element.isSensitive = state.isComputerMarkEnabled }
    for element in difficultyRow { element.isSensitive = state.isDifficultyEnabled }
    sizeField.value = settings.rows
    (kField.range, kField.value) = (state.kRange, settings.k)
    (validationLabel.message, errorLabel.message) = (state.validationMessage, state.errorMessage)
    letsPlayButton.isSensitive = state.canStart
    recoveryCodesButton.isVisible = state.session != nil
    signOutButton.setMnemonic(state.signOutTitle)
  }

  /// Puts the keyboard focus on Resume when a game waits, else on Let's play!.
  public func focus() {
    if resumeBar.isVisible { resumeButton.grabFocus() } else { letsPlayButton.grabFocus() }
  }
}
