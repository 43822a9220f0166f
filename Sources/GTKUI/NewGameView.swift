import GameCore
import GameRules
public import NewGameCore

/// The New game screen: boxed lists of the players, the opponent and the board.
///
/// Below them: Let's play, Stats and the recovery codes. The title, who is playing and the way
/// back (Sign out) are the header bar's.
///
/// Signed in on a game server, the form is the server's: the board of a game to create, Create
/// online game, the invite code with Join with code and Watch, and Open games.
public final class NewGameView {
  /// The screen's top widget.
  public let root: Element
  package let xNameEntry = Entry(rowTitle: "")
  package let oNameEntry = Entry(rowTitle: "")
  package let letsPlayButton = Button(mnemonic: "_Let's play!").classes("suggested-action", "pill")
  package let statsButton = Button(mnemonic: "S_tats").classes("pill")
  package let recoveryCodesButton = Button(mnemonic: "Re_covery codes").classes("pill")
  package let resumeButton = Button(mnemonic: "_Resume").classes("suggested-action")
  package let discardButton = Button(mnemonic: "_Discard")
  package let sizeRow = ComboRow(title: NewGame.Choice.size.title)
  package let kField = NumberField(range: Board.kRange(rows: 3, columns: 3))
  package let createOnlineButton = Button(mnemonic: "C_reate online game")
    .classes("suggested-action", "pill")
  package let inviteCodeEntry = Entry(rowTitle: NewGame.State.inviteCodeTitle)
  package let joinButton = Button(mnemonic: "_Join with code")
  package let watchButton = Button(mnemonic: "_Watch")
  package let openGamesButton = Button(mnemonic: "_Open games").classes("pill")

  private let resumeRow = ActionRow(title: "")
  private let resumeList: BoxedList
  private let validationLabel = Label().classes("dim-label").centeredText()
  private let errorLabel = Label().classes("error").centeredText()
  private let difficultyNoteLabel = Label().classes("dim-label").centeredText()
  private let modeChoice = Choice(GameMode.allCases.map { ($0, $0.title, $0.title) })
  private let computerChoice = Choice(
    Mark.allCases.map { ($0, $0.symbol, NewGame.State.computerMarkName($0)) })
  private let difficultyChoice = Choice(
    Difficulty.named.map { ($0.difficulty, $0.difficulty.displayName, $0.difficulty.displayName) }
  )
  private let startChoice = Choice(StartingRule.allCases.map { ($0, $0.title, $0.title) })
  private let computerRow: ActionRow
  private let difficultyRow: ActionRow
  private let playersList: BoxedList
  private let opponentList: BoxedList
  private let onlineList: BoxedList
  private let send: (NewGame.Action.View) -> Void
  private let asked: AskedQuestion
  /// Whether the focus goes back to the invite code (see `NewGame.State`).
  private var returnsToInviteCode = false
  /// The question asked before the game offered for resume is discarded, while it is asked.
  package var confirmation: MessageDialog? { asked.dialog }

