import AppCore
import Architecture
import AuthenticationClient
import Foundation
import GTKUI
import GameCore
import GameProtocol
import GameRules
import LoginCore
import NewGameCore
import OnlineClient
import OnlineCore
import Synchronization
import TestSupport
import XCTest

/// Online play in the window, over a scripted server: the fingerprint question, the server's
/// New game, the invite code, the board the server judges, the opponent's connection in the
/// header and toasts, resigning, and the Open games list.
final class OnlineViewTests: XCTestCase {

  func testANewServerIsTrustedOnlyThroughTheDialogThenSignsIn() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let trusted = Mutex<[[UInt8]]>([])
      var online = OnlineClient.unimplemented
      online.checkServer = { _ in .firstUse(fingerprint: [0xab, 0x01]) }
      online.trustServer = { _, fingerprint in trusted.withLock { $0.append(fingerprint) } }
      var accounts = AuthenticationClient.unimplemented
      accounts.login = { name, _ in .signedIn(Session(accountID: 7, userName: name, token: "t")) }
      let serverAccounts = accounts
      online.accounts = { _ in serverAccounts }
      let app = AppWindow(application: nil, store: Self.store(online: online))
      defer { app.window.destroy() }
      let login = try XCTUnwrap(app.loginView)

      login.userNameEntry.type("ada")
      login.passwordEntry.type("a password")
      login.serverEntry.type("127.0.0.1")
      XCTAssertEqual(login.serverNoteLabel.text, "Accounts on 127.0.0.1:7457.")
      login.signInButton.click()
      pump { login.trustDialog != nil }
      let dialog = try XCTUnwrap(login.trustDialog, "a server seen first is asked about")
      XCTAssertEqual(dialog.heading, "Trust this server?")
      XCTAssertTrue(dialog.body.contains("SHA256:ab01"), dialog.body)
      XCTAssertTrue(trusted.withLock { $0.isEmpty }, "nothing is pinned before the answer")
      XCTAssertFalse(login.signInButton.isSensitive, "the form waits for the answer")

