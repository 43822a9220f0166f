import AppCore
public import Architecture
public import AuthenticationClient
public import DatabaseClient
import Foundation
public import GameCore
import GameRules
import NewGameCore

/// The clients the terminal app runs the core with.
public struct TerminalEnvironment: Sendable {
  /// The accounts.
  public var authentication: AuthenticationClient
  /// The computer player.
  public var engine: EngineClient
  /// The time.
  public var clock: ClockClient
  /// Randomness, for a random starter.
  public var random: RandomClient
  /// The game records.
  public var database: DatabaseClient
  /// How long the computer seems to think.
  public var thinkingPause: Duration

  /// Creates an environment.
  public init(
    authentication: AuthenticationClient, engine: EngineClient, clock: ClockClient,
    random: RandomClient, database: DatabaseClient, thinkingPause: Duration = .milliseconds(350)
  ) {
    self.authentication = authentication
    self.engine = engine
    self.clock = clock
    self.random = random
    self.database = database
    self.thinkingPause = thinkingPause
  }
}

/// How the terminal app starts.
public struct TerminalOptions: Sendable {
  /// Line by line instead of full screen (also chosen when not on a terminal).
  public var isPlain: Bool
  /// Colours, attributes only, or nothing.
  public var colorMode: ColorMode
  /// The game to start at once, skipping the menus.
  public var game: GameSettings?
  /// A line for the Sign in screen, such as which accounts a demo client accepts.
  public var signInNote: String?

  /// Creates options.
  public init(
    isPlain: Bool = false, colorMode: ColorMode = .color, game: GameSettings? = nil,
    signInNote: String? = nil
  ) {
    self.isPlain = isPlain
    self.colorMode = colorMode
    self.game = game
    self.signInNote = signInNote
  }
}

extension ColorMode {
  /// The mode for a full-screen terminal: monochrome with `--no-color` or a non-empty
  /// `NO_COLOR`, nothing at all on a `dumb` terminal, colour otherwise.
  public static func detect(noColorFlag: Bool, environment: [String: String]) -> ColorMode {
    if environment["TERM"] == "dumb" { return .none }
    if noColorFlag || !(environment["NO_COLOR"] ?? "").isEmpty { return .monochrome }
    return .color
  }
}

/// A game on its own, outside the app's screens: it ends the program when the player quits.
public struct StandaloneGame: Reducer {
  /// The game and whether the player has left it.
  public struct State: Equatable, Sendable {
    /// The game screen's state.
    public var game: GameFeature.State
    /// Whether the player quit.
    public var hasQuit = false

    /// Creates the state.
    public init(game: GameFeature.State) { self.game = game }
  }

  /// The game feature.
  public var feature: GameFeature

  /// Creates the reducer.
  public init(feature: GameFeature) { self.feature = feature }

  /// Runs the game feature and notes when it quits.
  public func reduce(into state: inout State, action: GameFeature.Action) -> Effect<
    GameFeature.Action
  > {
    if case .delegate(.didQuit) = action { state.hasQuit = true }
    return feature.reduce(into: &state.game, action: action)
  }
}

/// The terminal front end: full screen on a terminal, plain line by line otherwise.
public enum TerminalApp {
  /// Runs the app until the player quits or the input ends.
  ///
  /// - Returns: The exit code: 0 normally, 1 when the terminal could not be set up, 130 after
  ///   Ctrl-C.
  @MainActor
  public static func run(options: TerminalOptions, environment: TerminalEnvironment) async
    -> Int32
  {
    if options.isPlain || !Terminal.isInteractive {
      return await runPlain(options: options, environment: environment)
    }
    let starter = options.game.map { firstMover($0, environment) } ?? .x
    var initial = TicTacToe.State()
    if let settings = options.game {
      var newGame = NewGame.State()
      newGame.xName = settings.xName
      newGame.oName = settings.oName
      newGame.mode = settings.mode
      newGame.computerMark = settings.computerMark
      newGame.difficulty = settings.difficulty
      (newGame.rows, newGame.columns, newGame.k) = (settings.rows, settings.columns, settings.k)
      newGame.startingRule = settings.startingRule
      do {
        newGame.game = try GameFeature.State(
          settings: settings, firstMover: starter, startedAt: environment.clock.now())
      } catch {
        FileHandle.standardError.write(Data("tictactoe: \(error.description)\n".utf8))
        return 2
      }
      initial = .newGame(newGame)
    }
    let store = Store(initialState: initial) {
      TicTacToe(
        authentication: environment.authentication, database: environment.database,
        engine: environment.engine, clock: environment.clock, random: environment.random,
        thinkingPause: environment.thinkingPause)
    }
    let session = FullScreenSession(
      store: store, mode: options.colorMode,
      terminal: AppTerminalState(signInNote: options.signInNote))
    let status = await session.run(startsGame: options.game != nil)
    withExtendedLifetime(session) {}
    return status
  }

