import AppCore
import ArchitectureTesting
import AuthenticationClient
import DatabaseClient
import GameCore
import GameProtocol
import GameRules
import LoginCore
import NewGameCore
import OnlineClient
import OnlineCore
import StatsCore
import Synchronization
import TestSupport
import Testing
import TwoFactorCore

/// What the desktop shows around the screens: the heading, the back button, the primary menu
/// and the windows it opens.
///
/// Every screen is visited.
@MainActor
struct DesktopPresentationTests {
  private func app(
    _ state: TicTacToe.State, authentication: AuthenticationClient = .unimplemented,
    database: DatabaseClient = .unimplemented
  ) -> TestStore<TicTacToe> {
    TestStore(initialState: state) {
      TicTacToe(
        authentication: authentication, database: database, engine: .unimplemented,
        clock: .immediate, random: .unimplemented)
    }
  }

  private let session = Session(accountID: 1, userName: "ada", token: "t")

  /// One state for each screen, with the heading it shows.
  private func everyScreen() throws -> [(TicTacToe.State, Heading)] {
    let signIn = TicTacToe.State()
    var twoFactor = TicTacToe.State()
    twoFactor.loginState?.twoFactor = TwoFactor.State(
      challenge: TwoFactorChallenge(userName: "ada", token: "x"))
    var guest = TicTacToe.State()
    guest.destination = .newGame(NewGame.State())
    var signedIn = TicTacToe.State()
    signedIn.destination = .newGame(NewGame.State(session: session))
    var game = guest
    game.newGameState?.game = try GameFeature.State(
      settings: GameSettings(
        xName: "Ann", oName: "Computer", mode: .versusComputer, difficulty: .hard), firstMover: .x,
      startedAt: 0)
    var hotSeat = guest
    var large = GameSettings(xName: "Ann", oName: "Bob")
    (large.rows, large.columns, large.k) = (15, 15, 5)
    hotSeat.newGameState?.game = try GameFeature.State(
      settings: large, firstMover: .x, startedAt: 0)
    var stats = signedIn
    stats.newGameState?.stats = StatsFeature.State(owner: .account(1))
    var codes = signedIn
    codes.recoveryCodes = RecoveryCodes.State(session: session)
    return [
      (signIn, Heading(title: "Sign in", subtitle: nil, back: nil)),
      (twoFactor, Heading(title: "Two-factor authentication", subtitle: nil, back: "Cancel")),
      (guest, Heading(title: "New game", subtitle: "Playing as a guest", back: "Back to Sign in")),
      (signedIn, Heading(title: "New game", subtitle: "Signed in as ada", back: "Sign out")),
      (game, Heading(title: "Ann vs Computer", subtitle: "3×3, 3 in a row, Hard", back: "Quit")),
      (hotSeat, Heading(title: "Ann vs Bob", subtitle: "15×15, 5 in a row", back: "Quit")),
      (stats, Heading(title: "Stats", subtitle: "Signed in as ada", back: "Done")),
      (codes, Heading(title: "Recovery codes", subtitle: "Signed in as ada", back: "Done")),
    ]
  }

  @Test func everyScreenHasItsHeading() throws {
    for (state, heading) in try everyScreen() {
      #expect(state.heading == heading, "\(state.screen)")
    }
  }

  @Test func theBackButtonSendsEachScreensOwnWayOut() async throws {
    let screens = try everyScreen().map(\.0)
    let signIn = app(screens[0])
    await signIn.send(.view(.backTapped))
    await signIn.finish()

    let twoFactor = app(screens[1])
    await twoFactor.send(.view(.backTapped))
    await twoFactor.receive(.login(.twoFactor(.view(.cancelTapped))))
    await twoFactor.receive(.login(.twoFactor(.delegate(.didCancel)))) {
      $0.loginState?.twoFactor = nil
    }
    await twoFactor.finish()

    var database = DatabaseClient.unimplemented
    database.releaseGameInProgress = { _ in }
    let newGame = app(screens[2], database: database)
    await newGame.send(.view(.backTapped))
    await newGame.receive(.newGame(.view(.signOutTapped)))
    await newGame.receive(.newGame(.delegate(.didSignOut))) { $0 = TicTacToe.State() }
    await newGame.finish()

    let game = app(screens[4])
    await game.send(.view(.backTapped))
    await game.receive(.newGame(.game(.view(.quitTapped))))
    await game.receive(.newGame(.game(.delegate(.didQuit)))) { $0.newGameState?.game = nil }
    await game.finish()

    let stats = app(screens[6])
    await stats.send(.view(.backTapped))
    await stats.receive(.newGame(.stats(.view(.closeTapped))))
    await stats.receive(.newGame(.stats(.delegate(.didClose)))) { $0.newGameState?.stats = nil }
    await stats.finish()

    let codes = app(screens[7])
    await codes.send(.view(.backTapped))
    await codes.receive(.recoveryCodes(.view(.closeTapped)))
    await codes.receive(.recoveryCodes(.delegate(.didClose))) { $0.recoveryCodes = nil }
    await codes.finish()
  }

