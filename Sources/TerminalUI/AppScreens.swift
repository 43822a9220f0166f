public import AppCore
import GameCore
import GameRules
import LoginCore
import NewGameCore
import OnlineCore
import StatsCore
import TwoFactorCore

/// What the terminal keeps about the app's screens besides the core's state: focus, cursor and
/// help, nothing the core decides.
public struct AppTerminalState: Hashable, Sendable {
  /// The screen last shown, to reset the focus when it changes.
  public var screen: TicTacToe.Screen?
  /// The online view of New game last shown: the online game, or the Open games list.
  public var onlinePlace: OnlinePlace?
  /// The online game's board size, rows then columns, to put the cursor in its middle once
  /// the server has shown it.
  var onlineBoardSize: [Int] = []
  /// How many games the Open games list showed, to focus the first once they arrive.
  var listedGameCount = 0
  /// The focused item of a form.
  public var focus: FormID?
  /// The game screen's cursor and help.
  public var game = GameTerminalState(rows: 3, columns: 3)
  /// Whether the keys of a form screen cover it.
  public var isShowingFormHelp = false
  /// Whether Sign in asked for the password again when last shown, to focus the new field once.
  var wasRepeatingPassword = false
  /// The field Stats' reset question focused when last shown, to focus its next field once.
  var resetField: FormID?
  /// Whether New game offered to resume a game when last shown, to move the focus once the
  /// offer arrives (to Resume) or goes (Resume and Discard are gone).
  var hadResumeOffer = false
  /// A problem the terminal itself reports (Ctrl-Z where nothing can suspend the program),
  /// shown in place of the screen's message until the next key.
  public var notice: String?

  /// Creates the state.
  public init() {}
}

/// New game's views of a game server, which the terminal shows as screens of their own.
public enum OnlinePlace: Hashable, Sendable {
  /// An online game, played or watched.
  case game
  /// The games the server lists.
  case openGames

  /// The view `state` shows, if any.
  init?(_ state: TicTacToe.State) {
    guard let newGame = state.newGameState, newGame.game == nil, newGame.stats == nil,
      state.recoveryCodes == nil
    else { return nil }
    if newGame.online != nil {
      self = .game
    } else if newGame.openGames != nil {
      self = .openGames
    } else {
      return nil
    }
  }
}

/// What a key leads to anywhere in the app.
public enum AppResponse: Equatable, Sendable {
  /// Nothing for the core (the terminal's own state may have changed).
  case none
  /// An action for the core.
  case send(TicTacToe.Action)
  /// Leave the program now with this status: Ctrl-C, Ctrl-D.
  case exit(Int32)
  /// Suspend the program, as Ctrl-Z does in a shell.
  case suspend
}

/// The app's screens for the terminal: how each looks, and which action each key sends.
///
/// Keys reach the store in two hops, as a GTK click does: key → this mapping → action. Whether
/// the action is allowed, and what is said when it is not, is the core's.
public enum AppScreens {
  /// Resets the focus and the cursor when the screen changed since the last call, and keeps
  /// the focus on an item the form shows.
  public static func follow(_ state: TicTacToe.State, terminal: inout AppTerminalState) {
    followChanges(state, terminal: &terminal)
    keepFocusOnTheForm(state, terminal: &terminal)
  }

  /// Moves the focus to the form's likely next step when the item it was on went away (a
  /// question answered, a button that a question replaced), so that Enter and typing always
  /// reach something.
  private static func keepFocusOnTheForm(
    _ state: TicTacToe.State, terminal: inout AppTerminalState
  ) {
    guard state.game == nil, OnlinePlace(state) != .game else { return }
    let items = form(state, terminal: terminal).items
    // An item disabled for a moment (fields while a password is checked) keeps the focus.
    guard terminal.focus.map({ focus in items.contains { $0.id == focus } }) != true else {
      return
    }
    let enabled = items.filter(\.isEnabled).map(\.id)
    guard let first = enabled.first else { return }
    let likely: [FormID]
    if let codes = state.recoveryCodes {
      likely = codes.isConfirming ? [.newCodesCancelled] : [.back]
    } else if let stats = state.newGameState?.stats {
      likely = stats.isConfirmingReset ? [.resetCancelled] : [.back]
    } else {
      likely = []
    }
    terminal.focus = likely.first(where: enabled.contains) ?? first
  }

