import ArchitectureTesting
import GameProtocol
import GameRules
import ServerCore
import Synchronization
import TestSupport
import Testing

/// The open games a test's database holds, as a restarted server would read them back; its
/// cancellation fails when told to.
private final class OpenGameRecords: Sendable {
  private let records = Mutex<[String: OnlineGameRecord]>([:])
  private let cancellationFails = Mutex(false)

  init(_ records: [OnlineGameRecord] = []) {
    self.records.withLock { stored in
      for record in records { stored[record.code] = record }
    }
  }

  var all: [OnlineGameRecord] { records.withLock { $0.values.sorted { $0.code < $1.code } } }

  func failCancellations() { cancellationFails.withLock { $0 = true } }

  /// The database: it stores new games and forgets cancelled ones; nothing else is reached.
  var storage: ServerStorageClient {
    var storage = ServerStorageClient.unimplemented
    storage.createGame = { [self] record in store(record) }
    storage.cancelGame = { [self] code in try forget(code) }
    return storage
  }

  private func store(_ record: OnlineGameRecord) {
    records.withLock { $0[record.code] = record }
  }

  private func forget(_ code: String) throws {
    guard !cancellationFails.withLock({ $0 }) else { throw StorageFailure() }
    guard records.withLock({ $0.removeValue(forKey: code) }) != nil else {
      throw StorageFailure()
    }
  }
}

/// Ann's game that nobody joined, with the guest watching it.
private func waitingMatch() throws -> Match {
  var match = Match(
    code: code, start: try Board(rows: 3, columns: 3, k: 3, firstMover: .x),
    creator: Match.Seat(accountID: 1, name: "ann", rating: 1_200, client: annClient),
    createdAt: epoch)
  match.phase = .waiting
  match.spectators = [guestClient]
  return match
}

/// How the database holds Ann's game that nobody joined.
private let waitingRecord = OnlineGameRecord(
  code: code, rows: 3, columns: 3, k: 3, firstMover: .x,
  x: SeatRecord(accountID: 1, name: "ann", rating: 1_200), createdAt: epoch)

/// The creator cancels a game nobody joined: it is gone at once, from the listing, the limit,
/// the database and for a join or watch by its code; every other request is refused.
@MainActor
struct CancelGameTests {
  private let cancelRequest: UInt8 = 0x1A

  private func makeStore(_ state: GameServer.State, database: OpenGameRecords)
    -> TestStore<GameServer>
  {
    TestStore(initialState: state) { GameServer.pure(storage: database.storage) }
  }

  @Test func theCreatorCancelsAndTheGameIsGoneForEveryone() async throws {
    let database = OpenGameRecords([waitingRecord])
    let store = makeStore(serverState(try waitingMatch()), database: database)
    // The code as a player may type it.
    await store.send(.received(annClient, .cancelGame(code: "abc-234"))) {
      $0.matches[code]?.phase = .cancelling
    }
    await store.receive(.cancellationStored(code: code, by: annClient, succeeded: true)) {
      $0.matches[code] = nil
      $0.clients[annClient]?.games = []
      $0.clients[guestClient]?.games = []
      // The creator and the spectator are told, once each.
      $0.outbox = [
        .init(annClient, .message(.cancelled(code: code))),
        .init(guestClient, .message(.cancelled(code: code))),
      ]
    }
    #expect(database.all.isEmpty, "the database still holds the cancelled game")
    await store.send(.received(catClient, .listGames)) {
      $0.outbox.append(.init(catClient, .message(.games([]))))
    }
    for (client, message) in [
      (bobClient, ClientMessage.joinGame(code: code)), (guestClient, .watchGame(code: code)),
      (annClient, .joinGame(code: code)), (annClient, .cancelGame(code: code)),
      (annClient, .resign(code: code)),
    ] {
      await store.send(.received(client, message)) {
        $0.outbox.append(
          .init(client, .message(.refused(Refusal(.noSuchGame, request: message.type)))))
      }
    }
    // A restarted server reads back nothing of it.
    let restarted = TestStore(initialState: GameServer.State(now: epoch)) { GameServer.pure() }
    await restarted.send(.restored(database.all))
    #expect(restarted.state.matches.isEmpty)
    await store.finish()
    await restarted.finish()
  }

  @Test func anotherConnectionOfTheCreatorMayCancelAndBothAreTold() async throws {
    let annAgain = ClientID(5)
    var state = serverState(try waitingMatch())
    state.clients[annAgain] = .ready(ann, address: "10.0.0.5")
    let database = OpenGameRecords([waitingRecord])
    let store = makeStore(state, database: database)
    await store.send(.received(annAgain, .cancelGame(code: code))) {
      $0.matches[code]?.phase = .cancelling
    }
    await store.receive(.cancellationStored(code: code, by: annAgain, succeeded: true)) {
      $0.matches[code] = nil
      $0.clients[annClient]?.games = []
      $0.clients[guestClient]?.games = []
      $0.outbox = [
        .init(annClient, .message(.cancelled(code: code))),
        .init(guestClient, .message(.cancelled(code: code))),
        .init(annAgain, .message(.cancelled(code: code))),
      ]
    }
    await store.finish()
  }

