import AuthenticationClient
import AuthenticationClientLive
import Crypto
import DatabaseClient
import DatabaseClientLive
import GameProtocol
import GameRules
import SQLite
import ServerCore
import Testing

@testable import ServerLive

/// Deleting an account, on a server's database and on one computer's: the other players keep
/// their games, and no game turns into one that someone else's stats count.
@Suite(.serialized)
struct AccountDeletionTests {
  private func accounts(_ fixture: Fixture) -> AuthenticationClient {
    .live(database: fixture.database, passwordAlgorithm: .scrypt(logN: 4, r: 8, p: 1))
  }

  /// Ann beats Bob online, then Bob's account is deleted.
  @Test func theOpponentOfADeletedAccountKeepsTheOnlineGame() async throws {
    let fixture = try await Fixture()
    try await fixture.records.createGame(fixture.game())
    try await fixture.seatBob()
    for (ply, cell) in topRowWin.enumerated() {
      _ = try await fixture.records.commitMove(
        "ABC234", ply: ply, cell: cell,
        ending: ply == topRowWin.count - 1 ? Ending(winner: .x, reason: .completed) : nil)
    }
    try await accounts(fixture).deleteAccount(
      Credentials(userName: "bob", password: "battery staple"))
    let database = DatabaseClient.live(database: fixture.database)
    let storage = ServerStorageClient.live(records: fixture.records, database: database)
    let stats = try #require(try await storage.stats("ann"))
    #expect(stats.wins == 1)
    #expect(stats.rating == 1_216)
    let history = try #require(try await storage.history("ann", nil, 10))
    #expect(history.map(\.oName) == ["bob"])
    let game = try #require(history.first)
    #expect(try await storage.finishedGame(game.id) == game)
    #expect(game.moves == topRowWin)
    #expect(try await storage.stats("bob") == nil)
    // Nobody's games became the guest's.
    #expect(try await database.stats(.guest).recentGames.isEmpty)
  }

  /// An account with an online game waiting or under way on this database is not deleted;
  /// once the game is gone, it is.
  @Test func anAccountWithAnUnfinishedOnlineGameIsNotDeleted() async throws {
    let fixture = try await Fixture()
    let accounts = accounts(fixture)
    let bob = Credentials(userName: "bob", password: "battery staple")
    let ann = Credentials(userName: "ann", password: "correct horse")
    try await fixture.records.createGame(fixture.game("WAIT22"))
    await #expect(throws: AuthenticationError.unfinishedOnlineGame) {
      try await accounts.deleteAccount(ann)
    }
    try await fixture.seatBob("WAIT22")
    await #expect(throws: AuthenticationError.unfinishedOnlineGame) {
      try await accounts.deleteAccount(bob)
    }
    #expect(try await fixture.records.activeGames().map(\.code) == ["WAIT22"])
    _ = try await fixture.records.finishGame("WAIT22", Ending(winner: .x, reason: .resigned))
    try await accounts.deleteAccount(bob)
    #expect(try await accounts.listAccounts().map(\.userName) == ["ann"])
  }

  /// On one computer: Ann and Bob played each other; each also played the computer and a
  /// guest at the same keyboard.
  @Test func localGamesBetweenAccountsStayAndNoneBecomesTheGuests() async throws {
    let fixture = try await Fixture()
    let database = DatabaseClient.live(database: fixture.database)
    let ann = PlayerRecord(name: "ann", accountID: fixture.ann.accountID)
    let bob = PlayerRecord(name: "bob", accountID: fixture.bob.accountID)
    let computer = PlayerRecord(name: "Computer", computer: .hard)
    let guest = PlayerRecord(name: "Guest")
    let games = [
      game(x: ann, o: bob, .xWins, at: 1), game(x: bob, o: ann, .draw, at: 2),
      game(x: bob, o: computer, .oWins, at: 3), game(x: guest, o: bob, .xWins, at: 4),
      game(x: ann, o: computer, .xWins, at: 5), game(x: guest, o: computer, .draw, at: 6),
    ]
    for record in games { _ = try await database.saveFinishedGame(record) }
    let guestBefore = try await database.stats(.guest)
    #expect(guestBefore.recentGames.count == 1)

    try await accounts(fixture).deleteAccount(
      Credentials(userName: "bob", password: "battery staple"))
    let annAfter = try await database.stats(.account(fixture.ann.accountID))
    #expect(annAfter.wins == 2)
    #expect(annAfter.draws == 1)
    #expect(
      annAfter.recentGames.map { "\($0.x.name)-\($0.o.name)" } == [
        "ann-Computer", "bob-ann", "ann-bob",
      ])
    #expect(try await database.stats(.guest) == guestBefore)

    // The games of Ann's against Bob no longer belong to another account: they go with hers.
    try await accounts(fixture).deleteAccount(
      Credentials(userName: "ann", password: "correct horse"))
    #expect(try await database.stats(.guest) == guestBefore)
    let left = try Database(path: fixture.path, mode: .readOnly).query(
      "SELECT COUNT(*) FROM games")
    #expect(left.first?[0] == .integer(1))
  }

  private func game(
    x: PlayerRecord, o: PlayerRecord, _ result: GameResult, at time: Timestamp
  ) -> GameRecord {
    let moves: [String] =
      switch result {
      case .xWins: ["a1", "b1", "a2", "b2", "a3"]
      case .oWins: ["c3", "a1", "b3", "a2", "c1", "a3"]
      case .draw: ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]
      }
    return GameRecord(
      x: x, o: o, moves: moves.compactMap { Cell(name: $0) }, result: result,
      startedAt: time * 60_000, endedAt: time * 60_000 + 1)
  }
}
