import ArchitectureTesting
import AuthenticationClient
import DatabaseClient
import GameCore
import GameProtocol
import GameRules
import NewGameCore
import OnlineClient
import OnlineCore
import StatsCore
import Synchronization
import TestSupport
import Testing

/// A link that never reaches a server and counts how often it was closed.
private final class ClosingLink: Sendable {
  private let closes = Mutex(0)

  var closeCount: Int { closes.withLock { $0 } }

  var client: ServerLink {
    ServerLink(
      open: { AsyncStream { $0.finish() } }, send: { _ in },
      close: { self.closes.withLock { $0 += 1 } })
  }

  /// Online services whose every link is this one, the rest unimplemented.
  var online: OnlineClient {
    var online = OnlineClient.unimplemented
    online.link = { _ in self.client }
    return online
  }
}

@MainActor
struct NewGameOnlineTests {
  private let session = Session(accountID: 7, userName: "ann", token: "T0KEN")

  private func newGame(
    _ state: NewGame.State, online: OnlineClient, clock: ClockClient = .unimplemented
  ) -> TestStore<NewGame> {
    TestStore(initialState: state) {
      NewGame(
        engine: .unimplemented, clock: clock, random: .unimplemented, database: .unimplemented,
        online: online)
    }
  }

  @Test
  func aFormWithoutAServerSaysThatOnlinePlayNeedsOne() async {
    let store = newGame(NewGame.State(), online: .unimplemented)
    #expect(!store.state.isOnline)
    #expect(store.state.accountLine == "Playing as a guest")
    let sentence = "Playing online needs a server: sign in with the Server field filled in."
    for request in [NewGame.State.OnlineRequest.create, .join, .watch, .list] {
      #expect(store.state.onlineProblem(request) == sentence)
    }
    await store.send(.view(.createOnlineGameTapped)) { $0.errorMessage = sentence }
    await store.send(.view(.openGamesTapped))
    await store.finish()
  }

  @Test
  func aGuestOnAServerMayWatchAndListButNotCreateOrJoin() async {
    let store = newGame(NewGame.State(server: .example, session: nil), online: .unimplemented)
    #expect(store.state.accountLine == "Playing as a guest on example.org:7457")
    #expect(store.state.canRequest(.list))
    await store.send(.view(.createOnlineGameTapped)) {
      $0.errorMessage = "Creating a game needs an account on the server: sign in with it."
    }
    await store.send(.view(.inviteCodeChanged("k7m2qx"))) { $0.inviteCode = "k7m2qx" }
    await store.send(.view(.joinTapped)) {
      $0.errorMessage =
        "Joining a game needs an account on the server: sign in with it, or watch."
    }
    #expect(store.state.canRequest(.watch))
    await store.finish()
  }

  @Test
  func aBadOrMissingInviteCodeIsRefusedInASentence() async {
    let store = newGame(NewGame.State(server: .example, session: session), online: .unimplemented)
    await store.send(.view(.joinTapped)) {
      $0.errorMessage = "Type the invite code of the game to join."
    }
    await store.send(.view(.watchTapped)) {
      $0.errorMessage = "Type the invite code of the game to watch."
    }
    // Hostile input: letters outside the alphabet, an escape sequence, a very long paste.
    for typed in ["K7M2Q0", "\u{1B}[2J", String(repeating: "A", count: 100_000), "ABC"] {
      await store.send(.view(.inviteCodeChanged(typed))) { $0.inviteCode = typed }
      await store.send(.view(.joinTapped)) {
        $0.errorMessage = "An invite code is 6 letters and digits, such as K7M2QX."
      }
    }
    await store.finish()
  }

  @Test
  func createShowsTheOnlineGameWithTheBoardOfTheFormAndLeavingClosesIt() async {
    let link = ClosingLink()
    var online = OnlineClient.unimplemented
    online.link = { address in
      #expect(address == .example)
      return link.client
    }
    var state = NewGame.State(server: .example, session: session)
    state.settings.rows = 4
    state.settings.columns = 4
    state.settings.k = 3
    state.settings.startingRule = .o
    let store = newGame(state, online: online)
    #expect(store.state.accountLine == "Signed in as ann on example.org:7457")
    let options = GameOptions(rows: 4, columns: 4, k: 3, first: .o)
    await store.send(.view(.createOnlineGameTapped)) {
      $0.online = OnlineGame.State(
        server: .example, intent: .create(options), userName: "ann", token: "T0KEN")
    }
    await store.receive(.online(.started))
    #expect(store.state.online?.title == "Connecting to example.org:7457…")
    // Nothing shown yet, so leaving asks nothing and gives nothing up.
    await store.send(.online(.view(.quitTapped))) { $0.online?.link = .closed }
    await store.receive(.online(.delegate(.didQuit))) { $0.online = nil }
    await store.finish()
    #expect(link.closeCount == 1)
  }