  private static func followChanges(_ state: TicTacToe.State, terminal: inout AppTerminalState) {
    let screen = state.screen
    let isRepeating = state.loginState?.isRepeatingPassword == true
    if isRepeating != terminal.wasRepeatingPassword {
      terminal.wasRepeatingPassword = isRepeating
      if screen == terminal.screen { terminal.focus = isRepeating ? .repeatedPassword : .password }
    }
    let place = OnlinePlace(state)
    if place == .game, let board = state.newGameState?.online?.board,
      terminal.onlineBoardSize != [board.rows, board.columns]
    {
      terminal.onlineBoardSize = [board.rows, board.columns]
      terminal.game = GameTerminalState(rows: board.rows, columns: board.columns)
    }
    let listed = state.newGameState?.openGames?.listings.count ?? 0
    if place == .openGames, place == terminal.onlinePlace, listed > 0,
      terminal.listedGameCount == 0
    {
      // The list arrived: the first game is the likely choice.
      terminal.focus = .listedGame(0)
    }
    terminal.listedGameCount = listed
    // Stats' reset question: its first field, then the code once the accounts ask for one.
    let resetField = state.newGameState?.stats.flatMap(resetQuestionFocus)
    if resetField != terminal.resetField {
      terminal.resetField = resetField
      if screen == terminal.screen, let resetField { terminal.focus = resetField }
    }
    let hasResumeOffer =
      state.newGameState.map { $0.resumableGame != nil && $0.game == nil } ?? false
    if hasResumeOffer != terminal.hadResumeOffer {
      terminal.hadResumeOffer = hasResumeOffer
      // The screen's first focus again, as if it were new.
      if screen == terminal.screen, state.recoveryCodes == nil { terminal.screen = nil }
    }
    guard screen != terminal.screen || place != terminal.onlinePlace else { return }
    terminal.screen = screen
    terminal.onlinePlace = place
    terminal.isShowingFormHelp = false
    if state.recoveryCodes != nil {
      terminal.focus = .back
      return
    }
    switch state.destination {
    case .login(let login):
      terminal.focus =
        login.twoFactor != nil ? .code : login.isRepeatingPassword ? .repeatedPassword : .userName
    case .newGame(let newGame):
      if let game = newGame.game {
        terminal.focus = nil
        terminal.game = GameTerminalState(rows: game.board.rows, columns: game.board.columns)
      } else if newGame.stats != nil {
        terminal.focus = resetField ?? .back
      } else if place == .game {
        terminal.focus = nil
        terminal.onlineBoardSize = []
        terminal.game = GameTerminalState(rows: 3, columns: 3)
      } else if let openGames = newGame.openGames {
        terminal.focus = openGames.listings.isEmpty ? .refreshGames : .listedGame(0)
      } else if newGame.isOnline {
        terminal.focus =
          newGame.session == nil || newGame.returnsToInviteCode ? .inviteCode : .createOnline
      } else if newGame.resumableGame != nil {
        terminal.focus = .resume
      } else if !newGame.canStart {
        let settings = newGame.settings
        terminal.focus =
          settings.xName.isEmpty ? .xName : settings.oName.isEmpty ? .oName : .choice(.size)
      } else {
        terminal.focus = .play
      }
    }
  }

  /// Lays out the screen for `state` on a `width` × `height` terminal.
  ///
  /// A terminal smaller than ``neededSize(_:)`` shows one notice instead, with the question of
  /// the moment if there is one.
  public static func frame(
    _ state: TicTacToe.State, terminal: AppTerminalState, width: Int, height: Int
  ) -> Frame {
    let needed = neededSize(state)
    guard width >= needed.width, height >= needed.height else {
      return ScreenLayout.tooSmall(
        needed: needed, width: width, height: height, question: question(state))
    }
    var gameScreen: GameScreen?
    if let game = state.game {
      gameScreen = GameScreen(game, terminal: terminal.game)
    } else if let online = state.newGameState?.online, OnlinePlace(state) == .game {
      gameScreen = GameScreen(online, terminal: terminal.game)
    }
    if var screen = gameScreen {
      if let notice = terminal.notice {
        screen.message = notice
        screen.messageIsError = true
      }
      if state.isConfirmingExit {
        screen.message = state.exitQuestion
        screen.messageIsError = false
        screen.buttons = exitButtons
      }
      return screen.frame(width: width, height: height)
    }
    var form = form(state, terminal: terminal)
    if terminal.isShowingFormHelp {
      form.body = formHelp.map { StyledLine($0) }
      form.items = []
    }
    if let notice = terminal.notice {
      form.message = notice
      form.messageIsError = true
    }
    if state.isConfirmingExit {
      form.message = state.exitQuestion
      form.messageIsError = false
      form.shortcuts = exitButtons
    } else if let discard = state.newGameState?.discardQuestion {
      form.message = discard
      form.messageIsError = false
      form.shortcuts = discardButtons
    }
    form.question = question(state)
    return form.frame(width: width, height: height)
  }

