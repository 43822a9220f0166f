import AuthenticationClient
import AuthenticationClientLive
import Crypto
import DatabaseClient
import DatabaseClientLive
import Foundation
import GameProtocol
import GameRules
import SQLite
import ServerCore
import Synchronization
import TLS
import TestSupport
import Testing

@testable import ServerLive

/// A clock the test moves.
final class Clock: Sendable {
  let time = Mutex<Int64>(1_700_000_000_000)
  var now: @Sendable () -> Int64 { { self.time.withLock { $0 } } }
  func advance(by milliseconds: Int64) { time.withLock { $0 += milliseconds } }
}

/// A server database in a temporary file with two accounts, Ann (1) and Bob (2).
struct Fixture {
  let folder: TemporaryFolder
  let path: String
  let database: LocalDatabase
  let records: ServerRecords
  let clock = Clock()
  let ann: Session
  let bob: Session

  init() async throws {
    folder = try TemporaryFolder(prefix: "server-records")
    path = folder.file("server.sqlite")
    database = try LocalDatabase(path: path)
    records = ServerRecords(database: database, now: clock.now)
    let accounts = AuthenticationClient.live(
      database: database, passwordAlgorithm: .scrypt(logN: 4, r: 8, p: 1))
    ann = try await accounts.createAccount("ann", "correct horse")
    bob = try await accounts.createAccount("bob", "battery staple")
  }

  func game(_ code: String = "ABC234") -> OnlineGameRecord {
    OnlineGameRecord(
      code: code, rows: 3, columns: 3, k: 3, firstMover: .x,
      x: SeatRecord(accountID: ann.accountID, name: "ann", rating: 1_200), createdAt: 1)
  }

  func seatBob(_ code: String = "ABC234") async throws {
    try await records.seatOpponent(
      code, SeatRecord(accountID: bob.accountID, name: "bob", rating: 1_200))
  }
}

let topRowWin: [Cell] = [
  Cell(row: 0, column: 0), Cell(row: 1, column: 0), Cell(row: 0, column: 1),
  Cell(row: 1, column: 1), Cell(row: 0, column: 2),
]

