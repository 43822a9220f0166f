public import Architecture
public import AuthenticationClient
public import DatabaseClient
public import GameCore
public import GameProtocol
public import GameRules
public import OnlineClient
public import OnlineCore
public import StatsCore

/// The New game screen: players, mode, difficulty, board and who starts; it presents the Game
/// and Stats screens and offers to resume a game in progress.
///
/// A launch with game options fills the form and starts the game as soon as the records show no
/// game to resume; with one to resume it offers that first, and replaces it only when the player
/// chooses a new game.
///
/// With a game server chosen at Sign in, the form also creates an online game with its board
/// settings, joins or watches one by its invite code, and lists the server's games.
public struct NewGame: Reducer {
  /// The form, the game offered for resume and the presented screens.
  public struct State: Equatable, Sendable {
    /// The game the form describes, names as typed.
    public var settings: GameSettings
    /// The signed-in player's name, or `nil` for a guest.
    public var signedInName: String?
    /// The names people typed for the sides the computer has since taken, to give back when
    /// people play them again.
    public var setAsideNames: [Mark: String] = [:]
    /// The signed-in player's session, for what only they may do (new recovery codes).
    public var session: Session?
    /// A game left unfinished, offered for resume.
    public var resumableGame: GameRecord?
    /// Whether the game in progress is being looked up.
    public var isLoading = false
    /// Whether the game starts as soon as the records show nothing to resume.
    public var startsWhenLoaded = false
    /// Whether games follow one another without the form (plain mode): quitting the game ends
    /// the app, and a new game starts at once.
    public var isStandalone = false
    /// A problem with the records, in one sentence.
    public var errorMessage: String?
    /// Why no game can start: the game in progress could not be taken for this session (another
    /// program plays it) or read.
    public var blockingProblem: String?
    /// How many typed lines answered the offer to resume with neither yes nor no.
    public var unansweredLines = 0
    /// The Game screen, while a game is shown.
    public var game: GameFeature.State?
    /// The Stats screen, while it is shown.
    public var stats: StatsFeature.State?
    /// The game server chosen at Sign in, or `nil` for this computer only.
    public var server: ServerAddress?
    /// The invite code as typed, for Join with code and Watch.
    public var inviteCode = ""
    /// The online game, while it is shown.
    public var online: OnlineGame.State?
    /// What plain mode says as it ends at the player's word, when the word leaves something
    /// behind: a game quit unfinished, or a saved game the player did not resume.
    public var farewell: String?
    /// What the online game just left said on closing, if anything.
    ///
    /// The form shows it until the player's next action: `Game K7M2QX is cancelled; no one had
    /// joined.`
    public var closedGameSentence: String?
    /// Whether the game an invite code opened closed before it could be shown (the code
    /// refused, the server unreachable): the form's focus goes back to the code, until the
    /// player's next action.
    public var returnsToInviteCode = false
    /// The Open games screen, while it is shown.
    public var openGames: OpenGames.State?
    /// Whether the player is being asked before the game offered for resume is discarded.
    public var isConfirmingDiscard = false

    /// Creates the form, with the signed-in player's name filled in for X.
    public init(signedInName: String? = nil, accountID: Int64? = nil) {
      self.signedInName = signedInName
      settings = GameSettings(
        xName: signedInName ?? "", oName: GameSettings.computerName(of: .o, mode: .versusComputer),
        mode: .versusComputer, accountID: accountID)
    }

    /// Creates the form for a signed-in player.
    public init(session: Session) {
      self.init(signedInName: session.userName, accountID: session.accountID)
      self.session = session
    }

    /// Creates the form for a player on a game server: signed in there, or a guest who may watch.
    ///
    /// Games on this computer are a guest's, as the account lives on the server.
    public init(server: ServerAddress, session: Session?) {
      self.init(signedInName: session?.userName, accountID: nil)
      self.session = session
      self.server = server
    }

    /// Creates the form for a launch with game options: it starts the game once the records
    /// show nothing to resume.
    public init(launching settings: GameSettings, session: Session?, isStandalone: Bool) {
      self.settings = settings
      self.signedInName = session?.userName
      self.session = session
      self.isStandalone = isStandalone
      startsWhenLoaded = true
    }
  }