  /// A game the server refused because it ended the session (a password changed elsewhere)
  /// leads back to Sign in once left, rather than to a New game that says "Signed in".
  @Test func leavingAGameWhoseSessionTheServerEndedLeadsToSignIn() async {
    var state = NewGame.State(server: .example, session: session)
    var online = OnlineGame.State(
      server: .example, intent: .create(GameOptions()), userName: "ann", token: "T0KEN")
    online.link = .closed
    online.hasSessionEnded = true
    state.online = online
    let client = ClosingLink().online
    let store = newGame(state, online: client)
    await store.send(.online(.delegate(.didQuit))) {
      $0.online = nil
      $0.closedGameSentence = online.closingSentence
    }
    await store.receive(.delegate(.didEndSession(OnlineGame.signedOutSentence)))
    await store.finish()
  }

  /// Leaving one's waiting game cancels it; the form then says so until the next action.
  @Test
  func theFormSaysThatTheGameLeftWasCancelled() async {
    let link = ClosingLink()
    let online = link.online
    var state = NewGame.State(server: .example, session: session)
    var game = OnlineGame.State(
      server: .example, intent: .create(GameOptions()), userName: "ann", token: "T0KEN")
    let waiting = GameSnapshot(
      code: "K7M2QX", rows: 3, columns: 3, k: 3, firstMover: .x,
      x: SeatedPlayer(name: "ann", rating: 1_200), o: nil, moves: [], status: .waiting, role: .x)
    game.snapshot = waiting
    game.link = .live
    game.hasBeenLive = true
    state.online = game
    // The clock bounds the wait for the server's answer.
    let store = TestStore(initialState: state) {
      NewGame(
        engine: .unimplemented, clock: TestClock().client, random: .unimplemented,
        database: .unimplemented, online: online)
    }
    await store.send(.online(.view(.quitTapped))) { $0.online?.leaving = .quit }
    await store.send(.online(.link(.message(.cancelled(code: "K7M2QX"))))) {
      $0.online?.leaving = nil
      $0.online?.link = .closed
      $0.online?.notices = [.cancelled(code: "K7M2QX")]
    }
    await store.receive(.online(.delegate(.didQuit))) {
      $0.online = nil
      $0.closedGameSentence = "Game K7M2QX is cancelled; no one had joined."
    }
    await store.send(.view(.inviteCodeChanged("a"))) {
      $0.inviteCode = "a"
      $0.closedGameSentence = nil
    }
    await store.finish()
    #expect(link.closeCount == 1)
  }

  /// Leaving one's waiting game without the server's word that it is cancelled (here the
  /// connection dropped first) says so on the form, not nothing.
  @Test
  func theFormSaysThatTheGameLeftMayNotBeCancelled() async {
    let online = ClosingLink().online
    var state = NewGame.State(server: .example, session: session)
    var game = OnlineGame.State(
      server: .example, intent: .create(GameOptions()), userName: "ann", token: "T0KEN")
    game.snapshot = GameSnapshot(
      code: "K7M2QX", rows: 3, columns: 3, k: 3, firstMover: .x,
      x: SeatedPlayer(name: "ann", rating: 1_200), o: nil, moves: [], status: .waiting, role: .x)
    game.link = .live
    game.hasBeenLive = true
    state.online = game
    let store = TestStore(initialState: state) {
      NewGame(
        engine: .unimplemented, clock: TestClock().client, random: .unimplemented,
        database: .unimplemented, online: online)
    }
    await store.send(.online(.view(.quitTapped))) { $0.online?.leaving = .quit }
    await store.send(.online(.link(.closed(reason: "reset", isPermanent: false)))) {
      $0.online?.leaving = nil
      $0.online?.link = .closed
      $0.online?.notices = [.notCancelled(code: "K7M2QX")]
    }
    await store.receive(.online(.delegate(.didQuit))) {
      $0.online = nil
      $0.closedGameSentence =
        "The server did not confirm that game K7M2QX is cancelled; if it is not, the server "
        + "drops it once you have been away for the reconnect grace."
    }
    await store.finish()
  }