  @Test func theMenuOffersOnlyWhatWorksOnEachScreen() throws {
    let screens = try everyScreen().map(\.0)
    let enabled = screens.map { state in MenuItem.allCases.filter { state.isEnabled($0) } }
    let always: [MenuItem] = [.preferences, .keyboardShortcuts, .about]
    #expect(enabled[0] == always, "Sign in")
    #expect(enabled[1] == always, "Two-factor")
    #expect(enabled[2] == [.newGame, .statistics] + always, "New game")
    #expect(enabled[4] == [.newGame] + always, "Game")
    #expect(enabled[6] == [.newGame] + always, "Stats")
    #expect(enabled[7] == always, "Recovery codes")
    #expect(
      MenuItem.allCases.map(\.title)
        == ["New Game", "Statistics", "Preferences", "Keyboard Shortcuts", "About Tic-Tac-Toe"])
  }

  @Test func aDisabledEntryDoesNothing() async throws {
    let store = app(try everyScreen()[0].0)
    await store.send(.view(.menuItemChosen(.newGame)))
    await store.send(.view(.menuItemChosen(.statistics)))
    await store.finish()
  }

  @Test func theMenuOpensAndClosesItsWindows() async throws {
    let store = app(try everyScreen()[0].0)
    await store.send(.view(.menuItemChosen(.about))) { $0.panel = .about }
    await store.send(.view(.menuItemChosen(.keyboardShortcuts))) {
      $0.panel = .keyboardShortcuts
    }
    await store.send(.view(.panelClosed)) { $0.panel = nil }
    await store.send(.view(.menuItemChosen(.preferences))) { $0.panel = .preferences }
    await store.send(.view(.panelClosed)) { $0.panel = nil }
    await store.finish()
    #expect(Panel.keyboardShortcuts.title == "Keyboard help", "F1 opens it too")
  }

  @Test func newGameFromTheMenuAsksWhileAGameGoesOnAndLeavesAFinishedOne() async throws {
    var state = try everyScreen()[5].0
    try state.newGameState?.game?.game.play(at: .a1)
    let store = app(state)
    await store.send(.view(.menuItemChosen(.newGame)))
    await store.receive(.newGame(.game(.view(.newGameTapped)))) {
      $0.newGameState?.game?.phase = .confirming(.newGame)
    }
    #expect(store.state.game?.quitConfirmationHeading == "Start a new game?")
    #expect(store.state.game?.quitConfirmationAnswer == "New game")
    await store.finish()

    var finished = try everyScreen()[5].0
    finished.newGameState?.game?.game = try Game(start: .classic, moves: [.a1, .a2, .b1, .b2, .c1])
    finished.newGameState?.game?.phase = .finished(recordID: 3)
    let over = app(finished)
    await over.send(.view(.menuItemChosen(.newGame)))
    await over.receive(.newGame(.game(.view(.quitTapped))))
    await over.receive(.newGame(.game(.delegate(.didQuit)))) { $0.newGameState?.game = nil }
    await over.finish()
  }

  @Test func statisticsAndNewGameFromTheMenuOnNewGame() async throws {
    var database = DatabaseClient.unimplemented
    database.stats = { _ in Stats() }
    let store = app(try everyScreen()[2].0, database: database)
    await store.send(.view(.menuItemChosen(.statistics)))
    await store.receive(.newGame(.view(.statsTapped))) {
      $0.newGameState?.stats = StatsFeature.State(owner: .guest)
    }
    await store.receive(.newGame(.stats(.started))) { $0.newGameState?.stats?.isLoading = true }
    await store.receive(.newGame(.stats(.statsResponse(.success(Stats()))))) {
      $0.newGameState?.stats?.isLoading = false
      $0.newGameState?.stats?.stats = Stats()
    }
    #expect(!store.state.isEnabled(.statistics))
    await store.send(.view(.menuItemChosen(.newGame)))
    await store.receive(.newGame(.stats(.view(.closeTapped))))
    await store.receive(.newGame(.stats(.delegate(.didClose)))) { $0.newGameState?.stats = nil }
    await store.finish()
  }

  /// New game on a server, with an online game of ada's against bob shown over it.
  private func onlineGame(
    moves: [Cell] = [], status: GameStatus = .playing, opponent: Bool = true
  ) -> TicTacToe.State {
    let server = ServerAddress(host: "127.0.0.1", port: 7457)
    var state = TicTacToe.State()
    state.destination = .newGame(NewGame.State(server: server, session: session))
    var online = OnlineGame.State(
      server: server, intent: .join(code: "K7M2QX"), userName: "ada", token: "t")
    online.snapshot = GameSnapshot(
      code: "K7M2QX", rows: 3, columns: 3, k: 3, firstMover: .x,
      x: SeatedPlayer(name: "ada", rating: 1_200),
      o: opponent ? SeatedPlayer(name: "bob", rating: 1_210) : nil,
      moves: moves, status: status, role: .x)
    online.link = .live
    state.newGameState?.online = online
    return state
  }

  @Test func anOnlineGameShowsTheOpponentsConnectionInTheHeading() {
    var state = onlineGame()
    #expect(
      state.heading
        == Heading(
          title: "ada (X, 1200) against bob (O, 1210)",
          subtitle: "Game K7M2QX on 127.0.0.1:7457 · bob is connected.", back: "Resign"))
    state.newGameState?.online?.snapshot?.o?.awaySeconds = 60
    #expect(
      state.heading.subtitle == "Game K7M2QX on 127.0.0.1:7457 · bob lost the connection.")
    let over = onlineGame(
      status: .finished(GameEnd(winner: .x, reason: .resigned, xRating: 1_216, oRating: 1_194)))
    #expect(over.heading.back == "Leave", "a game that is over is left, not resigned")
    #expect(state.screen == .newGame)
    #expect(state.isShowingServerView)
    let always: [MenuItem] = [.preferences, .keyboardShortcuts, .about]
    #expect(MenuItem.allCases.filter { state.isEnabled($0) } == always)
  }

  @Test func theBackButtonOfAnOnlineGameAsksToResign() async {
    let store = app(onlineGame())
    await store.send(.view(.backTapped))
    await store.receive(.newGame(.online(.view(.quitTapped)))) {
      $0.newGameState?.online?.isConfirmingResign = true
      $0.newGameState?.online?.notices = [.askedToResign]
    }
    await store.finish()
  }

  @Test func closingTheWindowCancelsOnesOwnWaitingGameBeforeTheAppEnds() async {
    let sent = Mutex<[ClientMessage]>([])
    var online = OnlineClient.unavailable
    online.link = { _ in
      ServerLink(
        open: { AsyncStream { $0.finish() } },
        send: { message in sent.withLock { $0.append(message) } }, close: {})
    }
    let clock = TestClock()
    let store = TestStore(initialState: onlineGame(status: .waiting, opponent: false)) {
      TicTacToe(
        authentication: .unimplemented, database: .unimplemented, engine: .unimplemented,
        clock: clock.client, random: .unimplemented, online: online)
    }
    await store.send(.view(.windowClosed)) { $0.isLeaving = true }
    await store.receive(.newGame(.online(.view(.quitTapped)))) {
      $0.newGameState?.online?.leaving = .quit
    }
    for _ in 0..<1_000 where sent.withLock(\.isEmpty) { await Task.yield() }
    #expect(sent.withLock { $0 } == [.cancelGame(code: "K7M2QX")])
    // The app waits for the server's word, then ends.
    #expect(store.state.termination == nil)
    await store.send(.newGame(.online(.link(.message(.cancelled(code: "K7M2QX")))))) {
      $0.newGameState?.online?.leaving = nil
      $0.newGameState?.online?.link = .closed
      $0.newGameState?.online?.notices = [.cancelled(code: "K7M2QX")]
      $0.isLeaving = false
      $0.termination = .finished
    }
    await store.receive(.newGame(.online(.delegate(.didQuit)))) {
      $0.newGameState?.closedGameSentence = "Game K7M2QX is cancelled; no one had joined."
      $0.newGameState?.online = nil
    }
    await store.finish()
  }

  @Test func closingTheWindowDuringAGameEndsTheAppAtOnce() async {
    let store = app(onlineGame())
    await store.send(.view(.windowClosed)) { $0.termination = .finished }
    await store.finish()
  }

  @Test func theBackButtonOfOpenGamesClosesTheList() async {
    var state = TicTacToe.State()
    let server = ServerAddress(host: "example.org")
    state.destination = .newGame(NewGame.State(server: server, session: nil))
    state.newGameState?.openGames = OpenGames.State(server: server, player: nil)
    #expect(
      state.heading
        == Heading(
          title: "Open games on example.org:7457",
          subtitle: "Playing as a guest on example.org:7457",
          back: "Back"))
    let store = app(state)
    await store.send(.view(.backTapped))
    await store.receive(.newGame(.openGames(.view(.closeTapped))))
    await store.receive(.newGame(.openGames(.delegate(.didClose)))) {
      $0.newGameState?.openGames = nil
    }
    await store.finish()
  }

  @Test func theAppearanceIsReadBackWhateverTheFileHolds() {
    for appearance in Appearance.allCases {
      #expect(Appearance(stored: appearance.rawValue) == appearance)
      #expect(Appearance(stored: " \(appearance.rawValue)\n") == appearance)
    }
    for damaged in [nil, "", "DARK", "sepia", "\u{1b}[2J", String(repeating: "x", count: 100_000)] {
      #expect(Appearance(stored: damaged) == .system)
    }
    #expect(Appearance.allCases.map(\.title) == ["Follow the system", "Light", "Dark"])
    #expect(
      Appearance.notSaved("The folder is read-only.")
        == "The appearance applies now but could not be saved: The folder is read-only.")
  }

  @Test func theKeyboardHelpListsEveryCommandInAGroup() {
    for command in DesktopCommand.allCases {
      #expect(DesktopCommand.groups.contains(command.group), "\(command)")
      #expect(!command.title.isEmpty)
    }
    #expect(DesktopCommand.moveBetweenCells.title.contains("arrow keys"))
    #expect(Set(DesktopCommand.allCases.map(\.title)).count == DesktopCommand.allCases.count)
  }
}
