import ArchitectureTesting
import AuthenticationClient
import GameProtocol
import GameRules
import ServerCore
import Synchronization
import TestSupport
import Testing

/// The test accounts' ids, by name.
let accountIDs: [String: Int64] = ["ann": 1, "bob": 2, "cat": 3, "dee": 4]

/// Storage that succeeds and records what it was asked.
func recordingStorage(_ log: StorageLog, ratings: Ratings = Ratings(x: 1_216, o: 1_184))
  -> ServerStorageClient
{
  ServerStorageClient(
    openSession: { session in
      log.record("openSession \(session.userName)")
      return SignedInAccount(
        accountID: session.accountID, userName: session.userName, rating: 1_200,
        token: "token-\(session.userName)")
    },
    resumeSession: { token in
      log.record("resumeSession \(token)")
      return token == "token-ann" ? ann : nil
    },
    endSessions: { userName in
      log.record("endSessions \(userName)")
      return accountIDs[userName]
    },
    accountID: { userName in
      log.record("accountID \(userName)")
      return accountIDs[userName]
    },
    createGame: { game in log.record("createGame \(game.code) \(game.x.name)") },
    seatOpponent: { code, seat in log.record("seatOpponent \(code) \(seat.name)") },
    commitMove: { code, ply, cell, ending in
      log.record("commitMove \(code) \(ply) \(cell.name)\(ending.map { " \($0)" } ?? "")")
      return ending == nil ? nil : ratings
    },
    finishGame: { code, ending in
      log.record("finishGame \(code) \(ending)")
      return ratings
    },
    cancelGame: { code in log.record("cancelGame \(code)") },
    stats: { userName in
      log.record("stats \(userName)")
      return userName == "ann"
        ? PlayerStats(
          userName: "ann", rating: 1_216, wins: 1, losses: 0, draws: 0, currentStreak: 1,
          bestStreak: 1)
        : nil
    },
    history: { userName, before, limit in
      log.record(
        "history \(userName) \(before.map { "before \($0.endedAt)/\($0.id) " } ?? "")\(limit)")
      return userName == "ann" ? [finishedGame] : nil
    },
    finishedGame: { id in
      log.record("finishedGame \(id)")
      return id == finishedGame.id ? finishedGame : nil
    }
  )
}

/// The one finished game the recording storage keeps.
let finishedGame = FinishedGame(
  id: 5, xName: "ann", oName: "bob", rows: 3, columns: 3, k: 3, firstMover: .x,
  moves: [Cell(row: 1, column: 1), Cell(row: 0, column: 0)], winner: .x, startedAt: 1,
  endedAt: 2)

/// Accounts: `ann`, `bob` and `cat` with the password `password`; `dee` has two-factor (code
/// `123456`).
///
/// Deleting `bob` is refused, as the live accounts refuse an account with a game waiting or
/// under way.
let testAccounts: AuthenticationClient = {
  var client = AuthenticationClient.unimplemented
  let ids: [String: Int64] = ["ann": 1, "bob": 2, "cat": 3, "dee": 4]
  client.login = { userName, password in
    guard let id = ids[userName], password == "password" else {
      throw AuthenticationError.invalidCredentials
    }
    if userName == "dee" {
      return .twoFactorRequired(TwoFactorChallenge(userName: "dee", token: "challenge"))
    }
    return .signedIn(Session(accountID: id, userName: userName))
  }
  client.verifyTwoFactor = { challenge, code in
    guard code == "123456" else { throw AuthenticationError.invalidCode }
    return Session(accountID: 4, userName: challenge.userName)
  }
  client.createAccount = { userName, password in
    guard ids[userName] == nil else { throw AuthenticationError.userNameTaken }
    guard password.count >= 8 else { throw AuthenticationError.passwordTooShort }
    return Session(accountID: 9, userName: userName)
  }
  client.changePassword = { credentials, _ in
    guard ids[credentials.userName] != nil, credentials.password == "password" else {
      throw AuthenticationError.invalidCredentials
    }
  }
  client.confirmTwoFactor = { userName, code in
    guard ids[userName] != nil, code == "123456" else { throw AuthenticationError.invalidCode }
    return ["aaaaa-bbbbb"]
  }
  client.disableTwoFactor = { credentials in
    guard ids[credentials.userName] != nil, credentials.password == "password" else {
      throw AuthenticationError.invalidCredentials
    }
  }
  client.deleteAccount = { credentials in
    guard ids[credentials.userName] != nil, credentials.password == "password" else {
      throw AuthenticationError.invalidCredentials
    }
    if credentials.userName == "bob" { throw AuthenticationError.unfinishedOnlineGame }
  }
  return client
}()