  @Test func aCancellationTheDatabaseDidNotStoreIsNotReported() async throws {
    let database = OpenGameRecords([waitingRecord])
    database.failCancellations()
    let match = try waitingMatch()
    let store = makeStore(serverState(match), database: database)
    await store.send(.received(annClient, .cancelGame(code: code))) {
      $0.matches[code]?.phase = .cancelling
    }
    await store.receive(.cancellationStored(code: code, by: annClient, succeeded: false)) {
      // Nobody hears of a cancellation; the game waits on as it was.
      $0.matches[code]?.phase = .waiting
      $0.outbox = [
        .init(annClient, .message(.refused(Refusal(.serverError, request: 0x1A))))
      ]
    }
    #expect(database.all == [waitingRecord])
    #expect(store.state.matches[code] == match)
    await store.send(.received(catClient, .listGames)) {
      $0.outbox.append(.init(catClient, .message(.games([match.listing]))))
    }
    // It still counts towards Ann's limit, and a restarted server still has it.
    #expect(store.state.unfinishedGames(ofAccount: ann.accountID) == 1)
    let restarted = TestStore(initialState: GameServer.State(now: epoch)) { GameServer.pure() }
    await restarted.send(.restored(database.all)) {
      $0.matches[code] = try? Match(restoring: waitingRecord, awayUntil: epoch + 60_000)
    }
    await store.finish()
    await restarted.finish()
  }

  @Test func anOpenGameWhoseCreatorStaysAwayIsDroppedThenItsSpectatorsAreTold() async throws {
    let database = OpenGameRecords([waitingRecord])
    let store = makeStore(serverState(try waitingMatch()), database: database)
    await store.send(.disconnected(annClient)) {
      $0.clients[annClient] = nil
      $0.matches[code]?.x.client = nil
      $0.matches[code]?.x.awayUntil = epoch + 60_000
    }
    await store.send(.tick(now: epoch + 59_999)) { $0.now = epoch + 59_999 }
    // The grace is over: the game is being forgotten, and nobody is told yet.
    await store.send(.tick(now: epoch + 60_000)) {
      $0.now = epoch + 60_000
      $0.matches[code]?.phase = .cancelling
    }
    await store.receive(.cancellationStored(code: code, by: nil, succeeded: true)) {
      $0.matches[code] = nil
      $0.clients[guestClient]?.games = []
      $0.outbox = [.init(guestClient, .message(.cancelled(code: code)))]
    }
    #expect(database.all.isEmpty, "the database still holds the dropped game")
    await store.finish()
  }

  @Test func anOpenGameTheDatabaseCouldNotDropWaitsOnAndIsDroppedAtTheNextTick() async throws {
    let database = OpenGameRecords([waitingRecord])
    database.failCancellations()
    var match = try waitingMatch()
    match.x.client = nil
    match.x.awayUntil = epoch
    var state = serverState(match)
    state.clients[annClient] = nil
    let store = makeStore(state, database: database)
    await store.send(.tick(now: epoch)) { $0.matches[code]?.phase = .cancelling }
    await store.receive(.cancellationStored(code: code, by: nil, succeeded: false)) {
      // Nobody hears of it: the game waits on as it was.
      $0.matches[code]?.phase = .waiting
    }
    #expect(database.all == [waitingRecord])
    await store.send(.tick(now: epoch + 1_000)) {
      $0.now = epoch + 1_000
      $0.matches[code]?.phase = .cancelling
    }
    await store.receive(.cancellationStored(code: code, by: nil, succeeded: false)) {
      $0.matches[code]?.phase = .waiting
    }
    await store.finish()
  }