@Suite(.serialized)
struct ServerRecordsTests {
  @Test func aSessionTokenResumesUntilItExpires() async throws {
    let fixture = try await Fixture()
    let opened = try await fixture.records.openSession(fixture.ann)
    #expect(opened.userName == "ann")
    #expect(opened.rating == 1_200)
    #expect(opened.token.count == 64)
    #expect(
      try await fixture.records.resumeSession(opened.token)?.accountID == fixture.ann.accountID)
    for forged in ["", "zz", String(repeating: "0", count: 64), opened.token.uppercased() + "0"] {
      #expect(try await fixture.records.resumeSession(forged) == nil, "\(forged)")
    }
    // The database keeps only the token's hash.
    let stored: [UInt8] =
      try Database(path: fixture.path, mode: .readOnly)
      .query("SELECT token_hash FROM sessions").first?.get(0) ?? []
    #expect(stored.count == 32)
    #expect(!opened.token.contains(stored.map { String(format: "%02x", $0) }.joined()))
    fixture.clock.advance(by: ServerRecords.sessionLifetime + 1)
    #expect(try await fixture.records.resumeSession(opened.token) == nil)
    fixture.clock.advance(by: -ServerRecords.sessionLifetime)
    #expect(
      try await fixture.records.resumeSession(opened.token) == nil, "an expired token came back")
  }

  @Test func endingSessionsSignsEveryDeviceOut() async throws {
    let fixture = try await Fixture()
    let first = try await fixture.records.openSession(fixture.ann)
    let second = try await fixture.records.openSession(fixture.ann)
    let bobs = try await fixture.records.openSession(fixture.bob)
    try await fixture.records.endSessions("ANN")
    #expect(try await fixture.records.resumeSession(first.token) == nil)
    #expect(try await fixture.records.resumeSession(second.token) == nil)
    #expect(try await fixture.records.resumeSession(bobs.token) != nil)
  }

  /// The records find an account by the name the accounts find it by: any case, spaces around
  /// it, accents composed or not.
  @Test func sessionsEndAndStatsAreFoundByTheAccountsKey() async throws {
    let fixture = try await Fixture()
    let accounts = AuthenticationClient.live(
      database: fixture.database, passwordAlgorithm: .scrypt(logN: 4, r: 8, p: 1))
    let zoe = try await accounts.createAccount("Zo\u{EB}", "correct horse")
    let opened = try await fixture.records.openSession(zoe)
    #expect(try await fixture.records.account(named: " zoe\u{308} ")?.id == zoe.accountID)
    #expect(try await fixture.records.endSessions("ZOE\u{308} ") == zoe.accountID)
    #expect(try await fixture.records.resumeSession(opened.token) == nil)
    #expect(try await fixture.records.endSessions("nobody") == nil)
  }

  @Test func aWonGameIsStoredWithItsMovesResultAndRatings() async throws {
    let fixture = try await Fixture()
    try await fixture.records.createGame(fixture.game())
    #expect(try await fixture.records.activeGames().map(\.code) == ["ABC234"])
    try await fixture.seatBob()
    for (ply, cell) in topRowWin.dropLast().enumerated() {
      #expect(
        try await fixture.records.commitMove("ABC234", ply: ply, cell: cell, ending: nil) == nil)
    }
    let active = try await fixture.records.activeGames()
    #expect(active.first?.moves == Array(topRowWin.dropLast()))
    #expect(active.first?.o?.name == "bob")
    let ratings = try await fixture.records.commitMove(
      "ABC234", ply: 4, cell: topRowWin[4], ending: Ending(winner: .x, reason: .completed))
    #expect(ratings == Ratings(x: 1_216, o: 1_184))
    #expect(try await fixture.records.activeGames().isEmpty)
    // The finished game joined the ordinary records, so stats count it.
    let stats = try await DatabaseClient.live(database: fixture.database).stats(
      .account(fixture.ann.accountID))
    #expect(stats.wins == 1)
    let history = try await DatabaseClient.live(database: fixture.database).history(
      .account(fixture.bob.accountID), 10)
    #expect(history.first?.moves == topRowWin)
    #expect(history.first?.result == .xWins)
    // Ratings carry over to the next game.
    #expect(try await fixture.records.openSession(fixture.ann).rating == 1_216)
    #expect(try await fixture.records.account(named: "Bob")?.rating == 1_184)
  }

  @Test func movesAreStoredOnlyInOrderAndOnlyWhileTheGameGoesOn() async throws {
    let fixture = try await Fixture()
    try await fixture.records.createGame(fixture.game())
    // Not before an opponent sits down.
    await #expect(throws: ServerRecordsError.self) {
      try await fixture.records.commitMove("ABC234", ply: 0, cell: topRowWin[0], ending: nil)
    }
    try await fixture.seatBob()
    await #expect(throws: ServerRecordsError.self) { try await fixture.seatBob() }
    await #expect(throws: ServerRecordsError.self) {
      try await fixture.records.commitMove("ABC234", ply: 1, cell: topRowWin[0], ending: nil)
    }
    _ = try await fixture.records.commitMove("ABC234", ply: 0, cell: topRowWin[0], ending: nil)
    await #expect(throws: ServerRecordsError.self) {
      try await fixture.records.commitMove("ABC234", ply: 0, cell: topRowWin[1], ending: nil)
    }
    _ = try await fixture.records.finishGame("ABC234", Ending(winner: .o, reason: .forfeit))
    await #expect(throws: ServerRecordsError.self) {
      try await fixture.records.commitMove("ABC234", ply: 1, cell: topRowWin[1], ending: nil)
    }
    await #expect(throws: ServerRecordsError.self) {
      try await fixture.records.finishGame("ABC234", Ending(winner: .x, reason: .resigned))
    }
    let rows = try Database(path: fixture.path, mode: .readOnly).query(
      "SELECT result, end_reason FROM online_games WHERE code = 'ABC234'")
    #expect(rows.first?[0] == .text("oWins"))
    #expect(rows.first?[1] == .text("forfeit"))
  }

  @Test func anOpenGameNobodyJoinedCanBeDroppedAndNoOther() async throws {
    let fixture = try await Fixture()
    try await fixture.records.createGame(fixture.game("OPEN22"))
    try await fixture.records.createGame(fixture.game("FULL22"))
    try await fixture.seatBob("FULL22")
    try await fixture.records.cancelGame("OPEN22")
    // A game someone joined, one already forgotten and one never stored are not open: nothing
    // is forgotten, and saying so keeps the server from announcing a cancellation.
    for code in ["FULL22", "OPEN22", "NONE22"] {
      await #expect(throws: ServerRecordsError.self, "\(code)") {
        try await fixture.records.cancelGame(code)
      }
    }
    #expect(try await fixture.records.activeGames().map(\.code) == ["FULL22"])
    // A restarted server reads what a fresh connection to the file holds.
    let reopened = try Database(path: fixture.path, mode: .readOnly).query(
      "SELECT code FROM online_games ORDER BY code")
    #expect(reopened.map { $0[0] } == [.text("FULL22")])
  }

  /// Many games committing at once share commits, and every acknowledged move is stored.
  @Test func concurrentMovesAreAllStored() async throws {
    let fixture = try await Fixture()
    let codes = (0..<20).map { "GAME\($0)" }
    for code in codes {
      try await fixture.records.createGame(fixture.game(code))
      try await fixture.seatBob(code)
    }
    let draw: [Cell] = [
      Cell(row: 0, column: 0), Cell(row: 0, column: 1), Cell(row: 0, column: 2),
      Cell(row: 1, column: 0), Cell(row: 1, column: 1), Cell(row: 2, column: 0),
      Cell(row: 1, column: 2), Cell(row: 2, column: 2),
    ]
    let records = fixture.records
    try await withThrowingTaskGroup(of: Void.self) { group in
      for code in codes {
        group.addTask {
          for (ply, cell) in draw.enumerated() {
            _ = try await records.commitMove(code, ply: ply, cell: cell, ending: nil)
          }
        }
      }
      try await group.waitForAll()
    }
    let count: Int =
      try Database(path: fixture.path, mode: .readOnly)
      .query("SELECT count(*) FROM online_moves").first?.get(0) ?? 0
    #expect(count == codes.count * draw.count)
  }

  @Test func statsComeFromTheFinishedGames() async throws {
    let fixture = try await Fixture()
    let storage = ServerStorageClient.live(
      records: fixture.records, database: .live(database: fixture.database))
    #expect(try await storage.stats("nobody") == nil)
    let before = try await storage.stats("ANN")
    #expect(
      before
        == PlayerStats(
          userName: "ann", rating: 1_200, wins: 0, losses: 0, draws: 0, currentStreak: 0,
          bestStreak: 0))
    try await fixture.records.createGame(fixture.game())
    try await fixture.seatBob()
    _ = try await fixture.records.finishGame("ABC234", Ending(winner: .o, reason: .resigned))
    #expect(try await storage.stats("bob")?.wins == 1)
    #expect(try await storage.stats("bob")?.rating == 1_216)
    #expect(try await storage.stats("ann")?.losses == 1)
  }
}