@MainActor
struct GameServerTests {
  /// A stored game of ann's and bob's after X's a1, as a restarted server reads it.
  private let gameAfterOneMove = OnlineGameRecord(
    code: code, rows: 3, columns: 3, k: 3, firstMover: .x,
    x: SeatRecord(accountID: 1, name: "ann", rating: 1_200),
    o: SeatRecord(accountID: 2, name: "bob", rating: 1_200),
    moves: [Cell(row: 0, column: 0)], createdAt: epoch - 5_000)

  /// A store whose storage records its calls in `log` and whose operator's lines go to
  /// `operatorLog`.
  private func makeStore(
    _ state: GameServer.State, log: StorageLog = StorageLog(),
    operatorLog: StorageLog = StorageLog()
  ) -> TestStore<GameServer> {
    TestStore(initialState: state) {
      GameServer(
        authentication: testAccounts, storage: recordingStorage(log), random: { _ in 0 },
        log: { operatorLog.record($0) })
    }
  }

  @Test func aConnectionMustSayHelloFirst() async {
    let store = makeStore(GameServer.State(now: epoch))
    let id = ClientID(7)
    await store.send(.connected(id, address: "10.0.0.1")) {
      $0.clients[id] = GameServer.Client(address: "10.0.0.1")
    }
    await store.send(.received(id, .listGames)) {
      $0.clients[id]?.phase = .turnedAway
      $0.outbox = [
        .init(id, .message(.refused(Refusal(.helloExpected, request: 0x13)))), .init(id, .close),
      ]
    }
    await store.send(.disconnected(id)) { $0.clients[id] = nil }
    await store.finish()
  }