      dialog.respond(.act)
      pump { app.screen == .newGame }
      XCTAssertEqual(trusted.withLock { $0 }, [[0xab, 0x01]])
      XCTAssertEqual(app.header.title.subtitle, "Signed in as ada on 127.0.0.1:7457")
      let form = try XCTUnwrap(app.newGameView)
      XCTAssertTrue(form.createOnlineButton.isVisible)
      XCTAssertFalse(form.letsPlayButton.isVisible, "the form is the server's")
    }
  }

  func testRefusingTheFingerprintSendsNothing() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var online = OnlineClient.unimplemented
      online.checkServer = { _ in .firstUse(fingerprint: [1]) }
      let app = AppWindow(application: nil, store: Self.store(online: online))
      defer { app.window.destroy() }
      let login = try XCTUnwrap(app.loginView)
      login.userNameEntry.type("ada")
      login.passwordEntry.type("a password")
      login.serverEntry.type("127.0.0.1")
      login.signInButton.click()
      pump { login.trustDialog != nil }
      try XCTUnwrap(login.trustDialog).respond(.keep)
      pump { login.errorLabel.isVisible }
      XCTAssertEqual(
        login.errorLabel.text, "127.0.0.1:7457 is not trusted; nothing was sent to it.")
      XCTAssertEqual(app.screen, .signIn)
      XCTAssertNil(login.trustDialog)
    }
  }

  func testAnOnlineGameFromCreateToTheResult() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let link = TestLink()
      var online = OnlineClient.unimplemented
      online.link = { _ in link.client }
      var state = TicTacToe.State()
      state.destination = .newGame(
        NewGame.State(
          server: onlineServer, session: Session(accountID: 7, userName: "ada", token: "t")))
      let app = AppWindow(application: nil, store: Self.store(online: online, state: state))
      defer { app.window.destroy() }
      let form = try XCTUnwrap(app.newGameView)

      form.createOnlineButton.click()
      pump { app.page == .onlineGame }
      let view = try XCTUnwrap(app.onlineGameView)
      XCTAssertEqual(view.titleLabel.text, "Connecting to 127.0.0.1:7457…")
      pump { link.openCount == 1 }
      link.emit(.opened)
      pump { !link.sent.isEmpty }
      XCTAssertEqual(link.sent.first, .resumeSession(token: "t"))
      link.emit(.message(.signedIn(accountID: 7, userName: "ada", token: "t")))
      pump { link.sent.count == 2 }
      XCTAssertEqual(
        link.sent.last, .createGame(GameOptions(rows: 3, columns: 3, k: 3, first: .x)))
      link.emit(.message(.game(Self.snapshot(status: .waiting, o: nil))))
      pump { view.inviteCodeLabel.text == "K7M2QX" }
      XCTAssertEqual(view.titleLabel.text, "Waiting for an opponent…")
      XCTAssertEqual(view.inviteCodeLabel.accessibleName, "Invite code K7M2QX")
      view.copyButton.click()
      XCTAssertEqual(view.copyButton.clipboardText, "K7M2QX")
      XCTAssertTrue(app.toasts.shown.contains("Invite code copied."))
      XCTAssertEqual(app.backButton.accessibleName, "Leave", "nothing to resign yet")

      link.emit(.message(.playerJoined(code: "K7M2QX", mark: .o, player: onlineBob)))
      pump { app.header.title.title == "ada (X, 1200) against bob (O, 1210)" }
      XCTAssertEqual(app.header.title.title, "ada (X, 1200) against bob (O, 1210)")
      XCTAssertEqual(
        app.header.title.subtitle, "Game K7M2QX on 127.0.0.1:7457 · bob is connected.")
      XCTAssertTrue(app.toasts.shown.contains("bob joined; bob plays O."), "\(app.toasts.shown)")
      XCTAssertFalse(view.inviteCodeLabel.isVisible && view.inviteCodeLabel.text.isEmpty)
      XCTAssertEqual(view.titleLabel.text, "ada, place your X")
      XCTAssertEqual(app.backButton.accessibleName, "Resign")
      // Ctrl+Z takes nothing back online, and says so.
      app.undoOrRedoKey(redo: false)
      pump {
        app.toasts.shown.last
          == "Undo, hints, analysis and new games are not part of an online game."
      }
      XCTAssertEqual(
        app.toasts.shown.last,
        "Undo, hints, analysis and new games are not part of an online game.")

      view.cells[0][0].click()
      pump { link.sent.count == 3 }
      XCTAssertEqual(link.sent.last, .move(code: "K7M2QX", ply: 0, cell: .a1))
      XCTAssertTrue(
        view.cells[1][1].isAccessibleDisabled, "nothing else goes while the move is out")
      link.emit(.message(.moved(code: "K7M2QX", ply: 0, cell: .a1)))
      pump { view.cells[0][0].accessibleName == "Row 1, column 1, X" }
      XCTAssertEqual(view.titleLabel.text, "Waiting for bob to place O…")

      link.emit(.message(.playerAway(code: "K7M2QX", mark: .o, seconds: 60)))
      pump { app.toasts.shown.contains("bob lost the connection; waiting 60 seconds.") }
      XCTAssertTrue(app.toasts.shown.contains("bob lost the connection; waiting 60 seconds."))
      XCTAssertEqual(
        app.header.title.subtitle, "Game K7M2QX on 127.0.0.1:7457 · bob lost the connection.")
      link.emit(.message(.playerBack(code: "K7M2QX", mark: .o)))
      pump { app.toasts.shown.contains("bob is back.") }
      XCTAssertTrue(app.toasts.shown.contains("bob is back."))

      // This window loses the server: it says so, comes back by itself and says that too.
      link.emit(.closed(reason: "connection reset", isPermanent: false))
      pump { app.toasts.shown.contains("Lost the connection to the server; reconnecting…") }
      XCTAssertTrue(
        app.toasts.shown.contains("Lost the connection to the server; reconnecting…"),
        "\(app.toasts.shown)")
      XCTAssertEqual(
        app.header.title.subtitle, "Game K7M2QX on 127.0.0.1:7457 · reconnecting to the server…")
      pump { link.openCount == 2 }
      link.emit(.opened)
      pump { link.sent.count == 4 }
      XCTAssertEqual(link.sent.last, .resumeSession(token: "t"))
      link.emit(.message(.signedIn(accountID: 7, userName: "ada", token: "t")))
      pump { link.sent.count == 5 }
      XCTAssertEqual(link.sent.last, .joinGame(code: "K7M2QX"))
      var again = Self.snapshot(status: .playing, o: onlineBob)
      again.moves = [.a1]
      link.emit(.message(.game(again)))
      pump { app.toasts.shown.contains("Reconnected to the server.") }
      XCTAssertTrue(app.toasts.shown.contains("Reconnected to the server."))
      XCTAssertEqual(
        app.header.title.subtitle, "Game K7M2QX on 127.0.0.1:7457 · bob is connected.")
      let sentBeforeTheQuestion = link.sent.count

      // Giving up is asked in a dialog; No keeps the game.
      app.backButton.click()
      let question = try XCTUnwrap(view.confirmation)
      XCTAssertEqual(question.heading, "Resign this game? bob wins.")
      view.cells[2][2].grabFocus()
      question.respond(.keep)
      pump { view.confirmation == nil }
      XCTAssertEqual(link.sent.count, sentBeforeTheQuestion, "keeping the game sends nothing")
      // The focus is on the last move, where a held Enter that answered plays nothing.
      XCTAssertEqual(view.focusedCell(), .a1)
      XCTAssertTrue(app.toasts.shown.contains("The game goes on."))

      link.emit(.message(.moved(code: "K7M2QX", ply: 1, cell: .b2)))
      // bob's move makes the toast before it old news: it goes once it has settled.
      for _ in 0..<2 { pump { !app.toasts.titlesShowing.contains("The game goes on.") } }
      XCTAssertFalse(app.toasts.titlesShowing.contains("The game goes on."))
      link.emit(
        .message(
          .ended(
            code: "K7M2QX",
            GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_194))))
      pump { app.toasts.shown.contains("bob left; you win.") }
      XCTAssertTrue(app.toasts.shown.contains("bob left; you win."), "\(app.toasts.shown)")
      XCTAssertEqual(view.titleLabel.text, "Winner! Congrats ada!")
      XCTAssertEqual(app.backButton.accessibleName, "Leave")
      XCTAssertEqual(
        app.header.title.subtitle,
        "Game K7M2QX on 127.0.0.1:7457 · Ratings: ada 1216 (+16), bob 1194 (−16).")
      view.controlButton.click()
      pump { app.page == .screen(.newGame) }
      XCTAssertEqual(app.page, .screen(.newGame))
    }
  }

  func testOpenGamesListsTheServersGamesAndJoinsOne() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let link = TestLink()
      var online = OnlineClient.unimplemented
      online.listGames = { _ in
        [
          GameListing(
            code: "K7M2QX", isOpen: true, xName: "bob", oName: nil, rows: 3, columns: 3, k: 3,
            moveCount: 0)
        ]
      }
      online.link = { _ in link.client }
      var state = TicTacToe.State()
      state.destination = .newGame(
        NewGame.State(
          server: onlineServer, session: Session(accountID: 7, userName: "ada", token: "t")))
      let app = AppWindow(application: nil, store: Self.store(online: online, state: state))
      defer { app.window.destroy() }

      try XCTUnwrap(app.newGameView).openGamesButton.click()
      pump { app.openGamesView?.gameButtons.count == 1 }
      let list = try XCTUnwrap(app.openGamesView)
      XCTAssertEqual(app.header.title.title, "Open games on 127.0.0.1:7457")
      XCTAssertEqual(
        list.gameButtons.first?.label,
        "K7M2QX  bob (X) against O free, 3×3, 3 in a row, 0 moves · join")
      list.gameButtons[0].click()
      pump { app.page == .onlineGame }
      XCTAssertEqual(app.page, .onlineGame)
      pump { link.openCount == 1 }
      link.emit(.opened)
      link.emit(.message(.signedIn(accountID: 7, userName: "ada", token: "t")))
      pump { link.sent.count == 2 }
      XCTAssertEqual(link.sent.last, .joinGame(code: "K7M2QX"))
    }
  }

  func testTheTitleLineScalesWithTheWindow() {
    XCTAssertEqual(TitleScaler.fontSize(width: 640, height: 740), 25)
    XCTAssertEqual(TitleScaler.fontSize(width: 1280, height: 1400), 47)
    XCTAssertEqual(TitleScaler.fontSize(width: 200, height: 150), 16, "never unreadably small")
    XCTAssertEqual(TitleScaler.fontSize(width: 4000, height: 4000), 56, "nor huge")
    XCTAssertLessThan(
      TitleScaler.fontSize(width: 1280, height: 500),
      TitleScaler.fontSize(width: 1280, height: 900),
      "a short window has a smaller board, and so a smaller title")
  }

  func testTheTitleFontFollowsTheWindowSize() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let state = try game(GameSettings(xName: "Ann", oName: "Bob"), moves: [])
      let view = GameView { _ in }
      view.render(state)
      let window = present(view.root)
      defer { window.destroy() }
      window.setDefaultSize(width: 400, height: 460)
      pump { view.scaler.fontSize != 0 }
      let small = view.scaler.fontSize
      window.setDefaultSize(width: 1000, height: 1100)
      pump { view.scaler.fontSize != small }
      XCTAssertGreaterThan(view.scaler.fontSize, small, "a larger window, a larger title")
    }
  }

  // MARK: - Helpers

  private static func snapshot(status: GameStatus, o: SeatedPlayer?) -> GameSnapshot {
    GameSnapshot(
      code: "K7M2QX", rows: 3, columns: 3, k: 3, firstMover: .x, x: onlineAda, o: o, moves: [],
      status: status, role: .x)
  }

  @MainActor
  private static func store(online: OnlineClient, state: TicTacToe.State = TicTacToe.State())
    -> Store<TicTacToe>
  {
    Store(initialState: state) {
      TicTacToe(
        authentication: .demo, database: InMemoryDatabase().client, engine: .firstEmptyCell,
        clock: .immediate, random: .lowest, online: online, thinkingPause: .zero)
    }
  }
}

