import GameProtocol
import GameRules
import ServerCore
import Synchronization
import TestSupport
import Testing

/// The limit of unfinished games per account: who counts, when a place is freed, and that no
/// order of requests, connections or restarts gets past it.
struct GameLimitTests {
  private let limit = ProtocolLimits.maximumUnfinishedGames
  private let tooMany = Refusal(
    .tooManyGames, request: 0x10, detail: UInt32(ProtocolLimits.maximumUnfinishedGames))
  private let tooManyToJoin = Refusal(
    .tooManyGames, request: 0x11, detail: UInt32(ProtocolLimits.maximumUnfinishedGames))

  /// A second connection of Ann's.
  private let annAgain = ClientID(5)

  /// The server's logic with an invite code of its own for every game; storage is never reached
  /// because the tests answer for it.
  private let server: GameServer = {
    let draws = Mutex(0)
    return GameServer(
      authentication: .unimplemented, storage: .unimplemented,
      random: { bound in
        draws.withLock { count in
          count += 1
          return count % bound
        }
      }, log: { _ in })
  }()

  /// Sends `message` from `client` and returns what the server sent back.
  @discardableResult
  private func send(
    _ message: ClientMessage, from client: ClientID, _ state: inout GameServer.State
  ) -> [GameServer.Outgoing] {
    state.outbox = []
    _ = server.reduce(into: &state, action: .received(client, message))
    return state.outbox
  }

  /// Has `client` create a game, and the database store it when `stored`; returns its code.
  @discardableResult
  private func create(
    from client: ClientID, _ state: inout GameServer.State, stored: Bool = true
  ) throws -> String {
    let before = Set(state.matches.keys)
    send(.createGame(GameOptions()), from: client, &state)
    let code = try #require(Set(state.matches.keys).subtracting(before).first)
    if stored { _ = server.reduce(into: &state, action: .gameStored(code: code, succeeded: true)) }
    return code
  }

  @Test func theLimitIsTenGames() {
    // docs/protocol.md, the README and `serve --help` say ten.
    #expect(limit == 10)
  }

