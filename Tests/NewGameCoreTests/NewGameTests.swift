import ArchitectureTesting
import DatabaseClient
import GameCore
import GameRules
import NewGameCore
import StatsCore
import TestSupport
import Testing

@MainActor
struct NewGameTests {
  @Test
  func startQuitKeepsTheNamesThenPlayAgainThenSignOut() async throws {
    let database = InMemoryDatabase()
    let store = TestStore(
      initialState: NewGame.State(signedInName: "blob@example.com", accountID: 1)
    ) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: database.client)
    }
    #expect(store.state.xName == "blob@example.com")
    #expect(store.state.accountLine == "Signed in as blob@example.com")
    await store.send(.view(.modeChanged(.hotSeat))) { $0.mode = .hotSeat }
    await store.send(.view(.oNameChanged("  "))) { $0.oName = "  " }
    #expect(store.state.validationMessage == "Enter a name for O.")
    await store.send(.view(.letsPlayTapped))
    await store.send(.view(.oNameChanged(" Blob Jr "))) { $0.oName = " Blob Jr " }
    #expect(store.state.canStart)

    let settings = GameSettings(
      xName: "blob@example.com", oName: "Blob Jr", mode: .hotSeat, difficulty: .hard,
      accountID: 1)
    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started))
    #expect(store.state.game?.title == "blob@example.com, place your X")
    await store.send(.game(.view(.cellTapped(.b2)))) { try $0.game?.game.play(at: .b2) }
    await store.send(.game(.view(.quitTapped))) { $0.game?.isConfirmingQuit = true }
    await store.send(.game(.view(.quitConfirmed))) { $0.game?.isConfirmingQuit = false }
    await store.receive(.game(.delegate(.didQuit))) { $0.game = nil }
    #expect(store.state.oName == " Blob Jr ")

    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started))
    await store.send(.game(.view(.quitTapped)))
    await store.receive(.game(.delegate(.didQuit))) { $0.game = nil }

    await store.send(.view(.signOutTapped))
    await store.receive(.delegate(.didSignOut))
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func theComputerSideIsNamedAndItsMoveStopsWhenTheGameCloses() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: NewGame.State()) {
      NewGame(
        engine: .unimplemented, clock: clock.client, random: .unimplemented,
        database: .unimplemented)
    }
    #expect(store.state.oName == "Computer")
    await store.send(.view(.xNameChanged("Blob"))) { $0.xName = "Blob" }
    await store.send(.view(.computerMarkChanged(.x))) { $0.computerMark = .x }
    await store.send(.view(.oNameChanged("Blob"))) { $0.oName = "Blob" }
    await store.send(.view(.xNameChanged(""))) { $0.xName = "" }
    await store.send(.view(.modeChanged(.computerVersusComputer))) {
      $0.mode = .computerVersusComputer
      $0.xName = "Computer"
    }
    await store.send(.view(.modeChanged(.versusComputer))) { $0.mode = .versusComputer }
    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: $0.settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started)) { $0.game?.isThinking = true }
    #expect(store.state.game?.title == "Computer is thinking…")
    await store.send(.game(.view(.quitTapped)))
    await store.receive(.game(.delegate(.didQuit))) { $0.game = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test
  func aGameInProgressIsOfferedAndResumed() async throws {
    let record = GameRecord(
      x: PlayerRecord(name: "Blob", accountID: 1),
      o: PlayerRecord(name: "Computer", computer: .easy), moves: [.a1, .b2, .c3],
      startedAt: TestClock.epoch - 60_000)
    let database = InMemoryDatabase(gamesInProgress: [.account(1): record])
    let store = TestStore(initialState: NewGame.State(signedInName: "Blob", accountID: 1)) {
      NewGame(
        engine: .playing([.c1]), clock: .immediate, random: .unimplemented,
        database: database.client)
    }
    await store.send(.started)
    await store.receive(.gameInProgressLoaded(.success(record))) { $0.resumableGame = record }
    #expect(store.state.resumeMessage == "Resume Blob vs Computer (3 moves played)?")
    await store.send(.view(.resumeTapped)) {
      $0.resumableGame = nil
      $0.difficulty = .easy
      $0.game = GameFeature.State(
        settings: $0.settings, game: try record.game(), startedAt: record.startedAt)
    }
    await store.receive(.game(.started)) { $0.game?.isThinking = true }
    await store.receive(.game(.computerMoved(.c1))) {
      try $0.game?.game.play(at: .c1)
      $0.game?.isThinking = false
    }
    await store.finish()
    #expect(database.gamesInProgress[.account(1)]?.moves == [.a1, .b2, .c3, .c1])
  }

  @Test
  func aGameInProgressCanBeLeftBehind() async {
    let record = GameRecord(
      x: PlayerRecord(name: "Blob"), o: PlayerRecord(name: "Blob Jr"), moves: [.a1],
      startedAt: TestClock.epoch)
    let database = InMemoryDatabase(gamesInProgress: [.guest: record])
    let store = TestStore(initialState: NewGame.State()) {
      NewGame(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: database.client)
    }
    await store.send(.started)
    await store.receive(.gameInProgressLoaded(.success(record))) { $0.resumableGame = record }
    await store.send(.view(.discardResumeTapped)) { $0.resumableGame = nil }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func theBoardMustBeSupported() async {
    let store = TestStore(initialState: NewGame.State(signedInName: "Blob", accountID: 1)) {
      NewGame(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: .unimplemented)
    }
    await store.send(.view(.sizeChanged(7))) {
      $0.rows = 7
      $0.columns = 7
      $0.k = 5
    }
    #expect(store.state.canStart)
    await store.send(.view(.kChanged(8))) { $0.k = 8 }
    #expect(store.state.validationMessage == "k = 8 does not fit a 7×7 board; it must be 3 to 7.")
    await store.send(.view(.letsPlayTapped))
    await store.send(.view(.rowsChanged(16))) { $0.rows = 16 }
    #expect(!store.state.canStart)
    await store.finish()
  }

  @Test
  func statsOpenAndClose() async {
    let database = InMemoryDatabase(stats: [.account(1): Stats()])
    let store = TestStore(initialState: NewGame.State(signedInName: "Blob", accountID: 1)) {
      NewGame(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: database.client)
    }
    await store.send(.view(.statsTapped)) { $0.stats = StatsFeature.State(owner: .account(1)) }
    await store.receive(.stats(.started)) { $0.stats?.isLoading = true }
    await store.receive(.stats(.statsResponse(.success(Stats())))) {
      $0.stats?.isLoading = false
      $0.stats?.stats = Stats()
    }
    await store.send(.stats(.view(.closeTapped)))
    await store.receive(.stats(.delegate(.didClose))) { $0.stats = nil }
    await store.finish()
  }

  @Test
  func aRandomStarterIsDrawnForTheFirstGame() async throws {
    let store = TestStore(initialState: NewGame.State(signedInName: "Blob", accountID: 1)) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: RandomClient { $0.upperBound - 1 },
        database: .unimplemented)
    }
    await store.send(.view(.modeChanged(.hotSeat))) { $0.mode = .hotSeat }
    await store.send(.view(.startingRuleChanged(.random))) { $0.startingRule = .random }
    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: $0.settings, firstMover: .o, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started))
    #expect(store.state.game?.title == "Computer, place your O")
    await store.finish()
  }
}