private let onlineServer = ServerAddress(host: "127.0.0.1", port: 7457)
private let onlineAda = SeatedPlayer(name: "ada", rating: 1_200)
private let onlineBob = SeatedPlayer(name: "bob", rating: 1_210)

/// A server link the test drives: it records what is sent and emits what the test says.
private final class TestLink: Sendable {
  private let streams = Mutex<[AsyncStream<LinkEvent>.Continuation]>([])
  private let sentMessages = Mutex<[ClientMessage]>([])

  var client: ServerLink {
    ServerLink(
      open: {
        let (stream, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        self.streams.withLock { $0.append(continuation) }
        return stream
      },
      send: { message in self.sentMessages.withLock { $0.append(message) } },
      close: { self.streams.withLock { $0.last?.finish() } })
  }

  var openCount: Int { streams.withLock(\.count) }
  var sent: [ClientMessage] { sentMessages.withLock { $0 } }

  func emit(_ event: LinkEvent) {
    streams.withLock { streams in
      _ = streams.last?.yield(event)
      if case .closed = event { streams.last?.finish() }
    }
  }
}

extension OnlineViewTests {
  func testClosingTheWindowCancelsOnesWaitingGameBeforeTheAppEnds() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let link = TestLink()
      var online = OnlineClient.unimplemented
      online.link = { _ in link.client }
      var state = TicTacToe.State()
      state.destination = .newGame(
        NewGame.State(
          server: onlineServer, session: Session(accountID: 7, userName: "ada", token: "t")))
      let store = Self.store(online: online, state: state)
      let app = AppWindow(application: nil, store: store)
      defer { app.window.destroy() }
      try XCTUnwrap(app.newGameView).createOnlineButton.click()
      pump { link.openCount == 1 }
      link.emit(.opened)
      pump { !link.sent.isEmpty }
      link.emit(.message(.signedIn(accountID: 7, userName: "ada", token: "t")))
      pump { link.sent.count == 2 }
      link.emit(.message(.game(Self.snapshot(status: .waiting, o: nil))))
      pump { app.onlineGameView?.inviteCodeLabel.text == "K7M2QX" }