  /// The smallest terminal every screen fits for the board in play (or on the form): one
  /// figure per board, whichever screen is shown.
  public static func neededSize(_ state: TicTacToe.State) -> (width: Int, height: Int) {
    let online = state.newGameState?.online?.board
    let rows =
      state.game?.board.rows ?? online?.rows ?? state.newGameState?.settings.rows ?? 3
    let columns =
      state.game?.board.columns ?? online?.columns ?? state.newGameState?.settings.columns ?? 3
    let game = GameScreen.neededSize(rows: rows, columns: columns)
    return (
      max(game.width, FormScreen.neededSize.width), max(game.height, FormScreen.neededSize.height)
    )
  }

  /// Handles `key` on the screen for `state`, laid out as `frame`.
  public static func handle(
    _ key: Key, state: TicTacToe.State, frame: Frame, terminal: inout AppTerminalState
  ) -> AppResponse {
    terminal.notice = nil
    switch key {
    case .interrupt: return .exit(130)
    case .endOfInput: return .exit(0)
    case .suspend: return .suspend
    default: break
    }
    if state.isConfirmingExit {
      switch key {
      case .character("y"), .character("Y"): return .send(.view(.exitConfirmed))
      case .character("n"), .character("N"), .escape: return .send(.view(.exitCancelled))
      default: return .none
      }
    }
    if state.newGameState?.isConfirmingDiscard == true, state.game == nil {
      // Keys that press buttons (Enter, Space) keep the game: only y discards it.
      switch key {
      case .character("y"), .character("Y"): return .send(.newGame(.view(.discardConfirmed)))
      case .character("n"), .character("N"), .escape, .enter, .character(" "):
        return .send(.newGame(.view(.discardCancelled)))
      default: return .none
      }
    }
    if frame.isTooSmall {
      // Only quitting and answering act while nothing else can be seen; a question shown is
      // answered first (leaving would ask another over it).
      switch key {
      case .character("q"), .character("Q"):
        return question(state) == nil ? .send(.view(.exitTapped)) : .none
      case .character("y"), .character("n"):
        if state.loginState?.trustQuestion != nil {
          return .send(.login(.view(key == .character("y") ? .trustConfirmed : .trustCancelled)))
        }
        if let online = state.newGameState?.online, online.isConfirmingResign {
          return .send(
            .newGame(
              .online(.view(key == .character("y") ? .resignConfirmed : .resignCancelled))))
        }
        guard let game = state.game, game.isConfirmingQuit else { return .none }
        return .send(
          .newGame(.game(.view(key == .character("y") ? .quitConfirmed : .quitCancelled))))
      default: return .none
      }
    }
    if let game = state.game {
      return GameInput.handle(key, frame: frame, state: game, terminal: &terminal.game)
        .map { .send(.newGame(.game(.view($0)))) } ?? .none
    }
    if let online = state.newGameState?.online, OnlinePlace(state) == .game {
      return OnlineGameInput.handle(key, frame: frame, state: online, terminal: &terminal.game)
        .map { .send(.newGame(.online(.view($0)))) } ?? .none
    }
    if terminal.isShowingFormHelp {
      terminal.isShowingFormHelp = false
      return .none
    }
    if key == .f1 {
      terminal.isShowingFormHelp = true
      return .none
    }
    let form = form(state, terminal: terminal)
    let event = FormInput.handle(key, form: form, frame: frame, focus: &terminal.focus)
    if let codes = state.recoveryCodes {
      return recoveryCodesResponse(event, codes).map { .send(.recoveryCodes(.view($0))) } ?? .none
    }
    switch state.destination {
    case .login(let login):
      if login.twoFactor != nil {
        return twoFactorResponse(event).map { .send(.login(.twoFactor(.view($0)))) } ?? .none
      }
      return signInResponse(event, login)
    case .newGame(let newGame):
      if let stats = newGame.stats {
        return statsResponse(event, stats).map { .send(.newGame(.stats(.view($0)))) } ?? .none
      }
      if newGame.openGames != nil {
        return openGamesResponse(event).map { .send(.newGame(.openGames(.view($0)))) } ?? .none
      }
      if newGame.isOnline {
        switch event {
        case .activate(.exit), .key(.escape): return .send(.view(.exitTapped))
        default:
          return onlineNewGameResponse(event, newGame).map { .send(.newGame(.view($0))) }
            ?? .none
        }
      }
      return newGameResponse(event)
    }
  }

