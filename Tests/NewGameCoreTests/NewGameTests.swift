import ArchitectureTesting
import AuthenticationClient
import DatabaseClient
import GameCore
import GameRules
import NewGameCore
import StatsCore
import Synchronization
import TestSupport
import Testing

@MainActor
struct NewGameTests {
  /// New game over test clients; the ones a test does not give fail when called.
  private func newGame(
    _ state: NewGame.State, engine: EngineClient = .unimplemented,
    clock: ClockClient = .unimplemented, random: RandomClient = .unimplemented,
    database: DatabaseClient = .unimplemented
  ) -> TestStore<NewGame> {
    TestStore(initialState: state) {
      NewGame(engine: engine, clock: clock, random: random, database: database)
    }
  }

  /// Receives the game's start, then quits it before its first move.
  private func startAndQuit(_ store: TestStore<NewGame>) async {
    await store.receive(.game(.started))
    await store.send(.game(.view(.quitTapped)))
    await store.receive(.game(.delegate(.didQuit))) { $0.game = nil }
  }

  @Test
  func startQuitKeepsTheNamesThenPlayAgainThenSignOut() async throws {
    let database = InMemoryDatabase()
    let store = newGame(
      NewGame.State(signedInName: "blob@example.com", accountID: 1), clock: .immediate,
      database: database.client)
    #expect(store.state.settings.xName == "blob@example.com")
    #expect(store.state.accountLine == "Signed in as blob@example.com")
    // Difficulty defaults to what `tictactoe play` uses.
    #expect(store.state.settings.difficulty == .unbeatable)
    await store.send(.view(.modeChanged(.hotSeat))) {
      $0.settings.mode = .hotSeat
      $0.settings.oName = ""
    }
    await store.send(.view(.oNameChanged("  "))) { $0.settings.oName = "  " }
    #expect(store.state.validationMessage == "Enter a name for O.")
    await store.send(.view(.letsPlayTapped))
    await store.send(.view(.oNameChanged(" Blob Jr "))) { $0.settings.oName = " Blob Jr " }
    #expect(store.state.canStart)

    let settings = GameSettings(
      xName: "blob@example.com", oName: "Blob Jr", mode: .hotSeat, accountID: 1)
    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started))
    #expect(store.state.game?.title == "blob@example.com, place your X")
    let played = try Game(start: .classic, moves: [.b2])
    await store.send(.game(.view(.cellTapped(.b2)))) {
      $0.game?.phase = .saving(GameFeature.Save(game: played, write: .progress))
    }
    await store.receive(.game(.saved(recordID: nil))) {
      $0.game?.game = played
      $0.game?.phase = .playing
    }
    await store.send(.game(.view(.quitTapped))) { $0.game?.phase = .confirming(.quit) }
    await store.send(.game(.view(.quitConfirmed))) {
      $0.game?.phase = .saving(GameFeature.Save(game: played, write: .abandon, then: .didQuit))
    }
    await store.receive(.game(.saved(recordID: nil))) { $0.game?.phase = .playing }
    await store.receive(.game(.delegate(.didQuit))) { $0.game = nil }
    #expect(store.state.settings.oName == " Blob Jr ")

    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await startAndQuit(store)

    await store.send(.view(.signOutTapped))
    await store.receive(.delegate(.didSignOut))
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func namesFollowTheModeAndTheComputersMoveStopsWhenTheGameCloses() async throws {
    let clock = TestClock()
    let store = newGame(NewGame.State(), clock: clock.client)
    #expect(store.state.settings.oName == "Computer")
    await store.send(.view(.xNameChanged("Ann"))) { $0.settings.xName = "Ann" }
    // The computer takes X: its side gets the computer's name, and Ann moves over to O.
    await store.send(.view(.computerMarkChanged(.x))) {
      $0.settings.computerMark = .x
      $0.settings.xName = "Computer"
      $0.settings.oName = "Ann"
      $0.setAsideNames = [.x: "Ann"]
    }
    await store.send(.view(.oNameChanged("Blob"))) { $0.settings.oName = "Blob" }
    // Computer against computer: neither side keeps a person's name, and Blob's is set aside.
    await store.send(.view(.modeChanged(.computerVersusComputer))) {
      $0.settings.mode = .computerVersusComputer
      $0.settings.xName = "Computer X"
      $0.settings.oName = "Computer O"
      $0.setAsideNames = [.x: "Ann", .o: "Blob"]
    }
    // A person takes O back: the name typed for it comes back with them.
    await store.send(.view(.modeChanged(.versusComputer))) {
      $0.settings.mode = .versusComputer
      $0.settings.xName = "Computer"
      $0.settings.oName = "Blob"
    }
    #expect(store.state.canStart)
    // Two people: X gets Ann's name back.
    await store.send(.view(.modeChanged(.hotSeat))) {
      $0.settings.mode = .hotSeat
      $0.settings.xName = "Ann"
    }
    await store.send(.view(.modeChanged(.versusComputer))) {
      $0.settings.mode = .versusComputer
      $0.settings.xName = "Computer"
    }
    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: $0.settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started)) { $0.game?.phase = .thinking }
    #expect(store.state.game?.title == "Computer is thinking…")
    await store.send(.game(.view(.quitTapped)))
    await store.receive(.game(.delegate(.didQuit))) { $0.game = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test
  func namesFollowTheNameRule() async {
    let store = newGame(NewGame.State(signedInName: "Ann", accountID: 1))
    let long = String(repeating: "n", count: 25)
    await store.send(.view(.oNameChanged(long))) { $0.settings.oName = long }
    #expect(
      store.state.validationMessage == "O's name: A name is at most 24 characters; this one has 25."
    )
    await store.send(.view(.letsPlayTapped))
    await store.send(.view(.oNameChanged("\u{1B}[2J"))) { $0.settings.oName = "\u{1B}[2J" }
    #expect(
      store.state.validationMessage
        == "O's name: A name may hold only characters that print as themselves: no control, "
        + "format or blank characters, and no accent at its start.")
    #expect(!store.state.canStart)
    await store.finish()
  }

  /// In a game of two people, the signed-in account's record goes to the side with its name:
  /// O when O carries it and X does not, X otherwise; and so again when the game is resumed.
  @Test
  func theAccountsRecordGoesToTheSideWithItsName() async throws {
    var state = NewGame.State(signedInName: "alice", accountID: 1)
    state.settings.mode = .hotSeat
    state.settings.xName = "Zed"
    state.settings.oName = "alice"
    let store = newGame(state, clock: TestClock().client)
    await store.send(.view(.letsPlayTapped)) {
      var settings = $0.settings
      settings.hotSeatAccountSide = .o
      $0.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    let record = try #require(store.state.game?.record)
    #expect(record.x.name == "Zed" && record.x.accountID == nil)
    #expect(record.o.name == "alice" && record.o.accountID == 1)
    #expect(GameSettings(resuming: record, accountID: 1).hotSeatAccountSide == .o)
    await startAndQuit(store)
    await store.finish()
  }

  /// A signed-in account's records go with its name, so the people's sides cannot all bear
  /// other names: the game would be counted as the account's.
  @Test
  func theSignedInAccountKeepsASideUnderItsName() async {
    var state = NewGame.State(signedInName: "alice", accountID: 1)
    state.settings.xName = "Zed"
    let store = newGame(state)
    #expect(
      store.state.validationMessage
        == "Your side must be named alice, who is signed in; sign out to play under other names.")
    #expect(!store.state.canStart)
    await store.send(.view(.xNameChanged(" ALICE "))) { $0.settings.xName = " ALICE " }
    #expect(store.state.validationMessage == nil)
    await store.send(.view(.modeChanged(.hotSeat))) {
      $0.settings.mode = .hotSeat
      $0.settings.oName = ""
    }
    await store.send(.view(.oNameChanged("Yan"))) { $0.settings.oName = "Yan" }
    #expect(store.state.validationMessage == nil)
    await store.send(.view(.xNameChanged("Zed"))) { $0.settings.xName = "Zed" }
    #expect(
      store.state.validationMessage
        == "One side must be named alice, who is signed in; sign out to play under other names.")
    await store.send(.view(.oNameChanged("Alice"))) { $0.settings.oName = "Alice" }
    #expect(store.state.validationMessage == nil)
    // Computers alone play for no one.
    await store.send(.view(.modeChanged(.computerVersusComputer))) {
      $0.settings.mode = .computerVersusComputer
      $0.settings.xName = "Computer X"
      $0.settings.oName = "Computer O"
      $0.setAsideNames = [.x: "Zed", .o: "Alice"]
    }
    #expect(store.state.validationMessage == nil)
    await store.finish()
  }

  /// Two people under one name would share their records, and a signed-in account would
  /// count both sides as its own: the names must differ beyond case and spaces.
  @Test
  func twoPeopleNeedDifferentNames() async {
    var state = NewGame.State(signedInName: "alice", accountID: 1)
    state.settings.mode = .hotSeat
    state.settings.xName = "alice"
    state.settings.oName = "Bob"
    let store = newGame(state)
    #expect(store.state.validationMessage == nil)
    await store.send(.view(.oNameChanged(" ALICE "))) { $0.settings.oName = " ALICE " }
    #expect(store.state.validationMessage == "X and O need different names; both are alice.")
    #expect(!store.state.canStart)
    var guest = NewGame.State()
    guest.settings.mode = .hotSeat
    guest.settings.xName = "Ann"
    guest.settings.oName = "ann"
    #expect(guest.validationMessage == "X and O need different names; both are Ann.")
    guest.settings.mode = .versusComputer
    #expect(guest.validationMessage == nil)
    await store.finish()
  }

  @Test
  func anAccountNamedUnderTheEarlierRulePlaysUnderItsOwnName() async {
    // Earlier versions allowed account names of up to 32 letters, digits and `. _ @ -`.
    let legacy = "abcdefghijklmnopqrstuvwxyz_12345"
    let store = newGame(NewGame.State(signedInName: legacy, accountID: 1))
    await store.send(.view(.oNameChanged("Bob"))) { $0.settings.oName = "Bob" }
    #expect(store.state.validationMessage == nil)
    #expect(store.state.canStart)
    // The exception is the account's own name, not any name that long.
    await store.send(.view(.oNameChanged(legacy + "x"))) { $0.settings.oName = legacy + "x" }
    #expect(
      store.state.validationMessage == "O's name: A name is at most 24 characters; this one has 33."
    )
    await store.finish()
  }

  @Test
  func aGameInProgressIsOfferedAndResumed() async throws {
    let record = GameRecord(
      x: PlayerRecord(name: "Blob", accountID: 1),
      o: PlayerRecord(name: "Computer", computer: .easy), moves: [.a1, .b2, .c3],
      startedAt: TestClock.epoch - 60_000)
    let database = InMemoryDatabase(gamesInProgress: [.account(1): record])
    let store = newGame(
      NewGame.State(signedInName: "Blob", accountID: 1), engine: .playing([.c1]), clock: .immediate,
      database: database.client)
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.gameInProgressLoaded(.success(record))) {
      $0.isLoading = false
      $0.resumableGame = record
    }
    #expect(store.state.resumeMessage == "Resume Blob vs Computer (3 moves played)?")
    #expect(store.state.endOfInputSentence == "Input ended; the saved game is kept for next time.")
    await store.send(.view(.resumeTapped)) {
      $0.resumableGame = nil
      $0.settings.difficulty = .easy
      $0.game = GameFeature.State(
        settings: $0.settings, game: try record.game(), startedAt: record.startedAt)
    }
    await store.receive(.game(.started)) { $0.game?.phase = .thinking }
    let answered = try record.game().playing(at: .c1)
    await store.receive(.game(.computerMoved(.c1))) {
      $0.game?.phase = .saving(GameFeature.Save(game: answered, write: .progress))
    }
    await store.receive(.game(.saved(recordID: nil))) {
      $0.game?.game = answered
      $0.game?.phase = .playing
    }
    await store.finish()
    #expect(database.gamesInProgress[.account(1)]?.moves == [.a1, .b2, .c3, .c1])
  }

  /// ada's unfinished game against Bob, saved a minute ago.
  private static let adasGame = GameRecord(
    x: PlayerRecord(name: "ada", accountID: 1), o: PlayerRecord(name: "Bob"),
    moves: [.a1], startedAt: TestClock.epoch - 60_000)
  /// ada's sign-in on this computer.
  private static let adasSession = Session(accountID: 1, userName: "ada", token: "t")

  /// Each game on this computer begins once the signed-in player's sign-in is found to hold;
  /// one that has ended (another program changed the password) or cannot be checked plays
  /// nothing.
  @Test
  func theSignInIsCheckedBeforeAGameBegins() async throws {
    let (record, session) = (Self.adasGame, Self.adasSession)
    let checks = Mutex<[Session]>([])
    var accounts = AuthenticationClient.unimplemented
    accounts.checkSession = { session in checks.withLock { $0.append(session) } }
    let store = TestStore(initialState: NewGame.State(session: session)) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: InMemoryDatabase(gamesInProgress: [.account(1): record]).client,
        accounts: accounts)
    }
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.gameInProgressLoaded(.success(record))) {
      $0.isLoading = false
      $0.resumableGame = record
    }
    await store.send(.view(.resumeTapped))
    await store.receive(.sessionChecked(.holds, then: .resume)) {
      $0.resumableGame = nil
      $0.settings = GameSettings(
        resuming: record, accountID: 1, startingRule: $0.settings.startingRule)
      $0.game = GameFeature.State(
        settings: $0.settings, game: try record.game(), startedAt: record.startedAt)
    }
    await store.receive(.game(.started))
    await store.finish()
    #expect(checks.withLock { $0 } == [session])

    // Plain mode stops with the sentence; the form shows why the sign-in could not be checked.
    accounts.checkSession = { _ in throw AuthenticationError.notSignedIn }
    let settings = GameSettings(xName: "ada", oName: "Bob", accountID: 1)
    let plain = TestStore(
      initialState: NewGame.State(launching: settings, session: session, isStandalone: true)
    ) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: InMemoryDatabase().client, accounts: accounts)
    }
    await plain.send(.started) { $0.isLoading = true }
    await plain.receive(.gameInProgressLoaded(.success(nil))) { $0.isLoading = false }
    await plain.receive(.sessionChecked(.ended, then: .new(after: nil)))
    await plain.receive(.delegate(.didStop(plain.state.endedSessionSentence)))
    await plain.finish()

    accounts.checkSession = { _ in throw AuthenticationError.storage("The disk is on fire.") }
    let form = TestStore(initialState: NewGame.State(session: session)) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: InMemoryDatabase().client, accounts: accounts)
    }
    await form.send(.view(.letsPlayTapped))
    await form.receive(.sessionChecked(.unknown("The disk is on fire."), then: .new(after: nil))) {
      $0.errorMessage = "The disk is on fire."
    }
    #expect(form.state.game == nil)
    await form.finish()
  }

  /// Play again, `n` or `new` typed after a finished game is another game: it waits for the
  /// check too.
  @Test
  func anotherGameAfterAFinishedOneWaitsForTheSignInCheck() async throws {
    let session = Self.adasSession
    var accounts = AuthenticationClient.unimplemented
    accounts.checkSession = { _ in throw AuthenticationError.notSignedIn }
    var state = NewGame.State(session: session)
    (state.settings.oName, state.settings.mode) = ("Bob", .hotSeat)
    var won = Game(start: .classic)
    for cell in [Cell.a1, .a2, .b1, .b2, .c1] { won = try won.playing(at: cell) }
    state.game = GameFeature.State(
      settings: state.settings, game: won, startedAt: TestClock.epoch)
    state.game?.phase = .finished(recordID: 1)
    let store = TestStore(initialState: state) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: InMemoryDatabase().client, accounts: accounts)
    }
    for view in [GameFeature.Action.View.playAgainTapped, .newGameTapped, .lineTyped(" NEW ")] {
      await store.send(.game(.view(view)))
      await store.receive(.sessionChecked(.ended, then: .again))
      await store.receive(.delegate(.didEndSession(store.state.endedSessionSentence)))
      #expect(store.state.game?.game == won, "the finished game stays as it was")
    }
    await store.finish()
  }

  /// Discarding the account's unfinished game is the account's to do: once its sign-in has
  /// ended (another program changed the password), the game is kept and Sign in comes back.
  @Test
  func discardWaitsForTheSignInCheck() async throws {
    let (record, session) = (Self.adasGame, Self.adasSession)
    let database = InMemoryDatabase(gamesInProgress: [.account(1): record])
    let holds = Mutex(false)
    var accounts = AuthenticationClient.unimplemented
    accounts.checkSession = { _ in
      guard holds.withLock({ $0 }) else { throw AuthenticationError.notSignedIn }
    }
    var state = NewGame.State(session: session)
    (state.resumableGame, state.isConfirmingDiscard) = (record, true)
    let store = TestStore(initialState: state) {
      NewGame(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: database.client, accounts: accounts)
    }
    await store.send(.view(.discardConfirmed)) { $0.isConfirmingDiscard = false }
    await store.receive(.sessionChecked(.ended, then: .discard))
    await store.receive(.delegate(.didEndSession(store.state.endedSessionSentence)))
    await store.finish()
    #expect(store.state.resumableGame == record)
    #expect(database.gamesInProgress[.account(1)] == record, "the game is kept")

    holds.withLock { $0 = true }
    await store.send(.view(.discardResumeTapped)) { $0.isConfirmingDiscard = true }
    await store.send(.view(.discardConfirmed)) { $0.isConfirmingDiscard = false }
    await store.receive(.sessionChecked(.holds, then: .discard)) { $0.resumableGame = nil }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  /// A saved game whose moves cannot be played again is kept and offered again; nothing starts
  /// in its place unless the player asks for a new game.
  @Test
  func aSavedGameThatCannotBeReadBackIsKept() async throws {
    let damaged = GameRecord(
      x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"),
      moves: [.a1, Cell(row: 99, column: 0)], startedAt: TestClock.epoch - 60_000)
    let database = InMemoryDatabase(gamesInProgress: [.guest: damaged])
    let form = newGame(NewGame.State(), clock: .immediate, database: database.client)
    await form.send(.started) { $0.isLoading = true }
    await form.receive(.gameInProgressLoaded(.success(damaged))) {
      $0.isLoading = false
      $0.resumableGame = damaged
    }
    await form.send(.view(.resumeTapped)) {
      $0.errorMessage =
        "The unfinished game could not be read back, so it is kept as it is; play a new game "
        + "or discard it."
    }
    #expect(form.state.resumableGame == damaged && form.state.game == nil)
    await form.finish()

    // Plain mode, on a database of its own (the first still holds the guest's game).
    let stored = InMemoryDatabase(gamesInProgress: [.guest: damaged])
    let settings = GameSettings(xName: "Ann", oName: "Bob")
    let plain = newGame(
      NewGame.State(launching: settings, session: nil, isStandalone: true), clock: .immediate,
      database: stored.client)
    await plain.send(.started) { $0.isLoading = true }
    await plain.receive(.gameInProgressLoaded(.success(damaged))) {
      $0.isLoading = false
      $0.resumableGame = damaged
    }
    await plain.send(.view(.lineTyped("resume")))
    await plain.receive(
      .delegate(
        .didStop(
          "The unfinished game could not be read back, so it is kept as it is; answer new to "
            + "start another game in its place.")))
    await plain.finish()
    #expect(stored.gamesInProgress[.guest] == damaged)
  }

  @Test
  func aLaunchWithOptionsOffersTheSavedGameFirstAndReplacesItOnlyWhenAsked() async throws {
    let record = GameRecord.unfinishedAnnAgainstBob
    let database = InMemoryDatabase(gamesInProgress: [.guest: record])
    let settings = GameSettings(
      xName: "Player X", oName: "Computer", mode: .versusComputer, computerMark: .o)
    let store = newGame(
      NewGame.State(launching: settings, session: nil, isStandalone: true), clock: .immediate,
      database: database.client)
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.gameInProgressLoaded(.success(record))) {
      $0.isLoading = false
      $0.resumableGame = record
    }
    // The saved game is offered, not replaced: no game starts yet.
    #expect(store.state.game == nil)
    #expect(
      store.state.typedResumeQuestion
        == "Resume Ann vs Bob (2 moves played)? Type resume, or new to start a new game instead.")
    await store.send(.view(.lineTyped("c3"))) { $0.unansweredLines = 1 }
    await store.send(.view(.lineTyped("new"))) { try $0.startedGame(settings) }
    await store.receive(.game(.started))
    await store.finish()
    // Still there until the new game's first move replaces it.
    #expect(database.gamesInProgress[.guest] == record)
  }

  @Test
  func plainModeSaysWhatItsQuitLeavesBehind() async throws {
    // Quitting the offer to resume keeps the saved game.
    let record = GameRecord.unfinishedAnnAgainstBob
    let settings = GameSettings(xName: "Ann", oName: "Bob")
    var offered = NewGame.State(launching: settings, session: nil, isStandalone: true)
    offered.resumableGame = record
    let atTheOffer = newGame(offered)
    await atTheOffer.send(.view(.lineTyped("quit"))) {
      $0.farewell = "The saved game is kept for next time."
    }
    await atTheOffer.receive(.delegate(.didFinish))
    // Quitting a game under way leaves it unsaved; a game with no move leaves nothing.
    var playing = NewGame.State(launching: settings, session: nil, isStandalone: true)
    playing.startsWhenLoaded = false
    playing.game = try GameFeature.State(settings: settings, firstMover: .x, startedAt: 0)
    playing.game?.game = try Game(start: .classic, moves: [.b2])
    let underWay = newGame(playing)
    await underWay.send(.game(.delegate(.didQuit))) {
      $0.game = nil
      $0.farewell = "The game was left unfinished and is not saved."
    }
    await underWay.receive(.delegate(.didFinish))
    playing.game?.game = Game(start: .classic)
    let unplayed = newGame(playing)
    await unplayed.send(.game(.delegate(.didQuit))) { $0.game = nil }
    await unplayed.receive(.delegate(.didFinish))
  }

  @Test
  func aLaunchWithOptionsStartsAtOnceWhenNothingIsSaved() async throws {
    let settings = GameSettings(xName: "Ann", oName: "Bob")
    let store = newGame(
      NewGame.State(launching: settings, session: nil, isStandalone: false), clock: .immediate,
      database: InMemoryDatabase().client)
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.gameInProgressLoaded(.success(nil))) {
      $0.isLoading = false
      try $0.startedGame(settings)
    }
    await store.receive(.game(.started))
    await store.finish()
  }

  @Test
  func aStandaloneGameEndsTheAppOrStartsAnotherAndStopsOnAFailure() async throws {
    let settings = GameSettings(xName: "Ann", oName: "Bob", startingRule: .alternate)
    var state = NewGame.State(launching: settings, session: nil, isStandalone: true)
    state.startsWhenLoaded = false
    state.game = try GameFeature.State(settings: settings, firstMover: .x, startedAt: 0)
    let store = newGame(state, clock: .immediate, database: InMemoryDatabase().client)
    await store.send(.game(.delegate(.didAskForNewGame))) {
      $0.game = try GameFeature.State(
        settings: settings, firstMover: .o, startedAt: TestClock.epoch)
    }
    await startAndQuit(store)
    await store.receive(.delegate(.didFinish))

    var failing = DatabaseClient.unimplemented
    failing.claimGameInProgress = { _ in }
    failing.loadGameInProgress = { _ in throw DatabaseError("The database is corrupt.") }
    let stopped = newGame(
      NewGame.State(launching: settings, session: nil, isStandalone: true), clock: .immediate,
      database: failing)
    await stopped.send(.started) { $0.isLoading = true }
    await stopped.receive(
      .gameInProgressLoaded(.failure(DatabaseError("The database is corrupt.")))
    ) {
      $0.isLoading = false
    }
    await stopped.receive(.delegate(.didStop("The database is corrupt.")))
    await store.finish()
    await stopped.finish()
  }

  @Test
  func aGameInProgressCanBeLeftBehind() async {
    let record = GameRecord(
      x: PlayerRecord(name: "Blob"), o: PlayerRecord(name: "Blob Jr"), moves: [.a1],
      startedAt: TestClock.epoch)
    let database = InMemoryDatabase(gamesInProgress: [.guest: record])
    let store = newGame(NewGame.State(), database: database.client)
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.gameInProgressLoaded(.success(record))) {
      $0.isLoading = false
      $0.resumableGame = record
    }
    // Asked first; keeping it keeps it.
    await store.send(.view(.discardResumeTapped)) { $0.isConfirmingDiscard = true }
    #expect(
      store.state.discardQuestion
        == "Discard Blob vs Blob Jr (1 move played)? It cannot be resumed afterwards.")
    await store.send(.view(.discardCancelled)) { $0.isConfirmingDiscard = false }
    await store.send(.view(.discardConfirmed))
    #expect(database.gamesInProgress[.guest] == record)
    await store.send(.view(.discardResumeTapped)) { $0.isConfirmingDiscard = true }
    await store.send(.view(.discardConfirmed)) {
      $0.isConfirmingDiscard = false
      $0.resumableGame = nil
    }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func theBoardAndItsLineLengthStayInRange() async {
    let store = newGame(NewGame.State(signedInName: "Blob", accountID: 1))
    await store.send(.view(.sizeChanged(7))) {
      $0.settings.rows = 7
      $0.settings.columns = 7
      $0.settings.k = 5
    }
    #expect(store.state.canStart)
    #expect(store.state.kRange == 3...7)
    await store.send(.view(.kChanged(8))) { $0.settings.k = 8 }
    #expect(store.state.validationMessage == "k = 8 does not fit a 7×7 board; it must be 3 to 7.")
    await store.send(.view(.letsPlayTapped))
    // Stepping keeps k within what the board allows.
    await store.send(.view(.stepped(.k, by: 1))) { $0.settings.k = 7 }
    await store.send(.view(.stepped(.k, by: -9))) { $0.settings.k = 3 }
    await store.send(.view(.stepped(.size, by: 20))) {
      $0.settings.rows = 15
      $0.settings.columns = 15
      $0.settings.k = 5
    }
    await store.send(.view(.stepped(.size, by: 1)))
    await store.send(.view(.stepped(.mode, by: -1))) {
      $0.settings.mode = .hotSeat
      $0.settings.oName = ""
    }
    await store.send(.view(.stepped(.startingRule, by: -1))) { $0.settings.startingRule = .random }
    await store.send(.view(.stepped(.difficulty, by: -1))) { $0.settings.difficulty = .hard }
    await store.finish()
  }

  @Test
  func statsOpenAndClose() async {
    let database = InMemoryDatabase(stats: [.account(1): Stats()])
    let store = newGame(
      NewGame.State(signedInName: "Blob", accountID: 1), database: database.client)
    await store.send(.view(.statsTapped)) {
      $0.stats = StatsFeature.State(owner: .account(1))
      $0.stats?.userName = "Blob"
    }
    await store.receive(.stats(.started)) { $0.stats?.isLoading = true }
    await store.receive(.stats(.statsResponse(.success(Stats())))) {
      $0.stats?.isLoading = false
      $0.stats?.stats = Stats()
    }
    await store.send(.stats(.view(.closeTapped)))
    await store.receive(.stats(.delegate(.didClose))) { $0.stats = nil }
    await store.finish()
  }

  /// A Stats reset checks the credentials as a sign-in does: the password, then the code.
  @Test
  func aStatsResetChecksThePasswordThenTheCode() async {
    var accounts = AuthenticationClient.unimplemented
    accounts.login = { userName, password in
      guard password == "correct horse" else { throw AuthenticationError.invalidCredentials }
      if userName == "dee" {
        return .twoFactorRequired(TwoFactorChallenge(userName: "dee", token: "challenge"))
      }
      return .signedIn(Session(accountID: 1, userName: userName))
    }
    accounts.verifyTwoFactor = { challenge, code in
      guard code == "123456" else { throw AuthenticationError.invalidCode }
      return Session(accountID: 4, userName: challenge.userName)
    }
    #expect(await NewGame.check("ann", "correct horse", nil, with: accounts) == .accepted)
    #expect(
      await NewGame.check("ann", "wrong", nil, with: accounts)
        == .refused("The password is incorrect."))
    #expect(await NewGame.check("dee", "correct horse", nil, with: accounts) == .codeNeeded)
    #expect(await NewGame.check("dee", "correct horse", " ", with: accounts) == .codeNeeded)
    #expect(
      await NewGame.check("dee", "correct horse", "000000", with: accounts)
        == .refused(AuthenticationError.invalidCode.message))
    #expect(await NewGame.check("dee", "correct horse", "123456", with: accounts) == .accepted)
  }

  /// The person who moved to O when the computer took X keeps their name there, and is not
  /// seated at X as well when two people play.
  @Test
  func aPersonWhoMovedSidesIsNotSeatedTwice() async throws {
    let store = newGame(NewGame.State(), clock: TestClock().client)
    await store.send(.view(.xNameChanged("Zed"))) { $0.settings.xName = "Zed" }
    await store.send(.view(.computerMarkChanged(.x))) {
      $0.settings.computerMark = .x
      $0.settings.xName = "Computer"
      $0.settings.oName = "Zed"
      $0.setAsideNames = [.x: "Zed"]
    }
    await store.send(.view(.modeChanged(.hotSeat))) {
      $0.settings.mode = .hotSeat
      $0.settings.xName = ""
    }
    await store.send(.view(.xNameChanged("Amy"))) { $0.settings.xName = "Amy" }
    // Both to the computer and back: each name returns to its side.
    await store.send(.view(.modeChanged(.computerVersusComputer))) {
      $0.settings.mode = .computerVersusComputer
      $0.settings.xName = "Computer X"
      $0.settings.oName = "Computer O"
      $0.setAsideNames = [.x: "Amy", .o: "Zed"]
    }
    await store.send(.view(.modeChanged(.hotSeat))) {
      $0.settings.mode = .hotSeat
      $0.settings.xName = "Amy"
      $0.settings.oName = "Zed"
    }
  }

  /// A name typed over the computer's stays on that side when a person takes it.
  @Test
  func aNameTypedOverTheComputersStaysWhenTwoPeoplePlay() async {
    let store = newGame(NewGame.State(), clock: TestClock().client)
    await store.send(.view(.oNameChanged("Zed"))) { $0.settings.oName = "Zed" }
    await store.send(.view(.modeChanged(.hotSeat))) { $0.settings.mode = .hotSeat }
    #expect(store.state.settings.oName == "Zed")

    // The same on X, whose side a guest's name is not kept for.
    let onX = newGame(NewGame.State(), clock: TestClock().client)
    await onX.send(.view(.computerMarkChanged(.x))) {
      $0.settings.computerMark = .x
      $0.settings.xName = "Computer"
      $0.settings.oName = ""
    }
    await onX.send(.view(.xNameChanged("Xena"))) { $0.settings.xName = "Xena" }
    await onX.send(.view(.modeChanged(.hotSeat))) { $0.settings.mode = .hotSeat }
    #expect(onX.state.settings.xName == "Xena")
  }

  /// Long runs of mode and side changes, signed in and as a guest: nobody is seated twice,
  /// and a typed name stays with a person's side while there is one.
  @Test
  func noRunOfChangesSeatsANameTwiceOrLosesOne() {
    let changes: [(inout GameSettings) -> Void] = [
      { $0.computerMark = .x }, { $0.computerMark = .o }, { $0.mode = .hotSeat },
      { $0.mode = .versusComputer }, { $0.mode = .computerVersusComputer },
    ]
    for signedIn in [nil, "ann"] as [String?] {
      var settings = NewGame.State(signedInName: signedIn, accountID: signedIn == nil ? nil : 1)
        .settings
      if signedIn == nil { settings.xName = "Ann" }
      var setAside: [Mark: String] = [:]
      var random = SeededBytes(seed: 7)
      for step in 0..<2_000 {
        // As the form changes them: the change, then the names follow.
        let old = settings
        changes[Int(random.next(1)[0]) % changes.count](&settings)
        settings.renameSides(after: old, personName: signedIn, setAside: &setAside)
        let people = Mark.allCases.filter { !settings.isComputer($0) }
        let names = people.map { settings.name(of: $0) }.filter { !$0.isEmpty }
        #expect(Set(names).count == names.count, "step \(step): \(settings)")
        if !people.isEmpty {
          #expect(names.contains(signedIn ?? "Ann"), "step \(step): \(settings)")
        }
      }
    }
  }

  @Test
  func aRandomStarterIsDrawnForTheFirstGame() async throws {
    let store = newGame(
      NewGame.State(signedInName: "Blob", accountID: 1), clock: .immediate,
      random: RandomClient { $0.upperBound - 1 })
    await store.send(.view(.modeChanged(.hotSeat))) {
      $0.settings.mode = .hotSeat
      $0.settings.oName = ""
    }
    await store.send(.view(.oNameChanged("Grace"))) { $0.settings.oName = "Grace" }
    await store.send(.view(.startingRuleChanged(.random))) { $0.settings.startingRule = .random }
    await store.send(.view(.letsPlayTapped)) {
      $0.game = try GameFeature.State(
        settings: $0.settings, firstMover: .o, startedAt: TestClock.epoch)
    }
    await store.receive(.game(.started))
    #expect(store.state.game?.title == "Grace, place your O")
    await store.finish()
  }
}

