import ArchitectureTesting
import GameCore
import GameProtocol
import GameRules
import OnlineClient
import OnlineCore
import Synchronization
import TestSupport
import Testing

/// A server connection the test drives: it records what the client sends and emits events.
final class ScriptedLink: Sendable {
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
      close: { self.streams.withLock { $0.last?.finish() } }
    )
  }

  /// Connections opened so far.
  var openCount: Int { streams.withLock(\.count) }

  /// Everything sent so far, emptied.
  func takeSent() -> [ClientMessage] {
    sentMessages.withLock { sent in
      defer { sent.removeAll() }
      return sent
    }
  }

  /// Emits an event on the latest connection; a close ends it.
  func emit(_ event: LinkEvent) {
    streams.withLock { streams in
      streams.last?.yield(event)
      if case .closed = event { streams.last?.finish() }
    }
  }

  /// Waits until `count` connections have been opened.
  func waitForOpen(_ count: Int) async {
    for _ in 0..<5_000 where openCount < count { try? await Task.sleep(for: .milliseconds(1)) }
  }

  /// Waits until something was sent and returns it.
  func waitForSent() async -> [ClientMessage] {
    for _ in 0..<5_000 {
      let sent = takeSent()
      if !sent.isEmpty { return sent }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return []
  }
}

let code = "ABC234"
let server = ServerAddress(host: "example.org", port: 7457)
let ann = SeatedPlayer(name: "ann", rating: 1_200)
let bob = SeatedPlayer(name: "bob", rating: 1_200)

func snapshot(
  moves: [Cell] = [], o: SeatedPlayer? = bob, status: GameStatus = .playing, role: Mark? = .x
) -> GameSnapshot {
  GameSnapshot(
    code: code, rows: 3, columns: 3, k: 3, firstMover: .x, x: ann, o: o, moves: moves,
    status: status, role: role)
}

/// bob (O) resigned against ann (X): 16 points move from him to her.
let bobsResignation = GameEnd(winner: .x, reason: .resigned, xRating: 1_216, oRating: 1_184)

/// What ann's client makes of bob's resignation: the game over, said, and the link closed.
func annHearsBobResigned(_ state: inout OnlineGame.State) {
  state.snapshot?.status = .finished(bobsResignation)
  state.sawTheEnd = true
  state.notices.append(.ended(bobsResignation))
  state.link = .closed
}

/// What ann's client says of bob's resignation.
let annWinsByResignation: [PlainLine] = [
  .sentence("bob resigned; you win."), .sentence("Ratings: ann 1216 (+16), bob 1184 (−16)."),
]

@MainActor
struct OnlineGameTests {
  private func makeStore(
    _ intent: OnlineGame.Intent, link: ScriptedLink, clock: TestClock = TestClock()
  ) -> TestStore<OnlineGame> {
    TestStore(
      initialState: OnlineGame.State(server: server, intent: intent, userName: "ann", token: "t1")
    ) {
      OnlineGame(link: link.client, clock: clock.client)
    }
  }

