import AppCore
import Architecture
import AuthenticationClient
import CGTK
import DatabaseClient
import Foundation
import GTKUI
import GameCore
import GameRules
import NewGameCore
import Synchronization
import TestSupport
import XCTest

final class AppWindowTests: XCTestCase {
  func testGuestPlaysAgainstTheComputerThroughTheWindow() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore())
      defer { app.window.destroy() }
      XCTAssertEqual(app.screen, .signIn)

      try XCTUnwrap(app.loginView?.guestButton).click()
      XCTAssertEqual(app.screen, .newGame)
      let form = try XCTUnwrap(app.newGameView)
      XCTAssertFalse(form.letsPlayButton.isSensitive, "X needs a name first")
      form.xNameEntry.type("Blob")
      XCTAssertTrue(form.letsPlayButton.isSensitive)
      form.letsPlayButton.click()
      XCTAssertEqual(app.screen, .game)
      let board = try XCTUnwrap(app.gameView)

      board.cells[1][1].click()
      // The move shows once the records have it.
      pump { board.cells[1][1].accessibleName == "Row 2, column 2, X" }
      XCTAssertEqual(board.cells[1][1].accessibleName, "Row 2, column 2, X")
      // The computer's reply arrives from an effect, through the main run loop.
      pump { board.cells[0][0].accessibleName == "Row 1, column 1, O" }
      XCTAssertEqual(board.cells[0][0].accessibleName, "Row 1, column 1, O")
      XCTAssertEqual(board.titleLabel.text, "Blob, place your X")

      XCTAssertEqual(app.backButton.accessibleName, "Quit")
      app.backButton.click()
      try XCTUnwrap(board.confirmation, "quitting a game in progress asks").respond(.act)
      pump { app.screen == .newGame }
      XCTAssertEqual(app.screen, .newGame)
    }
  }

  func testDiscardingTheUnfinishedGameIsAskedFirst() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let record = GameRecord(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: [.a1], startedAt: 0)
      let database = InMemoryDatabase(gamesInProgress: [.guest: record])
      var state = TicTacToe.State()
      state.destination = .newGame(NewGame.State())
      let store = Store(initialState: state) {
        TicTacToe(
          authentication: .demo, database: database.client, engine: .firstEmptyCell,
          clock: .immediate, random: .lowest, thinkingPause: .zero)
      }
      store.send(.newGame(.started))
      let app = AppWindow(application: nil, store: store)
      defer { app.window.destroy() }
      let form = try XCTUnwrap(app.newGameView)
      pump { store.state.newGameState?.resumableGame != nil }
      form.discardButton.click()
      try XCTUnwrap(form.confirmation, "Discard asks first").respond(.keep)
      pump { form.confirmation == nil }
      XCTAssertEqual(store.state.newGameState?.resumableGame, record, "Keep it keeps the game")
      form.discardButton.click()
      try XCTUnwrap(form.confirmation).respond(.act)
      pump { database.gamesInProgress.isEmpty }
      XCTAssertNil(store.state.newGameState?.resumableGame)
      XCTAssertTrue(database.gamesInProgress.isEmpty)
    }
  }

  func testTheEngineRunsOffTheMainThread() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let threads = Mutex<[Bool]>([])
      var engine = EngineClient.firstEmptyCell
      engine.chooseMove = { board, _ in
        threads.withLock { $0.append(Thread.isMainThread) }
        return board.emptyCells.first
      }
      var form = NewGame.State()
      form.settings.xName = "Blob"
      form.settings.mode = .computerVersusComputer
      var state = TicTacToe.State()
      state.destination = .newGame(form)
      let store = Store(initialState: state) {
        TicTacToe(
          authentication: .demo, database: InMemoryDatabase().client, engine: engine,
          clock: .immediate, random: .lowest, thinkingPause: .zero)
      }
      store.send(.newGame(.view(.letsPlayTapped)))
      let app = AppWindow(application: nil, store: store)
      defer { app.window.destroy() }
      let board = try XCTUnwrap(app.gameView)

      pump { board.titleLabel.text.hasPrefix("Winner!") }

      XCTAssertEqual(board.titleLabel.text, "Winner! Congrats Blob!")
      let recorded = threads.withLock { $0 }
      XCTAssertEqual(recorded.count, 7, "X wins down the first column on the seventh move")
      XCTAssertFalse(recorded.contains(true), "no move was chosen on the main thread")
    }
  }

  func testTwoFactorScreenFollowsTheSignInAndLeadsToNewGame() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore())
      defer { app.window.destroy() }
      let login = try XCTUnwrap(app.loginView)
      XCTAssertFalse(login.signInButton.isSensitive)

      login.userNameEntry.type("blob2fa@example.com")
      login.passwordEntry.type("password")
      XCTAssertTrue(login.signInButton.isSensitive)
      login.signInButton.click()
      pump { app.screen == .twoFactor }
      XCTAssertEqual(app.screen, .twoFactor)

      let twoFactor = try XCTUnwrap(app.twoFactorView)
      twoFactor.codeEntry.type("1234")
      twoFactor.verifyButton.click()
      pump { app.screen == .newGame }
      XCTAssertEqual(app.screen, .newGame)
      XCTAssertEqual(app.newGameView?.xNameEntry.text, "blob2fa@example.com")
    }
  }

  func testWrongPasswordShowsTheCoreMessageAndClearsThePassword() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore())
      defer { app.window.destroy() }
      let login = try XCTUnwrap(app.loginView)

      login.userNameEntry.type("blob@example.com")
      login.passwordEntry.type("wrong")
      login.signInButton.click()
      pump { login.errorLabel.isVisible }

      XCTAssertEqual(login.errorLabel.text, AuthenticationError.invalidCredentials.message)
      XCTAssertEqual(login.passwordEntry.text, "")
      XCTAssertEqual(login.userNameEntry.text, "blob@example.com")
    }
  }
}

