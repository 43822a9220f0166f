public import Architecture
public import AuthenticationClient
public import DatabaseClient
public import GameCore
import GameProtocol
import GameRules
public import LoginCore
public import NewGameCore
public import OnlineClient
import OnlineCore
import StatsCore
public import TwoFactorCore

/// The whole app: Sign in (with Two-factor), then New game (with Game and Stats), and back.
///
/// Front ends hold one `Store<TicTacToe>`, show the ``State/screen`` its state names, send the
/// actions of that screen, and end when ``State/termination`` is set.
public struct TicTacToe: Reducer {
  /// The screen shown, the question about leaving, and whether the app is done.
  public struct State: Equatable, Sendable {
    /// The screen shown, with its state.
    public var destination: Destination
    /// The Recovery codes screen, over New game, while it is shown.
    public var recoveryCodes: RecoveryCodes.State?
    /// Whether the player is asked before leaving the app.
    public var isConfirmingExit = false
    /// Set when the app is done: the front end ends, with the status this names.
    public var termination: Termination?
    /// Whether the app ends once the online game the player created, which nobody has joined,
    /// is cancelled on the way out (or could not be).
    public var isLeaving = false
    /// The window opened from the menu over the app's, if any.
    public var panel: Panel?

    /// The app as it starts: a fresh Sign in.
    public init() {
      destination = .login(Login.State())
    }

    /// The app as a launch asks for it: Sign in, or a game from options.
    public init(launch: Launch) {
      switch launch {
      case .signIn(let userName, let server):
        destination = .login(Login.State(userName: userName, server: server))
      case .game(let request, let session, let isStandalone):
        destination = .newGame(
          NewGame.State(
            launching: request.settings(for: session), session: session,
            isStandalone: isStandalone))
      }
    }
  }

  /// The screen shown, with its state.
  public enum Destination: Equatable, Sendable {
    /// Sign in, possibly with Two-factor on top.
    case login(Login.State)
    /// New game, possibly with Game or Stats on top.
    case newGame(NewGame.State)
  }

  /// How the app ended.
  public enum Termination: Equatable, Sendable {
    /// The player left: exit status 0.
    case finished
    /// The app could not go on: the sentence goes to standard error, exit status 1.
    case failed(String)
  }

  /// Which screen the app shows; front ends show one view for each.
  public enum Screen: Hashable, Sendable {
    case signIn
    case twoFactor
    case newGame
    case game
    case stats
    case recoveryCodes
  }

  /// What can happen anywhere in the app.
  public enum Action: Equatable, Sendable {
    /// The front end is up: a launch straight into New game looks for a game to resume.
    case started
    /// The player did something that concerns the whole app.
    case view(View)
    /// An action of the Sign in screen or the screens it presents.
    case login(Login.Action)
    /// An action of the New game screen or the screens it presents.
    case newGame(NewGame.Action)
    /// An action of the Recovery codes screen.
    case recoveryCodes(RecoveryCodes.Action)

    /// What the player can do anywhere.
    public enum View: Equatable, Sendable {
      /// Leave the app (asks first past Sign in).
      case exitTapped
      /// Yes, leave.
      case exitConfirmed
      /// No, stay.
      case exitCancelled
      /// The window was closed: the app ends now, without asking.
      case windowClosed
      /// A line typed in plain mode, for whatever the screen asks.
      case lineTyped(String)
      /// The button that leaves the screen (``Heading/back``).
      case backTapped
      /// An entry of the primary menu.
      case menuItemChosen(MenuItem)
      /// The window opened from the menu was closed.
      case panelClosed
    }
  }

  /// Routes the Sign in screen's actions.
  public static let loginAction = CaseKey<Action, Login.Action>(embed: Action.login) {
    if case .login(let action) = $0 { action } else { nil }
  }

  /// Routes the New game screen's actions.
  public static let newGameAction = CaseKey<Action, NewGame.Action>(embed: Action.newGame) {
    if case .newGame(let action) = $0 { action } else { nil }
  }

  /// Routes the Recovery codes screen's actions.
  public static let recoveryCodesAction = CaseKey<Action, RecoveryCodes.Action>(
    embed: Action.recoveryCodes
  ) {
    if case .recoveryCodes(let action) = $0 { action } else { nil }
  }

  /// The Sign in feature.
  public var login: Login
  /// The New game feature, with Game and Stats.
  public var newGame: NewGame

  /// Creates the app from its features.
  public init(login: Login, newGame: NewGame) {
    self.login = login
    self.newGame = newGame
  }