  /// A game on a server is one game: taking turns would mean X starts, so it is not offered.
  @Test
  func takingTurnsIsNotOfferedOnAServer() async {
    let local = newGame(NewGame.State(), online: .unimplemented)
    #expect(local.state.startingRules == StartingRule.allCases)
    let store = newGame(NewGame.State(server: .example, session: session), online: .unimplemented)
    #expect(store.state.startingRules == [.x, .o, .random])
    await store.send(.view(.startingRuleChanged(.alternate)))
    await store.send(.view(.stepped(.startingRule, by: 1))) { $0.settings.startingRule = .o }
    await store.send(.view(.stepped(.startingRule, by: 1))) {
      $0.settings.startingRule = .random
    }
    await store.send(.view(.stepped(.startingRule, by: 1))) { $0.settings.startingRule = .x }
    await store.send(.view(.stepped(.startingRule, by: -1))) {
      $0.settings.startingRule = .random
    }
    await store.finish()
  }

  /// A code the server does not know leaves no game to look at: the form comes back with the
  /// code as typed and the server's answer, rather than a screen titled "No game".
  @Test
  func aCodeTheServerRefusesBringsTheFormBackSayingWhy() async {
    let link = ClosingLink()
    let online = link.online
    var state = NewGame.State(server: .example, session: session)
    state.inviteCode = "ZZZZZZ"
    var game = OnlineGame.State(
      server: .example, intent: .join(code: "ZZZZZZ"), userName: "ann", token: "T0KEN")
    game.link = .joining(attempt: 1)
    state.online = game
    let store = newGame(state, online: online)
    let sentence = "There is no game with the code ZZZZZZ; check the invite code."
    await store.send(.online(.link(.message(.refused(Refusal(.noSuchGame, request: 0x11)))))) {
      $0.online?.link = .closed
      $0.online?.notices = [.stopped(sentence)]
    }
    await store.receive(.online(.delegate(.didQuit))) {
      $0.online = nil
      $0.closedGameSentence = sentence
      $0.returnsToInviteCode = true
    }
    #expect(store.state.inviteCode == "ZZZZZZ")
    // The next action (the code mended) clears both.
    await store.send(.view(.inviteCodeChanged("K7M2QX"))) {
      $0.inviteCode = "K7M2QX"
      $0.closedGameSentence = nil
      $0.returnsToInviteCode = false
    }
    await store.finish()
    #expect(link.closeCount == 1)
  }

  /// A session the server ended before any game was shown leads to Sign in at once.
  @Test
  func aSessionEndedBeforeAGameIsShownLeadsToSignIn() async {
    var state = NewGame.State(server: .example, session: session)
    var game = OnlineGame.State(
      server: .example, intent: .join(code: "K7M2QX"), userName: "ann", token: "T0KEN")
    game.link = .joining(attempt: 1)
    state.online = game
    let online = ClosingLink().online
    let store = newGame(state, online: online)
    await store.send(.online(.link(.message(.refused(Refusal(.notSignedIn, request: 0x11)))))) {
      $0.online?.link = .closed
      $0.online?.hasSessionEnded = true
      $0.online?.notices = [.stopped(OnlineGame.signedOutSentence)]
    }
    await store.receive(.online(.delegate(.didQuit))) {
      $0.online = nil
      $0.closedGameSentence = OnlineGame.signedOutSentence
      $0.returnsToInviteCode = true
    }
    await store.receive(.delegate(.didEndSession(OnlineGame.signedOutSentence)))
    await store.finish()
  }

  @Test
  func watchingSendsNoTokenAndJoiningTakesTheCodeInCapitals() async {
    let link = ClosingLink()
    let online = link.online
    let store = newGame(NewGame.State(server: .example, session: session), online: online)
    await store.send(.view(.inviteCodeChanged(" k7m-2qx "))) { $0.inviteCode = " k7m-2qx " }
    await store.send(.view(.watchTapped)) {
      $0.online = OnlineGame.State(
        server: .example, intent: .watch(code: "K7M2QX"), userName: nil, token: nil)
    }
    await store.receive(.online(.started))
    await store.send(.online(.view(.quitTapped))) { $0.online?.link = .closed }
    await store.receive(.online(.delegate(.didQuit))) { $0.online = nil }
    await store.send(.view(.joinTapped)) {
      $0.online = OnlineGame.State(
        server: .example, intent: .join(code: "K7M2QX"), userName: "ann", token: "T0KEN")
    }
    await store.receive(.online(.started))
    await store.send(.online(.view(.quitTapped))) { $0.online?.link = .closed }
    await store.receive(.online(.delegate(.didQuit))) { $0.online = nil }
    await store.finish()
  }

