import ArchitectureTesting
import GameCore
import GameProtocol
import GameRules
import OnlineClient
import OnlineCore
import TestSupport
import Testing

/// Leaving a game of one's own that nobody joined cancels it on the server, and says so once;
/// without the server's word it leaves as it always did.
@MainActor
struct OnlineGameCancelTests {
  private let sentence = "Game ABC234 is cancelled; no one had joined."
  private let unconfirmed =
    "The server did not confirm that game ABC234 is cancelled; if it is not, the server drops "
    + "it once you have been away for the reconnect grace."
  private let waiting = snapshot(o: nil, status: .waiting)

  /// A store for Ann's live game that waits for an opponent.
  private func waitingStore(
    _ link: ScriptedLink, clock: TestClock = TestClock(),
    intent: OnlineGame.Intent = .create(GameOptions())
  ) -> TestStore<OnlineGame> {
    var state = OnlineGame.State(server: server, intent: intent, userName: "ann", token: "t1")
    state.snapshot = waiting
    state.link = .live
    state.hasBeenLive = true
    return TestStore(initialState: state) { OnlineGame(link: link.client, clock: clock.client) }
  }

  @Test func quittingAWaitingGameCancelsItAndClosesOnceTheServerHas() async {
    // Created here, or one's own game joined again by its code.
    for intent in [OnlineGame.Intent.create(GameOptions()), .join(code: code)] {
      let link = ScriptedLink()
      let store = waitingStore(link, intent: intent)
      #expect(store.state.isCancellable)
      await store.send(.view(.quitTapped)) { $0.leaving = .quit }
      #expect(await link.waitForSent() == [.cancelGame(code: code)])
      // Nothing is said, and the screen stays, until the server has cancelled it; the title
      // says what it waits for.
      #expect(store.state.controls.map(\.isEnabled) == [false])
      #expect(store.state.title == "Cancelling game ABC234…")
      await store.send(.view(.quitTapped))
      await store.send(.view(.lineTyped("b2")))
      await store.send(.link(.message(.cancelled(code: code)))) {
        $0.leaving = nil
        $0.link = .closed
        $0.notices = [.cancelled(code: code)]
      }
      await store.receive(.delegate(.didQuit))
      #expect(store.state.lines(for: .cancelled(code: code)) == [.sentence(sentence)])
      #expect(store.state.statusLine == sentence)
      #expect(store.state.closingSentence == sentence)
      #expect(!store.state.isProblem(.cancelled(code: code)))
      #expect(link.takeSent().isEmpty, "more than one cancellation was sent")
      await store.finish()
    }
  }

  @Test func inputEndingWhileWaitingCancelsTheGameAndStops() async {
    let link = ScriptedLink()
    let store = waitingStore(link)
    await store.send(.view(.inputEnded)) { $0.leaving = .inputEnded }
    #expect(await link.waitForSent() == [.cancelGame(code: code)])
    await store.send(.link(.message(.cancelled(code: code)))) {
      $0.leaving = nil
      $0.link = .closed
      $0.notices = [.cancelled(code: code)]
    }
    // Plain mode says the one sentence, not that the seat is held.
    #expect(store.state.notices.flatMap(store.state.lines(for:)) == [.sentence(sentence)])
    await store.finish()
  }