extension NewGame.State {
  /// The form once its game started: nothing offered any more, the game on the board.
  fileprivate mutating func startedGame(_ settings: GameSettings) throws {
    resumableGame = nil
    startsWhenLoaded = false
    game = try GameFeature.State(settings: settings, firstMover: .x, startedAt: TestClock.epoch)
  }
}

struct NewGameDifficultyNameTests {
  @Test func theTopLevelIsNamedForTheChosenBoard() {
    var state = NewGame.State()
    state.settings.mode = .versusComputer
    state.settings.difficulty = .unbeatable
    #expect(state.value(of: .difficulty) == "Unbeatable")
    #expect(state.difficultyNote == nil)
    (state.settings.rows, state.settings.columns, state.settings.k) = (15, 15, 5)
    #expect(state.value(of: .difficulty) == "Strongest")
    #expect(state.difficultyOptions.map(\.name) == ["Easy", "Medium", "Hard", "Strongest"])
    #expect(state.difficultyNote?.contains("first player wins with perfect play") == true)
    state.settings.difficulty = .hard
    #expect(state.value(of: .difficulty) == "Hard")
    #expect(state.difficultyNote == nil)
  }
}

/// The form's labels, as the desktop's boxed lists show them.
struct NewGameLabelTests {
  @Test func everyChoiceAndFieldHasItsLabel() {
    #expect(
      NewGame.Choice.allCases.map(\.title) == [
        "Mode", "Computer plays", "Difficulty", "Board size", "In a row to win", "Who starts",
      ])
    let form = NewGame.State()
    #expect(Mark.allCases.map(form.nameTitle) == ["X player", "O player"])
    #expect(NewGame.State.computerMarkName(.o) == "Computer plays O")
  }

  @Test func theSizesOfferedAreEveryBoardTheRulesAllow() {
    let sides = NewGame.State.sizeChoices.map(\.side)
    #expect(sides == Array(Board.minimumSide...Board.maximumSide))
    #expect(NewGame.State.sizeChoices.first?.title == "3×3")
    #expect(NewGame.State.sizeChoices.last?.title == "15×15")
    for (side, title) in NewGame.State.sizeChoices {
      var form = NewGame.State()
      form.settings.rows = side
      form.settings.columns = side
      #expect(form.value(of: .size) == title, "the form names its board as the list does")
    }
  }
}