  /// Plain mode plays one game after another with the given settings (or a guest against the
  /// computer) and ends when the player quits or the input ends.
  @MainActor
  private static func runPlain(options: TerminalOptions, environment: TerminalEnvironment) async
    -> Int32
  {
    let settings =
      options.game
      ?? GameSettings(xName: "Player", oName: NewGame.computerName, mode: .versusComputer)
    let game: GameFeature.State
    do {
      game = try GameFeature.State(
        settings: settings, firstMover: firstMover(settings, environment),
        startedAt: environment.clock.now())
    } catch {
      FileHandle.standardError.write(Data("tictactoe: \(error.description)\n".utf8))
      return 2
    }
    let store = Store(initialState: StandaloneGame.State(game: game)) {
      StandaloneGame(
        feature: GameFeature(
          engine: environment.engine, clock: environment.clock, random: environment.random,
          database: environment.database, thinkingPause: environment.thinkingPause))
    }
    let session = PlainSession(store: store)
    let status = await session.run()
    withExtendedLifetime(session) {}
    return status
  }

  private static func firstMover(_ settings: GameSettings, _ environment: TerminalEnvironment)
    -> Mark
  {
    settings.startingRule == .random
      ? (environment.random.int(0..<2) == 0 ? .x : .o) : settings.firstGameStarter
  }

  /// Waits until the store's effects are done, for at most `limit`.
  @MainActor
  static func settle<R: Reducer>(_ store: Store<R>, limit: Duration = .seconds(2)) async {
    let deadline = ContinuousClock.now + limit
    while store.runningEffectCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}

/// The full-screen app: draws on every change, reads keys off the main actor.
@MainActor
private final class FullScreenSession {
  private let store: Store<TicTacToe>
  private let mode: ColorMode
  private var terminal: AppTerminalState
  private var frame = Frame()
  private var size = (width: 80, height: 24)

  init(store: Store<TicTacToe>, mode: ColorMode, terminal: AppTerminalState) {
    self.store = store
    self.mode = mode
    self.terminal = terminal
  }

  func run(startsGame: Bool) async -> Int32 {
    guard Terminal.enterRawMode() else {
      FileHandle.standardError.write(
        Data("tictactoe: the terminal could not be set up; try --plain.\n".utf8))
      return 1
    }
    defer { Terminal.restore() }
    size = Terminal.size
    let token = store.observe { [weak self] _ in self?.draw() }
    defer { token.cancel() }
    if startsGame { store.send(.newGame(.game(.started))) }
    for await event in Terminal.events() {
      switch event {
      case .endOfInput:
        await TerminalApp.settle(store)
        return 0
      case .resized:
        size = Terminal.size
        draw()
      case .keys(let keys):
        for key in keys {
          AppScreens.follow(store.state, terminal: &terminal)
          switch AppScreens.handle(key, state: store.state, frame: frame, terminal: &terminal) {
          case .none: draw()
          case .send(let action):
            store.send(action)
            draw()
          case .exit:
            await TerminalApp.settle(store)
            return key == .interrupt ? 130 : 0
          }
        }
      }
    }
    return 0
  }

  private func draw() {
    AppScreens.follow(store.state, terminal: &terminal)
    frame = AppScreens.frame(
      store.state, terminal: terminal, width: size.width, height: size.height)
    Terminal.write(Terminal.drawing(frame, mode: mode))
  }
}

/// Plain mode: reads lines, says every event in a sentence.
@MainActor
private final class PlainSession {
  private let store: Store<StandaloneGame>
  private var narrator = PlainGame.Narrator()

  init(store: Store<StandaloneGame>) { self.store = store }

  func run() async -> Int32 {
    let token = store.observe { [weak self] state in self?.say(state) }
    defer { token.cancel() }
    store.send(.started)
    for await line in Terminal.lines() {
      await waitUntilIdle()
      if store.state.hasQuit { break }
      switch PlainGame.respond(to: line, state: store.state.game) {
      case .send(let views):
        for view in views { store.send(.view(view)) }
      case .say(let text):
        say(text)
      case .showBoard:
        narrator.showBoardAgain()
        say(store.state)
      case .exit:
        return 0
      }
      await waitUntilIdle()
      if store.state.hasQuit { break }
    }
    await TerminalApp.settle(store)
    return 0
  }

  private func say(_ state: StandaloneGame.State) {
    for line in narrator.lines(for: state.game) { say(line) }
  }

  /// Writes a line at once, unbuffered, so a script reading the output sees it when it is said.
  private func say(_ line: String) { Terminal.write(line + "\n") }

  /// Waits while the computer thinks or a hint or save is under way, so that a script's next
  /// line meets the board it expects.
  private func waitUntilIdle() async {
    while store.state.game.isThinking || store.runningEffectCount > 0 {
      try? await Task.sleep(for: .milliseconds(2))
    }
  }
}