  @Test func whileTheCancellationIsStoredNobodyJoinsWatchesOrPlays() throws {
    var match = try waitingMatch()
    match.phase = .cancelling
    let state = serverState(match)
    let refusals: [(ClientID, ClientMessage, ErrorCode)] = [
      (bobClient, .joinGame(code: code), .noSuchGame),
      (catClient, .watchGame(code: code), .noSuchGame),
      (annClient, .joinGame(code: code), .noSuchGame),
      (annClient, .cancelGame(code: code), .busy),
      (bobClient, .cancelGame(code: code), .notAPlayer),
      (annClient, .resign(code: code), .gameNotStarted),
      (annClient, .move(code: code, ply: 0, cell: Cell(row: 0, column: 0)), .gameNotStarted),
    ]
    for (client, message, refusal) in refusals {
      let (after, hasEffect) = reduced(state, .received(client, message))
      var expected = state
      expected.outbox = [
        .init(client, .message(.refused(Refusal(refusal, request: message.type))))
      ]
      #expect(after == expected, "\(message) from \(client)")
      #expect(!hasEffect)
    }
    #expect(
      reduced(state, .received(catClient, .listGames)).state.outbox == [
        .init(catClient, .message(.games([])))
      ])
    // It still counts until the database has forgotten it.
    #expect(state.unfinishedGames(ofAccount: ann.accountID) == 1)
    // A tick leaves it alone, even with its creator gone past the grace.
    var away = state
    away.matches[code]?.x.client = nil
    away.matches[code]?.x.awayUntil = epoch
    let (ticked, tickEffect) = reduced(away, .tick(now: epoch + 1_000))
    #expect(ticked.matches[code] == away.matches[code])
    #expect(!tickEffect)
  }

  /// Every request to cancel that must be refused, with its code; nothing changes.
  @Test func everyRefusalHasItsCode() throws {
    let seating = Match.Seat(accountID: 2, name: "bob", rating: 1_200, client: bobClient)
    func match(_ phase: Match.Phase, withBob: Bool = false) throws -> Match {
      var match = withBob ? try playingMatch() : try waitingMatch()
      match.phase = phase
      return match
    }
    let end = GameEnd(winner: .x, reason: .resigned, xRating: 1_216, oRating: 1_184)
    let cases: [(Match?, ClientID, String, ErrorCode)] = [
      (try waitingMatch(), guestClient, code, .notSignedIn),
      (try waitingMatch(), annClient, "ZZZ234", .noSuchGame),
      (try waitingMatch(), annClient, "not a code", .noSuchGame),
      (nil, annClient, code, .noSuchGame),
      (try match(.creating), annClient, code, .noSuchGame),
      (try waitingMatch(), catClient, code, .notAPlayer),
      (try waitingMatch(), bobClient, code, .notAPlayer),
      (try match(.seating(seating)), bobClient, code, .notAPlayer),
      (try match(.seating(seating)), annClient, code, .gameFull),
      (try match(.playing, withBob: true), annClient, code, .gameFull),
      (try match(.playing, withBob: true), bobClient, code, .gameFull),
      (try match(.playing, withBob: true), catClient, code, .notAPlayer),
      (
        try match(.committing(ply: 0, cell: Cell(row: 0, column: 0)), withBob: true), annClient,
        code, .gameFull
      ),
      (
        try match(.finishing(Ending(winner: .x, reason: .resigned)), withBob: true), annClient,
        code, .gameOver
      ),
      (try match(.finished(end), withBob: true), annClient, code, .gameOver),
      (try match(.finished(end), withBob: true), bobClient, code, .gameOver),
    ]
    for (match, client, text, refusal) in cases {
      let state = serverState(match)
      let (after, hasEffect) = reduced(state, .received(client, .cancelGame(code: text)))
      var expected = state
      expected.outbox = [
        .init(client, .message(.refused(Refusal(refusal, request: cancelRequest))))
      ]
      #expect(after == expected, "\(String(describing: match?.phase)) from \(client)")
      #expect(!hasEffect)
    }
  }

  @Test func aCancelledGameFreesItsPlaceAtTheLimitAtOnce() throws {
    let draws = Mutex(0)
    let server = GameServer(
      authentication: .unimplemented, storage: .unimplemented,
      random: { bound in
        draws.withLock {
          $0 += 1
          return $0 % bound
        }
      }, log: { _ in })
    var state = serverState(try waitingMatch())
    for _ in 1..<ProtocolLimits.maximumUnfinishedGames {
      _ = server.reduce(into: &state, action: .received(annClient, .createGame(GameOptions())))
      let fresh = try #require(state.matches.first { $0.value.phase == .creating }?.key)
      _ = server.reduce(into: &state, action: .gameStored(code: fresh, succeeded: true))
    }
    let tooMany = Refusal(
      .tooManyGames, request: 0x10, detail: UInt32(ProtocolLimits.maximumUnfinishedGames))
    state.outbox = []
    _ = server.reduce(into: &state, action: .received(annClient, .createGame(GameOptions())))
    #expect(state.outbox == [.init(annClient, .message(.refused(tooMany)))])
    // Asked, not yet stored: the place is still taken.
    _ = server.reduce(into: &state, action: .received(annClient, .cancelGame(code: code)))
    state.outbox = []
    _ = server.reduce(into: &state, action: .received(annClient, .createGame(GameOptions())))
    #expect(state.outbox == [.init(annClient, .message(.refused(tooMany)))])
    _ = server.reduce(
      into: &state, action: .cancellationStored(code: code, by: annClient, succeeded: true))
    #expect(
      state.unfinishedGames(ofAccount: ann.accountID)
        == ProtocolLimits.maximumUnfinishedGames - 1)
    state.outbox = []
    let effect = server.reduce(
      into: &state, action: .received(annClient, .createGame(GameOptions())))
    #expect(state.outbox.isEmpty, "the game after a cancelled one was refused")
    #expect(!effect.isNone)
    #expect(
      state.unfinishedGames(ofAccount: ann.accountID) == ProtocolLimits.maximumUnfinishedGames)
  }

  @Test func aLateAnswerAboutAGameNoLongerCancellingChangesNothing() throws {
    let state = serverState(try waitingMatch())
    for succeeded in [true, false] {
      let (after, hasEffect) = reduced(
        state, .cancellationStored(code: code, by: annClient, succeeded: succeeded))
      #expect(after == state)
      #expect(!hasEffect)
    }
  }
}