  /// Creates the screen over `parent`, which its question is asked over; `send` receives the
  /// player's actions.
  public init(over parent: Window? = nil, send: @escaping (NewGame.Action.View) -> Void) {
    self.send = send
    asked = AskedQuestion(over: parent)
    Entry.send(
      [xNameEntry: NewGame.Action.View.xNameChanged, oNameEntry: { .oNameChanged($0) }],
      submit: .letsPlayTapped, to: send)
    modeChoice.onSelect = { send(.modeChanged($0)) }
    computerChoice.onSelect = { send(.computerMarkChanged($0)) }
    difficultyChoice.onSelect = { send(.difficultyChanged($0)) }
    startChoice.onSelect = { send(.startingRuleChanged($0)) }
    sizeRow.choices = NewGame.State.sizeChoices.map(\.title)
    sizeRow.onSelect = { send(.sizeChanged(NewGame.State.sizeChoices[$0].side)) }
    kField.onChange = { send(.kChanged($0)) }
    // Its row's title shows beside it, but names only the row.
    kField.accessibleName = NewGame.Choice.k.title
    Button.send(
      [
        letsPlayButton: .letsPlayTapped, statsButton: .statsTapped,
        recoveryCodesButton: .recoveryCodesTapped, resumeButton: .resumeTapped,
        discardButton: .discardResumeTapped, createOnlineButton: .createOnlineGameTapped,
        joinButton: .joinTapped, watchButton: .watchTapped, openGamesButton: .openGamesTapped,
      ], to: send)
    Entry.send(
      [inviteCodeEntry: NewGame.Action.View.inviteCodeChanged], submit: .joinTapped, to: send)
    resumeRow.addSuffix(Box.row(resumeButton, discardButton))
    resumeList = BoxedList([resumeRow])
    resumeList.isVisible = false
    errorLabel.isVisible = false

    let titles = NewGame.State.sectionTitles
    computerRow = ActionRow(title: NewGame.Choice.computerMark.title).addSuffix(computerChoice)
    difficultyRow = ActionRow(title: NewGame.Choice.difficulty.title).addSuffix(difficultyChoice)
    playersList = BoxedList(title: titles.players, [xNameEntry, oNameEntry])
    opponentList = BoxedList(
      title: titles.opponent, [WidgetRow(modeChoice.centered()), computerRow, difficultyRow])
    onlineList = BoxedList(
      title: NewGame.State.onlineSectionTitle,
      [
        WidgetRow(createOnlineButton.centered()), inviteCodeEntry,
        WidgetRow(Box.row(spacing: 12, joinButton, watchButton, openGamesButton).centered()),
      ])
    onlineList.isVisible = false
    let board = BoxedList(
      title: titles.board,
      [
        sizeRow, ActionRow(title: NewGame.Choice.k.title).addSuffix(kField),
        ActionRow(title: NewGame.Choice.startingRule.title).addSuffix(startChoice),
      ])
    // Let's play! stays in sight below the form, however long the form is.
    let footer = Box.column(
      spacing: 8, difficultyNoteLabel, validationLabel, errorLabel,
      Box.row(spacing: 12, letsPlayButton, statsButton, recoveryCodesButton).centered()
    ).margin(12)
    root = Box.column(
      spacing: 0,
      Scrolled(
        formColumn(
          resumeList, onlineList, playersList, opponentList, board, width: 560, spacing: 18)),
      footer)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: NewGame.State) {
    let settings = state.settings
    returnsToInviteCode = state.returnsToInviteCode
    resumeRow.title = state.resumeMessage ?? ""
    resumeList.isVisible = state.resumeMessage != nil
    xNameEntry.title = state.nameTitle(of: .x)
    oNameEntry.title = state.nameTitle(of: .o)
    (xNameEntry.text, oNameEntry.text) = (settings.xName, settings.oName)
    (modeChoice.selected, computerChoice.selected) = (settings.mode, settings.computerMark)
    (difficultyChoice.selected, startChoice.selected) = (settings.difficulty, settings.startingRule)
    startChoice.showOnly(state.startingRules)
    computerRow.isSensitive = state.isComputerMarkEnabled
    difficultyRow.isSensitive = state.isDifficultyEnabled
    sizeRow.selected = NewGame.State.sizeChoices.firstIndex {
      $0.title == state.value(of: .size)
    }
    (kField.range, kField.value) = (state.kRange, settings.k)
    (validationLabel.message, errorLabel.message) = (state.validationMessage, state.errorMessage)
    for option in state.difficultyOptions {
      difficultyChoice.setLabel(option.name, for: option.difficulty)
    }
    difficultyNoteLabel.message = state.difficultyNote
    letsPlayButton.isSensitive = state.canStart
    // On a server, the game is the server's: players and the computer belong to this computer.
    let isOnline = state.isOnline
    onlineList.isVisible = isOnline
    (playersList.isVisible, opponentList.isVisible) = (!isOnline, !isOnline)
    (letsPlayButton.isVisible, statsButton.isVisible) = (!isOnline, !isOnline)
    if isOnline { validationLabel.message = nil }
    inviteCodeEntry.text = state.inviteCode
    recoveryCodesButton.isVisible = state.session != nil
    renderQuestion(state)
  }

  /// Asks the core's question before a discard in a dialog while the core asks it.
  private func renderQuestion(_ state: NewGame.State) {
    let answers = NewGame.State.discardAnswers
    let question = state.discardQuestion.map {
      Question(
        heading: NewGame.State.discardHeading, body: $0, keep: answers.keep, act: answers.discard)
    }
    asked.render(question, actions: (.discardCancelled, .discardConfirmed), send: send)
  }

  /// Puts the keyboard focus on Resume when a game waits, else on Let's play!.
  public func focus() {
    if resumeList.isVisible {
      resumeButton.grabFocus()
    } else if returnsToInviteCode {
      inviteCodeEntry.grabFocus()
    } else if onlineList.isVisible {
      createOnlineButton.grabFocus()
    } else {
      letsPlayButton.grabFocus()
    }
  }
}
