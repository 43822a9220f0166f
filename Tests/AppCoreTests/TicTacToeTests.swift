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
  @Test
  func signInThroughTwoFactorPlayAFullGamePlayAgainQuitAndSignOut() async throws {
    let database = InMemoryDatabase()
    let store = TestStore(initialState: TicTacToe.State()) {
      TicTacToe(
        authentication: .demo, database: database.client, engine: .firstEmptyCell,
        clock: .immediate, random: .unimplemented)
    }

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
      $0 = .newGame(NewGame.State(signedInName: "blob2fa@example.com", accountID: 1))
    }

    // New game, with nothing to resume.
    await store.receive(.newGame(.started))
    await store.receive(.newGame(.gameInProgressLoaded(.success(nil))))
    let settings = GameSettings(
      xName: "blob2fa@example.com", oName: "Computer", mode: .versusComputer, computerMark: .o,
      difficulty: .hard, accountID: 1)
    await store.send(.newGame(.view(.letsPlayTapped))) {
      $0.newGameState?.game = try GameFeature.State(
        settings: settings, firstMover: .x, startedAt: TestClock.epoch)
    }
    await store.receive(.newGame(.game(.started)))

    // A full game against the computer, which plays the first empty cell.
    let exchanges: [(person: Cell, computer: Cell)] = [(.b2, .a1), (.c1, .b1)]
    for (person, computer) in exchanges {
      await store.send(.newGame(.game(.view(.cellTapped(person))))) {
        try $0.newGameState?.game?.game.play(at: person)
        $0.newGameState?.game?.isThinking = true
      }
      await store.receive(.newGame(.game(.computerMoved(computer)))) {
        try $0.newGameState?.game?.game.play(at: computer)
        $0.newGameState?.game?.isThinking = false
      }
    }
    await store.send(.newGame(.game(.view(.cellTapped(.a3))))) {
      try $0.newGameState?.game?.game.play(at: .a3)
      $0.newGameState?.game?.isSavingRecord = true
    }
    await store.receive(.newGame(.game(.recordSaved(1)))) {
      $0.newGameState?.game?.isSavingRecord = false
      $0.newGameState?.game?.recordID = 1
    }
    #expect(store.state.newGameState?.game?.title == "Winner! Congrats blob2fa@example.com!")
    #expect(store.state.newGameState?.game?.isBoardEnabled == false)
    let saved = try #require(database.finishedGames.first)
    #expect(saved.result == .xWins)
    #expect(saved.x.accountID == 1)
    #expect(saved.o.computer == .hard)

    // Play again, then quit before a move, back to New game with the names kept.
    await store.send(.newGame(.game(.view(.playAgainTapped)))) {
      $0.newGameState?.game?.game = Game(start: .classic)
      $0.newGameState?.game?.recordID = nil
    }
    await store.send(.newGame(.game(.view(.quitTapped))))
    await store.receive(.newGame(.game(.delegate(.didQuit)))) { $0.newGameState?.game = nil }
    #expect(store.state.newGameState?.xName == "blob2fa@example.com")

    // Sign out to a fresh Sign in.
    await store.send(.newGame(.view(.signOutTapped)))
    await store.receive(.newGame(.delegate(.didSignOut))) { $0 = TicTacToe.State() }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func aGuestPlaysWithoutAnAccount() async {
    let store = TestStore(initialState: TicTacToe.State()) {
      TicTacToe(
        authentication: .unimplemented, database: InMemoryDatabase().client,
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented)
    }
    await store.send(.login(.view(.playAsGuestTapped)))
    await store.receive(.login(.delegate(.didChooseGuest))) { $0 = .newGame(NewGame.State()) }
    await store.receive(.newGame(.started))
    await store.receive(.newGame(.gameInProgressLoaded(.success(nil))))
    #expect(store.state.newGameState?.signOutTitle == "Back to Sign in")
    await store.finish()
  }

  @Test
  func signingOutCancelsTheNewGameScreensWork() async {
    var database = DatabaseClient.unimplemented
    database.loadGameInProgress = { _ in
      try await Task.sleep(for: .seconds(60))
      return nil
    }
    let store = TestStore(initialState: TicTacToe.State.newGame(NewGame.State())) {
      TicTacToe(
        authentication: .unimplemented, database: database, engine: .unimplemented,
        clock: .unimplemented, random: .unimplemented)
    }
    await store.send(.newGame(.started))
    await store.send(.newGame(.view(.signOutTapped)))
    await store.receive(.newGame(.delegate(.didSignOut))) { $0 = TicTacToe.State() }
    await store.finish()
  }
}
