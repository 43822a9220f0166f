public import Architecture
public import AuthenticationClient
public import DatabaseClient
public import GameCore
public import LoginCore
public import NewGameCore

/// The whole app: Sign in (with Two-factor), then New game (with Game and Stats), and back.
///
/// Front ends hold one `Store<TicTacToe>`, render the screen its state names and send the
/// actions of that screen.
public struct TicTacToe: Reducer {
  /// The screen shown, with its state.
  public enum State: Equatable, Sendable {
    /// Sign in, possibly with Two-factor on top.
    case login(Login.State)
    /// New game, possibly with Game or Stats on top.
    case newGame(NewGame.State)

    /// The app as it starts: a fresh Sign in.
    public init() {
      self = .login(Login.State())
    }
  }

  /// What can happen anywhere in the app.
  public enum Action: Equatable, Sendable {
    /// An action of the Sign in screen or the screens it presents.
    case login(Login.Action)
    /// An action of the New game screen or the screens it presents.
    case newGame(NewGame.Action)
  }

  /// Routes the Sign in screen's actions.
  public static let loginAction = CaseKey<Action, Login.Action>(embed: Action.login) {
    if case .login(let action) = $0 { action } else { nil }
  }

  /// Routes the New game screen's actions.
  public static let newGameAction = CaseKey<Action, NewGame.Action>(embed: Action.newGame) {
    if case .newGame(let action) = $0 { action } else { nil }
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
  ///   - thinkingPause: How long the computer seems to think (zero in tests).
  public init(
    authentication: AuthenticationClient, database: DatabaseClient, engine: EngineClient,
    clock: ClockClient, random: RandomClient, thinkingPause: Duration = .milliseconds(350)
  ) {
    self.init(
      login: Login(authentication: authentication),
      newGame: NewGame(
        engine: engine, clock: clock, random: random, database: database,
        thinkingPause: thinkingPause))
  }

  /// Reduces an action of any screen and moves between screens.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    Reduce(core)
      .ifLet(\.loginState, action: Self.loginAction) { login }
      .ifLet(\.newGameState, action: Self.newGameAction) { newGame }
      .reduce(into: &state, action: action)
  }

  private func core(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .login(.delegate(.didAuthenticate(let session))):
      state = .newGame(NewGame.State(signedInName: session.userName, accountID: session.accountID))
      return .send(.newGame(.started))

    case .login(.delegate(.didChooseGuest)):
      state = .newGame(NewGame.State())
      return .send(.newGame(.started))

    case .newGame(.delegate(.didSignOut)):
      state = .login(Login.State())
      return .none

    case .login, .newGame:
      return .none
    }
  }
}

extension TicTacToe.State {
  /// The Sign in screen's state while it is shown; setting it changes nothing on another screen.
  public var loginState: Login.State? {
    get {
      guard case .login(let state) = self else { return nil }
      return state
    }
    set {
      guard let newValue, case .login = self else { return }
      self = .login(newValue)
    }
  }

  /// The New game screen's state while it is shown; setting it changes nothing on another screen.
  public var newGameState: NewGame.State? {
    get {
      guard case .newGame(let state) = self else { return nil }
      return state
    }
    set {
      guard let newValue, case .newGame = self else { return }
      self = .newGame(newValue)
    }
  }
}
