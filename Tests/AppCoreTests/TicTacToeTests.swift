import AppCore
import ArchitectureTesting
import AuthenticationClient
import DatabaseClient
import GameCore
import GameRules
import LoginCore
import NewGameCore
import TestSupport
import Testing
import TwoFactorCore

@MainActor
struct TicTacToeTests {
  /// The app over test clients; the ones a test does not give fail when called.
  private func app(
    _ state: TicTacToe.State = TicTacToe.State(),
    authentication: AuthenticationClient = .unimplemented,
    database: DatabaseClient = .unimplemented, engine: EngineClient = .unimplemented,
    clock: ClockClient = .unimplemented
  ) -> TestStore<TicTacToe> {
    TestStore(initialState: state) {
      TicTacToe(
        authentication: authentication, database: database, engine: engine, clock: clock,
        random: .unimplemented)
    }
  }

  @Test
  func signInThroughTwoFactorPlayAFullGamePlayAgainQuitAndSignOut() async throws {
    let database = InMemoryDatabase()
    let store = app(
      authentication: .demo, database: database.client, engine: .firstEmptyCell, clock: .immediate)
    #expect(store.state.screen == .signIn)

    // Sign in, then two-factor.
    await store.send(.login(.view(.userNameChanged("blob2fa@example.com")))) {
      $0.loginState?.userName = "blob2fa@example.com"
    }
    await store.send(.login(.view(.passwordChanged("password")))) {
      $0.loginState?.password = "password"
    }
    await store.send(.login(.view(.signInTapped))) { $0.loginState?.isRequestInFlight = true }
    let challenge = TwoFactorChallenge(userName: "blob2fa@example.com", token: "demo-token")
    await store.receive(.login(.loginResponse(.success(.twoFactorRequired(challenge))))) {
      $0.loginState?.isRequestInFlight = false
      $0.loginState?.twoFactor = TwoFactor.State(challenge: challenge)
    }
    #expect(store.state.screen == .twoFactor)
    await store.send(.login(.twoFactor(.view(.codeChanged("1234"))))) {
      $0.loginState?.twoFactor?.code = "1234"
    }
    await store.send(.login(.twoFactor(.view(.submitTapped)))) {
      $0.loginState?.twoFactor?.isRequestInFlight = true
    }
    let session = Session(accountID: 1, userName: "blob2fa@example.com")
    await store.receive(.login(.twoFactor(.verifyResponse(.success(session))))) {
      $0.loginState?.twoFactor?.isRequestInFlight = false
    }
    await store.receive(.login(.twoFactor(.delegate(.didAuthenticate(session))))) {
      $0.loginState?.twoFactor = nil
      $0.loginState?.password = ""
    }
    await store.receive(.login(.delegate(.didAuthenticate(session)))) {
      $0.destination = .newGame(NewGame.State(session: session))
    }
    #expect(store.state.screen == .newGame)

    // New game, with nothing to resume.
    await store.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await store.receive(.newGame(.gameInProgressLoaded(.success(nil)))) {
      $0.newGameState?.isLoading = false
    }
    let settings = GameSettings(
      xName: "blob2fa@example.com", oName: "Computer", mode: .versusComputer, computerMark: .o,
      accountID: 1)
    // The sign-in is checked before the game begins.
    await store.send(.newGame(.view(.letsPlayTapped)))
    await store.receive(.newGame(.sessionChecked(.holds, then: .new(after: nil)))) {
      $0.newGameState?.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.newGame(.game(.started)))
    #expect(store.state.screen == .game)

    // A full game against the computer, which plays the first empty cell.
    let exchanges: [(person: Cell, computer: Cell)] = [(.b2, .a1), (.c1, .b1)]
    for (person, computer) in exchanges {
      try await exchange(person, computer, store)
    }
    let won = try #require(try store.state.game?.game.playing(at: .a3))
    await store.send(.newGame(.game(.view(.cellTapped(.a3))))) {
      $0.newGameState?.game?.phase = .saving(GameFeature.Save(game: won, write: .finished))
    }
    await store.receive(.newGame(.game(.saved(recordID: 1)))) {
      $0.newGameState?.game?.game = won
      $0.newGameState?.game?.phase = .finished(recordID: 1)
    }
    #expect(store.state.game?.title == "Winner! Congrats blob2fa@example.com!")
    #expect(store.state.game?.isBoardEnabled == false)
    let saved = try #require(database.finishedGames.first)
    #expect(saved.result == .xWins)
    #expect(saved.x.accountID == 1)
    #expect(saved.o.computer == .unbeatable)

    // Play again (once the sign-in is found to hold), then quit before a move, back to New
    // game with the names kept.
    await store.send(.newGame(.game(.view(.playAgainTapped))))
    await store.receive(.newGame(.sessionChecked(.holds, then: .again))) {
      $0.newGameState?.game?.game = Game(start: .classic)
      $0.newGameState?.game?.phase = .playing
    }
    await store.send(.newGame(.game(.view(.quitTapped))))
    await store.receive(.newGame(.game(.delegate(.didQuit)))) { $0.newGameState?.game = nil }
    #expect(store.state.newGameState?.settings.xName == "blob2fa@example.com")

    // Sign out to a fresh Sign in.
    await store.send(.newGame(.view(.signOutTapped)))
    await store.receive(.newGame(.delegate(.didSignOut))) { $0 = TicTacToe.State() }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  private func exchange(
    _ person: Cell, _ computer: Cell, _ store: TestStore<TicTacToe>
  ) async throws {
    let played = try #require(try store.state.game?.game.playing(at: person))
    await store.send(.newGame(.game(.view(.cellTapped(person))))) {
      $0.newGameState?.game?.phase = .saving(GameFeature.Save(game: played, write: .progress))
    }
    await store.receive(.newGame(.game(.saved(recordID: nil)))) {
      $0.newGameState?.game?.game = played
      $0.newGameState?.game?.phase = .thinking
    }
    let answered = try played.playing(at: computer)
    await store.receive(.newGame(.game(.computerMoved(computer)))) {
      $0.newGameState?.game?.phase = .saving(GameFeature.Save(game: answered, write: .progress))
    }
    await store.receive(.newGame(.game(.saved(recordID: nil)))) {
      $0.newGameState?.game?.game = answered
      $0.newGameState?.game?.phase = .playing
    }
  }

  /// Plays as a guest from Sign in, onto New game with nothing to resume.
  private func playAsGuest(_ store: TestStore<TicTacToe>) async {
    await store.send(.login(.view(.playAsGuestTapped)))
    await store.receive(.login(.delegate(.didChooseGuest))) {
      $0.destination = .newGame(NewGame.State())
    }
    await store.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await store.receive(.newGame(.gameInProgressLoaded(.success(nil)))) {
      $0.newGameState?.isLoading = false
    }
  }

  @Test
  func aGuestPlaysWithoutAnAccount() async {
    let store = app(database: InMemoryDatabase().client)
    await playAsGuest(store)
    #expect(store.state.newGameState?.signOutTitle == "Back to Sign in")
    await store.finish()
  }

  @Test
  func signingOutCancelsTheNewGameScreensWork() async {
    var database = DatabaseClient.unimplemented
    database.claimGameInProgress = { _ in }
    database.releaseGameInProgress = { _ in }
    database.loadGameInProgress = { _ in
      try await Task.sleep(for: .seconds(60))
      return nil
    }
    var state = TicTacToe.State()
    state.destination = .newGame(NewGame.State())
    let store = app(state, database: database)
    await store.send(.started)
    await store.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await store.send(.newGame(.view(.signOutTapped)))
    await store.receive(.newGame(.delegate(.didSignOut))) { $0 = TicTacToe.State() }
    await store.finish()
  }

  @Test
  func optionsBecomeOneGameForEveryExecutable() {
    let session = Session(accountID: 7, userName: "ada")
    #expect(
      GameRequest().settings(for: nil)
        == GameSettings(
          xName: "Player X", oName: "Computer", mode: .versusComputer, computerMark: .o,
          difficulty: .unbeatable))
    #expect(
      GameRequest(mode: .hotSeat, rows: 3, columns: 4).settings(for: session)
        == GameSettings(
          xName: "ada", oName: "Player O", mode: .hotSeat, rows: 3, columns: 4, k: 3,
          accountID: 7))
    #expect(
      GameRequest(mode: .versusComputer, computerMark: .x, difficulty: .easy).settings(
        for: session)
        == GameSettings(
          xName: "Computer", oName: "ada", mode: .versusComputer, computerMark: .x,
          difficulty: .easy, accountID: 7))
    // Two people, the account's name given for O: the account plays O, X is nobody's yet.
    var onO = GameSettings(
      xName: "Player X", oName: "ada", mode: .hotSeat, accountID: 7)
    onO.hotSeatAccountSide = .o
    #expect(GameRequest(oName: "ada", mode: .hotSeat).settings(for: session) == onO)
    // Computer against computer: the names follow the mode; the account watches.
    #expect(
      GameRequest(xName: nil, mode: .computerVersusComputer, rows: 15).settings(for: session)
        == GameSettings(
          xName: "Computer X", oName: "Computer O", mode: .computerVersusComputer, rows: 15,
          columns: 15, k: 5, accountID: 7))
  }

  @Test
  func aLaunchIntoAGameOffersTheSavedOneFirst() async throws {
    let record = GameRecord.unfinishedAnnAgainstBob
    let database = InMemoryDatabase(gamesInProgress: [.guest: record])
    let launch = Launch.game(GameRequest(mode: .versusComputer), session: nil, isStandalone: false)
    let store = app(TicTacToe.State(launch: launch), database: database.client, clock: .immediate)
    #expect(store.state.screen == .newGame)
    await store.send(.started)
    await store.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await store.receive(.newGame(.gameInProgressLoaded(.success(record)))) {
      $0.newGameState?.isLoading = false
      $0.newGameState?.resumableGame = record
    }
    #expect(store.state.screen == .newGame)
    #expect(database.gamesInProgress[.guest] == record)
    await store.finish()
  }

  @Test
  func leavingAsksPastSignInAndAFailedSaveEndsTheApp() async throws {
    var database = InMemoryDatabase().client
    database.saveGameInProgress = { _, _ in throw DatabaseError("The disk is full.") }
    var state = TicTacToe.State()
    state.destination = .newGame(NewGame.State())
    let settings = GameSettings(xName: "Ann", oName: "Bob")
    state.newGameState?.game = try GameFeature.State(
      settings: settings, firstMover: .x, startedAt: 0)
    let store = app(state, database: database, clock: .immediate)
    await store.send(.view(.exitTapped)) { $0.isConfirmingExit = true }
    #expect(store.state.exitQuestion == "Leave Tic-Tac-Toe?")
    await store.send(.view(.lineTyped("no"))) { $0.isConfirmingExit = false }

    let played = try Game(start: .classic, moves: [.b2])
    await store.send(.view(.lineTyped("b2")))
    await store.receive(.newGame(.game(.view(.lineTyped("b2"))))) {
      $0.newGameState?.game?.phase = .saving(GameFeature.Save(game: played, write: .progress))
    }
    let failure = GameFeature.SaveFailure(
      reason: "The disk is full.", stored: Game(start: .classic), unstored: played,
      write: .progress)
    await store.receive(.newGame(.game(.saveFailed(DatabaseError("The disk is full."))))) {
      $0.newGameState?.game?.phase = .stopped(failure)
    }
    let sentence = "The disk is full; the game stopped, and X's move b2 is not stored."
    await store.receive(.newGame(.game(.delegate(.didStop(sentence)))))
    await store.receive(.newGame(.delegate(.didStop(sentence)))) {
      $0.termination = .failed(sentence)
    }
    await store.finish()

    let signIn = app()
    await signIn.send(.view(.exitTapped)) { $0.termination = .finished }
    await signIn.finish()
  }

  /// Leaving with a game in progress writes it once more: if the database was deleted
  /// meanwhile, the app ends saying nothing is kept, rather than that the game is saved.
  @Test
  func leavingWritesTheGameInProgressOnceMore() async throws {
    let database = InMemoryDatabase()
    var gone = database.client
    var state = TicTacToe.State()
    state.destination = .newGame(NewGame.State())
    let settings = GameSettings(xName: "Ann", oName: "Bob")
    var game = try GameFeature.State(settings: settings, firstMover: .x, startedAt: 0)
    let played = try Game(start: .classic, moves: [.b2])
    game.game = played
    state.newGameState?.game = game
    let kept = app(state, database: database.client, clock: .immediate)
    kept.exhaustivity = .off
    await kept.send(.view(.exitTapped))
    await kept.send(.view(.exitConfirmed))
    await kept.finish()
    #expect(kept.state.termination == .finished)
    #expect(database.gamesInProgress[.guest]?.moves == [.b2])

    gone.saveGameInProgress = { _, _ in
      throw DatabaseError("The database was deleted.", kind: .gone)
    }
    let lost = app(state, database: gone, clock: .immediate)
    lost.exhaustivity = .off
    await lost.send(.view(.exitTapped))
    await lost.send(.view(.exitConfirmed))
    await lost.finish()
    #expect(
      lost.state.termination
        == .failed("The database was deleted; the game stopped, and nothing of the game is kept."))
  }

  @Test
  func aSecondSessionIsRefusedUntilTheFirstSignsOut() async throws {
    let database = InMemoryDatabase()
    let first = app(database: database.client)
    await playAsGuest(first)

    // Another program, as a guest too: refused with a sentence, and no game can start.
    let taken = DatabaseError.heldByAnotherProgram
    var state = TicTacToe.State()
    var form = NewGame.State()
    (form.settings.xName, form.settings.oName) = ("Ada", "Bob")
    state.destination = .newGame(form)
    let second = app(state, database: database.client, clock: .immediate)
    await second.send(.started)
    await second.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await second.receive(.newGame(.gameInProgressLoaded(.failure(taken)))) {
      $0.newGameState?.isLoading = false
      $0.newGameState?.blockingProblem = taken.message
    }
    #expect(second.state.newGameState?.validationMessage == taken.message)
    // A form that lacks a name says that first: it is why Let's play is dimmed.
    await second.send(.newGame(.view(.xNameChanged("")))) { $0.newGameState?.settings.xName = "" }
    #expect(second.state.newGameState?.validationMessage == "Enter a name for X.")
    #expect(second.state.newGameState?.canStart == false)
    await second.send(.newGame(.view(.xNameChanged("Ada")))) {
      $0.newGameState?.settings.xName = "Ada"
    }
    #expect(second.state.newGameState?.validationMessage == taken.message)
    // Let's play asks again, and is refused again while the first plays.
    #expect(second.state.newGameState?.canStart == true)
    await second.send(.newGame(.view(.letsPlayTapped))) {
      $0.newGameState?.startsWhenLoaded = true
    }
    await second.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await second.receive(.newGame(.gameInProgressLoaded(.failure(taken)))) {
      $0.newGameState?.isLoading = false
    }
    #expect(second.state.newGameState?.game == nil)

    // Once the first signs out, the guest's game is free again, and Let's play plays.
    await first.send(.newGame(.view(.signOutTapped)))
    await first.receive(.newGame(.delegate(.didSignOut))) { $0 = TicTacToe.State() }
    await first.finish()
    let settings = try #require(second.state.newGameState?.settings)
    await second.send(.newGame(.view(.letsPlayTapped)))
    await second.receive(.newGame(.started)) { $0.newGameState?.isLoading = true }
    await second.receive(.newGame(.gameInProgressLoaded(.success(nil)))) {
      $0.newGameState?.isLoading = false
      $0.newGameState?.blockingProblem = nil
      $0.newGameState?.startsWhenLoaded = false
      $0.newGameState?.game = try GameFeature.State(
        settings: settings, firstMover: .x,
        startedAt: TestClock.epoch)
    }
    await second.receive(.newGame(.game(.started)))
    await second.send(.newGame(.game(.view(.quitTapped))))
    await second.receive(.newGame(.game(.delegate(.didQuit)))) { $0.newGameState?.game = nil }
    await second.finish()
  }

  @Test
  func aSignInEndedElsewhereLeadsBackToSignInBeforeTheNextGame() async throws {
    // Another program changed ada's password: her session no longer holds.
    var authentication = AuthenticationClient.unimplemented
    authentication.checkSession = { _ in throw AuthenticationError.notSignedIn }
    let database = InMemoryDatabase()
    let session = Session(accountID: 1, userName: "ada", token: "t")
    var state = TicTacToe.State()
    state.destination = .newGame(NewGame.State(session: session))
    let store = app(state, authentication: authentication, database: database.client)
    await store.send(.newGame(.view(.letsPlayTapped)))
    await store.receive(.newGame(.sessionChecked(.ended, then: .new(after: nil))))
    let sentence =
      "ada's sign-in has ended: it is over 12 hours old, or the account's password or "
      + "two-factor was changed, or the account deleted, since; sign in again to play."
    await store.receive(.newGame(.delegate(.didEndSession(sentence)))) {
      var login = Login.State(userName: "ada")
      login.errorMessage = sentence
      $0.destination = .login(login)
    }
    await store.finish()
    #expect(store.state.screen == .signIn)
    #expect(database.finishedGames.isEmpty && database.gamesInProgress.isEmpty)
  }

  @Test
  func aSignedInPlayerReachesTheRecoveryCodesFromNewGame() async {
    var authentication = AuthenticationClient.unimplemented
    authentication.remainingRecoveryCodes = { _ in 5 }
    let session = Session(accountID: 1, userName: "ada", token: "t")
    var state = TicTacToe.State()
    state.destination = .newGame(NewGame.State(session: session))
    let store = app(state, authentication: authentication)
    await store.send(.newGame(.view(.recoveryCodesTapped)))
    await store.receive(.newGame(.delegate(.didAskForRecoveryCodes(session)))) {
      $0.recoveryCodes = RecoveryCodes.State(session: session)
    }
    #expect(store.state.screen == .recoveryCodes)
    await store.receive(.recoveryCodes(.started)) { $0.recoveryCodes?.isRequestInFlight = true }
    await store.receive(.recoveryCodes(.countResponse(.success(5)))) {
      $0.recoveryCodes?.isRequestInFlight = false
      $0.recoveryCodes?.remaining = .codes(5)
    }
    await store.send(.recoveryCodes(.view(.closeTapped)))
    await store.receive(.recoveryCodes(.delegate(.didClose))) { $0.recoveryCodes = nil }
    #expect(store.state.screen == .newGame)
    // A guest has no codes to show.
    var guest = TicTacToe.State()
    guest.destination = .newGame(NewGame.State())
    let guestStore = app(guest)
    await guestStore.send(.newGame(.view(.recoveryCodesTapped)))
    await store.finish()
    await guestStore.finish()
  }
}