  /// The question of the moment, asked even on a terminal too small for anything else.
  private static func question(_ state: TicTacToe.State) -> String? {
    if state.isConfirmingExit { return state.exitQuestion + " [y] Leave [n] Stay" }
    // The answers read as on the screen that asks (New game, not Quit, for a new game).
    if let game = state.game, game.isConfirmingQuit {
      return game.quitConfirmationMessage
        + " [y] \(game.quitConfirmationAnswer) [n] \(GameControl.keepPlaying.title)"
    }
    if let online = state.newGameState?.online, online.isConfirmingResign {
      return online.resignQuestion
        + " [y] \(OnlineControl.confirmResign.title) [n] \(OnlineControl.keepPlaying.title)"
    }
    if let discard = state.newGameState?.discardQuestion {
      let answers = NewGame.State.discardAnswers
      return discard + " [y] \(answers.discard) [n] \(answers.keep)"
    }
    if let trust = state.loginState?.trustQuestionMessage {
      let answers = Login.State.trustAnswers
      return trust + " [y] \(answers.trust) [n] \(answers.refuse)"
    }
    return nil
  }

  private static let exitButtons = [ScreenButton("y", "Leave"), ScreenButton("n", "Stay")]

  private static let discardButtons = [
    ScreenButton("y", NewGame.State.discardAnswers.discard),
    ScreenButton("n", NewGame.State.discardAnswers.keep),
  ]

  /// The keys of the form screens, shown by F1.
  static let formHelp = [
    "Keys",
    "",
    "  Tab, ↓        next field or button",
    "  Shift-Tab, ↑  previous field or button",
    "  ← →, Space    change a choice",
    "  Enter         press the button, or in a field the main one",
    "  Ctrl-U        clear the field",
    "  Esc           back, or leave (asked first once signed in)",
    "  F1            show or hide this help",
    "  Ctrl-Z        suspend;  Ctrl-C  leave at once",
    "",
    "Any key closes the help.",
  ]

  // MARK: - Forms

  static func form(_ state: TicTacToe.State, terminal: AppTerminalState) -> FormScreen {
    if let codes = state.recoveryCodes { return recoveryCodesForm(codes, focus: terminal.focus) }
    switch state.destination {
    case .login(let login):
      if let twoFactor = login.twoFactor {
        return twoFactorForm(twoFactor, focus: terminal.focus)
      }
      return signInForm(login, focus: terminal.focus)
    case .newGame(let newGame):
      if let stats = newGame.stats { return statsForm(stats, focus: terminal.focus) }
      if let openGames = newGame.openGames {
        return openGamesForm(openGames, focus: terminal.focus)
      }
      if newGame.isOnline { return onlineNewGameForm(newGame, focus: terminal.focus) }
      return newGameForm(newGame, focus: terminal.focus)
    }
  }

  private static let nextShortcut = ScreenButton(key: .tab, keyName: "Tab", "Next")
  private static let helpShortcut = ScreenButton(key: .f1, keyName: "F1", "Help")
  private static let exitShortcut = ScreenButton(key: .escape, keyName: "Esc", "Exit")

