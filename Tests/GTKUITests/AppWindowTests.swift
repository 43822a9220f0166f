import AppCore
import Architecture
import AuthenticationClient
import CGTK
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
      defer { gtk_window_destroy(cgtk_window(app.window)) }
      XCTAssertEqual(app.screen, .login)

      try cgtk_button_click(XCTUnwrap(app.loginView?.guestButton))
      XCTAssertEqual(app.screen, .newGame)
      let form = try XCTUnwrap(app.newGameView)
      XCTAssertFalse(isSensitive(form.letsPlayButton), "X needs a name first")
      gtk_editable_set_text(cgtk_editable(form.xNameEntry), "Blob")
      XCTAssertTrue(isSensitive(form.letsPlayButton))
      cgtk_button_click(form.letsPlayButton)
      XCTAssertEqual(app.screen, .game)
      let board = try XCTUnwrap(app.gameView)

      cgtk_button_click(board.cells[1][1])
      XCTAssertEqual(accessibleName(of: board.cells[1][1]), "Row 2, column 2, X")
      // The computer's reply arrives from an effect, through the main run loop.
      pump { accessibleName(of: board.cells[0][0]) == "Row 1, column 1, O" }
      XCTAssertEqual(accessibleName(of: board.cells[0][0]), "Row 1, column 1, O")
      XCTAssertEqual(labelText(of: board.titleLabel), "Blob, place your X")

      cgtk_button_click(board.quitButton)
      XCTAssertTrue(isVisible(board.confirmBar))
      cgtk_button_click(board.confirmQuitButton)
      pump { app.screen == .newGame }
      XCTAssertEqual(app.screen, .newGame)
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
      form.xName = "Blob"
      form.mode = .computerVersusComputer
      let store = Store(initialState: .newGame(form)) {
        TicTacToe(
          authentication: .demo, database: InMemoryDatabase().client, engine: engine,
          clock: .immediate, random: .lowest, thinkingPause: .zero)
      }
      store.send(.newGame(.view(.letsPlayTapped)))
      let app = AppWindow(application: nil, store: store)
      defer { gtk_window_destroy(cgtk_window(app.window)) }
      let board = try XCTUnwrap(app.gameView)

      pump { labelText(of: board.titleLabel).hasPrefix("Winner!") }

      XCTAssertEqual(labelText(of: board.titleLabel), "Winner! Congrats Blob!")
      let recorded = threads.withLock { $0 }
      XCTAssertEqual(recorded.count, 7, "X wins down the first column on the seventh move")
      XCTAssertFalse(recorded.contains(true), "no move was chosen on the main thread")
    }
  }

  func testTwoFactorScreenFollowsTheSignInAndLeadsToNewGame() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore())
      defer { gtk_window_destroy(cgtk_window(app.window)) }
      let login = try XCTUnwrap(app.loginView)
      XCTAssertFalse(isSensitive(login.signInButton))

      gtk_editable_set_text(cgtk_editable(login.userNameEntry), "blob2fa@example.com")
      gtk_editable_set_text(cgtk_editable(login.passwordEntry), "password")
      XCTAssertTrue(isSensitive(login.signInButton))
      cgtk_button_click(login.signInButton)
      pump { app.screen == .twoFactor }
      XCTAssertEqual(app.screen, .twoFactor)

      let twoFactor = try XCTUnwrap(app.twoFactorView)
      gtk_editable_set_text(cgtk_editable(twoFactor.codeEntry), "1234")
      cgtk_button_click(twoFactor.verifyButton)
      pump { app.screen == .newGame }
      XCTAssertEqual(app.screen, .newGame)
      XCTAssertEqual(
        app.newGameView.map {
          String(cString: gtk_editable_get_text(cgtk_editable($0.xNameEntry)))
        },
        "blob2fa@example.com")
    }
  }

  func testWrongPasswordShowsTheCoreMessageAndClearsThePassword() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore())
      defer { gtk_window_destroy(cgtk_window(app.window)) }
      let login = try XCTUnwrap(app.loginView)

      gtk_editable_set_text(cgtk_editable(login.userNameEntry), "blob@example.com")
      gtk_editable_set_text(cgtk_editable(login.passwordEntry), "wrong")
      cgtk_button_click(login.signInButton)
      pump { isVisible(login.errorLabel) }

      XCTAssertEqual(
        labelText(of: login.errorLabel), AuthenticationError.invalidCredentials.message)
      XCTAssertEqual(String(cString: gtk_editable_get_text(cgtk_editable(login.passwordEntry))), "")
      XCTAssertEqual(
        String(cString: gtk_editable_get_text(cgtk_editable(login.userNameEntry))),
        "blob@example.com")
    }
  }
}

/// A store over test clients: the demo accounts, records in memory, an engine that takes the
/// first empty cell, a clock that does not wait.
@MainActor
func makeStore() -> Store<TicTacToe> {
  Store(initialState: TicTacToe.State()) {
    TicTacToe(
      authentication: .demo, database: InMemoryDatabase().client, engine: .firstEmptyCell,
      clock: .immediate, random: .lowest, thinkingPause: .zero)
  }
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