  @Test func historyAndFinishedGamesAreReadForAnyoneAndRefusedWhenUnknown() async {
    let log = StorageLog()
    var state = GameServer.State(now: epoch)
    let id = ClientID(7)
    state.clients[id] = .ready(nil)
    let store = makeStore(state, log: log)
    await store.send(.received(id, .requestHistory(userName: "ann"))) {
      $0.clients[id]?.isReading = true
    }
    await store.receive(.historyResponse(id, .success([finishedGame]))) {
      $0.clients[id]?.isReading = false
      $0.outbox.append(.init(id, .message(.history([finishedGame]))))
    }
    // The next page: the cursor reaches the storage as it was sent.
    await store.send(
      .received(
        id, .requestHistory(userName: "ann", before: HistoryCursor(after: finishedGame)))
    ) { $0.clients[id]?.isReading = true }
    await store.receive(.historyResponse(id, .success([finishedGame]))) {
      $0.clients[id]?.isReading = false
      $0.outbox.append(.init(id, .message(.history([finishedGame]))))
    }
    await store.send(.received(id, .requestHistory(userName: "nobody"))) {
      $0.clients[id]?.isReading = true
    }
    await store.receive(.historyResponse(id, .failure(Refusal(.noSuchUser, request: 0x18)))) {
      $0.clients[id]?.isReading = false
      $0.outbox.append(.init(id, .message(.refused(Refusal(.noSuchUser, request: 0x18)))))
    }
    await store.send(.received(id, .requestFinishedGame(id: 5))) {
      $0.clients[id]?.isReading = true
    }
    await store.receive(.historyResponse(id, .success([finishedGame]))) {
      $0.clients[id]?.isReading = false
      $0.outbox.append(.init(id, .message(.history([finishedGame]))))
    }
    await store.send(.received(id, .requestFinishedGame(id: 6))) {
      $0.clients[id]?.isReading = true
    }
    await store.receive(.historyResponse(id, .failure(Refusal(.noSuchGame, request: 0x19)))) {
      $0.clients[id]?.isReading = false
      $0.outbox.append(.init(id, .message(.refused(Refusal(.noSuchGame, request: 0x19)))))
    }
    // An answer for a connection that closed meanwhile is dropped.
    await store.send(.disconnected(id)) { $0.clients[id] = nil }
    await store.send(.historyResponse(id, .success([finishedGame])))
    await store.finish()
    #expect(
      log.all == [
        "history ann 20", "history ann before 2/5 20", "history nobody 20", "finishedGame 5",
        "finishedGame 6",
      ])
  }

  /// One read of the records at a time on a connection: one that asks again without waiting
  /// (no sign-in needed) is refused, so that it cannot queue reads ahead of everyone's moves.
  @Test func aConnectionReadsTheRecordsOneAtATime() {
    var state = GameServer.State(now: epoch)
    let id = ClientID(7)
    state.clients[id] = .ready(nil)
    state.clients[id]?.isReading = true
    for request in [
      ClientMessage.requestStats(userName: "ann"), .requestHistory(userName: "ann"),
      .requestFinishedGame(id: 5),
    ] {
      let (after, hasEffect) = reduced(state, .received(id, request))
      var expected = state
      expected.outbox = [.init(id, .message(.refused(Refusal(.busy, request: request.type))))]
      #expect(after == expected, "\(request)")
      #expect(!hasEffect, "\(request)")
    }
  }

  @Test func anUnknownVersionIsToldTheServersRange() async {
    let store = makeStore(GameServer.State(now: epoch))
    let id = ClientID(7)
    await store.send(.connected(id, address: "10.0.0.1")) {
      $0.clients[id] = GameServer.Client(address: "10.0.0.1")
    }
    await store.send(.received(id, .hello(versions: 6...7))) {
      $0.clients[id]?.phase = .turnedAway
      $0.outbox = [
        .init(
          id, .message(.refused(Refusal(.unsupportedVersion, request: 1, detail: 5 << 16 | 5)))),
        .init(id, .close),
      ]
    }
    // Clients of version 1, whose history requests had no page, of version 2, which cannot read
    // `tooManyGames`, of version 3, which cannot read `cancelled`, and of version 4, which
    // cannot read `unfinishedGame`, are told to update too.
    for (number, versions) in [
      (UInt64(8), UInt16(1)...1), (9, 2...2), (10, 1...2), (11, 3...3), (12, 1...3), (13, 4...4),
    ] {
      let old = ClientID(number)
      await store.send(.connected(old, address: "10.0.0.1")) {
        $0.clients[old] = GameServer.Client(address: "10.0.0.1")
      }
      await store.send(.received(old, .hello(versions: versions))) {
        $0.clients[old]?.phase = .turnedAway
        $0.outbox += [
          .init(
            old,
            .message(.refused(Refusal(.unsupportedVersion, request: 1, detail: 5 << 16 | 5)))),
          .init(old, .close),
        ]
      }
    }
    await store.finish()
  }

  /// From hello to a won game: sign in, create, join, play, ratings, and a spectator who sees
  /// every move only after it is stored.
  @Test func aWholeGameBetweenTwoAccounts() async {
    let log = StorageLog()
    let operatorLog = StorageLog()
    let store = makeStore(GameServer.State(now: epoch), log: log, operatorLog: operatorLog)
    let a = ClientID(1)
    let b = ClientID(2)
    let watcher = ClientID(3)
    for (id, address) in [(a, "10.0.0.1"), (b, "10.0.0.2"), (watcher, "10.0.0.3")] {
      await store.send(.connected(id, address: address)) {
        $0.clients[id] = GameServer.Client(address: address)
      }
      await store.send(.received(id, .hello(versions: 1...5))) {
        $0.clients[id]?.phase = .ready
        $0.outbox.append(.init(id, .message(.welcome(version: 5))))
      }
    }
    for (id, name, number) in [(a, "ann", Int64(1)), (b, "bob", 2)] {
      await store.send(.received(id, .signIn(userName: name, password: "password"))) {
        $0.clients[id]?.pendingRequest = 0x03
        $0.allowances[$0.clients[id]!.address] = .afterOneRequest
      }
      let account = SignedInAccount(
        accountID: number, userName: name, rating: 1_200, token: "token-\(name)")
      await store.receive(.signInResponse(id, request: 0x03, .success(.signedIn(account)))) {
        $0.clients[id]?.pendingRequest = nil
        $0.clients[id]?.account = account
        $0.outbox.append(
          .init(id, .message(.signedIn(accountID: number, userName: name, token: "token-\(name)"))))
      }
    }
    let code = InviteCode.make { _ in 0 }
    await store.send(.received(a, .createGame(GameOptions()))) {
      $0.clients[a]?.games = [code]
      $0.matches[code] = Match(
        code: code, start: .classic,
        creator: Match.Seat(accountID: 1, name: "ann", rating: 1_200, client: a), createdAt: epoch)
    }
    await store.receive(.gameStored(code: code, succeeded: true)) {
      $0.matches[code]?.phase = .waiting
      $0.outbox.append(.init(a, .message(.game($0.matches[code]!.snapshot(for: .x, now: epoch)))))
    }
    await store.send(.received(watcher, .watchGame(code: code.lowercased()))) {
      $0.matches[code]?.spectators = [watcher]
      $0.clients[watcher]?.games = [code]
      $0.outbox.append(
        .init(watcher, .message(.game($0.matches[code]!.snapshot(for: nil, now: epoch)))))
    }
    let bobSeat = Match.Seat(accountID: 2, name: "bob", rating: 1_200, client: b)
    await store.send(.received(b, .joinGame(code: code))) {
      $0.matches[code]?.phase = .seating(bobSeat)
      $0.clients[b]?.games = [code]
    }
    await store.receive(.opponentStored(code: code, succeeded: true)) {
      $0.matches[code]?.o = bobSeat
      $0.matches[code]?.phase = .playing
      let joined = ServerMessage.playerJoined(
        code: code, mark: .o, player: SeatedPlayer(name: "bob", rating: 1_200))
      $0.outbox += [.init(a, .message(joined)), .init(watcher, .message(joined))]
      $0.outbox.append(.init(b, .message(.game($0.matches[code]!.snapshot(for: .o, now: epoch)))))
    }
    // X takes the top row while O plays the middle row.
    let moves: [(ClientID, Cell)] = [
      (a, Cell(row: 0, column: 0)), (b, Cell(row: 1, column: 0)), (a, Cell(row: 0, column: 1)),
      (b, Cell(row: 1, column: 1)), (a, Cell(row: 0, column: 2)),
    ]
    for (ply, (id, cell)) in moves.enumerated() {
      // Out of turn first: refused, nothing changes.
      let other = id == a ? b : a
      await store.send(.received(other, .move(code: code, ply: ply, cell: cell))) {
        $0.outbox.append(.init(other, .message(.refused(Refusal(.notYourTurn, request: 0x14)))))
      }
      await store.send(.received(id, .move(code: code, ply: ply, cell: cell))) {
        $0.matches[code]?.phase = .committing(ply: ply, cell: cell)
      }
      let isLast = ply == moves.count - 1
      await store.receive(
        .moveStored(
          code: code, ply: ply, .success(isLast ? Ratings(x: 1_216, o: 1_184) : nil))
      ) {
        $0.matches[code]?.commit(cell)
        let moved = ServerMessage.moved(code: code, ply: ply, cell: cell)
        $0.outbox += [a, b, watcher].map { .init($0, .message(moved)) }
        if isLast {
          let end = GameEnd(winner: .x, reason: .completed, xRating: 1_216, oRating: 1_184)
          $0.expectEnd(of: code, end, at: epoch, seated: [a, b])
          $0.outbox += [a, b, watcher].map { .init($0, .message(.ended(code: code, end))) }
        } else {
          $0.matches[code]?.phase = .playing
        }
      }
      // A repeat of the stored move is late: refused with the next number.
      await store.send(.received(id, .move(code: code, ply: ply, cell: cell))) {
        let refusal: ErrorCode = isLast ? .gameOver : .staleMove
        $0.outbox.append(
          .init(
            id,
            .message(
              .refused(
                Refusal(refusal, request: 0x14, detail: isLast ? 0 : UInt32(ply + 1))))))
      }
    }
    #expect(
      log.all == [
        "openSession ann", "openSession bob", "createGame \(code) ann", "seatOpponent \(code) bob",
        "commitMove \(code) 0 a1", "commitMove \(code) 1 a2", "commitMove \(code) 2 b1",
        "commitMove \(code) 3 b2",
        "commitMove \(code) 4 c1 Ending(winner: Optional(GameRules.Mark.x), reason: GameProtocol.EndReason.completed)",
      ])
    // The operator reads what happened, each once it was stored.
    #expect(
      operatorLog.all == [
        "ann signed in from 10.0.0.1.", "bob signed in from 10.0.0.2.",
        "ann opened game \(code) (3×3, 3 in a row).",
        "bob joined game \(code); ann plays X, bob plays O.",
        "Game \(code) ended: ann (X) won, with a line.",
      ])
    await store.finish()
  }

  @Test func anAwayPlayerIsWaitedForThenForfeits() async throws {
    let log = StorageLog()
    let operatorLog = StorageLog()
    var state = serverState(try playingMatch(moves: [Cell(row: 1, column: 1)]))
    state.reconnectGraceSeconds = 60
    let store = makeStore(state, log: log, operatorLog: operatorLog)
    let away = ServerMessage.playerAway(code: code, mark: .o, seconds: 60)
    await store.send(.disconnected(bobClient)) {
      $0.clients[bobClient] = nil
      $0.matches[code]?.o?.client = nil
      $0.matches[code]?.o?.awayUntil = epoch + 60_000
      $0.outbox = [.init(annClient, .message(away)), .init(guestClient, .message(away))]
    }
    await store.send(.tick(now: epoch + 59_999)) { $0.now = epoch + 59_999 }
    await store.send(.tick(now: epoch + 60_000)) {
      $0.now = epoch + 60_000
      $0.matches[code]?.phase = .finishing(Ending(winner: .x, reason: .forfeit))
    }
    await store.receive(.endStored(code: code, by: nil, .success(Ratings(x: 1_216, o: 1_184)))) {
      let end = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
      $0.expectEnd(of: code, end, at: epoch + 60_000, seated: [annClient])
      $0.outbox += [annClient, guestClient].map { .init($0, .message(.ended(code: code, end))) }
    }
    #expect(log.all.count == 1)
    #expect(
      operatorLog.all == [
        "bob lost the connection to game \(code); the seat is held for 60 s.",
        "Game \(code) ended: ann (X) won, bob (O) forfeited, away past the grace.",
      ])
    await store.finish()
  }

  @Test func aPlayerWhoComesBackInTimeKeepsTheSeat() async throws {
    let store = makeStore(serverState(try playingMatch(moves: [Cell(row: 1, column: 1)])))
    let away = ServerMessage.playerAway(code: code, mark: .o, seconds: 60)
    await store.send(.disconnected(bobClient)) {
      $0.clients[bobClient] = nil
      $0.matches[code]?.o?.client = nil
      $0.matches[code]?.o?.awayUntil = epoch + 60_000
      $0.outbox = [.init(annClient, .message(away)), .init(guestClient, .message(away))]
    }
    let back = ClientID(9)
    var state = store.state
    state.clients[back] = .ready(bob, address: "10.9.9.9")
    let operatorLog = StorageLog()
    let restarted = makeStore(state, operatorLog: operatorLog)
    await restarted.send(.tick(now: epoch + 30_000)) { $0.now = epoch + 30_000 }
    await restarted.send(.received(back, .joinGame(code: code))) {
      $0.matches[code]?.o?.client = back
      $0.clients[back]?.games = [code]
      $0.matches[code]?.o?.awayUntil = nil
      let returned = ServerMessage.playerBack(code: code, mark: .o)
      $0.outbox += [annClient, guestClient].map { .init($0, .message(returned)) }
      $0.outbox.append(
        .init(back, .message(.game($0.matches[code]!.snapshot(for: .o, now: epoch + 30_000)))))
    }
    await restarted.send(.tick(now: epoch + 120_000)) { $0.now = epoch + 120_000 }
    #expect(operatorLog.all == ["bob is back in game \(code)."])
    await store.finish()
    await restarted.finish()
  }

  @Test func afterARestartWhoeverReturnsWinsAgainstWhoeverDoesNot() async throws {
    let record = gameAfterOneMove
    var state = GameServer.State(now: epoch)
    state.clients[annClient] = .ready(ann)
    let store = makeStore(state)
    await store.send(.restored([record])) {
      $0.matches[code] = try? Match(restoring: record, awayUntil: epoch + 60_000)
    }
    // Nobody forfeits while both are away.
    await store.send(.tick(now: epoch + 61_000)) { $0.now = epoch + 61_000 }
    await store.send(.received(annClient, .joinGame(code: code))) {
      $0.matches[code]?.x.client = annClient
      $0.clients[annClient]?.games = [code]
      $0.matches[code]?.x.awayUntil = nil
      $0.outbox.append(
        .init(annClient, .message(.game($0.matches[code]!.snapshot(for: .x, now: epoch + 61_000)))))
    }
    await store.send(.tick(now: epoch + 62_000)) {
      $0.now = epoch + 62_000
      $0.matches[code]?.phase = .finishing(Ending(winner: .x, reason: .forfeit))
    }
    await store.receive(.endStored(code: code, by: nil, .success(Ratings(x: 1_216, o: 1_184)))) {
      let end = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
      $0.expectEnd(of: code, end, at: epoch + 62_000, seated: [annClient])
      $0.outbox.append(.init(annClient, .message(.ended(code: code, end))))
    }
    await store.finish()
  }

  @Test func aGameNeitherPlayerReturnsToIsForfeitedByThePlayerToMoveAnHourLater() async throws {
    let record = gameAfterOneMove
    let store = makeStore(GameServer.State(now: epoch))
    await store.send(.restored([record])) {
      $0.matches[code] = try? Match(restoring: record, awayUntil: epoch + 60_000)
    }
    let abandoned = epoch + 60_000 + GameServer.abandonedGameLifetime
    await store.send(.tick(now: abandoned - 1)) { $0.now = abandoned - 1 }
    // O is to move after X's a1, and has not come back either.
    await store.send(.tick(now: abandoned)) {
      $0.now = abandoned
      $0.matches[code]?.phase = .finishing(Ending(winner: .x, reason: .forfeit))
    }
    await store.receive(.endStored(code: code, by: nil, .success(Ratings(x: 1_216, o: 1_184)))) {
      let end = GameEnd(winner: .x, reason: .forfeit, xRating: 1_216, oRating: 1_184)
      $0.expectEnd(of: code, end, at: abandoned, seated: [])
    }
    await store.finish()
  }

  @Test func aFailedCommitAnnouncesNothing() async throws {
    var storage = ServerStorageClient.unimplemented
    storage.commitMove = { _, _, _, _ in throw StorageFailure() }
    let store = TestStore(initialState: serverState(try playingMatch())) {
      GameServer(
        authentication: .unimplemented, storage: storage, random: { _ in 0 }, log: { _ in })
    }
    let cell = Cell(row: 1, column: 1)
    await store.send(.received(annClient, .move(code: code, ply: 0, cell: cell))) {
      $0.matches[code]?.phase = .committing(ply: 0, cell: cell)
    }
    await store.receive(
      .moveStored(code: code, ply: 0, .failure(Refusal(.serverError, request: 0x14)))
    ) {
      $0.matches[code]?.phase = .playing
      $0.outbox = [.init(annClient, .message(.refused(Refusal(.serverError, request: 0x14))))]
    }
    await store.finish()
  }

  /// A resignation the database cannot store is refused to the player who resigned, and the
  /// game goes on; one stored is announced to everyone.
  @Test func aResignationThatCannotBeStoredIsRefusedAndTheGameGoesOn() async throws {
    let stored = Mutex(false)
    var storage = ServerStorageClient.unimplemented
    storage.finishGame = { _, _ in
      guard stored.withLock({ $0 }) else { throw StorageFailure() }
      return Ratings(x: 1_184, o: 1_216)
    }
    let store = TestStore(initialState: serverState(try playingMatch())) {
      GameServer(
        authentication: .unimplemented, storage: storage, random: { _ in 0 }, log: { _ in })
    }
    let refusal = Refusal(.serverError, request: 0x15)
    await store.send(.received(annClient, .resign(code: code))) {
      $0.matches[code]?.phase = .finishing(Ending(winner: .o, reason: .resigned))
    }
    await store.receive(.endStored(code: code, by: annClient, .failure(refusal))) {
      $0.matches[code]?.phase = .playing
      $0.outbox = [.init(annClient, .message(.refused(refusal)))]
    }
    stored.withLock { $0 = true }
    await store.send(.received(annClient, .resign(code: code))) {
      $0.matches[code]?.phase = .finishing(Ending(winner: .o, reason: .resigned))
    }
    await store.receive(
      .endStored(code: code, by: annClient, .success(Ratings(x: 1_184, o: 1_216)))
    ) {
      let end = GameEnd(winner: .o, reason: .resigned, xRating: 1_184, oRating: 1_216)
      $0.expectEnd(of: code, end, at: epoch, seated: [annClient, bobClient])
      $0.outbox += $0.matches[code]!.audience.map { .init($0, .message(.ended(code: code, end))) }
    }
    await store.finish()
  }

  @Test func twoFactorSignInWaitsForTheCode() async {
    var state = GameServer.State(now: epoch)
    let id = ClientID(5)
    state.clients[id] = .ready(nil)
    let operatorLog = StorageLog()
    let store = makeStore(state, operatorLog: operatorLog)
    await store.send(.received(id, .submitCode("123456"))) {
      $0.outbox = [.init(id, .message(.refused(Refusal(.noChallenge, request: 0x04))))]
    }
    await store.send(.received(id, .signIn(userName: "dee", password: "password"))) {
      $0.clients[id]?.pendingRequest = 0x03
      $0.allowances["127.0.0.1"] = .afterOneRequest
    }
    let challenge = TwoFactorChallenge(userName: "dee", token: "challenge")
    await store.receive(.signInResponse(id, request: 0x03, .success(.codeRequired(challenge)))) {
      $0.clients[id]?.pendingRequest = nil
      $0.clients[id]?.challenge = challenge
      $0.outbox.append(.init(id, .message(.codeRequired)))
    }
    await store.send(.received(id, .submitCode("000000"))) {
      $0.clients[id]?.pendingRequest = 0x04
      _ = $0.allowances["127.0.0.1"]?.take(now: epoch)
    }
    await store.receive(
      .signInResponse(id, request: 0x04, .failure(Refusal(.invalidCode, request: 0x04)))
    ) {
      $0.clients[id]?.pendingRequest = nil
      $0.outbox.append(.init(id, .message(.refused(Refusal(.invalidCode, request: 0x04)))))
    }
    await store.send(.received(id, .submitCode("123456"))) {
      $0.clients[id]?.pendingRequest = 0x04
      _ = $0.allowances["127.0.0.1"]?.take(now: epoch)
    }
    let dee = SignedInAccount(accountID: 4, userName: "dee", rating: 1_200, token: "token-dee")
    await store.receive(.signInResponse(id, request: 0x04, .success(.signedIn(dee)))) {
      $0.clients[id]?.pendingRequest = nil
      $0.clients[id]?.challenge = nil
      $0.clients[id]?.account = dee
      $0.outbox.append(
        .init(id, .message(.signedIn(accountID: 4, userName: "dee", token: "token-dee"))))
    }
    #expect(
      operatorLog.all == [
        "A sign-in from 127.0.0.1 was refused: wrong two-factor code.",
        "dee signed in from 127.0.0.1.",
      ])
    await store.finish()
  }

  @Test func anAddressThatTriesTooOftenIsSlowedDown() async {
    var state = GameServer.State(now: epoch)
    let id = ClientID(5)
    state.clients[id] = .ready(nil, address: "10.1.1.1")
    let operatorLog = StorageLog()
    let store = makeStore(state, operatorLog: operatorLog)
    store.exhaustivity = .off
    for _ in 0..<ProtocolLimits.signInBurst {
      await store.send(.received(id, .signIn(userName: "ann", password: "wrong")))
      await store.receive(
        .signInResponse(id, request: 0x03, .failure(Refusal(.invalidCredentials, request: 0x03))))
    }
    await store.send(.received(id, .signIn(userName: "ann", password: "password")))
    let refusal = Refusal(
      .rateLimited, request: 0x03, detail: UInt32(ProtocolLimits.signInRefillSeconds))
    #expect(store.state.outbox.last == .init(id, .message(.refused(refusal))))
    #expect(store.state.clients[id]?.account == nil)
    #expect(store.state.clients[id]?.pendingRequest == nil)
    // A token comes back after the refill time.
    await store.send(.tick(now: epoch + Int64(ProtocolLimits.signInRefillSeconds) * 1_000))
    await store.send(.received(id, .signIn(userName: "ann", password: "password")))
    await store.receive(.signInResponse(id, request: 0x03, .success(.signedIn(ann))))
    #expect(store.state.clients[id]?.account == ann)
    let refused = "A sign-in from 10.1.1.1 was refused: wrong user name or password."
    #expect(
      operatorLog.all
        == Array(repeating: refused, count: ProtocolLimits.signInBurst) + [
          "A request from 10.1.1.1 was refused: too many sign-in attempts from there; it may try "
            + "again in \(ProtocolLimits.signInRefillSeconds) s, and until then its requests are "
            + "refused without a line each.",
          "ann signed in from 10.1.1.1.",
        ])
    await store.finish()
  }

  @Test func aResumedSessionSignsInWithoutAPassword() async {
    var state = GameServer.State(now: epoch)
    let id = ClientID(5)
    state.clients[id] = .ready(nil)
    let operatorLog = StorageLog()
    let store = makeStore(state, operatorLog: operatorLog)
    store.exhaustivity = .off
    await store.send(.received(id, .resumeSession(token: "forged")))
    await store.receive(
      .signInResponse(id, request: 0x05, .failure(Refusal(.sessionExpired, request: 0x05))))
    #expect(store.state.clients[id]?.account == nil)
    await store.send(.received(id, .resumeSession(token: "token-ann")))
    await store.receive(.signInResponse(id, request: 0x05, .success(.signedIn(ann))))
    #expect(store.state.clients[id]?.account == ann)
    #expect(operatorLog.all == ["ann came back from 127.0.0.1 with a session token."])
    await store.finish()
  }

  /// An account with a game under way is not deleted: the game goes on, and nobody is told
  /// that anyone left or won.
  @Test func anAccountWithAGameUnderWayIsNotDeleted() async throws {
    let match = try playingMatch()
    let store = makeStore(serverState(match))
    await store.send(
      .received(guestClient, .deleteAccount(userName: "bob", password: "password", code: nil))
    ) {
      $0.clients[guestClient]?.pendingRequest = 0x07
      $0.allowances["127.0.0.1"] = .afterOneRequest
    }
    let refusal = Refusal(.unfinishedGame, request: 0x07)
    await store.receive(.accountResponse(guestClient, request: 0x07, .failure(refusal))) {
      $0.clients[guestClient]?.pendingRequest = nil
      $0.outbox = [.init(guestClient, .message(.refused(refusal)))]
    }
    #expect(store.state.matches[code] == match)
    #expect(store.state.clients[bobClient]?.account == bob)
    await store.finish()
  }

  /// A deleted account is signed out everywhere; the games of others are not touched.
  @Test func aDeletedAccountIsSignedOutAndNoGameEndsForIt() async throws {
    let match = try playingMatch()
    let operatorLog = StorageLog()
    let store = makeStore(serverState(match), operatorLog: operatorLog)
    await store.send(
      .received(guestClient, .deleteAccount(userName: "cat", password: "password", code: nil))
    ) {
      $0.clients[guestClient]?.pendingRequest = 0x07
      $0.allowances["127.0.0.1"] = .afterOneRequest
    }
    await store.receive(
      .accountResponse(guestClient, request: 0x07, .success(.deleted(accountID: 3)))
    ) {
      $0.clients[guestClient]?.pendingRequest = nil
      $0.clients[catClient]?.account = nil
      $0.outbox = [.init(guestClient, .message(.accepted(request: 0x07)))]
    }
    #expect(store.state.matches[code] == match)
    #expect(operatorLog.all == ["The account cat was deleted from 127.0.0.1."])
    await store.finish()
  }

  /// A password change ends the account's sessions and signs it out on every other
  /// connection, so that a session taken with the old password (a leaked one) goes with it.
  ///
  /// Where its sessions cannot be ended then (the storage fails), the change, which was made,
  /// is answered as made and the account signed out elsewhere all the same; the operator hears
  /// that earlier sign-ins may still resume.
  @Test(arguments: [false, true])
  func aPasswordChangeSignsTheAccountOutElsewhere(sessionsCannotEnd: Bool) async throws {
    let log = StorageLog()
    var storage = recordingStorage(log)
    if sessionsCannotEnd { storage.endSessions = { _ in throw StorageFailure() } }
    let operatorLog = StorageLog()
    let store = TestStore(initialState: serverState(try playingMatch())) {
      GameServer(
        authentication: testAccounts, storage: storage, random: { _ in 0 },
        log: { operatorLog.record($0) })
    }
    let change = ClientMessage.changePassword(
      userName: "ann", oldPassword: "password", newPassword: "another one", code: nil)
    await store.send(.received(catClient, change)) {
      $0.clients[catClient]?.pendingRequest = 0x06
      $0.allowances["127.0.0.1"] = .afterOneRequest
    }
    await store.receive(
      .accountResponse(catClient, request: 0x06, .success(.sessionsEnded(accountID: 1)))
    ) {
      $0.clients[catClient]?.pendingRequest = nil
      $0.clients[annClient]?.account = nil
      $0.outbox = [.init(catClient, .message(.accepted(request: 0x06)))]
    }
    #expect(
      log.all == (sessionsCannotEnd ? ["accountID ann"] : ["accountID ann", "endSessions ann"]))
    let notEnded =
      "The sessions of ann could not be ended after a change of its password or two-factor, so "
      + "earlier sign-ins may still resume: StorageFailure()"
    #expect(
      operatorLog.all
        == ["ann changed the password from 127.0.0.1."] + (sessionsCannotEnd ? [notEnded] : []))
    await store.finish()
  }

  /// Turning two-factor on or off ends the account's sessions as a password change does: a
  /// session taken before (a leaked one) does not outlive a change made to shut it out.
  @Test func aTwoFactorChangeSignsTheAccountOutElsewhere() async throws {
    for (message, request, reply, answer) in [
      (
        ClientMessage.confirmTwoFactor(userName: "ann", code: "123456"), UInt8(0x09),
        GameServer.AccountReply.twoFactorOn(accountID: 1, recoveryCodes: ["aaaaa-bbbbb"]),
        ServerMessage.recoveryCodes(["aaaaa-bbbbb"])
      ),
      (
        .disableTwoFactor(userName: "ann", password: "password", code: nil), 0x0A,
        .sessionsEnded(accountID: 1), .accepted(request: 0x0A)
      ),
    ] {
      let log = StorageLog()
      let store = makeStore(serverState(try playingMatch()), log: log)
      await store.send(.received(catClient, message)) {
        $0.clients[catClient]?.pendingRequest = request
        $0.allowances["127.0.0.1"] = .afterOneRequest
      }
      await store.receive(.accountResponse(catClient, request: request, .success(reply))) {
        $0.clients[catClient]?.pendingRequest = nil
        $0.clients[annClient]?.account = nil
        $0.outbox = [.init(catClient, .message(answer))]
      }
      #expect(log.all == ["accountID ann", "endSessions ann"])
      await store.finish()
    }
  }

  @Test func aShutdownRefusesEveryoneAndClosesTheConnections() async throws {
    let store = makeStore(serverState(try playingMatch()))
    await store.send(.shutdownRequested) {
      $0.isShuttingDown = true
      $0.outbox = [annClient, bobClient, guestClient, catClient].flatMap {
        [.init($0, .message(.refused(Refusal(.shuttingDown)))), .init($0, .close)]
      }
    }
    await store.send(.received(annClient, .listGames)) {
      $0.outbox.append(.init(annClient, .message(.refused(Refusal(.shuttingDown, request: 0x13)))))
    }
    await store.finish()
  }
}

extension GameServer.State {
  /// What the end of game `code` changes: the match finished at `time` with both players'
  /// new ratings and neither away, and the new rating carried by each of the `seated` players'
  /// connections (X's first).
  fileprivate mutating func expectEnd(
    of code: String, _ end: GameEnd, at time: Int64, seated: [ClientID]
  ) {
    matches[code]?.phase = .finished(end)
    matches[code]?.endedAt = time
    matches[code]?.x.rating = end.xRating
    matches[code]?.x.awayUntil = nil
    matches[code]?.o?.rating = end.oRating
    matches[code]?.o?.awayUntil = nil
    for (client, rating) in zip(seated, [end.xRating, end.oRating]) {
      clients[client]?.account?.rating = rating
    }
  }
}