  @Test func inputEndingBeforeTheGameIsCreatedCancelsItOnceItIs() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.view(.inputEnded)) { $0.isInputEnded = true }
    await store.send(.link(.message(.game(waiting)))) {
      $0.snapshot = self.waiting
      $0.link = .live
      $0.hasBeenLive = true
      $0.leaving = .inputEnded
      $0.notices = [.created(code: code), .shown]
    }
    #expect(await link.waitForSent() == [.cancelGame(code: code)])
    await store.send(.link(.message(.cancelled(code: code)))) {
      $0.leaving = nil
      $0.link = .closed
      $0.notices.append(.cancelled(code: code))
    }
    await store.finish()
  }

  @Test func aCancellationTheServerCouldNotStoreLeavesAsBeforeAndSaysSo() async {
    let refusal = Refusal(.serverError, request: 0x1A)
    let link = ScriptedLink()
    let store = waitingStore(link)
    await store.send(.view(.quitTapped)) { $0.leaving = .quit }
    await store.send(.link(.message(.refused(refusal)))) {
      $0.leaving = nil
      $0.link = .closed
      $0.notices = [.refused(refusal, cell: nil)]
    }
    await store.receive(.delegate(.didQuit))
    #expect(
      store.state.statusLine
        == "The server could not cancel game ABC234; it drops the game once you have been away "
        + "for a while.")
    // New game says it once the screen has closed.
    #expect(
      store.state.closingSentence
        == "The server could not cancel game ABC234; it drops the game once you have been away "
        + "for a while.")
    await store.finish()

    // Plain mode: the refusal, then the way back in.
    let plain = waitingStore(ScriptedLink())
    await plain.send(.view(.inputEnded)) { $0.leaving = .inputEnded }
    await plain.send(.link(.message(.refused(refusal)))) {
      $0.leaving = nil
      $0.link = .closed
      $0.notices = [.refused(refusal, cell: nil), .inputEnded]
    }
    await plain.finish()
  }

  @Test func anOpponentWhoJoinedFirstKeepsTheGameGoing() async {
    let refusal = Refusal(.gameFull, request: 0x1A)
    let link = ScriptedLink()
    let store = waitingStore(link)
    await store.send(.view(.quitTapped)) { $0.leaving = .quit }
    await store.send(.link(.message(.playerJoined(code: code, mark: .o, player: bob)))) {
      $0.snapshot = snapshot()
      $0.notices = [.joined(name: "bob", mark: .o), .shown]
    }
    await store.send(.link(.message(.refused(refusal)))) {
      $0.leaving = nil
      $0.notices.append(.refused(refusal, cell: nil))
    }
    #expect(store.state.statusLine == "Game ABC234 could not be cancelled: bob joined it.")
    #expect(store.state.isBoardEnabled)
    // Leaving now gives the game up, and asks first.
    await store.send(.view(.quitTapped)) {
      $0.isConfirmingResign = true
      $0.notices.append(.askedToResign)
    }
    await store.finish()
  }

  @Test func aLostConnectionOrASilentServerLeavesWithoutACancellationAndSaysSo() async {
    let dropped = waitingStore(ScriptedLink())
    await dropped.send(.view(.quitTapped)) { $0.leaving = .quit }
    await dropped.send(.link(.closed(reason: "reset", isPermanent: false))) {
      $0.leaving = nil
      $0.link = .closed
      $0.notices = [.notCancelled(code: code)]
    }
    await dropped.receive(.delegate(.didQuit))
    // Plain mode says it; New game says it once the screen has closed.
    #expect(dropped.state.lines(for: .notCancelled(code: code)) == [.sentence(unconfirmed)])
    #expect(dropped.state.closingSentence == unconfirmed)
    #expect(dropped.state.isProblem(.notCancelled(code: code)))
    await dropped.finish()

    for leaving in [OnlineGame.Leaving.quit, .inputEnded] {
      let clock = TestClock()
      let silent = waitingStore(ScriptedLink(), clock: clock)
      await silent.send(.view(leaving == .quit ? .lineTyped("quit") : .inputEnded)) {
        $0.leaving = leaving
      }
      #expect(await clock.waitForSleepers(1))
      await clock.advance(by: OnlineGame.cancellationTimeout)
      await silent.receive(.cancellationOverdue) {
        $0.leaving = nil
        $0.link = .closed
        $0.notices = [.notCancelled(code: code)]
      }
      if leaving == .quit { await silent.receive(.delegate(.didQuit)) }
      #expect(silent.state.statusLine == unconfirmed)
      // A late answer changes nothing.
      await silent.send(.link(.message(.cancelled(code: code))))
      await silent.finish()
    }
  }

  /// `quit` typed before the server has shown the game is answered once it has: the game is
  /// created, then cancelled, and nothing typed after the quit is answered.
  @Test func quitTypedBeforeTheGameIsCreatedCancelsItOnceItIs() async {
    for ending in [false, true] {
      let link = ScriptedLink()
      var state = OnlineGame.State(
        server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
      state.link = .joining(attempt: 1)
      let store = TestStore(initialState: state) {
        OnlineGame(link: link.client, clock: TestClock().client)
      }
      await store.send(.view(.lineTyped("quit"))) { $0.isQuitPending = true }
      await store.send(.view(.lineTyped("yes")))
      await store.send(.view(.lineTyped("b2")))
      if ending { await store.send(.view(.inputEnded)) { $0.isInputEnded = true } }
      await store.send(.link(.message(.game(waiting)))) {
        $0.snapshot = self.waiting
        $0.link = .live
        $0.hasBeenLive = true
        $0.isQuitPending = false
        $0.leaving = .quit
        $0.notices = [.created(code: code), .shown]
      }
      #expect(await link.waitForSent() == [.cancelGame(code: code)])
      await store.send(.link(.message(.cancelled(code: code)))) {
        $0.leaving = nil
        $0.link = .closed
        $0.notices.append(.cancelled(code: code))
      }
      await store.receive(.delegate(.didQuit))
      // Nothing typed once the game has closed is answered either.
      await store.send(.view(.lineTyped("yes")))
      #expect(
        store.state.notices.flatMap(store.state.lines(for:)) == [
          .sentence("Invite code: ABC234"), .sentence("Waiting for an opponent…"),
          .sentence(sentence),
        ])
      await store.finish()
    }
  }

  /// Joining one's own waiting game by its code says what creating it said.
  @Test func joiningOnesOwnWaitingGameGivesItsCode() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "ann", token: "t1")
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.link(.message(.game(waiting)))) {
      $0.snapshot = self.waiting
      $0.link = .live
      $0.hasBeenLive = true
      $0.notices = [.created(code: code), .shown]
    }
    #expect(
      store.state.notices.flatMap(store.state.lines(for:)) == [
        .sentence("Invite code: ABC234"), .sentence("Waiting for an opponent…"),
      ])
    #expect(store.state.statusLine == "Invite code: ABC234. Give it to your opponent.")
    await store.finish()
  }

  /// `board` while waiting is answered for the creator as for a spectator.
  @Test func boardWhileWaitingSaysSoToTheCreatorToo() {
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    #expect(state.lines(for: .board) == [.sentence("Connecting to example.org:7457…")])
    state.link = .live
    for role in [Mark.x, nil] {
      state.snapshot = snapshot(o: nil, status: .waiting, role: role)
      #expect(state.lines(for: .board) == [.sentence("Waiting for an opponent…")], "\(role)")
    }
  }

  /// Leaving while the server cannot be reached sends nothing, and says the game was not
  /// cancelled.
  @Test func leavingWhileReconnectingSendsNothing() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    state.snapshot = waiting
    state.link = .waiting(attempt: 1)
    state.hasBeenLive = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    await store.send(.view(.quitTapped)) {
      $0.link = .closed
      $0.notices = [.notCancelled(code: code)]
    }
    await store.receive(.delegate(.didQuit))
    #expect(!link.takeSent().contains(.cancelGame(code: code)))
    await store.finish()
  }

  @Test func aSpectatorIsToldOnceAndStopsWatching() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    state.snapshot = snapshot(o: nil, status: .waiting, role: nil)
    state.link = .live
    state.hasBeenLive = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    #expect(!store.state.isCancellable)
    // Another game's cancellation is not this one's.
    await store.send(.link(.message(.cancelled(code: "ZZZ234"))))
    await store.send(.link(.message(.cancelled(code: code)))) {
      $0.link = .closed
      $0.notices = [.cancelled(code: code)]
    }
    #expect(store.state.title == "Game cancelled")
    #expect(store.state.statusLine == sentence)
    #expect(store.state.lines(for: .cancelled(code: code)) == [.sentence(sentence)])
    await store.finish()
  }

  @Test func onlyTheCreatorsWaitingGameIsCancelledOnLeaving() {
    var state = OnlineGame.State(
      server: server, intent: .join(code: code), userName: "bob", token: "t1")
    for (shown, cancellable) in [
      (snapshot(o: nil, status: .waiting), true),
      (snapshot(o: nil, status: .waiting, role: .o), false),
      (snapshot(o: nil, status: .waiting, role: nil), false), (snapshot(), false),
      (
        snapshot(
          status: .finished(GameEnd(winner: nil, reason: .completed, xRating: 1, oRating: 1))),
        false
      ),
    ] {
      state.snapshot = shown
      #expect(state.isCancellable == cancellable, "\(shown)")
    }
  }
}