  static func signInForm(_ state: Login.State, focus: FormID?) -> FormScreen {
    let enabled = state.isFormEnabled
    let repeated = state.repeatedPassword.map { repeated in
      FormItem(
        id: .repeatedPassword, label: "Repeat", kind: .text(repeated, isSecret: true),
        isEnabled: enabled)
    }
    if state.trustQuestion != nil {
      // The question waits for y or n; the form is disabled meanwhile.
      return FormScreen(
        title: state.title, notes: [state.trustQuestionMessage ?? ""], items: [],
        focus: nil, message: nil,
        shortcuts: [ScreenButton("y", "Trust it"), ScreenButton("n", "Do not trust it")])
    }
    return FormScreen(
      title: state.title, notes: [state.serverNote],
      items: [
        // First, so that Tab from the user name goes on to the password and the buttons.
        FormItem(
          id: .server, label: "Server", kind: .text(state.server, isSecret: false),
          isEnabled: enabled),
        FormItem(
          id: .userName, label: "User name", kind: .text(state.userName, isSecret: false),
          isEnabled: enabled),
        FormItem(
          id: .password, label: "Password", kind: .text(state.password, isSecret: true),
          isEnabled: enabled),
      ] + [repeated].compactMap { $0 } + [
        FormItem(id: .signIn, label: "Sign in", kind: .button, isEnabled: state.canSubmit),
        FormItem(
          id: .createAccount, label: "Create account", kind: .button,
          isEnabled: state.canSubmit),
        FormItem(id: .guest, label: "Play as guest", kind: .button, isEnabled: enabled),
      ],
      focus: focus,
      message: state.progressMessage ?? state.errorMessage ?? state.repeatPasswordPrompt,
      messageIsError: !state.showsProgress && state.errorMessage != nil,
      shortcuts: [
        ScreenButton(key: .control("g"), keyName: "Ctrl-G", "Play as guest"), nextShortcut,
        helpShortcut, exitShortcut,
      ])
  }

  private static func signInResponse(_ event: FormEvent, _ state: Login.State) -> AppResponse {
    let view: Login.Action.View
    if state.trustQuestion != nil {
      switch event {
      case .key(.character("y")), .key(.character("Y")): view = .trustConfirmed
      case .key(.character("n")), .key(.character("N")), .key(.escape): view = .trustCancelled
      default: return .none
      }
      return .send(.login(.view(view)))
    }
    switch event {
    case .edit(.userName, let value): view = .userNameChanged(value)
    case .edit(.password, let value): view = .passwordChanged(value)
    case .edit(.repeatedPassword, let value): view = .repeatedPasswordChanged(value)
    case .edit(.server, let value): view = .serverChanged(value)
    case .submit(from: .repeatedPassword): view = .createAccountTapped
    case .activate(.signIn), .submit: view = .signInTapped
    case .activate(.createAccount): view = .createAccountTapped
    case .activate(.guest), .key(.control("g")): view = .playAsGuestTapped
    case .key(.escape): return .send(.view(.exitTapped))
    default: return .none
    }
    return .send(.login(.view(view)))
  }

  static func twoFactorForm(_ state: TwoFactor.State, focus: FormID?) -> FormScreen {
    FormScreen(
      title: state.title, notes: [state.prompt],
      items: [
        FormItem(
          id: .code, label: "Code", kind: .text(state.code, isSecret: false),
          isEnabled: state.isFormEnabled),
        FormItem(id: .verify, label: "Verify", kind: .button, isEnabled: state.canSubmit),
        FormItem(id: .back, label: "Back", kind: .button),
      ],
      focus: focus,
      message: state.showsProgress ? "Checking the code…" : state.errorMessage,
      messageIsError: !state.showsProgress && state.errorMessage != nil,
      shortcuts: [helpShortcut, ScreenButton(key: .escape, keyName: "Esc", "Back")])
  }

  private static func twoFactorResponse(_ event: FormEvent) -> TwoFactor.Action.View? {
    switch event {
    case .edit(.code, let value): .codeChanged(value)
    case .activate(.verify), .submit: .submitTapped
    case .activate(.back), .key(.escape): .cancelTapped
    default: nil
    }
  }