  @Test func theGameAfterTheLimitIsRefused() throws {
    var state = serverState()
    for _ in 0..<limit { try create(from: annClient, &state) }
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == limit)
    let atLimit = state
    #expect(
      send(.createGame(GameOptions()), from: annClient, &state) == [
        .init(annClient, .message(.refused(tooMany)))
      ])
    state.outbox = atLimit.outbox
    #expect(state == atLimit, "a refused request changed the server")
    // Settings outside the rules are not looked at: the limit comes first.
    #expect(
      send(.createGame(GameOptions(rows: 2, columns: 2, k: 3)), from: annClient, &state) == [
        .init(annClient, .message(.refused(tooMany)))
      ])
    // The limit is the account's: Bob still creates.
    try create(from: bobClient, &state)
    #expect(state.unfinishedGames(ofAccount: bob.accountID) == 1)
  }

  @Test func twoConnectionsOfOneAccountCannotPassTheLimitTogether() throws {
    var state = serverState()
    state.clients[annAgain] = .ready(ann, address: "10.0.0.5")
    // Every request is still being stored when the next one comes.
    var codes: [String] = []
    for index in 0..<limit {
      let client = index.isMultiple(of: 2) ? annClient : annAgain
      codes.append(try create(from: client, &state, stored: false))
    }
    for client in [annClient, annAgain] {
      #expect(
        send(.createGame(GameOptions()), from: client, &state) == [
          .init(client, .message(.refused(tooMany)))
        ])
    }
    // A game the database could not store takes no place.
    _ = server.reduce(into: &state, action: .gameStored(code: codes[0], succeeded: false))
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == limit - 1)
    try create(from: annAgain, &state)
    #expect(
      send(.createGame(GameOptions()), from: annClient, &state) == [
        .init(annClient, .message(.refused(tooMany)))
      ])
  }

  @Test func aGameThatEndsMakesRoomAgain() throws {
    var state = serverState(try playingMatch())
    for _ in 1..<limit { try create(from: annClient, &state) }
    #expect(
      send(.createGame(GameOptions()), from: annClient, &state) == [
        .init(annClient, .message(.refused(tooMany)))
      ])
    // Ann resigns the game against Bob: it counts until its end is stored.
    send(.resign(code: code), from: annClient, &state)
    #expect(state.matches[code]?.phase == .finishing(Ending(winner: .o, reason: .resigned)))
    #expect(
      send(.createGame(GameOptions()), from: annClient, &state) == [
        .init(annClient, .message(.refused(tooMany)))
      ])
    _ = server.reduce(
      into: &state, action: .endStored(code: code, by: nil, .success(Ratings(x: 1_184, o: 1_216))))
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == limit - 1)
    #expect(state.unfinishedGames(ofAccount: bob.accountID) == 0)
    try create(from: annClient, &state)
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == limit)
  }

  @Test func openGamesLeftByTheirCreatorMakeRoomOnceDropped() throws {
    var state = serverState()
    var codes: [String] = []
    for _ in 0..<limit { codes.append(try create(from: annClient, &state)) }
    _ = server.reduce(into: &state, action: .disconnected(annClient))
    // Within the grace the games are still Ann's: a new connection is refused a new one, and
    // comes back to an old one.
    state.clients[annAgain] = .ready(ann, address: "10.0.0.5")
    #expect(
      send(.createGame(GameOptions()), from: annAgain, &state) == [
        .init(annAgain, .message(.refused(tooMany)))
      ])
    let kept = codes[3]
    let answer = send(.joinGame(code: kept), from: annAgain, &state)
    #expect(answer.count == 1)
    #expect(state.matches[kept]?.x.client == annAgain)
    // The grace runs out: the games Ann left are dropped, and their places are free.
    let graceEnd = epoch + Int64(state.reconnectGraceSeconds) * 1_000
    _ = server.reduce(into: &state, action: .tick(now: graceEnd))
    // They count until the database has forgotten them.
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == limit)
    for dropped in codes where dropped != kept {
      _ = server.reduce(
        into: &state, action: .cancellationStored(code: dropped, by: nil, succeeded: true))
    }
    #expect(Set(state.matches.keys) == [kept])
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == 1)
    for _ in 1..<limit { try create(from: annAgain, &state) }
    #expect(
      send(.createGame(GameOptions()), from: annAgain, &state) == [
        .init(annAgain, .message(.refused(tooMany)))
      ])
  }

  @Test func joiningCountsAndComingBackToOnesOwnSeatDoesNot() throws {
    var state = serverState(try playingMatch())
    for _ in 1..<limit { try create(from: bobClient, &state) }
    let open = try create(from: annClient, &state)
    // Bob sits in ten games: Ann's open game is refused to him, and stays open.
    let before = state.matches[open]
    #expect(
      send(.joinGame(code: open), from: bobClient, &state) == [
        .init(bobClient, .message(.refused(tooManyToJoin)))
      ])
    #expect(state.matches[open] == before)
    // Coming back to his own seat is never refused.
    _ = server.reduce(into: &state, action: .disconnected(bobClient))
    let back = ClientID(6)
    state.clients[back] = .ready(bob, address: "10.0.0.6")
    let answer = send(.joinGame(code: code), from: back, &state)
    let game = try #require(state.matches[code])
    #expect(answer.last == .init(back, .message(.game(game.snapshot(for: .o, now: epoch)))))
    #expect(game.o?.client == back)
    // A game that cannot be joined anyway says why, not the limit.
    for _ in 0..<limit { try create(from: catClient, &state) }
    #expect(
      send(.joinGame(code: code), from: catClient, &state) == [
        .init(catClient, .message(.refused(Refusal(.gameFull, request: 0x11))))
      ])
  }

  @Test func aSeatBeingStoredCountsForTheJoiner() throws {
    var state = serverState()
    let open = try create(from: annClient, &state)
    for _ in 1..<limit { try create(from: catClient, &state) }
    send(.joinGame(code: open), from: catClient, &state)
    #expect(state.unfinishedGames(ofAccount: cat.accountID) == limit)
    #expect(
      send(.createGame(GameOptions()), from: catClient, &state) == [
        .init(catClient, .message(.refused(tooMany)))
      ])
    // The database could not store the seat: the game is open again, and Cat's place is free.
    _ = server.reduce(into: &state, action: .opponentStored(code: open, succeeded: false))
    #expect(state.unfinishedGames(ofAccount: cat.accountID) == limit - 1)
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == 1)
    try create(from: catClient, &state)
  }

  @Test func aRestartedServerCountsTheStoredGames() throws {
    let x = SeatRecord(accountID: ann.accountID, name: "ann", rating: 1_200)
    let o = SeatRecord(accountID: bob.accountID, name: "bob", rating: 1_200)
    let codes = (0..<limit).map { index in InviteCode.make { _ in index } }
    let records = codes.enumerated().map { index, code in
      OnlineGameRecord(
        code: code, rows: 3, columns: 3, k: 3, firstMover: .x, x: x,
        o: index < 4 ? o : nil, moves: index < 4 ? [Cell(row: 1, column: 1)] : [],
        createdAt: epoch - 1_000)
    }
    var state = GameServer.State(now: epoch)
    _ = server.reduce(into: &state, action: .restored(records))
    state.clients = [annClient: .ready(ann), bobClient: .ready(bob)]
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == limit)
    #expect(
      send(.createGame(GameOptions()), from: annClient, &state) == [
        .init(annClient, .message(.refused(tooMany)))
      ])
    // Bob sits in four of them.
    #expect(state.unfinishedGames(ofAccount: bob.accountID) == 4)
    try create(from: bobClient, &state)
    // Ann comes back to her games as before.
    #expect(send(.joinGame(code: codes[9]), from: annClient, &state).count == 1)
  }

  @Test func everyPhaseButFinishedCounts() throws {
    let joiner = Match.Seat(accountID: cat.accountID, name: "cat", rating: 1_250, client: catClient)
    let end = GameEnd(winner: nil, reason: .completed, xRating: 1_200, oRating: 1_200)
    let phases: [(Match.Phase, counts: Bool)] = [
      (.creating, true), (.waiting, true), (.seating(joiner), true), (.playing, true),
      (.committing(ply: 0, cell: Cell(row: 0, column: 0)), true),
      (.finishing(Ending(winner: .x, reason: .resigned)), true), (.finished(end), false),
    ]
    for (phase, counts) in phases {
      var match = try playingMatch()
      match.phase = phase
      if case .seating = phase { match.o = nil }
      #expect(match.holdsUnfinishedSeat(ofAccount: ann.accountID) == counts, "\(phase)")
      #expect(!match.holdsUnfinishedSeat(ofAccount: 99), "\(phase)")
      let catCounts: Bool
      if case .seating = phase { catCounts = true } else { catCounts = false }
      #expect(match.holdsUnfinishedSeat(ofAccount: cat.accountID) == catCounts, "\(phase)")
    }
  }
}
