public import Architecture
public import DatabaseClient
public import GameCore
public import GameRules
public import StatsCore

/// The New game screen: players, mode, difficulty, board and who starts; it presents the Game
/// and Stats screens and offers to resume a game in progress.
public struct NewGame: Reducer {
  /// The form, the game offered for resume and the presented screens.
  public struct State: Equatable, Sendable {
    /// X's name as typed.
    public var xName: String
    /// O's name as typed.
    public var oName: String
    /// Who plays.
    public var mode: GameMode = .versusComputer
    /// The computer's side against a person.
    public var computerMark: Mark = .o
    /// The computer's strength.
    public var difficulty: Difficulty = .hard
    /// The board's rows.
    public var rows = 3
    /// The board's columns.
    public var columns = 3
    /// How many in a row win.
    public var k = 3
    /// Who starts each game.
    public var startingRule: StartingRule = .x
    /// The signed-in player's name, or `nil` for a guest.
    public var signedInName: String?
    /// The signed-in account, or `nil` for a guest.
    public var accountID: Int64?
    /// A game left unfinished, offered for resume.
    public var resumableGame: GameRecord?
    /// A problem with the records, in one sentence.
    public var errorMessage: String?
    /// The Game screen, while a game is shown.
    public var game: GameFeature.State?
    /// The Stats screen, while it is shown.
    public var stats: StatsFeature.State?

    /// Creates the form, with the signed-in player's name filled in for X.
    public init(signedInName: String? = nil, accountID: Int64? = nil) {
      self.signedInName = signedInName
      self.accountID = accountID
      xName = signedInName ?? ""
      oName = NewGame.computerName
    }
  }