      // A window is closed as the player would only once it shows.
      app.window.present()
      pump { app.window.isVisible }
      app.window.close()
      pump { link.sent.count == 3 }
      XCTAssertEqual(link.sent.last, .cancelGame(code: "K7M2QX"))
      XCTAssertTrue(app.window.isVisible, "the window waits for the server's word")
      XCTAssertNil(store.state.termination)
      link.emit(.message(.cancelled(code: "K7M2QX")))
      pump { store.state.termination != nil }
      XCTAssertEqual(store.state.termination, .finished)
    }
  }

  func testStatsOnAServerShowTheRatingThere() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var online = OnlineClient.unimplemented
      online.playerRecord = { _, userName in
        (
          PlayerStats(
            userName: userName, rating: 1_216, wins: 1, losses: 0, draws: 0, currentStreak: 1,
            bestStreak: 1), []
        )
      }
      var state = TicTacToe.State()
      state.destination = .newGame(
        NewGame.State(
          server: onlineServer, session: Session(accountID: 7, userName: "ada", token: "t")))
      let store = Store(initialState: state) {
        TicTacToe(
          authentication: .demo, database: InMemoryDatabase().client, engine: .firstEmptyCell,
          clock: .immediate, random: .lowest, online: online, thinkingPause: .zero)
      }
      let app = AppWindow(application: nil, store: store)
      defer { app.window.destroy() }
      app.actions.activate(AppWindow.actionName(of: .statistics))
      pump { app.statsView?.serverLines.first == "Rating: 1216" }
      let stats = try XCTUnwrap(app.statsView)
      XCTAssertEqual(stats.serverList.title, "Stats on 127.0.0.1:7457")
      XCTAssertEqual(stats.serverLines, ["Rating: 1216"])
      XCTAssertTrue(stats.serverList.isVisible)
      // The record is the server's: nothing on this computer resets it.
      XCTAssertFalse(stats.resetButton.isVisible)
    }
  }
}

