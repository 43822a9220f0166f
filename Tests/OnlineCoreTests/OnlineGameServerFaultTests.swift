import ArchitectureTesting
import GameProtocol
import GameRules
import OnlineClient
import OnlineCore
import TestSupport
import Testing

/// A server that sends a game, a move or an ending that cannot be is not followed: the client
/// says what the server did wrong and stops, without reconnecting.
@MainActor
struct OnlineGameServerFaultTests {
  nonisolated private static let a1 = Cell(row: 0, column: 0)
  nonisolated private static let b1 = Cell(row: 0, column: 1)
  nonisolated private static let a2 = Cell(row: 1, column: 0)
  nonisolated private static let b2 = Cell(row: 1, column: 1)
  nonisolated private static let c1 = Cell(row: 0, column: 2)

  /// A store watching a live game with these moves.
  private func watchingStore(_ link: ScriptedLink, moves: [Cell]) -> TestStore<OnlineGame> {
    var state = OnlineGame.State(
      server: server, intent: .watch(code: code), userName: nil, token: nil)
    state.snapshot = snapshot(moves: moves, role: nil)
    state.link = .live
    state.hasBeenLive = true
    return TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
  }

  /// What the server sends after the game was shown with these moves, and what the client says.
  nonisolated static let faults: [(moves: [Cell], message: ServerMessage, sentence: String)] = [
    (
      [b2], .moved(code: code, ply: 1, cell: b2),
      "The server at example.org:7457 sent a move that cannot be played: b2 is taken."
    ),
    (
      [b2], .moved(code: code, ply: 1, cell: Cell(row: 9, column: 9)),
      "The server at example.org:7457 sent a move that cannot be played: j10 is not on the board."
    ),
    (
      [b2], .moved(code: code, ply: 7, cell: a1),
      "The server at example.org:7457 sent move 8 after 1 move; the moves between are missing."
    ),
    (
      [b2, a1], .moved(code: code, ply: 0, cell: a2),
      "The server at example.org:7457 sent move 1 as a2 after it was b2."
    ),
    (
      [a1, a2, b1, b2, c1], .moved(code: code, ply: 5, cell: Cell(row: 2, column: 2)),
      "The server at example.org:7457 sent a move that cannot be played: the game was already "
        + "over."
    ),
    (
      [b2], .ended(code: code, GameEnd(winner: .o, reason: .completed, xRating: 1, oRating: 2)),
      "The server at example.org:7457 ended the game with a result its moves do not give."
    ),
    (
      [a1, a2, b1, b2],
      .ended(code: code, GameEnd(winner: nil, reason: .resigned, xRating: 1, oRating: 2)),
      "The server at example.org:7457 ended the game with a result its moves do not give."
    ),
    (
      [], .game(snapshot(moves: [b2, b2], role: nil)),
      "The server at example.org:7457 sent a game whose moves cannot be played: b2 is taken."
    ),
    (
      [],
      .game(
        GameSnapshot(
          code: code, rows: 200, columns: 200, k: 0, firstMover: .x, x: ann, o: bob, moves: [],
          status: .playing, role: nil)),
      "The server at example.org:7457 sent a game on a board that cannot be (200×200, 0 in a row)."
    ),
    (
      [], .game(snapshot(moves: [a1, a2, b1, b2, c1], role: nil)),
      "The server at example.org:7457 sent a game that goes on after its end on the board."
    ),
  ]

  /// A game other than the one asked for is not shown; the code the server keeps may differ
  /// from the one typed in case, spaces and hyphens.
  @Test func aGameOtherThanTheOneAskedForStopsTheClient() async {
    let link = ScriptedLink()
    var state = OnlineGame.State(
      server: server, intent: .watch(code: "abc-234"), userName: nil, token: nil)
    state.link = .joining(attempt: 1)
    let store = TestStore(initialState: state) {
      OnlineGame(link: link.client, clock: TestClock().client)
    }
    let asked = snapshot(role: nil)
    await store.send(.link(.message(.game(asked)))) {
      $0.snapshot = asked
      $0.link = .live
      $0.hasBeenLive = true
      $0.notices = [.shown]
    }
    var other = snapshot(role: nil)
    other.code = "ZZZ\u{1B}ZZ"
    await store.send(.link(.message(.game(other)))) {
      $0.link = .closed
      $0.notices.append(
        .stopped(
          "The server at example.org:7457 sent game ZZZ\\u{1B}ZZ when game ABC234 was asked for."))
    }
    await store.finish()
  }