  /// What can happen on the New game screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The screen appeared: look for a game in progress.
    case started
    /// The game in progress was looked up.
    case gameInProgressLoaded(Result<GameRecord?, DatabaseError>)
    /// The Game screen's actions.
    case game(GameFeature.Action)
    /// The Stats screen's actions.
    case stats(StatsFeature.Action)
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
      /// The number of rows changed.
      case rowsChanged(Int)
      /// The number of columns changed.
      case columnsChanged(Int)
      /// The line length changed.
      case kChanged(Int)
      /// The starting rule changed.
      case startingRuleChanged(StartingRule)
      /// Start a game with the form.
      case letsPlayTapped
      /// Continue the game in progress.
      case resumeTapped
      /// Leave the game in progress behind.
      case discardResumeTapped
      /// Show the stats.
      case statsTapped
      /// Back to a fresh Sign in.
      case signOutTapped
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// Sign out and show Sign in.
      case didSignOut
    }
  }

  private enum CancelID: Hashable, Sendable {
    case load
  }

  /// The name filled in for the computer's side.
  public static let computerName = "Computer"

  /// Routes the Game screen's actions.
  public static let gameAction = CaseKey<Action, GameFeature.Action>(embed: Action.game) {
    if case .game(let action) = $0 { action } else { nil }
  }

  /// Routes the Stats screen's actions.
  public static let statsAction = CaseKey<Action, StatsFeature.Action>(embed: Action.stats) {
    if case .stats(let action) = $0 { action } else { nil }
  }

  /// The Game screen's feature, with its clients.
  public var gameFeature: GameFeature
  /// The Stats screen's feature.
  public var statsFeature: StatsFeature

  /// Creates the feature from its children.
  public init(game: GameFeature, stats: StatsFeature) {
    self.gameFeature = game
    self.statsFeature = stats
  }

  /// Creates the feature and its children from the clients.
  public init(
    engine: EngineClient, clock: ClockClient, random: RandomClient, database: DatabaseClient,
    thinkingPause: Duration = .milliseconds(350)
  ) {
    self.init(
      game: GameFeature(
        engine: engine, clock: clock, random: random, database: database,
        thinkingPause: thinkingPause),
      stats: StatsFeature(database: database))
  }

  /// Reduces an action of the New game screen and the screens it presents.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    Reduce(core)
      .ifLet(\.game, action: Self.gameAction) { gameFeature }
      .ifLet(\.stats, action: Self.statsAction) { statsFeature }
      .reduce(into: &state, action: action)
  }

  private func core(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .view(let view):
      return reduce(into: &state, view: view)

    case .started:
      let owner = state.settings.owner
      return .run { [database = gameFeature.database] send in
        do {
          await send(.gameInProgressLoaded(.success(try await database.loadGameInProgress(owner))))
        } catch {
          let failure = error as? DatabaseError ?? DatabaseError("The records could not be read.")
          await send(.gameInProgressLoaded(.failure(failure)))
        }
      }
      .cancellable(id: CancelID.load, cancelInFlight: true)

    case .gameInProgressLoaded(.success(let record)):
      state.resumableGame = record
      return .none

    case .gameInProgressLoaded(.failure(let error)):
      state.errorMessage = error.message
      return .none

    case .game(.delegate(.didQuit)):
      state.game = nil
      return .none

    case .stats(.delegate(.didClose)):
      state.stats = nil
      return .none

    case .game, .stats, .delegate:
      return .none
    }
  }

  private func reduce(into state: inout State, view: Action.View) -> Effect<Action> {
    switch view {
    case .xNameChanged(let name):
      state.xName = name
    case .oNameChanged(let name):
      state.oName = name
    case .modeChanged(let mode):
      state.mode = mode
      state.fillComputerNames()
    case .computerMarkChanged(let mark):
      state.computerMark = mark
      state.fillComputerNames()
    case .difficultyChanged(let difficulty):
      state.difficulty = difficulty
    case .sizeChanged(let size):
      state.rows = size
      state.columns = size
      state.k = Board.defaultK(rows: size, columns: size)
    case .rowsChanged(let rows):
      state.rows = rows
    case .columnsChanged(let columns):
      state.columns = columns
    case .kChanged(let k):
      state.k = k
    case .startingRuleChanged(let rule):
      state.startingRule = rule

    case .letsPlayTapped:
      guard state.canStart else { return .none }
      let settings = state.settings
      let starter: Mark =
        settings.startingRule == .random
        ? (gameFeature.random.int(0..<2) == 0 ? .x : .o) : settings.firstGameStarter
      do {
        state.game = try GameFeature.State(
          settings: settings, firstMover: starter, startedAt: gameFeature.clock.now())
      } catch {
        state.errorMessage = error.description
        return .none
      }
      state.errorMessage = nil
      state.resumableGame = nil
      return .merge(.cancel(id: CancelID.load), .send(.game(.started)))

    case .resumeTapped:
      guard let record = state.resumableGame else { return .none }
      let game: Game
      do {
        game = try record.game()
      } catch {
        state.errorMessage = "The unfinished game could not be read back."
        state.resumableGame = nil
        return .none
      }
      state.apply(record)
      state.resumableGame = nil
      state.errorMessage = nil
      state.game = GameFeature.State(
        settings: state.settings, game: game, startedAt: record.startedAt)
      return .send(.game(.started))

    case .discardResumeTapped:
      guard state.resumableGame != nil else { return .none }
      state.resumableGame = nil
      let owner = state.settings.owner
      return .run { [database = gameFeature.database] _ in
        // Failing to forget it only means it is offered again next time.
        try? await database.clearGameInProgress(owner)
      }

    case .statsTapped:
      state.stats = StatsFeature.State(owner: state.settings.owner)
      return .send(.stats(.started))

    case .signOutTapped:
      return .merge(.cancel(id: CancelID.load), .send(.delegate(.didSignOut)))
    }
    return .none
  }
}

extension NewGame.State {
  /// The settings the form describes, names trimmed.
  public var settings: GameSettings {
    GameSettings(
      xName: xName.trimmingWhitespace(), oName: oName.trimmingWhitespace(), mode: mode,
      computerMark: computerMark, difficulty: difficulty, rows: rows, columns: columns, k: k,
      startingRule: startingRule, accountID: accountID)
  }

  /// Gives each computer side with no name the computer's name.
  mutating func fillComputerNames() {
    let settings = settings
    if settings.isComputer(.x) && settings.xName.isEmpty { xName = NewGame.computerName }
    if settings.isComputer(.o) && settings.oName.isEmpty { oName = NewGame.computerName }
  }

  /// Takes the players and board of a recorded game into the form.
  mutating func apply(_ record: GameRecord) {
    xName = record.x.name
    oName = record.o.name
    switch (record.x.computer, record.o.computer) {
    case (nil, nil):
      mode = .hotSeat
    case (let difficulty?, nil):
      mode = .versusComputer
      computerMark = .x
      self.difficulty = difficulty
    case (nil, let difficulty?):
      mode = .versusComputer
      computerMark = .o
      self.difficulty = difficulty
    case (let difficulty?, _?):
      mode = .computerVersusComputer
      self.difficulty = difficulty
    }
    rows = record.rows
    columns = record.columns
    k = record.k
  }
}