  /// Creates the app and its features from the clients.
  ///
  /// - Parameters:
  ///   - authentication: The accounts.
  ///   - database: The game records.
  ///   - engine: The computer player.
  ///   - clock: The time, for the thinking pause and the records.
  ///   - random: Coin tosses for who starts.
  ///   - online: The game servers.
  ///   - thinkingPause: How long the computer seems to think (zero in tests).
  public init(
    authentication: AuthenticationClient, database: DatabaseClient, engine: EngineClient,
    clock: ClockClient, random: RandomClient, online: OnlineClient = .unavailable,
    thinkingPause: Duration = GameFeature.naturalThinkingPause
  ) {
    self.init(
      login: Login(authentication: authentication, online: online),
      newGame: NewGame(
        engine: engine, clock: clock, random: random, database: database, online: online,
        accounts: authentication, thinkingPause: thinkingPause))
  }

  /// Goes back to Sign in, with `sentence` shown there and `userName` filled in when given,
  /// and lets go of the player's game in progress and server session.
  private func signOut(
    _ state: inout State, saying sentence: String? = nil, userName: String? = nil
  ) -> Effect<Action> {
    let owner = state.newGameState?.settings.owner
    let server = state.newGameState?.server
    // The next Sign in starts from the same server.
    var login = Login.State(userName: userName ?? "", server: server?.description ?? "")
    login.errorMessage = sentence
    state.destination = .login(login)
    state.recoveryCodes = nil
    guard let owner else { return .none }
    // Another session may play this player's game in progress now.
    return .run { [database = newGame.gameFeature.database, online = self.login.online] _ in
      await database.releaseGameInProgress(owner)
      if let server { await online.signOut(server) }
    }
  }

  /// Reduces an action of any screen and moves between screens.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // A player signed in on a server has their recovery codes there.
    let accounts: AuthenticationClient
    if let server = state.newGameState?.server {
      accounts = login.online.accounts(server)
    } else {
      accounts = login.authentication
    }
    let wasLeaving = state.isLeaving
    let effect = Reduce(core)
      .ifLet(\.loginState, action: Self.loginAction) { login }
      .ifLet(\.newGameState, action: Self.newGameAction) { newGame }
      .ifLet(\.recoveryCodes, action: Self.recoveryCodesAction) {
        RecoveryCodes(authentication: accounts)
      }
      .reduce(into: &state, action: action)
    // Leaving waits while the server cancels the player's game; then the app ends, whatever
    // the answer (a refusal, no answer, an opponent who joined first).
    if wasLeaving, state.isLeaving, state.newGameState?.online?.leaving == nil {
      state.isLeaving = false
      state.termination = .finished
    }
    return effect
  }

  /// Ends the app, cancelling first the player's own online game that nobody has joined, as
  /// leaving that game would.
  private func leave(_ state: inout State) -> Effect<Action> {
    guard state.newGameState?.online?.isCancellable == true else {
      state.termination = .finished
      // The game in progress is written once more: "saved and offered again next time" holds
      // only while the records do (a database deleted meanwhile says so instead).
      return state.game != nil ? .send(.newGame(.game(.inputEnded))) : .none
    }
    state.isLeaving = true
    return .send(.newGame(.online(.view(.quitTapped))))
  }

  private func core(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      return state.newGameState == nil ? .none : .send(.newGame(.started))

    case .view(let view):
      return reduce(into: &state, view: view)

    case .login(.delegate(.didAuthenticate(let session))):
      if let server = state.loginState?.checkedServer {
        state.destination = .newGame(NewGame.State(server: server, session: session))
      } else {
        state.destination = .newGame(NewGame.State(session: session))
      }
      return .send(.newGame(.started))

    case .login(.delegate(.didChooseGuest)):
      if let server = state.loginState?.checkedServer {
        state.destination = .newGame(NewGame.State(server: server, session: nil))
      } else {
        state.destination = .newGame(NewGame.State())
      }
      return .send(.newGame(.started))

    case .newGame(.delegate(.didSignOut)):
      return signOut(&state)

    case .newGame(.delegate(.didEndSession(let sentence))):
      return signOut(&state, saying: sentence, userName: state.newGameState?.signedInName)

    case .newGame(.delegate(.didAskForRecoveryCodes(let session))):
      state.recoveryCodes = RecoveryCodes.State(session: session)
      return .send(.recoveryCodes(.started))

    case .recoveryCodes(.delegate(.didClose)):
      state.recoveryCodes = nil
      return .none

    case .newGame(.delegate(.didFinish)):
      state.termination = .finished
      return .none

    case .newGame(.delegate(.didStop(let sentence))):
      state.termination = .failed(sentence)
      return .none

    case .login, .newGame, .recoveryCodes:
      return .none
    }
  }

  private func reduce(into state: inout State, view: Action.View) -> Effect<Action> {
    switch view {
    case .exitTapped:
      switch state.screen {
      case .signIn, .twoFactor: state.termination = .finished
      case .newGame, .game, .stats, .recoveryCodes: state.isConfirmingExit = true
      }
      return .none

    case .exitConfirmed:
      guard state.isConfirmingExit else { return .none }
      state.isConfirmingExit = false
      return leave(&state)

    case .windowClosed:
      state.isConfirmingExit = false
      return leave(&state)

    case .exitCancelled:
      state.isConfirmingExit = false
      return .none

    case .backTapped:
      return back(from: state)

    case .menuItemChosen(let item):
      guard state.isEnabled(item) else { return .none }
      return choose(item, in: &state)

    case .panelClosed:
      state.panel = nil
      return .none

    case .lineTyped(let line):
      if state.isConfirmingExit {
        switch line.trimmingWhitespace().lowercased() {
        case "y", "yes": return reduce(into: &state, view: .exitConfirmed)
        case "n", "no": return reduce(into: &state, view: .exitCancelled)
        default: return .none
        }
      }
      guard let newGame = state.newGameState else { return .none }
      if newGame.game != nil { return .send(.newGame(.game(.view(.lineTyped(line))))) }
      if newGame.online != nil { return .send(.newGame(.online(.view(.lineTyped(line))))) }
      return .send(.newGame(.view(.lineTyped(line))))
    }
  }
}