  /// A choice of the form that steps through its values.
  public enum Choice: Hashable, Sendable, CaseIterable {
    case mode
    case computerMark
    case difficulty
    case size
    case k
    case startingRule
  }

  /// What can happen on the New game screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The screen appeared: look for a game in progress.
    case started
    /// The game in progress was looked up.
    case gameInProgressLoaded(Result<GameRecord?, DatabaseError>)
    /// The signed-in player's sign-in was checked before a game began; `then` waits for it.
    case sessionChecked(SessionCheck, then: NextGame)
    /// The Game screen's actions.
    case game(GameFeature.Action)
    /// The Stats screen's actions.
    case stats(StatsFeature.Action)
    /// The online game's actions.
    case online(OnlineGame.Action)
    /// The Open games screen's actions.
    case openGames(OpenGames.Action)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// X's name changed.
      case xNameChanged(String)
      /// O's name changed.
      case oNameChanged(String)
      /// The mode changed.
      case modeChanged(GameMode)
      /// The computer's side changed.
      case computerMarkChanged(Mark)
      /// The difficulty changed.
      case difficultyChanged(Difficulty)
      /// A square board of this side was chosen.
      case sizeChanged(Int)
      /// The line length changed.
      case kChanged(Int)
      /// The starting rule changed.
      case startingRuleChanged(StartingRule)
      /// A choice moved by steps (-1 back, 1 on), within its values.
      case stepped(Choice, by: Int)
      /// Start a game with the form.
      case letsPlayTapped
      /// Continue the game in progress.
      case resumeTapped
      /// Leave the game in progress behind (asked first).
      case discardResumeTapped
      /// Discard it, answering the question.
      case discardConfirmed
      /// Keep it, answering the question.
      case discardCancelled
      /// A line typed in plain mode: `resume` or `new` answer the offer to resume.
      case lineTyped(String)
      /// Show the stats.
      case statsTapped
      /// Show the signed-in player's recovery codes.
      case recoveryCodesTapped
      /// Back to a fresh Sign in.
      case signOutTapped
      /// The invite code field changed.
      case inviteCodeChanged(String)
      /// Create an online game with the form's board and wait for an opponent.
      case createOnlineGameTapped
      /// Take the free seat of the game with the typed code (or one's own seat again).
      case joinTapped
      /// Watch the game with the typed code.
      case watchTapped
      /// List the server's games.
      case openGamesTapped
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// Sign out and show Sign in.
      case didSignOut
      /// A standalone game was left: the app is done.
      case didFinish
      /// The app cannot go on; the sentence says why.
      case didStop(String)
      /// Show the Recovery codes screen for this session.
      case didAskForRecoveryCodes(Session)
      /// The sign-in has ended (expired, or the account changed by another program): show
      /// Sign in with the sentence.
      case didEndSession(String)
    }

    /// What a check of the signed-in player's sign-in found.
    public enum SessionCheck: Equatable, Sendable {
      /// It still holds.
      case holds
      /// It has ended.
      case ended
      /// It could not be checked; the sentence says why.
      case unknown(String)
    }

    /// The game that begins once the sign-in is checked.
    public enum NextGame: Equatable, Sendable {
      /// A new game with the form's settings, after a game whose first mover was `previous`.
      case new(after: Mark?)
      /// The game offered for resume.
      case resume
      /// Another game on the Game screen, once the last is over.
      case again
      /// Not a game: the game offered for resume is discarded, which only its account may do.
      case discard
    }
  }

  private enum CancelID: Hashable, Sendable {
    case load
    case sessionCheck
  }

  /// Routes the Game screen's actions.
  public static let gameAction = CaseKey<Action, GameFeature.Action>(embed: Action.game) {
    if case .game(let action) = $0 { action } else { nil }
  }

  /// Routes the Stats screen's actions.
  public static let statsAction = CaseKey<Action, StatsFeature.Action>(embed: Action.stats) {
    if case .stats(let action) = $0 { action } else { nil }
  }

  /// Routes the online game's actions.
  public static let onlineAction = CaseKey<Action, OnlineGame.Action>(embed: Action.online) {
    if case .online(let action) = $0 { action } else { nil }
  }

  /// Routes the Open games screen's actions.
  public static let openGamesAction = CaseKey<Action, OpenGames.Action>(
    embed: Action.openGames
  ) {
    if case .openGames(let action) = $0 { action } else { nil }
  }

  /// The Game screen's feature, with its clients.
  public var gameFeature: GameFeature
  /// The Stats screen's feature.
  public var statsFeature: StatsFeature
  /// The game servers.
  public var online: OnlineClient
  /// Checks, before each game on this computer, that a signed-in player's sign-in still holds
  /// (``AuthenticationClient/checkSession``); `nil` plays without checking.
  public var checkSession: (@Sendable (Session) async throws -> Void)?

  /// Creates the feature from its children.
  public init(game: GameFeature, stats: StatsFeature, online: OnlineClient = .unavailable) {
    self.gameFeature = game
    self.statsFeature = stats
    self.online = online
    // A server account's Stats come from its server.
    self.statsFeature.serverRecord = { account in
      guard let address = ServerAddress(connectingTo: account.server) else {
        throw StatsFeature.ServerFailure("\(account.server) is not a server address.")
      }
      do {
        let record = try await online.playerRecord(address, account.userName)
        return StatsFeature.ServerRecord(
          stats: Stats(record.stats, recentGames: record.recentGames), rating: record.stats.rating)
      } catch {
        throw StatsFeature.ServerFailure(
          OnlineFailure(error, or: "The stats on \(account.server) could not be read.").message)
      }
    }
  }

  /// Creates the feature and its children from the clients.
  ///
  /// `accounts`, when given, checks the password (and code) an account's Stats reset asks for.
  public init(
    engine: EngineClient, clock: ClockClient, random: RandomClient, database: DatabaseClient,
    online: OnlineClient = .unavailable, accounts: AuthenticationClient? = nil,
    thinkingPause: Duration = GameFeature.naturalThinkingPause
  ) {
    var stats = StatsFeature(database: database, localTime: clock.localTime)
    if let accounts {
      stats.checkCredentials = { userName, password, code in
        await Self.check(userName, password, code, with: accounts)
      }
    }
    self.init(
      game: GameFeature(
        engine: engine, clock: clock, random: random, database: database,
        thinkingPause: thinkingPause),
      stats: stats, online: online)
    checkSession = accounts?.checkSession
  }

  /// Checks an account's credentials for a Stats reset as a sign-in does: the password, then,
  /// with two-factor on, the code.
  package static func check(
    _ userName: String, _ password: String, _ code: String?, with accounts: AuthenticationClient
  ) async -> StatsFeature.CredentialCheck {
    do {
      switch try await accounts.login(userName, password) {
      case .signedIn:
        return .accepted
      case .twoFactorRequired(let challenge):
        guard let code, !code.trimmingWhitespace().isEmpty else { return .codeNeeded }
        _ = try await accounts.verifyTwoFactor(challenge, code)
        return .accepted
      }
    } catch AuthenticationError.invalidCredentials {
      // Only the password was asked for: the user name is the signed-in account's.
      return .refused("The password is incorrect.")
    } catch let error as AuthenticationError {
      return .refused(error.message)
    } catch {
      return .refused("The password could not be checked.")
    }
  }

  /// Reduces an action of the New game screen and the screens it presents.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // Another game from a finished one begins as every game does, once the sign-in holds.
    if case .game(.view(let view)) = action, Self.asksForAnotherGame(view),
      state.game?.isGameOver == true, isCheckingSessions(state)
    {
      return begin(&state, .again)
    }
    let link = state.online.map { online.link($0.server) }
    return Reduce(core)
      .ifLet(\.game, action: Self.gameAction) { gameFeature }
      .ifLet(\.stats, action: Self.statsAction) { statsFeature }
      .ifLet(\.online, action: Self.onlineAction) {
        OnlineGame(link: link ?? Self.noLink, clock: gameFeature.clock)
      }
      .ifLet(\.openGames, action: Self.openGamesAction) { OpenGames(online: online) }
      .reduce(into: &state, action: action)
  }

  /// A link that never connects, for actions that arrive after the online game closed.
  private static let noLink = ServerLink(
    open: { AsyncStream { $0.finish() } }, send: { _ in }, close: {})

  private func core(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .view(let view):
      return reduce(into: &state, view: view)

    case .started:
      state.isLoading = true
      let owner = state.settings.owner
      return .result(
        Action.gameInProgressLoaded,
        failure: { DatabaseError($0, or: "The records could not be read.") }
      ) { [database = gameFeature.database] in
        // This session's own from now on: no other program saves over it meanwhile.
        try await database.claimGameInProgress(owner)
        return try await database.loadGameInProgress(owner)
      }
      .cancellable(id: CancelID.load, cancelInFlight: true)

    case .gameInProgressLoaded(.success(let record)):
      state.isLoading = false
      state.blockingProblem = nil
      state.resumableGame = record
      guard record == nil, state.startsWhenLoaded else { return .none }
      return begin(&state, .new(after: nil))

    case .gameInProgressLoaded(.failure(let error)):
      state.isLoading = false
      // Without the form there is nowhere to show the problem: the app stops with it.
      guard !state.isStandalone else { return .send(.delegate(.didStop(error.message))) }
      state.blockingProblem = error.message
      return .none

    case .game(.delegate(.didQuit)):
      if state.isStandalone, let game = state.game, !game.isGameOver, !game.game.moves.isEmpty {
        state.farewell = NewGame.State.unsavedFarewell
      }
      state.game = nil
      return state.isStandalone ? .send(.delegate(.didFinish)) : .none

    case .game(.delegate(.didAskForNewGame)):
      guard state.isStandalone, let previous = state.game else {
        state.game = nil
        return .none
      }
      return begin(&state, .new(after: previous.game.start.firstMover))

    case .game(.delegate(.didStop(let sentence))):
      return .send(.delegate(.didStop(sentence)))

    case .sessionChecked(.holds, let next):
      return carryOut(&state, next)

    case .sessionChecked(.ended, _):
      let sentence = state.endedSessionSentence
      return .send(.delegate(state.isStandalone ? .didStop(sentence) : .didEndSession(sentence)))

    case .sessionChecked(.unknown(let sentence), _):
      guard !state.isStandalone else { return .send(.delegate(.didStop(sentence))) }
      state.errorMessage = sentence
      return .none

    case .stats(.delegate(.didClose)):
      state.stats = nil
      return .none

    case .online(.delegate(.didQuit)):
      let sessionEnded = state.online?.hasSessionEnded == true
      state.closedGameSentence = state.online?.closingSentence
      if let online = state.online, online.snapshot == nil, online.closingSentence != nil,
        online.intent.code != nil
      {
        state.returnsToInviteCode = true
      }
      state.online = nil
      // The server ended the session (a password changed elsewhere): New game would say the
      // player is signed in, and every game would be refused.
      guard sessionEnded, !state.isStandalone else { return .none }
      return .send(.delegate(.didEndSession(OnlineGame.signedOutSentence)))

    case .openGames(.delegate(.didChoose(let intent))):
      state.openGames = nil
      return startOnline(&state, intent)

    case .openGames(.delegate(.didClose)):
      state.openGames = nil
      return .none

    case .game, .stats, .online, .openGames, .delegate:
      return .none
    }
  }

  private func reduce(into state: inout State, view: Action.View) -> Effect<Action> {
    state.closedGameSentence = nil
    state.returnsToInviteCode = false
    switch view {
    case .xNameChanged(let name):
      state.settings.xName = name
    case .oNameChanged(let name):
      state.settings.oName = name
    case .modeChanged(let mode):
      state.change { $0.mode = mode }
    case .computerMarkChanged(let mark):
      state.change { $0.computerMark = mark }
    case .difficultyChanged(let difficulty):
      state.settings.difficulty = difficulty
    case .sizeChanged(let size):
      state.settings.rows = size
      state.settings.columns = size
      state.settings.k = Board.defaultK(rows: size, columns: size)
    case .kChanged(let k):
      state.settings.k = k
    case .startingRuleChanged(let rule):
      guard state.startingRules.contains(rule) else { return .none }
      state.settings.startingRule = rule
    case .stepped(let choice, let step):
      return reduce(into: &state, view: state.stepping(choice, by: step))

    case .letsPlayTapped:
      guard state.canStart else { return .none }
      if state.blockingProblem != nil {
        // The other program may have finished: ask again, and play once it has.
        state.startsWhenLoaded = true
        return .send(.started)
      }
      return begin(&state, .new(after: nil))

    case .resumeTapped:
      guard state.resumableGame != nil else { return .none }
      return begin(&state, .resume)

    case .discardResumeTapped:
      guard state.resumableGame != nil else { return .none }
      // A game discarded cannot be resumed: a button beside Resume is asked about first.
      state.isConfirmingDiscard = true
      return .none

    case .discardCancelled:
      state.isConfirmingDiscard = false
      return .none

    case .discardConfirmed:
      guard state.isConfirmingDiscard, state.resumableGame != nil else { return .none }
      state.isConfirmingDiscard = false
      return begin(&state, .discard)

    case .lineTyped(let line):
      guard state.resumableGame != nil else { return .none }
      switch line.trimmingWhitespace().lowercased() {
      case "r", "resume", "y", "yes": return reduce(into: &state, view: .resumeTapped)
      case "n", "new": return reduce(into: &state, view: .letsPlayTapped)
      case "q", "quit", "exit":
        state.farewell = NewGame.State.keptFarewell
        return .send(.delegate(.didFinish))
      default: state.unansweredLines += 1
      }

    case .statsTapped:
      // A server account's record is on its server; a guest's and a local account's are here.
      if let server = state.server, let session = state.session {
        state.stats = StatsFeature.State(
          serverAccount: StatsFeature.ServerAccount(
            server: server.description, userName: session.userName))
      } else {
        state.stats = StatsFeature.State(owner: state.settings.owner)
        // The account's reset asks for its sign-in, by its name.
        if case .account = state.settings.owner { state.stats?.userName = state.signedInName }
      }
      return .send(.stats(.started))

    case .recoveryCodesTapped:
      guard let session = state.session else { return .none }
      return .send(.delegate(.didAskForRecoveryCodes(session)))

    case .signOutTapped:
      return .merge(.cancel(id: CancelID.load), .send(.delegate(.didSignOut)))

    case .inviteCodeChanged(let code):
      state.inviteCode = code

    case .createOnlineGameTapped:
      if let problem = state.onlineProblem(.create) {
        state.errorMessage = problem
        return .none
      }
      return startOnline(&state, .create(GameOptions(state.settings)))

    case .joinTapped, .watchTapped:
      let request: NewGame.State.OnlineRequest = view == .joinTapped ? .join : .watch
      if let problem = state.onlineProblem(request) {
        state.errorMessage = problem
        return .none
      }
      guard let code = InviteCode.normalized(state.inviteCode) else { return .none }
      return startOnline(&state, request == .join ? .join(code: code) : .watch(code: code))

    case .openGamesTapped:
      if let problem = state.onlineProblem(.list) {
        state.errorMessage = problem
        return .none
      }
      guard let server = state.server else { return .none }
      state.errorMessage = nil
      state.openGames = OpenGames.State(server: server, player: state.session?.userName)
      return .send(.openGames(.started))
    }
    return .none
  }

  /// Shows the online game `intent` asks for and connects.
  private func startOnline(_ state: inout State, _ intent: OnlineGame.Intent) -> Effect<Action> {
    guard let server = state.server else { return .none }
    state.errorMessage = nil
    let isWatching: Bool = if case .watch = intent { true } else { false }
    // A spectator needs no account; a player's connection signs in with the session's token.
    let session = isWatching ? nil : state.session
    state.online = OnlineGame.State(
      server: server, intent: intent, userName: session?.userName,
      token: session.map(\.token))
    return .send(.online(.started))
  }

  /// Begins `next`, once the signed-in player's sign-in is found to hold where it is checked.
  ///
  /// A sign-in ends when the account's password or two-factor is changed (by this program or
  /// another) or the account is deleted: games played after that would count for an account
  /// whose owner has taken it back.
  private func begin(_ state: inout State, _ next: Action.NextGame) -> Effect<Action> {
    guard isCheckingSessions(state), let checkSession, let session = state.session else {
      return carryOut(&state, next)
    }
    return .run { send in
      let check: Action.SessionCheck
      do {
        try await checkSession(session)
        check = .holds
      } catch AuthenticationError.notSignedIn {
        check = .ended
      } catch {
        check = .unknown(
          (error as? AuthenticationError)?.message ?? "The sign-in could not be checked.")
      }
      await send(.sessionChecked(check, then: next))
    }
    .cancellable(id: CancelID.sessionCheck, cancelInFlight: true)
  }

  /// Whether `view` asks the Game screen for another game: Play again, `n`, or `new` typed.
  private static func asksForAnotherGame(_ view: GameFeature.Action.View) -> Bool {
    switch view {
    case .playAgainTapped, .newGameTapped: true
    case .lineTyped(let line): TypedCommand(line) == .newGame
    default: false
    }
  }

  /// Whether games wait for a check of the sign-in: a signed-in player's on this computer.
  private func isCheckingSessions(_ state: State) -> Bool {
    checkSession != nil && state.server == nil && state.session != nil
  }

  private func carryOut(_ state: inout State, _ next: Action.NextGame) -> Effect<Action> {
    switch next {
    case .new(let previous): return start(&state, after: previous)
    case .resume: return resume(&state)
    case .again:
      guard var game = state.game, game.isGameOver else { return .none }
      let effect = gameFeature.reduce(into: &game, action: .view(.playAgainTapped))
      state.game = game
      return effect.map(Action.game)
    case .discard:
      guard state.resumableGame != nil else { return .none }
      state.resumableGame = nil
      let owner = state.settings.owner
      return .run { [database = gameFeature.database] _ in
        // Failing to forget it only means it is offered again next time.
        try? await database.clearGameInProgress(owner)
      }
    }
  }

  /// Resumes the game offered for resume.
  private func resume(_ state: inout State) -> Effect<Action> {
    guard let record = state.resumableGame else { return .none }
    let game: Game
    do {
      game = try record.game()
    } catch {
      // The saved game stays as it is, offered again: only the player's choice of a new
      // game (or, on the form, Discard) replaces it.
      guard !state.isStandalone else {
        return .send(
          .delegate(
            .didStop(
              "The unfinished game could not be read back, so it is kept as it is; answer "
                + "new to start another game in its place.")))
      }
      state.errorMessage =
        "The unfinished game could not be read back, so it is kept as it is; play a new game "
        + "or discard it."
      return .none
    }
    state.settings = GameSettings(
      resuming: record, accountID: state.settings.accountID,
      startingRule: state.settings.startingRule)
    state.resumableGame = nil
    state.startsWhenLoaded = false
    state.errorMessage = nil
    state.game = GameFeature.State(
      settings: state.settings, game: game, startedAt: record.startedAt)
    return .send(.game(.started))
  }

  /// Starts a game with the form's settings, names checked.
  private func start(_ state: inout State, after previous: Mark? = nil) -> Effect<Action> {
    guard let settings = state.validSettings else {
      let problem = state.validationMessage ?? "The game cannot start."
      guard !state.isStandalone else { return .send(.delegate(.didStop(problem))) }
      state.errorMessage = problem
      return .none
    }
    let starter = settings.startingRule.firstMover(after: previous, random: gameFeature.random)
    do {
      state.game = try GameFeature.State(
        settings: settings, firstMover: starter, startedAt: gameFeature.clock.now())
    } catch {
      state.errorMessage = error.description
      return .none
    }
    state.errorMessage = nil
    state.resumableGame = nil
    state.startsWhenLoaded = false
    return .merge(.cancel(id: CancelID.load), .send(.game(.started)))
  }
}