  @Test func aCreatedGameIsPlayedToTheEnd() async throws {
    let link = ScriptedLink()
    let store = makeStore(.create(GameOptions()), link: link)
    await store.send(.started)
    await link.waitForOpen(1)
    link.emit(.opened)
    await store.receive(.link(.opened)) { $0.link = .resuming(attempt: 1) }
    #expect(await link.waitForSent() == [.resumeSession(token: "t1")])
    link.emit(.message(.signedIn(accountID: 1, userName: "ann", token: "t2")))
    await store.receive(.link(.message(.signedIn(accountID: 1, userName: "ann", token: "t2")))) {
      $0.token = "t2"
      $0.link = .joining(attempt: 1)
    }
    #expect(await link.waitForSent() == [.createGame(GameOptions())])
    let waiting = snapshot(o: nil, status: .waiting)
    link.emit(.message(.game(waiting)))
    await store.receive(.link(.message(.game(waiting)))) {
      $0.snapshot = waiting
      $0.link = .live
      $0.hasBeenLive = true
      $0.notices = [.created(code: code), .shown]
    }
    link.emit(.message(.playerJoined(code: code, mark: .o, player: bob)))
    await store.receive(.link(.message(.playerJoined(code: code, mark: .o, player: bob)))) {
      $0.snapshot = snapshot()
      $0.notices += [.joined(name: "bob", mark: .o), .shown]
    }
    #expect(
      store.state.lines(for: .created(code: code)) == [
        .sentence("Invite code: ABC234"), .sentence("Waiting for an opponent…"),
      ])
    #expect(
      store.state.lines(for: .joined(name: "bob", mark: .o)) == [
        .sentence("bob joined; bob plays O.")
      ])
    #expect(store.state.lines(for: .shown) == [.board(.classic), .sentence("ann, place your X")])
    let b2 = Cell(row: 1, column: 1)
    await store.send(.view(.cellTapped(b2))) { $0.pendingMove = b2 }
    #expect(await link.waitForSent() == [.move(code: code, ply: 0, cell: b2)])
    link.emit(.message(.moved(code: code, ply: 0, cell: b2)))
    await store.receive(.link(.message(.moved(code: code, ply: 0, cell: b2)))) {
      $0.snapshot?.moves = [b2]
      $0.pendingMove = nil
      $0.notices.append(.moved(ply: 0))
    }
    #expect(
      store.state.lines(for: .moved(ply: 0)) == [
        .sentence("X plays b2."), .board(try Board.classic.playing(at: b2)),
        .sentence("bob, place your O"),
      ])
    link.emit(.message(.ended(code: code, bobsResignation)))
    await store.receive(
      .link(.message(.ended(code: code, bobsResignation))), assert: annHearsBobResigned)
    #expect(store.state.lines(for: .ended(bobsResignation)) == annWinsByResignation)
    await store.finish()
  }

  /// A dropped connection comes back by itself, signs in with the token, asks for the same
  /// game, and tells the moves it missed from the last one it saw.
  @Test func aDroppedConnectionResumesAtTheLastMoveSeen() async {
    let link = ScriptedLink()
    let clock = TestClock()
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    let a1 = Cell(row: 0, column: 0)
    let b1 = Cell(row: 0, column: 1)
    let c1 = Cell(row: 0, column: 2)
    state.snapshot = snapshot(moves: [a1])
    state.link = .live
    state.hasBeenLive = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: clock.client)
    }
    await store.send(.link(.closed(reason: "reset", isPermanent: false))) {
      $0.link = .waiting(attempt: 1)
      $0.notices = [.reconnecting]
    }
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(249))
    #expect(link.openCount == 0)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.reconnectDue) { $0.link = .connecting(attempt: 1) }
    await link.waitForOpen(1)
    // The server is not back yet: the next wait is twice as long.
    link.emit(.closed(reason: "refused", isPermanent: false))
    await store.receive(.link(.closed(reason: "refused", isPermanent: false))) {
      $0.link = .waiting(attempt: 2)
      // Why the server is still away is said once, so that the retries are not silent.
      $0.notices.append(
        .retrying("The connection to the server at example.org:7457 ended (refused)."))
    }
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.reconnectDue) { $0.link = .connecting(attempt: 2) }
    await link.waitForOpen(2)
    link.emit(.opened)
    await store.receive(.link(.opened)) { $0.link = .resuming(attempt: 2) }
    #expect(await link.waitForSent() == [.resumeSession(token: "t1")])
    link.emit(.message(.signedIn(accountID: 1, userName: "ann", token: "t1")))
    await store.receive(.link(.message(.signedIn(accountID: 1, userName: "ann", token: "t1")))) {
      $0.link = .joining(attempt: 2)
    }
    // Not a new game: the same one, by its code.
    #expect(await link.waitForSent() == [.joinGame(code: code)])
    let later = snapshot(moves: [a1, b1, c1])
    link.emit(.message(.game(later)))
    await store.receive(.link(.message(.game(later)))) {
      $0.snapshot = later
      $0.link = .live
      $0.notices += [.reconnected, .moved(ply: 1), .moved(ply: 2)]
    }
    await store.send(.view(.inputEnded)) {
      $0.link = .closed
      $0.notices.append(.inputEnded)
    }
    #expect(
      store.state.statusLine
        == "Input ended; the seat is held for a while: run tictactoe play --server "
        + "example.org:7457 --user ann --join ABC234 to continue.")
    await store.finish()
  }

  /// A cell taken on the board shown is refused at once, in the order typed, and the turn
  /// goes to the next cell typed rather than to a move the server would refuse.
  @Test func aTakenCellIsRefusedAtHomeAndTheNextCellIsSent() async {
    let link = ScriptedLink()
    let b2 = Cell(row: 1, column: 1)
    let a1 = Cell(row: 0, column: 0)
    let c3 = Cell(row: 2, column: 2)
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    state.snapshot = snapshot(moves: [b2, a1])
    state.link = .live
    state.hasBeenLive = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    let taken = Refusal(.cellTaken, request: OnlineGame.moveRequest)
    await store.send(.view(.lineTyped("a1"))) { $0.notices = [.refused(taken, cell: a1)] }
    #expect(store.state.statusLine == "a1 is taken.")
    await store.send(.view(.lineTyped("c3"))) { $0.pendingMove = c3 }
    #expect(await link.waitForSent() == [.move(code: code, ply: 2, cell: c3)])
    await store.finish()
  }

  /// A move on its way when the connection dropped: the game shown on coming back has it
  /// (told as a move), or does not (said lost, to be played again).
  @Test func aMoveOnItsWayWhenTheConnectionDroppedIsToldOrSaidLost() async throws {
    let b2 = Cell(row: 1, column: 1)
    for arrived in [false, true] {
      var state = OnlineGame.State(
        server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
      state.snapshot = snapshot()
      state.link = .live
      state.hasBeenLive = true
      state.pendingMove = b2
      let store = TestStore(initialState: state) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      await store.send(.link(.closed(reason: "reset", isPermanent: false))) {
        $0.link = .waiting(attempt: 1)
        $0.pendingMove = nil
        $0.unconfirmedMove = b2
        $0.notices = [.reconnecting]
      }
      await store.skipInFlightEffects()
      var resumed = store.state
      resumed.link = .joining(attempt: 1)
      let back = TestStore(initialState: resumed) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      let later = snapshot(moves: arrived ? [b2] : [])
      await back.send(.link(.message(.game(later)))) {
        $0.snapshot = later
        $0.link = .live
        $0.unconfirmedMove = nil
        $0.notices += arrived ? [.reconnected, .moved(ply: 0)] : [.reconnected, .moveLost(b2)]
      }
      if !arrived {
        #expect(
          back.state.lines(for: .moveLost(b2)) == [
            .sentence(
              "The move at b2 did not reach the server before the connection dropped; play it "
                + "again."),
            .board(.classic), .sentence("ann, place your X"),
          ])
      }
      await back.finish()
    }
  }

  /// After a restart of the server, the opponent who has not come back yet is away: the
  /// player who is back is told so, and how long the seat is held, as without a restart.
  @Test func aReconnectionToAGameWhoseOpponentIsAwaySaysSo() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    let b2 = Cell(row: 1, column: 1)
    let a1 = Cell(row: 0, column: 0)
    state.snapshot = snapshot(moves: [b2, a1])
    state.link = .joining(attempt: 1)
    state.hasBeenLive = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    var away = bob
    away.awaySeconds = 5
    let later = snapshot(moves: [b2, a1], o: away)
    await store.send(.link(.message(.game(later)))) {
      $0.snapshot = later
      $0.link = .live
      $0.notices = [.reconnected, .board, .away(.o, seconds: 5)]
    }
    // Back with no move missed, whose turn it is is said again, as after a move.
    #expect(store.state.lines(for: .board).last == .sentence("ann, place your X"))
    #expect(store.state.isAway(.o))
    #expect(
      store.state.lines(for: .away(.o, seconds: 5))
        == [.sentence("bob lost the connection; waiting 5 seconds.")])
    // Back after the opponent's time ran out: no wait of 0 seconds is announced.
    #expect(
      store.state.lines(for: .away(.o, seconds: 0))
        == [.sentence("bob lost the connection and did not come back in time.")])
    await store.finish()
  }

  /// A spectator who starts watching while a player is away is told so.
  @Test func watchingAGameWhosePlayerIsAwaySaysSo() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    var away = ann
    away.awaySeconds = 42
    var shown = snapshot(moves: [Cell(row: 1, column: 1)], role: nil)
    shown.x = away
    await store.send(.link(.message(.game(shown)))) {
      $0.snapshot = shown
      $0.link = .live
      $0.hasBeenLive = true
      $0.notices = [.shown, .away(.x, seconds: 42)]
    }
    await store.finish()
  }

  @Test func theWaitsGrowAndStopAtTheLongest() {
    let backoff = Backoff()
    #expect(
      (1...8).map { backoff.delay(beforeAttempt: $0) } == [
        250, 500, 1_000, 2_000, 4_000, 4_000, 4_000, 4_000,
      ])
  }

  @Test func aChangedFingerprintStopsAtOnce() async {
    let link = ScriptedLink()
    let store = makeStore(.join(code: code), link: link)
    await store.send(.started)
    await link.waitForOpen(1)
    link.emit(.closed(reason: "The fingerprint changed.", isPermanent: true))
    await store.receive(.link(.closed(reason: "The fingerprint changed.", isPermanent: true))) {
      $0.link = .closed
      $0.notices = [.stopped("The fingerprint changed.")]
    }
    await store.receive(.delegate(.didQuit))
    await store.finish()
  }

  @Test func aServerThatNeverComesBackIsGivenUp() async {
    let link = ScriptedLink()
    let clock = TestClock()
    // Before any game was shown, after 3 attempts (the default); once one was, after as many
    // as the backoff gives.
    let reason = "Cannot reach the server at example.org:7457: could not connect (refused)."
    for (attempts, shown) in [(3, false), (5, true)] {
      var backoff = Backoff()
      backoff.attempts = 5
      var state = OnlineGame.State(
        server: server, intent: .join(code: code), userName: "ann", token: "t1")
      state.snapshot = shown ? snapshot() : nil
      state.hasBeenLive = shown
      state.link = .connecting(attempt: attempts)
      let store = TestStore(initialState: state) {
        OnlineGame(link: link.client, clock: clock.client, backoff: backoff)
      }
      await store.send(.link(.closed(reason: reason, isPermanent: false))) {
        $0.link = .closed
        $0.notices = [
          .stopped(
            "Cannot reach the server at example.org:7457: could not connect (refused); gave up"
              + " after \(attempts) attempts, and "
              + (shown ? "the game is left as it is." : "no game was shown."))
        ]
      }
      // Only a game shown keeps its screen.
      if !shown { await store.receive(.delegate(.didQuit)) }
      await store.finish()
    }
  }

  /// A store of Bob's client, seated as O in a live game over `link`.
  private func bobPlayingO(_ link: ScriptedLink) -> TestStore<OnlineGame> {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "bob", token: "t1")
    state.snapshot = snapshot(role: .o)
    state.link = .live
    state.hasBeenLive = true
    return TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
  }

  @Test(arguments: [
    (
      ErrorCode.sessionExpired,
      "The session ended: it went unused too long, or the account's password or two-factor "
        + "was changed; sign in again to continue."
    ),
    (.seatTakenOver, "This seat was taken over by another connection of the same account."),
  ])
  func aSessionOrSeatLostStopsTheClientWhateverWasAsked(
    refused: ErrorCode, sentence: String
  ) async {
    let link = ScriptedLink()
    let store = bobPlayingO(link)
    // Refusals of the connection as a whole, which answer no request.
    await store.send(.link(.message(.refused(Refusal(refused))))) {
      $0.link = .closed
      $0.notices = [.stopped(sentence)]
      $0.hasLostTheSeat = refused == .seatTakenOver
    }
    #expect(store.state.title == "No longer following game \(code)")
    // A cell asked for after that gets the reason again, not "not connected just now".
    await store.send(.view(.cellTapped(Cell(row: 0, column: 0)))) {
      $0.notices.append(.stopped(sentence))
    }
    #expect(link.takeSent().isEmpty)
    await store.finish()
  }

  /// A server stopping says so before the drop; a fault it reports of itself refuses
  /// nothing the player asked, and is not said as if it had.
  @Test func aServerStoppingOrAtFaultSaysWhat() async {
    let store = bobPlayingO(ScriptedLink())
    await store.send(.link(.message(.refused(Refusal(.shuttingDown))))) {
      $0.notices = [.refused(Refusal(.shuttingDown), cell: nil)]
    }
    #expect(store.state.statusLine == "The server is shutting down.")
    await store.send(.link(.message(.refused(Refusal(.serverError))))) {
      $0.notices.append(.refused(Refusal(.serverError), cell: nil))
    }
    #expect(
      store.state.statusLine
        == "The server reported a fault of its own; nothing asked of it was refused.")
    await store.finish()
  }

  @Test func aRefusedMoveIsSaidAndTheGameGoesOn() async {
    let link = ScriptedLink()
    let store = bobPlayingO(link)
    let a1 = Cell(row: 0, column: 0)
    await store.send(.view(.cellTapped(a1))) { $0.pendingMove = a1 }
    #expect(await link.waitForSent() == [.move(code: code, ply: 0, cell: a1)])
    let refusal = Refusal(.notYourTurn, request: OnlineGame.moveRequest)
    await store.send(.link(.message(.refused(refusal)))) {
      $0.pendingMove = nil
      $0.notices = [.refused(refusal, cell: a1)]
    }
    #expect(store.state.lines(for: store.state.notices[0]) == [.sentence("It is ann's turn.")])
    let taken = Refusal(.cellTaken, request: OnlineGame.moveRequest)
    #expect(store.state.sentence(for: taken, cell: a1) == "a1 is taken.")
    #expect(
      store.state.sentence(
        for: Refusal(.cellOutOfBounds, request: OnlineGame.moveRequest),
        cell: Cell(row: 4, column: 4))
        == "e5 is not on the board.")
    await store.finish()
  }

  @Test func aSpectatorCannotMove() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    state.snapshot = snapshot(role: nil)
    state.link = .live
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.view(.cellTapped(Cell(row: 0, column: 0)))) {
      $0.notices = [
        .refused(
          Refusal(.notAPlayer, request: OnlineGame.moveRequest), cell: Cell(row: 0, column: 0))
      ]
    }
    #expect(link.takeSent().isEmpty)
    await store.finish()
  }

  @Test func anUnknownGameStopsTheClient() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .join(code: "QQQQQQ"), userName: "ann", token: "t1")
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.link(.message(.refused(Refusal(.noSuchGame, request: 0x11))))) {
      $0.link = .closed
      $0.notices = [.stopped("There is no game with the code QQQQQQ; check the invite code.")]
    }
    // No game to show: the screen closes, and the one before says why.
    await store.receive(.delegate(.didQuit))
    #expect(
      store.state.closingSentence
        == "There is no game with the code QQQQQQ; check the invite code.")
    await store.finish()
  }

  @Test func theLimitOfUnfinishedGamesStopsTheClientWithWhatToDo() async {
    let sentence =
      "You already have 10 unfinished games on this server, the most one account may have; "
      + "finish or resign one of them, or cancel one still waiting for an opponent (join it with "
      + "its code, then leave it), then try again."
    for (intent, request) in [
      (OnlineGame.Intent.create(GameOptions()), UInt8(0x10)), (.join(code: "QQQQQQ"), 0x11),
    ] {
      let link = ScriptedLink()
      var state = OnlineGame.State(server: server, intent: intent, userName: "ann", token: "t1")
      state.link = .joining(attempt: 1)
      let store = TestStore(initialState: state) {
        OnlineGame(link: link.client, clock: TestClock().client)
      }
      let refusal = Refusal(.tooManyGames, request: request, detail: 10)
      await store.send(.link(.message(.refused(refusal)))) {
        $0.link = .closed
        $0.notices = [.stopped(sentence)]
      }
      #expect(store.state.lines(for: .stopped(sentence)) == [.sentence(sentence)])
      #expect(OnlineGame.sentence(for: refusal, code: nil) == sentence)
      await store.receive(.delegate(.didQuit))
      await store.finish()
    }
  }

  @Test func connectionNoticesUseThePlayersNames() {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: nil)
    state.snapshot = snapshot()
    #expect(
      state.lines(for: .away(.o, seconds: 60)) == [
        .sentence("bob lost the connection; waiting 60 seconds.")
      ])
    #expect(state.lines(for: .back(.o)) == [.sentence("bob is back.")])
    let forfeit = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
    #expect(state.lines(for: .ended(forfeit)).first == .sentence("bob left; you win."))
    state.snapshot?.role = nil
    #expect(state.lines(for: .ended(forfeit)).first == .sentence("bob left; ann wins."))
    state.snapshot?.role = .o
    #expect(
      state.lines(for: .ended(forfeit)).first == .sentence("You were away too long; ann wins."))
    // Names from the network are escaped before they reach a terminal.
    state.snapshot?.o?.name = "b\u{1B}[2Job"
    #expect(state.lines(for: .back(.o)) == [.sentence("b\\u{1B}[2Job is back.")])
  }
}