  static func newGameForm(_ state: NewGame.State, focus: FormID?) -> FormScreen {
    let settings = state.settings
    let choices: [(NewGame.Choice, String)] = [
      (.mode, "Mode"), (.computerMark, "Computer plays"), (.difficulty, "Difficulty"),
      (.size, "Board"), (.k, "In a row to win"), (.startingRule, "First move"),
    ]
    var items = [
      FormItem(id: .xName, label: "X name", kind: .text(settings.xName, isSecret: false)),
      FormItem(id: .oName, label: "O name", kind: .text(settings.oName, isSecret: false)),
    ]
    items += choices.map { choice, label in
      FormItem(
        id: .choice(choice), label: label, kind: .choice(state.value(of: choice)),
        isEnabled: state.isEnabled(choice))
    }
    items.append(
      FormItem(id: .play, label: "Let's play!", kind: .button, isEnabled: state.canStart))
    if state.resumableGame != nil {
      items += [
        FormItem(id: .resume, label: "Resume", kind: .button),
        FormItem(id: .discard, label: "Discard the unfinished game", kind: .button),
      ]
    }
    items.append(FormItem(id: .stats, label: "Stats", kind: .button))
    if state.session != nil {
      items.append(FormItem(id: .recoveryCodes, label: "Recovery codes", kind: .button))
    }
    items += [
      FormItem(id: .signOut, label: state.signOutTitle, kind: .button),
      FormItem(id: .exit, label: "Exit", kind: .button),
    ]
    let problem = state.errorMessage ?? state.validationMessage
    return FormScreen(
      title: state.title,
      notes: [state.accountLine] + [state.resumeMessage, state.difficultyNote].compactMap { $0 },
      items: items, focus: focus, message: problem, messageIsError: problem != nil,
      shortcuts: [
        nextShortcut, ScreenButton(key: .left, keyName: "← →", "Change"), helpShortcut,
        exitShortcut,
      ])
  }

  private static func newGameResponse(_ event: FormEvent) -> AppResponse {
    let view: NewGame.Action.View
    switch event {
    case .edit(.xName, let value): view = .xNameChanged(value)
    case .edit(.oName, let value): view = .oNameChanged(value)
    case .step(.choice(let choice), let step): view = .stepped(choice, by: step)
    case .activate(.play), .submit: view = .letsPlayTapped
    case .activate(.resume): view = .resumeTapped
    case .activate(.discard): view = .discardResumeTapped
    case .activate(.stats): view = .statsTapped
    case .activate(.recoveryCodes): view = .recoveryCodesTapped
    case .activate(.signOut): view = .signOutTapped
    case .activate(.exit), .key(.escape), .key(.character("q")): return .send(.view(.exitTapped))
    default: return .none
    }
    return .send(.newGame(.view(view)))
  }

  static func recoveryCodesForm(_ state: RecoveryCodes.State, focus: FormID?) -> FormScreen {
    // The notes wrap to the terminal's width, so that the new codes show on every size the
    // forms fit.
    let notes = [state.remainingText, state.newCodesNote].compactMap { $0 }
    let body = (state.newCodes ?? []).map { StyledLine("  " + $0, .bold) }
    let items: [FormItem] =
      state.isConfirming
      ? [
        FormItem(id: .newCodesConfirmed, label: "Make new codes", kind: .button),
        FormItem(id: .newCodesCancelled, label: "Keep the old ones", kind: .button),
      ]
      : [
        FormItem(
          id: .newCodes, label: "Make new codes", kind: .button, isEnabled: state.canMakeNewCodes),
        FormItem(id: .back, label: "Back", kind: .button),
      ]
    return FormScreen(
      title: state.title, notes: notes, body: body, items: items, focus: focus,
      message: state.isConfirming ? state.confirmationMessage : state.errorMessage,
      messageIsError: !state.isConfirming && state.errorMessage != nil,
      shortcuts: [nextShortcut, helpShortcut, ScreenButton(key: .escape, keyName: "Esc", "Back")])
  }

  private static func recoveryCodesResponse(_ event: FormEvent, _ state: RecoveryCodes.State)
    -> RecoveryCodes.Action.View?
  {
    switch event {
    case .activate(.newCodes): .newCodesTapped
    case .activate(.newCodesConfirmed): .newCodesConfirmed
    case .activate(.newCodesCancelled): .newCodesCancelled
    case .activate(.back), .key(.escape): state.isConfirming ? .newCodesCancelled : .closeTapped
    default: nil
    }
  }