extension NewGame.State {
  /// The form's settings with the names checked and trimmed, or `nil` while the form is not
  /// valid.
  var validSettings: GameSettings? {
    guard validationMessage == nil,
      let x = try? checkedName(settings.xName), let o = try? checkedName(settings.oName)
    else { return nil }
    var valid = settings
    valid.xName = x
    valid.oName = o
    // The account's record goes with its name.
    if valid.accountID != nil {
      valid.placeAccount(xHasItsName: isAccountName(x), oHasItsName: isAccountName(o))
    }
    return valid
  }

  /// Whether `name` is the signed-in account's, in any case or form its key allows.
  func isAccountName(_ name: String) -> Bool {
    signedInName.map { UserName.key($0) == UserName.key(name) } ?? false
  }

  /// `text` trimmed, if it is a player's name: one that follows the name rule, or the
  /// signed-in account's own name, which may follow the rule of earlier versions (up to 32
  /// letters, digits and `. _ @ -`) and already signed in.
  func checkedName(_ text: String) throws(NameError) -> String {
    if let signedInName, text == signedInName { return text }
    return try Name.validated(text)
  }

  /// Changes who plays, and lets the names follow: a side the computer takes over gets its
  /// name, a side a person takes back gets the signed-in name, the name of the person who moved
  /// to it, the name typed for it before, or nothing.
  mutating func change(_ body: (inout GameSettings) -> Void) {
    let old = settings
    body(&settings)
    settings.renameSides(after: old, personName: signedInName, setAside: &setAsideNames)
  }