struct IdentityFileTests {
  @Test func historyPagesHoldEveryGameOnceNewestFirst() async throws {
    let fixture = try await Fixture()
    // 47 games: more than two pages, several ending in the same millisecond.
    for number in 0..<47 {
      let code = "G\(number)"
      try await fixture.records.createGame(fixture.game(code))
      try await fixture.seatBob(code)
      _ = try await fixture.records.finishGame(code, Ending(winner: .o, reason: .resigned))
      if number.isMultiple(of: 3) { fixture.clock.advance(by: 1) }
    }
    let storage = ServerStorageClient.live(
      records: fixture.records, database: .live(database: fixture.database))
    var pages: [[FinishedGame]] = []
    var cursor: HistoryCursor?
    repeat {
      let page = try #require(try await storage.history("ANN", cursor, 20))
      pages.append(page)
      cursor = page.last.map(HistoryCursor.init(after:))
    } while pages.last?.count == 20
    #expect(pages.map(\.count) == [20, 20, 7])
    let local = try await DatabaseClient.live(database: fixture.database).history(
      .account(fixture.ann.accountID), 100)
    #expect(pages.flatMap { $0 }.map(\.id) == local.compactMap(\.id))
    #expect(Set(local.compactMap(\.id)).count == 47)
    // After the last game there is nothing; an unknown account has no history at all.
    #expect(try await storage.history("bob", HistoryCursor(after: pages[2][6]), 20) == [])
    #expect(try await storage.history("nobody", nil, 20) == nil)
  }

  @Test func theCertificateIsMadeOncePrivateAndKept() throws {
    let folder = try TemporaryFolder(prefix: "server-identity")
    let path = ServerIdentity.path(forDatabase: folder.file("server.sqlite"))
    let (made, created) = try ServerIdentity.loadOrCreate(at: path)
    #expect(created)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let (again, createdAgain) = try ServerIdentity.loadOrCreate(at: path)
    #expect(!createdAgain)
    #expect(again.fingerprint == made.fingerprint)
  }

  @Test func aDamagedCertificateIsReportedAndKept() throws {
    let folder = try TemporaryFolder(prefix: "server-identity")
    let path = folder.file("server.sqlite.tls.pem")
    try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: path))
    #expect {
      try ServerIdentity.loadOrCreate(at: path)
    } throws: { error in
      // One sentence: the reason's own full stop does not close the parentheses.
      let message = (error as? ServeFailure)?.message ?? ""
      return message.hasPrefix("The server's certificate file \(path) is damaged (")
        && !message.contains(".)")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a certificate")
  }

  @Test func aPipeOrAFolderWhereTheCertificateGoesIsRefusedAtOnce() throws {
    // Reading a named pipe would wait for a writer for ever.
    let folder = try TemporaryFolder(prefix: "server-identity")
    let pipe = folder.file("pipe.sqlite.tls.pem")
    #expect(mkfifo(pipe, 0o600) == 0)
    let directory = folder.file("folder.sqlite.tls.pem")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    for path in [pipe, directory] {
      #expect(
        throws: ServeFailure(
          "The certificate file \(path) is a folder, a pipe, a device or a socket, not a file; "
            + "move it away to make a new one, which clients will have to accept again.")
      ) { try ServerIdentity.loadOrCreate(at: path) }
    }
  }
}

