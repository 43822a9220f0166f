import ArchitectureTesting
import GameProtocol
import GameRules
import OnlineClient
import OnlineCore
import TestSupport
import Testing

/// A server that lies about this player's own game, in ways the client can tell.
///
/// A move the player did not make, a seat that is the player's own, a game that has begun
/// being cancelled: the client says what the server did wrong and stops. Answers to nothing it
/// asked are not followed.
@MainActor
struct OnlineGameLiesTests {
  nonisolated private static let a1 = Cell(row: 0, column: 0)
  nonisolated private static let b2 = Cell(row: 1, column: 1)
  private static let stranger = SeatedPlayer(name: "mallory", rating: 1_200)

  /// Ann's client, seated as X in a live game with these moves and this opponent.
  private func annPlayingX(
    _ link: ScriptedLink, moves: [Cell] = [], o: SeatedPlayer? = bob,
    status: GameStatus = .playing, pendingMove: Cell? = nil
  ) -> TestStore<OnlineGame> {
    var state = OnlineGame.State(
      server: server, intent: .create(GameOptions()), userName: "ann", token: "t1")
    state.snapshot = snapshot(moves: moves, o: o, status: status, role: .x)
    state.link = .live
    state.hasBeenLive = true
    state.pendingMove = pendingMove
    return TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
  }

  /// Ann's client, having asked for a new game and waiting for it.
  private func annCreating(_ options: GameOptions = GameOptions()) -> TestStore<OnlineGame> {
    var state = OnlineGame.State(
      server: server, intent: .create(options), userName: "ann", token: "t1")
    state.link = .joining(attempt: 1)
    return TestStore(initialState: state) {
      OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
    }
  }

  private func stops(
    _ store: TestStore<OnlineGame>, on message: ServerMessage, saying sentence: String
  ) async {
    let wasShown = store.state.snapshot != nil
    await store.send(.link(.message(message))) {
      $0.link = .closed
      $0.notices = [.stopped(sentence)]
    }
    // With no game shown there is nothing to look at: the screen closes.
    if !wasShown { await store.receive(.delegate(.didQuit)) }
    await store.finish()
  }

  @Test func aMoveForThisPlayerThatItDidNotMakeStopsTheClient() async {
    let sentence =
      "The server at example.org:7457 sent a move at a1 for this player, who did not make it."
    // Nothing sent at all.
    await stops(
      annPlayingX(ScriptedLink()), on: .moved(code: code, ply: 0, cell: Self.a1),
      saying: sentence)
    // b2 sent, a1 told back.
    await stops(
      annPlayingX(ScriptedLink(), pendingMove: Self.b2),
      on: .moved(code: code, ply: 0, cell: Self.a1), saying: sentence)
  }