  @Test
  func openGamesListsJoinsAnOpenOneAndWatchesAFullOne() async {
    let open = GameListing(
      code: "K7M2QX", isOpen: true, xName: "bob", oName: nil, rows: 3, columns: 3, k: 3,
      moveCount: 0)
    let full = GameListing(
      code: "ABC234", isOpen: false, xName: "cy\u{1B}[31m", oName: "dee", rows: 5, columns: 5,
      k: 4, moveCount: 1)
    let link = ClosingLink()
    var online = OnlineClient.unimplemented
    online.listGames = { _ in [open, full] }
    online.link = { _ in link.client }
    let store = newGame(NewGame.State(server: .example, session: session), online: online)
    await store.send(.view(.openGamesTapped)) {
      $0.openGames = OpenGames.State(server: .example, player: "ann")
    }
    await store.receive(.openGames(.started)) { $0.openGames?.isLoading = true }
    #expect(store.state.openGames?.note == "Asking example.org:7457…")
    await store.receive(.openGames(.loaded(.success([open, full])))) {
      $0.openGames?.isLoading = false
      $0.openGames?.listings = [open, full]
    }
    #expect(
      store.state.openGames?.lines == [
        "K7M2QX  bob (X) against O free, 3×3, 3 in a row, 0 moves · join",
        "ABC234  cy\\u{1B}[31m (X) against dee (O), 5×5, 4 in a row, 1 move · watch",
      ])
    // A place beyond the list does nothing.
    await store.send(.openGames(.view(.gameTapped(2))))
    await store.send(.openGames(.view(.gameTapped(1))))
    await store.receive(.openGames(.delegate(.didChoose(.watch(code: "ABC234"))))) {
      $0.openGames = nil
      $0.online = OnlineGame.State(
        server: .example, intent: .watch(code: "ABC234"), userName: nil, token: nil)
    }
    await store.receive(.online(.started))
    await store.send(.online(.view(.quitTapped))) { $0.online?.link = .closed }
    await store.receive(.online(.delegate(.didQuit))) { $0.online = nil }