  @Test(arguments: faults.indices)
  func somethingThatCannotBeStopsTheClientWithTheServersFault(index: Int) async {
    let fault = Self.faults[index]
    let link = ScriptedLink()
    let store = watchingStore(link, moves: fault.moves)
    await store.send(.link(.message(fault.message))) {
      $0.link = .closed
      $0.notices = [.stopped(fault.sentence)]
    }
    #expect(store.state.moves == fault.moves)
    #expect(link.openCount == 0)
    await store.finish()
  }

  /// A move and an end that follow from the game are shown as before.
  @Test func aWinningMoveAndItsEndAreShown() async {
    let link = ScriptedLink()
    let store = watchingStore(link, moves: [Self.a1, Self.a2, Self.b1, Self.b2])
    await store.send(.link(.message(.moved(code: code, ply: 4, cell: Self.c1)))) {
      $0.snapshot?.moves.append(Self.c1)
      $0.notices = [.moved(ply: 4)]
    }
    let end = GameEnd(winner: .x, reason: .completed, xRating: 1_216, oRating: 1_184)
    await store.send(.link(.message(.ended(code: code, end)))) {
      $0.snapshot?.status = .finished(end)
      $0.sawTheEnd = true
      $0.notices.append(.ended(end))
      $0.link = .closed
    }
    // The game over, what is typed is still answered (full screen stays on the board).
    await store.send(.view(.lineTyped("undo"))) {
      $0.notices.append(.refused(Refusal(.notAPlayer, request: OnlineGame.moveRequest), cell: nil))
    }
    await store.finish()
  }

  /// A move told again, as it was, changes nothing: the client neither stops nor says it twice.
  @Test func aMoveToldTwiceIsTakenOnce() async {
    let link = ScriptedLink()
    let store = watchingStore(link, moves: [Self.b2, Self.a1])
    await store.send(.link(.message(.moved(code: code, ply: 0, cell: Self.b2))))
    await store.send(.link(.message(.moved(code: code, ply: 1, cell: Self.a1))))
    await store.send(.link(.message(.moved(code: code, ply: 2, cell: Self.c1)))) {
      $0.snapshot?.moves.append(Self.c1)
      $0.notices = [.moved(ply: 2)]
    }
    #expect(store.state.link == .live)
    await store.finish()
  }

  /// A connection the server broke by sending something that is not a message is not a drop:
  /// the link reports it as permanent, and the client stops with its sentence.
  @Test func aBrokenProtocolIsNotReconnected() async {
    let link = ScriptedLink()
    let store = watchingStore(link, moves: [Self.b2])
    let sentence =
      "The server at example.org:7457 sent something that is not a message (Message type 127 "
      + "is not part of the protocol.)."
    await store.send(.link(.closed(reason: sentence, isPermanent: true))) {
      $0.link = .closed
      $0.notices = [.stopped(sentence)]
    }
    #expect(link.openCount == 0)
    await store.finish()
  }
}

/// A server's list of games is checked before it is shown.
struct GameListingFaultTests {
  private func listing(
    _ code: String = "ABC234", isOpen: Bool = false, o: String? = "bob", rows: Int = 3,
    k: Int = 3, moves: Int = 2
  ) -> GameListing {
    GameListing(
      code: code, isOpen: isOpen, xName: "ann", oName: o, rows: rows, columns: rows, k: k,
      moveCount: moves)
  }

  @Test func aListThatCannotBeIsTheServersFault() {
    let said = "The server at example.org:7457 "
    let faults: [([GameListing], String)] = [
      ([listing("k7m2q0")], "listed a game whose code k7m2q0 is not an invite code."),
      ([listing(), listing()], "listed game ABC234 twice."),
      ([listing(k: 9)], "listed game ABC234 on a board that cannot be (3×3, 9 in a row)."),
      (
        [listing(moves: 65_535)],
        "listed game ABC234 with more moves than a game under way can have."
      ),
      ([listing(moves: 9)], "listed game ABC234 with more moves than a game under way can have."),
      (
        [listing(isOpen: true)],
        "listed game ABC234 as open, with its seats or moves saying otherwise."
      ),
      (
        [listing(isOpen: true, o: nil, moves: 4)],
        "listed game ABC234 as open, with its seats or moves saying otherwise."
      ),
      (
        [listing(o: nil)],
        "listed game ABC234 as being played, with its seats or moves saying otherwise."
      ),
      (
        [listing(o: "ANN")],
        "listed game ABC234 as being played, with its seats or moves saying otherwise."
      ),
    ]
    for (listings, sentence) in faults {
      #expect(listings.violation(server: server) == said + sentence)
    }
    let tooMany = Array(repeating: listing(), count: 101)
    #expect(
      tooMany.violation(server: server) == said
        + "listed 101 games, more than the 100 a list holds.")
    #expect(
      [
        listing(isOpen: true, o: nil, moves: 0), listing("XYZ789"),
        listing("K7M2QX", rows: 15, k: 5),
      ]
      .violation(server: server) == nil)
  }
}