  /// The view action that moves `choice` by `step`, kept within its values.
  func stepping(_ choice: NewGame.Choice, by step: Int) -> NewGame.Action.View {
    switch choice {
    case .mode:
      return .modeChanged(Self.cycle(GameMode.allCases, settings.mode, step))
    case .computerMark:
      return .computerMarkChanged(
        step.isMultiple(of: 2) ? settings.computerMark : settings.computerMark.opponent)
    case .difficulty:
      let stops = Difficulty.named.map(\.difficulty)
      let index =
        stops.firstIndex(of: settings.difficulty)
        ?? stops.lastIndex { $0.skill <= settings.difficulty.skill } ?? 0
      return .difficultyChanged(stops[min(max(index + step, 0), stops.count - 1)])
    case .size:
      return .sizeChanged(
        min(max(settings.rows + step, Board.minimumSide), Board.maximumSide))
    case .k:
      let range = Board.kRange(rows: settings.rows, columns: settings.columns)
      return .kChanged(min(max(settings.k + step, range.lowerBound), range.upperBound))
    case .startingRule:
      return .startingRuleChanged(Self.cycle(startingRules, settings.startingRule, step))
    }
  }

  private static func cycle<T: Equatable>(_ all: [T], _ current: T, _ step: Int) -> T {
    let index = all.firstIndex(of: current) ?? 0
    return all[((index + step) % all.count + all.count) % all.count]
  }
}

extension Stats {
  /// A server's record of an account as the Stats screen shows it: every game against a person.
  public init(_ stats: PlayerStats, recentGames: [FinishedGame]) {
    self.init(
      tallies: [
        Tally(opponent: .person, wins: stats.wins, losses: stats.losses, draws: stats.draws)
      ],
      currentStreak: stats.currentStreak, bestStreak: stats.bestStreak,
      recentGames: recentGames.map(GameRecord.init))
  }
}

extension GameRecord {
  /// The record of a game a server finished, its players named by their accounts there: what
  /// the Stats screen and the command line's `stats --server` show.
  package init(_ game: FinishedGame) {
    self.init(
      id: game.id, x: PlayerRecord(name: game.xName), o: PlayerRecord(name: game.oName),
      rows: game.rows, columns: game.columns, k: game.k, firstMover: game.firstMover,
      moves: game.moves,
      result: game.winner.map { $0 == .x ? .xWins : .oWins } ?? .draw,
      startedAt: game.startedAt, endedAt: game.endedAt)
  }
}