extension OnlineViewTests {
  func testAGuestWatchesAndCannotMove() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let link = TestLink()
      var online = OnlineClient.unimplemented
      online.link = { _ in link.client }
      var state = TicTacToe.State()
      state.destination = .newGame(NewGame.State(server: onlineServer, session: nil))
      let store = Store(initialState: state) {
        TicTacToe(
          authentication: .demo, database: InMemoryDatabase().client, engine: .firstEmptyCell,
          clock: .immediate, random: .lowest, online: online, thinkingPause: .zero)
      }
      let app = AppWindow(application: nil, store: store)
      defer { app.window.destroy() }
      let form = try XCTUnwrap(app.newGameView)
      form.joinButton.click()
      XCTAssertEqual(app.page, .screen(.newGame), "joining needs an account")
      form.inviteCodeEntry.type("k7m2qx")
      form.watchButton.click()
      pump { app.page == .onlineGame }
      let view = try XCTUnwrap(app.onlineGameView)
      pump { link.openCount == 1 }
      link.emit(.opened)
      pump { !link.sent.isEmpty }
      XCTAssertEqual(link.sent, [.watchGame(code: "K7M2QX")], "a spectator sends no token")
      let watched = GameSnapshot(
        code: "K7M2QX", rows: 3, columns: 3, k: 3, firstMover: .x, x: onlineAda, o: onlineBob,
        moves: [.b2], status: .playing, role: nil)
      link.emit(.message(.game(watched)))
      pump { view.statusLabel.text == "Watching ada (X) against bob (O)." }
      XCTAssertEqual(view.statusLabel.text, "Watching ada (X) against bob (O).")
      XCTAssertEqual(view.titleLabel.text, "bob, place your O")
      XCTAssertEqual(
        app.header.title.subtitle,
        "Game K7M2QX on 127.0.0.1:7457 · ada is connected; bob is connected.")
      XCTAssertEqual(app.backButton.accessibleName, "Leave")
      XCTAssertTrue(view.cells.joined().allSatisfy(\.isAccessibleDisabled), "a spectator's board")
      view.cells[0][0].click()
      pump { app.toasts.shown.contains("Spectators cannot move.") }
      XCTAssertTrue(app.toasts.shown.contains("Spectators cannot move."), "\(app.toasts.shown)")
      XCTAssertEqual(link.sent.count, 1, "nothing was sent for the click")
    }
  }
}

extension OnlineViewTests {
  func testAChangedFingerprintIsRefusedWithTheWayToAcceptIt() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var online = OnlineClient.unimplemented
      online.checkServer = { _ in .changed(pinned: [0x01], presented: [0x02]) }
      let store = Store(initialState: TicTacToe.State()) {
        TicTacToe(
          authentication: .demo, database: InMemoryDatabase().client, engine: .firstEmptyCell,
          clock: .immediate, random: .lowest, online: online, thinkingPause: .zero)
      }
      let app = AppWindow(application: nil, store: store)
      defer { app.window.destroy() }
      let login = try XCTUnwrap(app.loginView)
      login.userNameEntry.type("ada")
      login.passwordEntry.type("a password")
      login.serverEntry.type("127.0.0.1")
      login.signInButton.click()
      pump { login.errorLabel.isVisible }
      XCTAssertEqual(
        login.errorLabel.text,
        TrustStatus.changedFingerprintMessage(onlineServer, pinned: [0x01], presented: [0x02]))
      XCTAssertTrue(login.errorLabel.text.contains("--server-fingerprint SHA256:02"))
      XCTAssertNil(login.trustDialog, "a changed fingerprint is not a question")
      XCTAssertEqual(login.passwordEntry.text, "", "the password is not kept")
      XCTAssertEqual(app.screen, .signIn)
    }
  }
}