/// An account's records from a server are checked before they are shown.
struct OnlineRecordsFaultTests {
  private func stats(_ name: String = "ann", wins: Int = 3, current: Int = 1, best: Int = 2)
    -> PlayerStats
  {
    PlayerStats(
      userName: name, rating: 1_216, wins: wins, losses: 1, draws: 0, currentStreak: current,
      bestStreak: best)
  }

  private func game(_ id: Int64, x: String = "ann", o: String = "bob", winner: Mark? = .x)
    -> FinishedGame
  {
    let top = [
      Cell(row: 0, column: 0), Cell(row: 1, column: 0), Cell(row: 0, column: 1),
      Cell(row: 1, column: 1), Cell(row: 0, column: 2),
    ]
    return FinishedGame(
      id: id, xName: x, oName: o, rows: 3, columns: 3, k: 3, firstMover: .x, moves: top,
      winner: winner, startedAt: 1, endedAt: 2)
  }

  @Test func statsOfAnotherOrThatCannotBeAreTheServersFault() {
    let said = "The server at example.org:7457 "
    #expect(OnlineRecords.violation(stats(), of: " ANN ", server: server) == nil)
    #expect(
      OnlineRecords.violation(stats("mallory"), of: "ann", server: server)
        == said + "answered with the stats of mallory for those of ann.")
    for wrong in [stats(current: 4, best: 2), stats(wins: 1, current: 1, best: 9)] {
      #expect(
        OnlineRecords.violation(wrong, of: "ann", server: server)
          == said + "sent stats of ann whose winning streaks do not fit their wins.")
    }
  }

  /// A refusal of a read is believed only with a reason the protocol's table gives for it, and
  /// only for the request it names.
  @Test func aRefusalOfAReadWithAReasonThatCannotApplyIsTheServersFault() {
    let said = "The server at example.org:7457 refused the request with a reason that does not "
    for request in [
      ClientMessage.requestStats(userName: "ann"), .requestHistory(userName: "ann"),
    ] {
      for code in [ErrorCode.busy, .noSuchUser] {
        #expect(
          OnlineRecords.violation(Refusal(code, request: request.type), to: request, server: server)
            == nil, "\(code)")
      }
      for code in [ErrorCode.rateLimited, .notYourTurn, .cellTaken, .frameTooLarge] {
        #expect(
          OnlineRecords.violation(Refusal(code, request: request.type), to: request, server: server)
            == said + "apply to it (\(code)).", "\(code)")
      }
      // The right reason, for another request.
      #expect(
        OnlineRecords.violation(Refusal(.noSuchUser, request: 0x1A), to: request, server: server)
          == said + "apply to it (noSuchUser).")
    }
  }

  @Test func gamesOfAnotherOrWithAWrongResultAreTheServersFault() {
    let said = "The server at example.org:7457 "
    #expect(
      OnlineRecords.violation([game(1), game(2, x: "bob", o: "Ann")], of: "ann", server: server)
        == nil)
    #expect(
      OnlineRecords.violation([game(1), game(5, x: "eve")], of: "ann", server: server)
        == said + "sent game 5, which ann did not play, as one of theirs.")
    #expect(
      OnlineRecords.violation([game(6, winner: nil)], of: "ann", server: server)
        == said + "sent game 6 with a result its moves do not give.")
    #expect(
      OnlineRecords.violation([game(7), game(8), game(7)], of: "ann", server: server)
        == said + "sent game 7 twice.")
    #expect(
      OnlineRecords.violation([game(9, o: "ANN")], of: "ann", server: server)
        == said + "sent game 9 as played by ann against themselves.")
    var backwards = game(10)
    (backwards.startedAt, backwards.endedAt) = (5, 4)
    #expect(
      OnlineRecords.violation([backwards], of: "ann", server: server)
        == said + "sent game 10 as ending before it began.")
  }
}