    await store.send(.view(.openGamesTapped)) {
      $0.openGames = OpenGames.State(server: .example, player: "ann")
    }
    await store.receive(.openGames(.started)) { $0.openGames?.isLoading = true }
    await store.receive(.openGames(.loaded(.success([open, full])))) {
      $0.openGames?.isLoading = false
      $0.openGames?.listings = [open, full]
    }
    await store.send(.openGames(.view(.gameTapped(0))))
    await store.receive(.openGames(.delegate(.didChoose(.join(code: "K7M2QX"))))) {
      $0.openGames = nil
      $0.online = OnlineGame.State(
        server: .example, intent: .join(code: "K7M2QX"), userName: "ann", token: "T0KEN")
    }
    await store.receive(.online(.started))
    await store.send(.online(.view(.quitTapped))) { $0.online?.link = .closed }
    await store.receive(.online(.delegate(.didQuit))) { $0.online = nil }
    await store.finish()
  }

  /// A game of the player's own in the list (the client that played it was closed) takes
  /// the seat again rather than watching it.
  @Test
  func thePlayersOwnGameInTheListIsRejoined() async {
    let own = GameListing(
      code: "ABC234", isOpen: false, xName: "cy", oName: "ANN", rows: 3, columns: 3, k: 3,
      moveCount: 1)
    var state = OpenGames.State(server: .example, player: "ann")
    state.listings = [own]
    #expect(
      state.lines == ["ABC234  cy (X) against ANN (O), 3×3, 3 in a row, 1 move · your game: rejoin"]
    )
    let store = TestStore(initialState: state) { OpenGames(online: .unimplemented) }
    await store.send(.view(.gameTapped(0)))
    await store.receive(.delegate(.didChoose(.join(code: "ABC234"))))
    await store.finish()
  }

  @Test
  func aGuestSeesOpenGamesAsWatchableAndAFailedListSaysWhy() async {
    var online = OnlineClient.unimplemented
    online.listGames = { _ in throw OnlineFailure("The server at example.org:7457 is down.") }
    let store = newGame(NewGame.State(server: .example, session: nil), online: online)
    await store.send(.view(.openGamesTapped)) {
      $0.openGames = OpenGames.State(server: .example, player: nil)
    }
    await store.receive(.openGames(.started)) { $0.openGames?.isLoading = true }
    await store.receive(
      .openGames(.loaded(.failure(OnlineFailure("The server at example.org:7457 is down."))))
    ) {
      $0.openGames?.isLoading = false
      $0.openGames?.errorMessage = "The server at example.org:7457 is down."
    }
    #expect(
      store.state.openGames?.note == "No games on example.org:7457 now; create one from New game.")
    await store.send(.openGames(.view(.closeTapped)))
    await store.receive(.openGames(.delegate(.didClose))) { $0.openGames = nil }
    await store.finish()
  }

  @Test
  func aServerAccountsStatsComeFromItsServerWithTheRatingAndNoReset() async {
    let finished = FinishedGame(
      id: 41, xName: "ann", oName: "bob", rows: 3, columns: 3, k: 3, firstMover: .x,
      moves: [.b2, .a1, .c3, .a3, .a2, .c1, .b1, .b3, .c2], winner: nil,
      startedAt: TestClock.epoch, endedAt: TestClock.epoch + 90_000)
    var online = OnlineClient.unimplemented
    online.playerRecord = { address, userName in
      #expect(address == .example)
      #expect(userName == "ann")
      return (
        PlayerStats(
          userName: "ann", rating: 1_216, wins: 3, losses: 1, draws: 1, currentStreak: 2,
          bestStreak: 2), [finished]
      )
    }
    // The database is unimplemented: nothing of this computer's records is read. The clock
    // only tells the time the game ended.
    let store = newGame(
      NewGame.State(server: .example, session: session), online: online, clock: .immediate)
    let account = StatsFeature.ServerAccount(server: "example.org:7457", userName: "ann")
    await store.send(.view(.statsTapped)) {
      $0.stats = StatsFeature.State(serverAccount: account)
    }
    await store.receive(.stats(.started)) { $0.stats?.isLoading = true }
    let stats = Stats(
      tallies: [Tally(opponent: .person, wins: 3, losses: 1, draws: 1)], currentStreak: 2,
      bestStreak: 2,
      recentGames: [
        GameRecord(
          id: 41, x: PlayerRecord(name: "ann"), o: PlayerRecord(name: "bob"), rows: 3,
          columns: 3, k: 3, firstMover: .x, moves: finished.moves, result: .draw,
          startedAt: TestClock.epoch, endedAt: TestClock.epoch + 90_000)
      ])
    await store.receive(
      .stats(
        .serverRecordResponse(.success(StatsFeature.ServerRecord(stats: stats, rating: 1_216))))
    ) {
      $0.stats?.isLoading = false
      $0.stats?.stats = stats
      // 22:14:50 UTC, an hour behind the test clock's time zone.
      $0.stats?.recentGameTimes = [
        LocalTime(year: 2023, month: 11, day: 14, hour: 23, minute: 14, second: 50)
      ]
      $0.stats?.rating = 1_216
    }
    let shown = store.state.stats
    #expect(shown?.title == "Stats on example.org:7457")
    #expect(shown?.ratingText == "Rating: 1216")
    #expect(shown?.tallyLines == ["People: 3 wins, 1 loss, 1 draw"])
    #expect(shown?.recentGameLines == ["2023-11-14 23:14 · ann vs bob: tied in 9 moves"])
    #expect(shown?.canReset == false)
    // Reset is not offered, and asking anyway does nothing.
    await store.send(.stats(.view(.resetTapped)))
    await store.send(.stats(.view(.recentGameTapped(0)))) {
      $0.stats?.replay = StatsFeature.Replay(record: stats.recentGames[0])
    }
    await store.finish()
  }

  @Test
  func aServerThatCannotBeReachedIsSaidOnTheStatsScreen() async {
    var online = OnlineClient.unimplemented
    online.playerRecord = { _, _ in
      throw OnlineFailure("Cannot reach the server at example.org:7457: connection refused.")
    }
    let store = newGame(NewGame.State(server: .example, session: session), online: online)
    await store.send(.view(.statsTapped)) {
      $0.stats = StatsFeature.State(
        serverAccount: StatsFeature.ServerAccount(server: "example.org:7457", userName: "ann"))
    }
    await store.receive(.stats(.started)) { $0.stats?.isLoading = true }
    let sentence = "Cannot reach the server at example.org:7457: connection refused."
    await store.receive(
      .stats(.serverRecordResponse(.failure(StatsFeature.ServerFailure(sentence))))
    ) {
      $0.stats?.isLoading = false
      $0.stats?.errorMessage = "Cannot reach the server at example.org:7457: connection refused."
    }
    #expect(store.state.stats?.ratingText == "Rating: –")
    await store.finish()
  }

}