  static func statsForm(_ state: StatsFeature.State, focus: FormID?) -> FormScreen {
    var body: [StyledLine] = []
    var items: [FormItem] = []
    var message = state.errorMessage
    if let board = state.replayBoard {
      // The game is the title, the progress the message line, and the buttons keys, so that
      // a 15×15 board fits wherever its game does.
      body += BoardRenderer.render(board, layout: board.rows <= 5 ? .grid : .compact).lines
      return FormScreen(
        title: state.replayTitle ?? state.title, body: body, items: [], focus: nil,
        message: message ?? state.replayProgressText, messageIsError: state.errorMessage != nil,
        shortcuts: [
          ScreenButton(key: .left, keyName: "←", "Back a move"),
          ScreenButton(key: .right, keyName: "→", "Forward a move"),
          ScreenButton(key: .escape, keyName: "Esc", "Close"),
        ])
    } else {
      if state.isLoading { body.append("Loading…") }
      if let rating = state.ratingText { body.append(StyledLine(rating)) }
      body += state.tallyLines.map { StyledLine($0) }
      body.append(StyledLine("Win rate: \(state.winRateText)"))
      body.append(StyledLine(state.streakText))
      // As many recent games as the screen holds beside the rest of the form.
      let fields =
        state.isConfirmingReset
        ? (state.resetCredentials.map { $0.needsCode ? 2 : 1 } ?? 0) : 0
      let room = max(0, FormScreen.neededSize.height - 10 - body.count - fields)
      items = state.recentGameLines.prefix(room).enumerated().map { index, line in
        FormItem(id: .recentGame(index), label: line, kind: .button)
      }
      if state.isConfirmingReset {
        message = state.errorMessage ?? state.resetConfirmationMessage
        if let credentials = state.resetCredentials {
          let enabled = !credentials.isChecking
          items.append(
            FormItem(
              id: .resetPassword, label: StatsFeature.State.resetCredentialTitles.password,
              kind: .text(credentials.password, isSecret: true), isEnabled: enabled))
          if credentials.needsCode {
            items.append(
              FormItem(
                id: .resetCode, label: StatsFeature.State.resetCredentialTitles.code,
                kind: .text(credentials.code, isSecret: false),
                isEnabled: enabled))
          }
        }
        items += [
          FormItem(id: .resetConfirmed, label: state.resetConfirmationAnswers.reset, kind: .button),
          FormItem(id: .resetCancelled, label: state.resetConfirmationAnswers.keep, kind: .button),
        ]
      } else {
        if state.serverAccount == nil {
          items.append(
            FormItem(id: .reset, label: "Reset stats", kind: .button, isEnabled: state.canReset))
        }
        items.append(FormItem(id: .back, label: "Back", kind: .button))
      }
    }
    return FormScreen(
      title: state.title, notes: state.replayTitle.map { [$0] } ?? [], body: body, items: items,
      focus: focus, message: message, messageIsError: state.errorMessage != nil,
      shortcuts: [nextShortcut, helpShortcut, ScreenButton(key: .escape, keyName: "Esc", "Back")])
  }

  /// The item Stats' reset question focuses first: the password of an account (the code once
  /// asked for), or, for the guest, Keep them, so that Enter twice deletes nothing (as the
  /// desktop's dialog and the Discard question keep by default); `nil` when nothing is asked.
  private static func resetQuestionFocus(_ state: StatsFeature.State) -> FormID? {
    guard state.isConfirmingReset else { return nil }
    guard let credentials = state.resetCredentials else { return .resetCancelled }
    return credentials.needsCode ? .resetCode : .resetPassword
  }

  private static func statsResponse(_ event: FormEvent, _ state: StatsFeature.State)
    -> StatsFeature.Action.View?
  {
    if state.replay != nil {
      switch event {
      case .key(.left): return .replayBackTapped
      case .key(.right): return .replayForwardTapped
      case .key(.escape): return .replayClosed
      default: return nil
      }
    }
    switch event {
    case .activate(.reset): return .resetTapped
    case .edit(.resetPassword, let value): return .resetPasswordChanged(value)
    case .edit(.resetCode, let value): return .resetCodeChanged(value)
    case .submit(.resetPassword), .submit(.resetCode): return .resetConfirmed
    case .activate(.resetConfirmed): return .resetConfirmed
    case .activate(.resetCancelled): return .resetCancelled
    case .activate(.back), .key(.escape):
      return state.isConfirmingReset ? .resetCancelled : .closeTapped
    case .activate(.recentGame(let index)): return .recentGameTapped(index)
    default: return nil
    }
  }
}