/// Which connections count against one address's limit.
struct ConnectionAddressTests {
  /// The connection cap counts by the network the sign-in limits count by.
  @Test func anIPv6NetworkCountsAsOneAddressAndMappedIPv4AsItself() {
    let key = Network.key(of:)
    #expect(key("203.0.113.7") == "203.0.113.7")
    #expect(key("::ffff:203.0.113.7") == "203.0.113.7")
    #expect(key("2001:db8::1") == key("2001:db8::ffff:1"))
    #expect(key("2001:db8::1") != key("2001:db8:0:1::1"))
    #expect(key("not an address") == "not an address")
    #expect(ServerTransport.isLocal("127.0.0.1") && ServerTransport.isLocal("::1"))
    #expect(!ServerTransport.isLocal("127.0.0.2"))
  }
}

/// The accounts' gate: one operation at a time, addresses taking turns.
struct GateTests {
  /// While an operation runs, others queue for their turn, and the next runs once it is over.
  /// (The gate is a lock, not an actor, so an operation that blocks its thread, as scrypt does,
  /// holds nothing the others need to queue.)
  @Test func othersQueueWhileAnOperationRuns() async throws {
    let gate = Gate()
    let (release, releaser) = AsyncStream.makeStream(of: Void.self)
    let first = Task {
      try await gate.run {
        for await _ in release { break }
      }
    }
    while !gate.isRunning { await Task.yield() }
    let other = Task {
      try await AccountsRequester.$address.withValue("b") { try await gate.run {} }
    }
    while gate.waitingCount == 0 { await Task.yield() }
    #expect(gate.isRunning)
    releaser.yield()
    try await first.value
    try await other.value
    #expect(!gate.isRunning)
    #expect(gate.waitingCount == 0)
  }

  /// Records the order operations ran in.
  private actor Order {
    var labels: [String] = []
    func append(_ label: String) { labels.append(label) }
  }

  @Test func addressesTakeTurnsAndEachAddressKeepsItsOrder() async throws {
    let gate = Gate()
    let order = Order()
    let (release, releaser) = AsyncStream.makeStream(of: Void.self)
    // The first operation holds the gate until released.
    let first = Task {
      try await gate.run {
        for await _ in release { break }
        await order.append("first")
      }
    }
    while !gate.isRunning { await Task.yield() }
    var tasks: [Task<Void, any Error>] = []
    for (address, label) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("b", "b2")] {
      let queued = gate.waitingCount
      tasks.append(
        Task {
          try await AccountsRequester.$address.withValue(address) {
            try await gate.run { await order.append(label) }
          }
        })
      while gate.waitingCount == queued { await Task.yield() }
    }
    releaser.yield()
    try await first.value
    for task in tasks { try await task.value }
    #expect(await order.labels == ["first", "a1", "b1", "a2", "b2", "a3"])
  }
}

/// The operator's lines a client can cause without limit are counted, not written each.
struct LogThrottleTests {
  @Test func tenLinesAKindAWindowThenOneLineCountsTheRestEvenAtTheStop() {
    final class Written: Sendable {
      let lines = Mutex<[String]>([])
    }
    let written = Written()
    let throttle = LogThrottle { line in written.lines.withLock { $0.append(line) } }
    for index in 0..<25 { throttle.line("handshake \(index)", kind: .handshake, now: 1_000) }
    for index in 0..<3 { throttle.line("broke \(index)", kind: .brokeProtocol, now: 2_000) }
    throttle.line("handshake late", kind: .handshake, now: 11_000)
    for index in 0..<12 { throttle.line("full \(index)", kind: .full, now: 12_000) }
    throttle.roll(now: 13_000, force: true)
    let lines = written.lines.withLock { $0 }
    #expect(lines.filter { $0.hasPrefix("handshake ") }.count == 11)
    #expect(lines.filter { $0.hasPrefix("broke ") }.count == 3)
    #expect(
      lines.contains(
        "Left out 15 more lines about connections that did not finish their TLS handshake in "
          + "the last 10 seconds."))
    #expect(
      lines.last
        == "Left out 2 more lines about connections turned away because the server was full "
        + "in the last 10 seconds.")
  }
}
