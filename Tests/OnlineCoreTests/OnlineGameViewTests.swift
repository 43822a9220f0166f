import ArchitectureTesting
import GameCore
import GameProtocol
import GameRules
import OnlineClient
import OnlineCore
import TestSupport
import Testing

/// The player's side of an online game: keys and typed lines, the question before resigning,
/// and what the screen shows.
@MainActor
struct OnlineGameViewTests {
  private let a1 = Cell(row: 0, column: 0)
  private let b2 = Cell(row: 1, column: 1)

  /// A store for a live game in which this client plays `role`.
  private func liveStore(
    _ link: ScriptedLink, moves: [Cell] = [], role: Mark? = .x, userName: String? = "ann"
  ) -> TestStore<OnlineGame> {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: userName, token: "t1")
    state.snapshot = snapshot(moves: moves, role: role)
    state.link = .live
    state.hasBeenLive = true
    return TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
  }

  @Test func typedLinesAreMovesOrCommandsAndNothingIsSentForACommand() async {
    let link = ScriptedLink()
    let store = liveStore(link)
    await store.send(.view(.lineTyped(""))) { _ in }
    await store.send(.view(.lineTyped("help"))) { $0.notices = [.help] }
    await store.send(.view(.lineTyped("undo"))) { $0.notices.append(.notOnline) }
    await store.send(.view(.lineTyped("hint"))) { $0.notices.append(.notOnline) }
    await store.send(.view(.lineTyped("z9\u{1B}"))) {
      $0.notices.append(.unknownCommand("z9\u{1B}"))
    }
    await store.send(.view(.lineTyped("board"))) { $0.notices.append(.board) }
    #expect(link.takeSent().isEmpty)
    #expect(
      store.state.lines(for: .unknownCommand("z9\u{1B}"))
        == [.sentence("Unknown command \"z9\\u{1B}\". \(OnlineGame.State.typingHelp)")])
    #expect(
      store.state.lines(for: .board) == [.board(.classic), .sentence("ann, place your X")])
    #expect(
      store.state.lines(for: .notOnline) == [
        .sentence("Undo, hints, analysis and new games are not part of an online game.")
      ])
    // A digit names a cell of the 3×3 board, and goes to the server like a cell.
    await store.send(.view(.lineTyped("5"))) { $0.pendingMove = self.b2 }
    #expect(await link.waitForSent() == [.move(code: code, ply: 0, cell: b2)])
    await store.finish()
  }

  /// A cell outside the board is said as in local play, and never reaches the server, which
  /// could not even be sent such a cell.
  @Test func aCellOffTheBoardIsSaidAndNothingIsSent() async {
    let link = ScriptedLink()
    let store = liveStore(link)
    let p1 = Cell(row: 0, column: 15)
    let a16 = Cell(row: 15, column: 0)
    let z9 = Cell(row: 8, column: 25)
    let outOfBounds = Refusal(.cellOutOfBounds, request: OnlineGame.moveRequest)
    await store.send(.view(.lineTyped("p1"))) {
      $0.notices = [.refused(outOfBounds, cell: p1)]
    }
    await store.send(.view(.lineTyped("a16"))) {
      $0.notices.append(.refused(outOfBounds, cell: a16))
    }
    await store.send(.view(.cellTapped(z9))) {
      $0.notices.append(.refused(outOfBounds, cell: z9))
    }
    #expect(
      store.state.notices.map { store.state.lines(for: $0) } == [
        [.sentence("p1 is not on the board.")], [.sentence("a16 is not on the board.")],
        [.sentence("z9 is not on the board.")],
      ])
    #expect(link.takeSent().isEmpty)
    // The game goes on: a cell on the board is sent.
    await store.send(.view(.lineTyped("b2"))) { $0.pendingMove = self.b2 }
    #expect(await link.waitForSent() == [.move(code: code, ply: 0, cell: b2)])
    await store.finish()
  }

  /// Whatever a spectator types gets one sentence, except an empty line; `board` shows the
  /// board, `quit` leaves, and the end of input leaves the spectator watching.
  @Test func aSpectatorIsAnsweredForEverythingTypedButAnEmptyLine() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    state.snapshot = snapshot(role: nil)
    state.link = .live
    state.hasBeenLive = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    let notAPlayer = Refusal(.notAPlayer, request: OnlineGame.moveRequest)
    await store.send(.view(.lineTyped(""))) { _ in }
    await store.send(.view(.lineTyped("   "))) { _ in }
    await store.send(.view(.lineTyped("b2"))) { $0.notices = [.refused(notAPlayer, cell: nil)] }
    await store.send(.view(.lineTyped("5"))) {
      $0.notices.append(.refused(notAPlayer, cell: nil))
    }
    await store.send(.view(.lineTyped("hello"))) {
      $0.notices.append(.refused(notAPlayer, cell: nil))
    }
    await store.send(.view(.lineTyped("resign"))) {
      $0.notices.append(.refused(notAPlayer, cell: nil))
    }
    #expect(
      store.state.notices.allSatisfy {
        store.state.lines(for: $0) == [.sentence("Spectators cannot move.")]
      })
    await store.send(.view(.lineTyped("board"))) { $0.notices.append(.board) }
    await store.send(.view(.inputEnded)) { _ in }
    #expect(link.takeSent().isEmpty)
    await store.send(.view(.lineTyped("quit"))) { $0.link = .closed }
    await store.receive(.delegate(.didQuit))
    await store.finish()
  }

  /// Input that ends right after the password does not leave before the server has answered
  /// the join: a code it refuses is said as when input stays open.
  @Test func inputEndingBeforeTheServerAnswersWaitsForTheAnswer() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .join(code: "ZZZZZZ"), userName: "carl", token: "t1")
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.view(.inputEnded)) { $0.isInputEnded = true }
    await store.send(.link(.message(.refused(Refusal(.noSuchGame, request: 0x11))))) {
      $0.link = .closed
      $0.notices = [.stopped("There is no game with the code ZZZZZZ; check the invite code.")]
    }
    await store.receive(.delegate(.didQuit))
    await store.finish()
  }

  /// Input that ends before the game is shown leaves once it is, with the way back in.
  @Test func inputEndingBeforeTheGameIsShownLeavesOnceItIs() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "bob", token: "t1")
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.view(.inputEnded)) { $0.isInputEnded = true }
    let game = snapshot(role: .o)
    await store.send(.link(.message(.game(game)))) {
      $0.snapshot = game
      $0.hasBeenLive = true
      $0.notices = [.joined(name: "bob", mark: .o), .shown, .inputEnded]
      $0.link = .closed
    }
    #expect(
      store.state.statusLine
        == "Input ended; the seat is held for a while: run tictactoe play --server "
        + "example.org:7457 --user bob --join ABC234 to continue.")
    await store.finish()
  }

  @Test func digitsNeedTheClassicBoard() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: "t1")
    state.snapshot = GameSnapshot(
      code: code, rows: 5, columns: 5, k: 4, firstMover: .x, x: ann, o: bob, moves: [],
      status: .playing, role: .x)
    state.link = .live
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.view(.digitTyped(5))) { $0.notices = [.digitsNeedTheClassicBoard] }
    #expect(store.state.statusIsProblem)
    #expect(link.takeSent().isEmpty)
    await store.finish()
  }

  @Test func resigningIsAskedFirstAndOnlyYesGivesUp() async {
    let link = ScriptedLink()
    let store = liveStore(link, moves: [a1])
    await store.send(.view(.lineTyped("quit"))) {
      $0.isConfirmingResign = true
      $0.notices = [.askedToResign]
    }
    #expect(store.state.statusLine == "Resign this game? bob wins.")
    #expect(
      store.state.lines(for: .askedToResign)
        == [.sentence("Resign this game? bob wins. Type yes or no.")])
    #expect(store.state.controls.map(\.control) == [.confirmResign, .keepPlaying])
    #expect(!store.state.isBoardEnabled)
    // A move or anything but yes or no while asked is refused with the question again.
    await store.send(.view(.cellTapped(b2))) { $0.notices.append(.answerYesOrNo) }
    await store.send(.view(.lineTyped("maybe"))) { $0.notices.append(.answerYesOrNo) }
    await store.send(.view(.lineTyped("no"))) {
      $0.isConfirmingResign = false
      $0.notices.append(.keptPlaying)
    }
    #expect(store.state.statusLine == "The game goes on.")
    #expect(link.takeSent().isEmpty)
    await store.send(.view(.lineTyped("resign"))) {
      $0.isConfirmingResign = true
      $0.notices.append(.askedToResign)
    }
    await store.send(.view(.lineTyped("yes"))) {
      $0.isConfirmingResign = false
      $0.hasResigned = true
    }
    #expect(await link.waitForSent() == [.resign(code: code)])
    await store.finish()
  }

  @Test func aGameWatchedAlreadyOverGivesItsResultNotWhoseTurnItWas() async {
    let link = ScriptedLink()
    let store = TestStore(
      initialState: OnlineGame.State(
        server: server, intent: .watch(code: code), userName: nil, token: nil)
    ) { OnlineGame(link: link.client, clock: TestClock().client) }
    await store.send(.started)
    await link.waitForOpen(1)
    link.emit(.opened)
    await store.receive(.link(.opened)) { $0.link = .joining(attempt: 1) }
    #expect(await link.waitForSent() == [.watchGame(code: code)])
    // The snapshot of a game over holds the ratings after it.
    let end = GameEnd(winner: .x, reason: .resigned, xRating: 1_216, oRating: 1_184)
    var over = snapshot(moves: [b2, a1], status: .finished(end), role: nil)
    over.x?.rating = 1_216
    over.o?.rating = 1_184
    link.emit(.message(.game(over)))
    await store.receive(.link(.message(.game(over)))) {
      $0.snapshot = over
      $0.link = .closed
      $0.hasBeenLive = true
      $0.notices = [.shown, .ended(end)]
    }
    let board = try? Board.classic.playing(at: b2).playing(at: a1)
    #expect(
      store.state.notices.flatMap(store.state.lines(for:)) == [
        .sentence("Watching ann (X) against bob (O)."), .board(board ?? .classic),
        .sentence("bob resigned; ann wins."), .sentence("Ratings: ann 1216, bob 1184."),
      ])
    await store.finish()
  }

  @Test func leavingAFinishedOrWatchedGameAsksNothing() async {
    let link = ScriptedLink()
    let watched = liveStore(link, moves: [a1], role: nil, userName: nil)
    #expect(watched.state.controls.map(\.control) == [.leave])
    await watched.send(.view(.quitTapped)) { $0.link = .closed }
    await watched.receive(.delegate(.didQuit))
    await watched.finish()

    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: "t1")
    let end = GameEnd(winner: .o, reason: .resigned, xRating: 1_184, oRating: 1_216)
    state.snapshot = snapshot(moves: [a1], status: .finished(end))
    state.link = .closed
    state.sawTheEnd = true
    let finished = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    #expect(finished.state.controls.map(\.control) == [.leave])
    #expect(finished.state.title == "Winner! Congrats bob!")
    #expect(
      finished.state.connectionLine
        == "Game ABC234 on example.org:7457 · Ratings: ann 1184 (−16), bob 1216 (+16).")
    // A move after the end is refused with the game's own sentence, not a network one.
    await finished.send(.view(.cellTapped(b2))) {
      $0.notices = [.refused(Refusal(.gameOver, request: OnlineGame.moveRequest), cell: self.b2)]
    }
    #expect(finished.state.statusLine == "The game is over.")
    await finished.send(.view(.quitTapped))
    await finished.receive(.delegate(.didQuit))
    await finished.finish()
  }

  /// A client stopped by a server that broke the rules leaves its game with `q` at once: there
  /// is no server to resign to, and the control says Leave.
  @Test func aStoppedClientLeavesItsGameWithoutAQuestion() async {
    let link = ScriptedLink()
    let store = liveStore(link, moves: [b2])
    let lie = ServerMessage.moved(code: code, ply: 1, cell: b2)
    await store.send(.link(.message(lie))) {
      $0.link = .closed
      $0.notices = [
        .stopped(
          "The server at example.org:7457 sent a move that cannot be played: b2 is taken.")
      ]
    }
    #expect(store.state.controls.map(\.control) == [.leave])
    #expect(store.state.controls.map(\.isEnabled) == [true])
    await store.send(.view(.quitTapped))
    await store.receive(.delegate(.didQuit))
    await store.finish()
  }

  @Test func aMoveWhileReconnectingIsNotSent() async {
    let link = ScriptedLink()
    let store = liveStore(link)
    await store.send(.link(.closed(reason: "reset", isPermanent: false))) {
      $0.link = .waiting(attempt: 1)
      $0.notices = [.reconnecting]
    }
    #expect(
      store.state.connectionLine == "Game ABC234 on example.org:7457 · reconnecting to the server…")
    #expect(store.state.statusIsProblem)
    await store.send(.view(.cellTapped(b2))) { $0.notices.append(.notConnected()) }
    #expect(
      store.state.statusLine == "Not connected to the server just now; the move was not sent.")
    #expect(link.takeSent().isEmpty)
    await store.send(.view(.quitTapped)) {
      $0.isConfirmingResign = true
      $0.notices.append(.askedToResign)
    }
    await store.send(.view(.resignConfirmed)) {
      $0.isConfirmingResign = false
      $0.notices.append(.notConnected(resigning: true))
    }
    #expect(
      store.state.statusLine
        == "Not connected to the server just now; the resignation was not sent, and the game "
        + "goes on.")
    #expect(link.takeSent().isEmpty)
    // Whether the seat is held is the server's to say: it is not said to be.
    await store.send(.view(.inputEnded)) {
      $0.link = .closed
      $0.notices.append(
        .stopped(
          "Input ended while the server at example.org:7457 could not be reached; if it comes "
            + "back within its reconnect grace, the seat is held: run tictactoe play --server "
            + "example.org:7457 --user ann --join ABC234 to continue."))
    }
    await store.skipInFlightEffects()
    await store.finish()
  }

  @Test func theScreenSaysWhoseTurnItIsAndWhoIsConnected() {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: "t1")
    #expect(state.title == "Connecting to example.org:7457…")
    #expect(state.cells.isEmpty)
    // Stopped before a game was shown, by a refusal or a server out of reach.
    state.link = .closed
    #expect(state.title == "No game")
    state.snapshot = snapshot(o: nil, status: .waiting)
    state.link = .live
    #expect(state.title == "Waiting for an opponent…")
    #expect(state.playersLine == "ann (X, 1200); O is free")
    #expect(
      state.connectionLine
        == "Game ABC234 on example.org:7457 · waiting for an opponent."
    )
    #expect(!state.isBoardEnabled)

    state.snapshot = snapshot()
    #expect(state.title == "ann, place your X")
    #expect(state.playersLine == "ann (X, 1200) against bob (O, 1200)")
    #expect(state.connectionLine == "Game ABC234 on example.org:7457 · bob is connected.")
    #expect(state.isBoardEnabled)
    #expect(state.cells.joined().allSatisfy { $0.isEnabled })
    #expect(state.controls.map(\.control) == [.resign])
    // While the connection comes back, the title does not ask for a move the board refuses.
    state.hasBeenLive = true
    state.link = .waiting(attempt: 2)
    #expect(state.title == "ann, place your X once reconnected")
    #expect(!state.isBoardEnabled)
    state.link = .live

    state.snapshot = snapshot(moves: [b2])
    #expect(state.title == "Waiting for bob to place O…")
    #expect(!state.isBoardEnabled)
    #expect(state.cells.joined().allSatisfy { !$0.isEnabled })
    #expect(state.lastMove == b2)
    #expect(state.cells[1][1].accessibleName == "Row 2, column 2, X")
    #expect(state.cells[1][1].isLastMove)

    state.snapshot?.o?.awaySeconds = 60
    #expect(state.isAway(.o))
    #expect(
      state.connectionLine == "Game ABC234 on example.org:7457 · bob lost the connection.")
    // A spectator sees both players' connections and the title of whoever is to move.
    state.snapshot?.role = nil
    #expect(state.title == "bob, place your O")
    #expect(
      state.connectionLine
        == "Game ABC234 on example.org:7457 · ann is connected; bob lost the connection.")
    #expect(state.controls.map(\.control) == [.leave])
  }

  /// Each audience hears a resignation or a forfeit in its own words: the winner, the loser,
  /// and a spectator, who is told who won.
  @Test func theEndReadsNaturallyToEachAudience() {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: nil)
    state.snapshot = snapshot()
    let resigned = GameEnd(winner: .x, reason: .resigned, xRating: 1_216, oRating: 1_184)
    let forfeit = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
    let expected: [(Mark?, GameEnd, String)] = [
      (.x, resigned, "bob resigned; you win."),
      (.o, resigned, "You resigned; ann wins."),
      (nil, resigned, "bob resigned; ann wins."),
      (.x, forfeit, "bob left; you win."),
      (.o, forfeit, "You were away too long; ann wins."),
      (nil, forfeit, "bob left; ann wins."),
    ]
    for (role, end, sentence) in expected {
      state.snapshot?.role = role
      state.snapshot?.status = .finished(end)
      #expect(state.lines(for: .ended(end)).first == .sentence(sentence))
      #expect(state.statusSentence(for: .ended(end)) == sentence)
      #expect(state.title == "Winner! Congrats ann!")
    }
  }

  /// A game won on the board is said once in plain mode: the winning line, then what follows
  /// it; the screen's title (`Winner! Congrats ann!`) is not said again.
  @Test func aGameWonOnTheBoardIsAnnouncedOnce() throws {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: nil)
    let cells = try ["a1", "a2", "b1", "b2", "c1"].map { try #require(Cell(name: $0)) }
    let end = GameEnd(winner: .x, reason: .completed, xRating: 1_216, oRating: 1_184)
    state.snapshot = snapshot(moves: cells, status: .finished(end))
    let lines = state.lines(for: .ended(end))
    #expect(lines.first == .sentence("X wins with a1, b1, c1."))
    #expect(!lines.contains(.sentence("Winner! Congrats ann!")))
    #expect(state.title == "Winner! Congrats ann!")
  }
}