extension AppWindowTests {
  func testCreateAccountAsksForThePasswordTwice() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore())
      defer { app.window.destroy() }
      let login = try XCTUnwrap(app.loginView)
      XCTAssertFalse(login.isAskingForThePasswordAgain)
      login.userNameEntry.type("new@example.com")
      login.passwordEntry.type("correct horse")
      login.createAccountButton.click()
      XCTAssertTrue(login.isAskingForThePasswordAgain, "the password is asked again")
      XCTAssertEqual(app.screen, .signIn)
      login.repeatedPasswordEntry.type("correct hrose")
      login.createAccountButton.click()
      XCTAssertEqual(login.errorLabel.text, "The two passwords differ; type the password again.")
      XCTAssertEqual(app.screen, .signIn)
      login.repeatedPasswordEntry.type("correct horse")
      login.createAccountButton.click()
      pump { app.screen == .newGame }
      XCTAssertEqual(app.screen, .newGame)
      XCTAssertEqual(app.newGameView?.recoveryCodesButton.isVisible, true)
    }
  }
}

/// A store over test clients: the demo accounts, records in memory, an engine that takes the
/// first empty cell, a clock that does not wait.
@MainActor
func makeStore(_ state: TicTacToe.State = TicTacToe.State()) -> Store<TicTacToe> {
  Store(initialState: state) {
    TicTacToe(
      authentication: .demo, database: InMemoryDatabase().client, engine: .firstEmptyCell,
      clock: .immediate, random: .lowest, thinkingPause: .zero)
  }
}

/// A store of ``makeStore(_:)`` with a game of Ann against Bob on the Game screen.
@MainActor
func makeStoreInAGameOfAnnAndBob() -> Store<TicTacToe> {
  var form = NewGame.State()
  form.settings = GameSettings(xName: "Ann", oName: "Bob")
  var state = TicTacToe.State()
  state.destination = .newGame(form)
  let store = makeStore(state)
  store.send(.newGame(.view(.letsPlayTapped)))
  return store
}

/// Runs the main run loop and GTK's main context until `condition` holds or two seconds pass.
@MainActor
func pump(until condition: () -> Bool) {
  let deadline = Date().addingTimeInterval(2)
  while !condition() && Date() < deadline {
    _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
    while g_main_context_iteration(nil, 0) != 0 {}
  }
}