extension TicTacToe {
  /// What the back button does on each screen: the action of the screen's own way out.
  private func back(from state: State) -> Effect<Action> {
    switch state.screen {
    case .signIn: .none
    case .twoFactor: .send(.login(.twoFactor(.view(.cancelTapped))))
    case .newGame:
      if state.newGameState?.online != nil {
        .send(.newGame(.online(.view(.quitTapped))))
      } else if state.newGameState?.openGames != nil {
        .send(.newGame(.openGames(.view(.closeTapped))))
      } else {
        .send(.newGame(.view(.signOutTapped)))
      }
    case .game: .send(.newGame(.game(.view(.quitTapped))))
    case .stats: .send(.newGame(.stats(.view(.closeTapped))))
    case .recoveryCodes: .send(.recoveryCodes(.view(.closeTapped)))
    }
  }

  /// What a menu entry does on the screen shown.
  private func choose(_ item: MenuItem, in state: inout State) -> Effect<Action> {
    switch item {
    case .newGame:
      switch state.screen {
      // A finished game goes back to the form; one in progress asks first, then goes there.
      case .game where state.game?.isGameOver == true:
        return .send(.newGame(.game(.view(.quitTapped))))
      case .game: return .send(.newGame(.game(.view(.newGameTapped))))
      case .stats: return .send(.newGame(.stats(.view(.closeTapped))))
      default: return .send(.newGame(.view(.letsPlayTapped)))
      }
    case .statistics:
      return .send(.newGame(.view(.statsTapped)))
    case .preferences:
      state.panel = .preferences
    case .keyboardShortcuts:
      state.panel = .keyboardShortcuts
    case .about:
      state.panel = .about
    }
    return .none
  }
}

extension TicTacToe.State {
  /// The screen the state shows.
  public var screen: TicTacToe.Screen {
    if recoveryCodes != nil { return .recoveryCodes }
    switch destination {
    case .login(let login): return login.twoFactor == nil ? .signIn : .twoFactor
    case .newGame(let newGame):
      // An online game and the Open games list are New game's own views of a server.
      return newGame.game != nil ? .game : newGame.stats != nil ? .stats : .newGame
    }
  }

  /// The Sign in screen's state while it is shown; setting it changes nothing on another screen.
  public var loginState: Login.State? {
    get { if case .login(let state) = destination { state } else { nil } }
    set { if let newValue, case .login = destination { destination = .login(newValue) } }
  }

  /// The New game screen's state while it is shown; setting it changes nothing on another screen.
  public var newGameState: NewGame.State? {
    get { if case .newGame(let state) = destination { state } else { nil } }
    set { if let newValue, case .newGame = destination { destination = .newGame(newValue) } }
  }

  /// The game shown, if any.
  public var game: GameFeature.State? { newGameState?.game }

  /// The question asked before leaving the app.
  public var exitQuestion: String {
    if let online = newGameState?.online, online.isResignable, let code = online.code {
      return "Leave Tic-Tac-Toe? The server holds your seat for a while: join game \(code) "
        + "again to go on."
    }
    if let game, game.board.outcome == .inProgress, !game.game.moves.isEmpty {
      return "Leave Tic-Tac-Toe? This game is saved and offered again next time."
    }
    return "Leave Tic-Tac-Toe?"
  }
}