  @Test func theMoveSentIsTakenAndASecondWaitsForIt() async {
    let link = ScriptedLink()
    let store = annPlayingX(link)
    await store.send(.view(.cellTapped(Self.b2))) { $0.pendingMove = Self.b2 }
    #expect(await link.waitForSent() == [.move(code: code, ply: 0, cell: Self.b2)])
    // A second move before the first is answered is not sent: the turn is gone with the first.
    await store.send(.view(.cellTapped(Self.a1))) { $0.notices = [.stillSending] }
    #expect(
      store.state.statusLine
        == "That did nothing: the last move is still on its way to the server.")
    await store.send(.link(.message(.moved(code: code, ply: 0, cell: Self.b2)))) {
      $0.snapshot?.moves = [Self.b2]
      $0.pendingMove = nil
      $0.notices.append(.moved(ply: 0))
    }
    #expect(link.takeSent().isEmpty)
    await store.finish()
  }

  /// The resign question goes when the game ends under it (bob left, or resigned): the end is
  /// said, and nothing is left to answer.
  @Test func theResignQuestionGoesWhenTheGameEndsUnderIt() async {
    let store = annPlayingX(ScriptedLink(), moves: [Self.b2])
    await store.send(.view(.quitTapped)) {
      $0.isConfirmingResign = true
      $0.notices = [.askedToResign]
    }
    let end = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
    await store.send(.link(.message(.ended(code: code, end)))) {
      $0.snapshot?.status = .finished(end)
      $0.sawTheEnd = true
      $0.notices.append(.ended(end))
      $0.link = .closed
      $0.isConfirmingResign = false
    }
    #expect(store.state.statusLine == "bob left; you win.")
    await store.finish()
  }

  /// ann's waiting game, its seat taken over by her other client: leaving it says nothing of
  /// a cancellation, as the game is the other client's now.
  @Test func leavingAGameWhoseSeatWasTakenOverSaysNothingOfCancelling() async {
    let store = annPlayingX(ScriptedLink(), o: nil, status: .waiting)
    let sentence = "This seat was taken over by another connection of the same account."
    await store.send(.link(.message(.refused(Refusal(.seatTakenOver))))) {
      $0.link = .closed
      $0.hasLostTheSeat = true
      $0.notices = [.stopped(sentence)]
    }
    await store.send(.view(.quitTapped))
    await store.receive(.delegate(.didQuit))
    #expect(store.state.notices == [.stopped(sentence)])
    await store.finish()
  }

  /// One game moves each rating by 32 at the most, the winner's up: ratings no game gives are
  /// the server's fault; those one can give are shown.
  @Test func ratingsOneGameCannotGiveStopTheClient() async {
    for (xRating, oRating) in [(9_999, 0), (1_250, 1_150), (1_184, 1_216), (1_216, 1_200)] {
      let end = GameEnd(
        winner: .x, reason: .forfeit, xRating: xRating, oRating: oRating)
      await stops(
        annPlayingX(ScriptedLink(), moves: [Self.b2]), on: .ended(code: code, end),
        saying: "The server at example.org:7457 ended the game with ratings one game cannot "
          + "give (1200 to \(xRating), 1200 to \(oRating)).")
    }
    let store = annPlayingX(ScriptedLink(), moves: [Self.b2])
    let fair = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
    await store.send(.link(.message(.ended(code: code, fair)))) {
      $0.snapshot?.status = .finished(fair)
      $0.sawTheEnd = true
      $0.notices = [.ended(fair)]
      $0.link = .closed
    }
    await store.finish()
  }

  @Test func aMoveForAnEmptySeatStopsTheClient() async {
    var state = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    state.snapshot = snapshot(moves: [Self.b2], o: nil, status: .playing, role: nil)
    state.link = .live
    let store = TestStore(initialState: state) {
      OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
    }
    await stops(
      store, on: .moved(code: code, ply: 1, cell: Self.a1),
      saying: "The server at example.org:7457 sent a move for O, whose seat is empty.")
  }

  @Test func aPlayerInThisPlayersSeatOrInATakenOneStopsTheClient() async {
    await stops(
      annPlayingX(ScriptedLink()), on: .playerJoined(code: code, mark: .x, player: Self.stranger),
      saying: "The server at example.org:7457 said another player took this player's own seat.")
    await stops(
      annPlayingX(ScriptedLink()), on: .playerJoined(code: code, mark: .o, player: Self.stranger),
      saying: "The server at example.org:7457 said a player took the O seat, which was already "
        + "taken.")
  }

  @Test func aGameUnderWayIsNeverCancelled() async {
    await stops(
      annPlayingX(ScriptedLink(), moves: [Self.b2]), on: .cancelled(code: code),
      saying: "The server at example.org:7457 said game ABC234 was cancelled after it had begun.")
  }

  @Test func nobodyWinsByResignationOrForfeitAGameNobodyJoined() async {
    let end = GameEnd(winner: .x, reason: .forfeit, xRating: 1_210, oRating: 1_190)
    await stops(
      annPlayingX(ScriptedLink(), o: nil, status: .waiting), on: .ended(code: code, end),
      saying: "The server at example.org:7457 ended a game nobody had joined with a winner.")
  }

  @Test func aResignationThisPlayerDidNotSendStopsTheClient() async {
    let end = GameEnd(winner: .o, reason: .resigned, xRating: 1_190, oRating: 1_210)
    await stops(
      annPlayingX(ScriptedLink(), moves: [Self.b2]), on: .ended(code: code, end),
      saying: "The server at example.org:7457 said this player resigned, which it did not.")
  }

  @Test func aGameOtherThanANewOneIsNotTakenForTheOneCreated() async {
    let store = annCreating()
    await stops(
      store, on: .game(snapshot(moves: [Self.b2], role: .x)),
      saying: "The server at example.org:7457 answered the request for a new game with game "
        + "ABC234, which is not new.")
  }

  @Test func aCodeThatIsNotAnInviteCodeIsNeitherShownNorFollowed() async {
    let store = annCreating()
    var lie = snapshot(o: nil, status: .waiting, role: .x)
    lie.code = "AB\u{1B}[2JCD"
    await stops(
      store, on: .game(lie),
      saying: "The server at example.org:7457 sent a game whose code AB\\u{1B}[2JCD is not an "
        + "invite code.")
  }

  /// No server holds a seat longer than a day: a longer hold, in a notice or in the game sent,
  /// is never shown.
  @Test func aSeatHeldLongerThanADayIsNotShown() async {
    let sentence =
      "The server at example.org:7457 said a seat is held for 86401 seconds, longer than the day "
      + "any server holds one."
    await stops(
      annPlayingX(ScriptedLink()), on: .playerAway(code: code, mark: .o, seconds: 86_401),
      saying: sentence)
    var away = bob
    away.awaySeconds = 86_401
    await stops(
      annPlayingX(ScriptedLink()), on: .game(snapshot(o: away, role: .x)), saying: sentence)
    // A day is not too long.
    let store = annPlayingX(ScriptedLink())
    await store.send(.link(.message(.playerAway(code: code, mark: .o, seconds: 86_400)))) {
      $0.snapshot?.o?.awaySeconds = 86_400
      $0.notices = [.away(.o, seconds: 86_400)]
    }
    await store.finish()
  }

  /// A game sent again on a live connection answers nothing this client asked: it is no
  /// reconnection, and the same game again says nothing at all.
  @Test func theGameSentAgainUnaskedIsNoReconnection() async {
    var away = bob
    away.awaySeconds = 50
    let store = annPlayingX(ScriptedLink(), moves: [Self.b2], o: away)
    for seconds: UInt32 in [50, 40, 30] {
      away.awaySeconds = seconds
      await store.send(.link(.message(.game(snapshot(moves: [Self.b2], o: away, role: .x))))) {
        $0.snapshot?.o?.awaySeconds = seconds
      }
    }
    // One more move in it is told as a move.
    await store.send(
      .link(.message(.game(snapshot(moves: [Self.b2, Self.a1], o: away, role: .x))))
    ) {
      $0.snapshot?.moves = [Self.b2, Self.a1]
      $0.notices = [.moved(ply: 1)]
    }
    await store.finish()
  }

  @Test func theGameShownAgainKeepsTheMovesAlreadyPlayed() async {
    await stops(
      annPlayingX(ScriptedLink(), moves: [Self.b2]),
      on: .game(snapshot(moves: [Self.a1, Self.b2], role: .x)),
      saying: "The server at example.org:7457 sent game ABC234 again with moves other than those "
        + "already played.")
  }

  @Test func aGameOfOtherSettingsIsNotTakenForTheOneCreated() async {
    let asked = [
      GameOptions(rows: 5, columns: 5, k: 4), GameOptions(rows: 3, columns: 4, k: 3),
      GameOptions(first: .o),
    ]
    for options in asked {
      await stops(
        annCreating(options), on: .game(snapshot(o: nil, status: .waiting, role: .x)),
        saying: "The server at example.org:7457 answered the request for a new game with a "
          + "game of other settings (3×3, 3 in a row, X first).")
    }
    // A coin toss may give either side the first move.
    let store = annCreating(GameOptions(first: .random))
    await store.send(.link(.message(.game(snapshot(o: nil, status: .waiting, role: .x))))) {
      $0.snapshot = snapshot(o: nil, status: .waiting, role: .x)
      $0.link = .live
      $0.hasBeenLive = true
      $0.notices = [.created(code: code), .shown]
    }
    await store.finish()
  }

  /// Seats that contradict the game's moves or status, in the game as shown.
  @Test func aGameWhoseSeatsContradictItIsNotShown() async {
    var watched = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    watched.link = .joining(attempt: 1)
    var xEmpty = snapshot(moves: [Self.a1], role: nil)
    xEmpty.x = nil
    let lies: [(GameSnapshot, String)] = [
      (
        snapshot(moves: [Self.a1], o: nil, status: .waiting, role: nil),
        "sent game ABC234 as waiting for an opponent, with its seats or moves saying otherwise."
      ),
      (
        snapshot(moves: [], o: bob, status: .waiting, role: nil),
        "sent game ABC234 as waiting for an opponent, with its seats or moves saying otherwise."
      ),
      (xEmpty, "sent game ABC234 under way with a seat empty."),
      (
        snapshot(moves: [Self.a1], o: nil, role: nil),
        "sent game ABC234 under way with a seat empty."
      ),
    ]
    for (lie, sentence) in lies {
      let store = TestStore(initialState: watched) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      await stops(store, on: .game(lie), saying: "The server at example.org:7457 " + sentence)
    }
  }

  /// Waiting for the game she asked to create, ann's client does not follow the refusal of a
  /// join it never sent.
  @Test func theRefusalOfAnotherGameRequestIsNotFollowed() async {
    let store = annCreating()
    await store.send(
      .link(.message(.refused(Refusal(.gameFull, request: ClientMessage.joinGame(code: "").type))))
    )
    #expect(store.state.link == .joining(attempt: 1))
    await store.finish()
  }

  /// The game sent again after a reconnection keeps its board, its players and ann's side.
  @Test func theGameSentAgainKeepsItsBoardPlayersAndSide() async {
    var other = snapshot(moves: [Self.b2], role: .x)
    other.rows = 4
    other.columns = 4
    var swapped = snapshot(moves: [Self.b2], role: .o)
    swapped.o = ann
    swapped.x = bob
    var stranger = snapshot(moves: [Self.b2], role: .x)
    stranger.o = Self.stranger
    var otherFirst = snapshot(moves: [Self.b2], role: .x)
    otherFirst.firstMover = .o
    for lie in [other, swapped, stranger, otherFirst] {
      var state = annPlayingX(ScriptedLink(), moves: [Self.b2]).state
      state.link = .joining(attempt: 2)
      let store = TestStore(initialState: state) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      await stops(
        store, on: .game(lie),
        saying: "The server at example.org:7457 sent game ABC234 again with another board, "
          + "other players or this client on another side.")
    }
  }

  /// A player sits in its own side under its own name; a spectator has no side.
  @Test func aSideThatIsNotThisClientsIsNotShown() async {
    var mallorysSeat = snapshot(o: nil, status: .waiting, role: .x)
    mallorysSeat.x = Self.stranger
    await stops(
      annCreating(), on: .game(mallorysSeat),
      saying: "The server at example.org:7457 sent game ABC234 with mallory in this player's "
        + "seat.")
    await stops(
      annCreating(), on: .game(snapshot(o: nil, status: .waiting, role: nil)),
      saying: "The server at example.org:7457 sent game ABC234 without this player's side.")
    var watching = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    watching.link = .joining(attempt: 1)
    let spectator = TestStore(initialState: watching) {
      OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
    }
    await stops(
      spectator, on: .game(snapshot(role: .x)),
      saying: "The server at example.org:7457 sent game ABC234 with a side for this spectator.")
  }

  /// A refusal of ann's move at b2, on her turn, for a reason the game she sees contradicts.
  @Test(arguments: [
    ErrorCode.cellOutOfBounds, .notAPlayer, .gameNotStarted, .cellTaken, .notYourTurn, .staleMove,
  ])
  func aRefusalOfTheMoveThatTheGameContradictsStopsTheClient(code refusalCode: ErrorCode) async {
    await stops(
      annPlayingX(ScriptedLink(), pendingMove: Self.b2),
      on: .refused(Refusal(refusalCode, request: OnlineGame.moveRequest)),
      saying: "The server at example.org:7457 refused the move at b2 with a reason this game "
        + "contradicts (\(refusalCode)).")
  }

  /// A move refused `gameOver` in a game still under way is no lie: bob resigned while it was
  /// on its way, and the ending follows once the server has stored it.
  @Test func aMoveRefusedAsTheGameEndsWaitsForTheEnding() async {
    let store = annPlayingX(ScriptedLink(), pendingMove: Self.b2)
    let refusal = Refusal(.gameOver, request: OnlineGame.moveRequest)
    await store.send(.link(.message(.refused(refusal)))) {
      $0.pendingMove = nil
      $0.notices = [.refused(refusal, cell: Self.b2)]
    }
    #expect(
      store.state.lines(for: .refused(refusal, cell: Self.b2)) == [.sentence("The game is over.")])
    await store.send(
      .link(.message(.ended(code: code, bobsResignation))), assert: annHearsBobResigned)
    #expect(store.state.lines(for: .ended(bobsResignation)) == annWinsByResignation)
    await store.finish()
  }

  /// Refusals no move can get, whether the refusal names the move or no request at all.
  @Test(arguments: [
    (ErrorCode.gameFull, OnlineGame.moveRequest), (.tooManyGames, OnlineGame.moveRequest),
    (.invalidSettings, OnlineGame.moveRequest), (.alreadySignedIn, OnlineGame.moveRequest),
    (.cellTaken, 0), (.gameOver, 0), (.noSuchGame, 0), (.notYourTurn, 0),
  ])
  func aRefusalNoMoveCanGetStopsTheClient(code refusalCode: ErrorCode, request: UInt8) async {
    await stops(
      annPlayingX(ScriptedLink(), pendingMove: Self.b2),
      on: .refused(Refusal(refusalCode, request: request)),
      saying: "The server at example.org:7457 refused what this client asked with a reason that "
        + "cannot answer it (\(refusalCode)).")
  }

  /// A refusal of a request this client never sent answers nothing it asked.
  @Test func aRefusalOfARequestNeverSentIsNotFollowed() async {
    let store = annPlayingX(ScriptedLink())
    for refusal in [
      Refusal(.noSuchGame, request: ClientMessage.requestFinishedGame(id: 1).type),
      Refusal(.invalidCredentials, request: ClientMessage.signIn(userName: "", password: "").type),
      Refusal(.noSuchUser, request: ClientMessage.requestStats(userName: "").type),
      Refusal(.gameOver, request: ClientMessage.resign(code: code).type),
    ] {
      await store.send(.link(.message(.refused(refusal))))
    }
    #expect(store.state.link == .live && store.state.notices.isEmpty)
    await store.finish()
  }

  /// Coming back to ann's own seat, the server says the game is full, or that she is no
  /// player: lies, both.
  @Test func theOwnSeatRefusedOnReturnStopsTheClient() async {
    for refusal in [
      Refusal(.gameFull, request: ClientMessage.joinGame(code: code).type),
      Refusal(.notAPlayer, request: ClientMessage.joinGame(code: code).type),
      Refusal(.gameFull, request: 0),
    ] {
      var state = annPlayingX(ScriptedLink(), moves: [Self.b2]).state
      state.link = .joining(attempt: 2)
      let store = TestStore(initialState: state) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      await store.send(.link(.message(.refused(refusal)))) {
        $0.link = .closed
        $0.notices = [
          .stopped(
            refusal.code == .gameFull && refusal.request != 0
              ? "The server at example.org:7457 would not give this player back its seat in "
                + "game ABC234 (gameFull)."
              : "The server at example.org:7457 refused what this client asked with a reason "
                + "that cannot answer it (\(refusal.code)).")
        ]
      }
      await store.finish()
    }
  }

  @Test func aMoveRefusedForAGameTheServerNoLongerHasStopsTheClient() async {
    await stops(
      annPlayingX(ScriptedLink(), pendingMove: Self.b2),
      on: .refused(Refusal(.noSuchGame, request: OnlineGame.moveRequest)),
      saying: "Game ABC234 is no longer on the server at example.org:7457; it may have ended "
        + "while this client was away.")
  }

  /// Out of turn, ann's move may meet the opponent's on its way: the refusal is believed.
  @Test func aRefusalOfAMoveSentOutOfTurnIsBelieved() async {
    let b3 = Cell(row: 2, column: 1)
    for refusalCode in [ErrorCode.notYourTurn, .cellTaken, .staleMove] {
      let store = annPlayingX(ScriptedLink(), moves: [Self.a1], pendingMove: b3)
      let refusal = Refusal(refusalCode, request: OnlineGame.moveRequest)
      await store.send(.link(.message(.refused(refusal)))) {
        $0.pendingMove = nil
        $0.notices = [.refused(refusal, cell: b3)]
      }
      await store.finish()
    }
  }

  /// A lie that comes while "Resign this game?" is open closes the question: the stop is said.
  @Test func aStopClosesTheResignQuestion() async {
    var state = annPlayingX(ScriptedLink(), moves: [Self.b2]).state
    state.isConfirmingResign = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
    }
    await store.send(.link(.message(.moved(code: code, ply: 1, cell: Self.b2)))) {
      $0.link = .closed
      $0.isConfirmingResign = false
      $0.notices = [
        .stopped("The server at example.org:7457 sent a move that cannot be played: b2 is taken.")
      ]
    }
    await store.finish()
  }

  /// Before anyone joins, ann's move is not sent, and a move the server says was made is a lie.
  @Test func nothingIsPlayedInAGameWaitingForAnOpponent() async {
    let link = ScriptedLink()
    let store = annPlayingX(link, o: nil, status: .waiting)
    await store.send(.view(.cellTapped(Self.b2))) {
      $0.notices = [
        .refused(Refusal(.gameNotStarted, request: OnlineGame.moveRequest), cell: Self.b2)
      ]
    }
    #expect(link.takeSent().isEmpty)
    await store.send(.link(.message(.moved(code: code, ply: 0, cell: Self.b2)))) {
      $0.link = .closed
      $0.notices.append(
        .stopped(
          "The server at example.org:7457 sent a move in game ABC234, which waits for an "
            + "opponent."))
    }
    await store.finish()
  }

  /// A refusal of ann's resignation her game contradicts stops the client; one it does not
  /// leaves the game going on, to be given up again.
  @Test func aRefusedResignationIsCheckedAndSaid() async {
    for refusalCode in [ErrorCode.notAPlayer, .gameNotStarted] {
      var state = annPlayingX(ScriptedLink(), moves: [Self.b2]).state
      state.hasResigned = true
      let store = TestStore(initialState: state) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      await stops(
        store, on: .refused(Refusal(refusalCode, request: OnlineGame.resignRequest)),
        saying: "The server at example.org:7457 refused this player's resignation with a reason "
          + "this game contradicts (\(refusalCode)).")
    }
    var state = annPlayingX(ScriptedLink(), moves: [Self.b2]).state
    state.hasResigned = true
    let store = TestStore(initialState: state) {
      OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
    }
    let busy = Refusal(.busy, request: OnlineGame.resignRequest)
    await store.send(.link(.message(.refused(busy)))) {
      $0.hasResigned = false
      $0.notices = [.refused(busy, cell: nil)]
    }
    await store.finish()
    // Refused gameOver: bob resigned first, and his ending follows.
    let racing = TestStore(initialState: state) {
      OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
    }
    let over = Refusal(.gameOver, request: OnlineGame.resignRequest)
    await racing.send(.link(.message(.refused(over)))) {
      $0.hasResigned = false
      $0.notices = [.refused(over, cell: nil)]
    }
    #expect(racing.state.link == .live)
    await racing.finish()
  }

  /// Ann's session ended on the server since it signed her in (her password was changed
  /// elsewhere): her move, her resignation and her cancellation are refused as not signed
  /// in, and her client stops saying so, not that the server lied.
  @Test func aPlayerWhoseSessionEndedIsToldToSignInAgain() async {
    let playing = annPlayingX(ScriptedLink(), pendingMove: Self.b2).state
    var resigning = annPlayingX(ScriptedLink(), moves: [Self.b2]).state
    resigning.hasResigned = true
    var cancelling = annPlayingX(ScriptedLink(), o: nil, status: .waiting).state
    cancelling.leaving = .quit
    for (state, request) in [
      (playing, OnlineGame.moveRequest), (resigning, OnlineGame.resignRequest),
      (cancelling, OnlineGame.cancelRequest),
    ] {
      let store = TestStore(initialState: state) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      await store.send(.link(.message(.refused(Refusal(.notSignedIn, request: request))))) {
        $0.link = .closed
        $0.leaving = nil
        $0.hasSessionEnded = true
        $0.notices = [
          .stopped(
            "The server ended this player's session, as it does when the account's password or "
              + "two-factor is changed elsewhere; sign in again to continue.")
        ]
      }
      await store.finish()
    }
  }

  /// The server will not cancel ann's own game nobody joined for a reason it contradicts.
  @Test func aRefusedCancellationThatTheGameContradictsStopsTheClient() async {
    for refusalCode in [ErrorCode.notAPlayer, .gameOver, .noSuchGame] {
      var state = annPlayingX(ScriptedLink(), o: nil, status: .waiting).state
      state.leaving = .quit
      let store = TestStore(initialState: state) {
        OnlineGame(link: ScriptedLink().client, clock: TestClock().client)
      }
      let refusal = Refusal(refusalCode, request: OnlineGame.cancelRequest)
      await store.send(.link(.message(.refused(refusal)))) {
        $0.link = .closed
        $0.leaving = nil
        $0.notices = [
          .stopped(
            "The server at example.org:7457 refused to cancel game ABC234 with a reason this "
              + "game contradicts (\(refusalCode)).")
        ]
      }
      await store.finish()
    }
  }

  /// Nobody without a name joins, and ann does not join the other side of her own game.
  @Test func aJoinThatCannotBeStopsTheClient() async {
    await stops(
      annPlayingX(ScriptedLink(), o: nil, status: .waiting),
      on: .playerJoined(code: code, mark: .o, player: SeatedPlayer(name: " ", rating: 1_200)),
      saying: "The server at example.org:7457 said a player without a name joined.")
    await stops(
      annPlayingX(ScriptedLink(), o: nil, status: .waiting),
      on: .playerJoined(code: code, mark: .o, player: SeatedPlayer(name: "ANN", rating: 1_200)),
      saying: "The server at example.org:7457 said this player joined the other side of its own "
        + "game.")
  }

  /// Answers to nothing this client asked change nothing: an away notice for the player who is
  /// here, a return of a player never away, a sign-in mid-game, the refusal of a join or of a
  /// move never sent.
  @Test func answersToNothingAskedAreNotFollowed() async {
    let store = annPlayingX(ScriptedLink())
    for message in [
      ServerMessage.playerAway(code: code, mark: .x, seconds: 60),
      .playerBack(code: code, mark: .o),
      .signedIn(accountID: 1, userName: "mallory", token: "t2"),
      .refused(Refusal(.gameFull, request: ClientMessage.joinGame(code: code).type)),
      .refused(Refusal(.cellTaken, request: OnlineGame.moveRequest)),
    ] {
      await store.send(.link(.message(message)))
    }
    #expect(store.state.link == .live)
    await store.finish()
  }

  /// The first connection failing before any game is shown is said once, as it is tried again.
  @Test func retriesBeforeAnyGameAreSaid() async {
    let store = annCreating()
    await store.send(.link(.closed(reason: "closed by the peer", isPermanent: false))) {
      $0.link = .waiting(attempt: 2)
      $0.notices = [
        .retrying("The connection to the server at example.org:7457 ended (closed by the peer).")
      ]
    }
    #expect(
      store.state.lines(for: store.state.notices[0])
        == [
          .sentence(
            "The connection to the server at example.org:7457 ended (closed by the peer); "
              + "trying again…")
        ])
    await store.skipInFlightEffects()
    await store.finish()
  }
}
