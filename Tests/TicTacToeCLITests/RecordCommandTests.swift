import DatabaseClient
import Foundation
import GameRules
import TestSupport
import Testing

struct RecordCommandTests {
  /// 2023-11-14 22:13:20 UTC.
  private static let start: Timestamp = 1_700_000_000_000
  private static let hour: Timestamp = 3_600_000

  /// Alice beats the computer, loses to Bob, draws with the computer; Ann beats Ben as guests.
  private func seeded() async throws -> (TemporaryDatabase, alice: Int64, ids: [Int64]) {
    let database = try TemporaryDatabase()
    let alice = try database.createAccount("alice", password: "correct horse")
    let player = PlayerRecord(name: "alice", accountID: alice)
    let computer = PlayerRecord(name: "Computer", computer: .hard)
    let ids = try await database.seed([
      .finished(x: player, o: computer, moves: "a1 a2 b1 b2 c1", endedAt: Self.start),
      .finished(
        x: PlayerRecord(name: "Bob"), o: player, moves: "a1 b2 a2 c3 a3",
        endedAt: Self.start + Self.hour),
      .finished(
        x: player, o: computer, moves: "b2 a1 c1 a3 a2 c2 b1 b3 c3",
        endedAt: Self.start + 2 * Self.hour),
      .finished(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Ben"), moves: "a1 a2 b1 b2 c1",
        endedAt: Self.start + 3 * Self.hour),
    ])
    return (database, alice, ids)
  }

  // MARK: - Empty database

  @Test func statsOfAnEmptyDatabaseAreZero() throws {
    let database = try TemporaryDatabase()
    let guest = try database.run("stats", "--json")
    #expect(guest.status == 0)
    #expect(
      guest.output
        == "{\"user\":null,\"games\":0,\"wins\":0,\"losses\":0,\"draws\":0,\"winRate\":null,"
        + "\"currentStreak\":0,\"bestStreak\":0,\"opponents\":[],\"recentGames\":[]}\n")
    #expect(try database.run("stats").output == "No games recorded for the guest.\n")
    // A game between two computers is listed in the history, and counted for no one.
    #expect(try database.run("play", "--computer", "both", "--size", "3").status == 0)
    #expect(
      try database.run("stats").output
        == "No games counted for the guest: games between two computers count for no one.\n")
    try database.createAccount("alice", password: "correct horse")
    let alice = try database.run("stats", "alice", "--json").json()
    #expect(alice["user"] as? String == "alice")
    #expect(alice["games"] as? Int == 0)
  }

  @Test func historyOfAnEmptyDatabaseIsEmpty() throws {
    let database = try TemporaryDatabase()
    let json = try database.run("history", "--json")
    #expect(json.status == 0)
    #expect(json.output == "{\"user\":null,\"games\":[]}\n")
    #expect(try database.run("history").output == "No games recorded for the guest.\n")
  }

  @Test func unknownUserReadsExactlyLikeAnAccountWithoutGames() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("carol", password: "correct horse")
    for arguments in [["stats"], ["stats", "--json"], ["history"], ["history", "--json"]] {
      let known = try database.run(arguments: [arguments[0], "carol"] + arguments.dropFirst())
      let unknown = try database.run(arguments: [arguments[0], "carla"] + arguments.dropFirst())
      #expect(known.status == 0 && unknown.status == 0)
      #expect(known.error.isEmpty && unknown.error.isEmpty)
      #expect(
        known.output.replacingOccurrences(of: "carol", with: "carla") == unknown.output,
        "\(arguments)")
    }
    #expect(try database.run("stats", "carla").output == "No games recorded for carla.\n")
  }

  // MARK: - Seeded database

  @Test func statsCountTheAccountsGames() async throws {
    let (database, _, ids) = try await seeded()
    let stats = try database.run("stats", "alice", "--json").json()
    #expect(stats["games"] as? Int == 3)
    #expect(stats["wins"] as? Int == 1)
    #expect(stats["losses"] as? Int == 1)
    #expect(stats["draws"] as? Int == 1)
    let winRate = try #require(stats["winRate"] as? Double)
    #expect(abs(winRate - 1.0 / 3.0) < 1e-9)
    #expect(stats["currentStreak"] as? Int == 0)
    #expect(stats["bestStreak"] as? Int == 1)
    let opponents = try #require(stats["opponents"] as? [[String: Any]])
    #expect(opponents.count == 2)
    #expect(opponents.first?["opponent"] as? String == "person")
    #expect(opponents.first?["losses"] as? Int == 1)
    #expect(opponents.last?["opponent"] as? String == "computer")
    #expect(opponents.last?["difficulty"] as? String == "hard")
    #expect(opponents.last?["level"] as? String == "Hard")
    #expect(opponents.last?["wins"] as? Int == 1)
    #expect(opponents.last?["draws"] as? Int == 1)
    let recent = try #require(stats["recentGames"] as? [[String: Any]])
    #expect(recent.compactMap { $0["id"] as? Int } == ids.prefix(3).reversed().map { Int($0) })

    let guest = try database.run("stats", "--json").json()
    #expect(guest["games"] as? Int == 1)
    #expect(guest["wins"] as? Int == 1)

    let text = try database.run("stats", "alice").output
    #expect(
      text.hasPrefix(
        "Stats for alice: 3 games: 1 win, 1 loss, 1 draw (win rate 33%).\n"
          + "Current streak: 0 wins; best streak: 1 win.\n"
          + "Against people: 0 wins, 1 loss, 0 draws.\n"
          + "Against the computer, Hard: 1 win, 0 losses, 1 draw.\n"))
  }

  @Test func historyListsGamesNewestFirst() async throws {
    let (database, alice, ids) = try await seeded()
    let history = try database.run("history", "alice", "--json").json()
    #expect(history["user"] as? String == "alice")
    let games = try #require(history["games"] as? [[String: Any]])
    #expect(games.compactMap { $0["id"] as? Int } == ids.prefix(3).reversed().map { Int($0) })
    let first = try #require(games.last)
    #expect(first["date"] as? String == "2023-11-14T22:13:20Z")
    #expect(first["endedAt"] as? Int == Int(Self.start))
    #expect(first["board"] as? String == "xxx/oo./...")
    #expect(first["result"] as? String == "xWins")
    #expect(first["moves"] as? [String] == ["a1", "a2", "b1", "b2", "c1"])
    #expect(first["firstMover"] as? String == "x")
    let x = try #require(first["x"] as? [String: Any])
    #expect(x["name"] as? String == "alice")
    #expect(x["accountID"] as? Int == Int(alice))
    #expect(x["computer"] is NSNull)
    let o = try #require(first["o"] as? [String: Any])
    #expect(o["computer"] as? String == "hard")
    #expect(games.first?["result"] as? String == "draw")

    let text = try database.run("history", "alice")
    #expect(text.status == 0)
    #expect(text.lines.count == 3)
    #expect(text.lines.first?.hasPrefix("\(ids[2])  ") == true)
    #expect(
      text.lines.first?.hasSuffix(
        "alice (X) vs Computer (O, computer, Hard)  3×3  oxx/xxo/oox  draw") == true)
    #expect(
      text.lines.dropFirst().first?.hasSuffix("Bob (X) vs alice (O)  3×3  x../xo./x.o  X won")
        == true)
  }

  @Test func historyShowsTimesOnThePlayersClock() async throws {
    let (database, _, ids) = try await seeded()
    // POSIX zones, which need no time zone files: the first game ended at 22:13:20 UTC.
    for (zone, shown) in [
      ("UTC0", "2023-11-14 22:13"), ("IST-5:30", "2023-11-15 03:43"),
      ("EST5EDT,M3.2.0,M11.1.0", "2023-11-14 17:13"),
    ] {
      var environment = database.environment
      environment["TZ"] = zone
      let history = try run(arguments: ["history", "alice"], environment: environment)
      #expect(history.lines.last?.hasPrefix("\(ids[0])  \(shown)  alice (X)") == true, "\(zone)")
      let replay = try run(arguments: ["replay", String(ids[0])], environment: environment)
      #expect(replay.lines.first?.hasPrefix("Game \(ids[0]), \(shown): ") == true, "\(zone)")
    }
  }

  @Test func anyStoredTimeIsShownWithoutACrash() async throws {
    // A tampered database (or a hostile server) may hold the extremes of a 64-bit time.
    let database = try TemporaryDatabase()
    let ids = try await database.seed(
      [Timestamp.min, .max].map {
        try .finished(
          x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: "a1 a2 b1 b2 c1",
          endedAt: $0)
      })
    var environment = database.environment
    environment["TZ"] = "UTC0"
    let history = try run(arguments: ["history"], environment: environment)
    #expect(history.status == 0, "\(history.error)")
    #expect(history.lines.count == 2)
    #expect(history.output.contains("  292278994-08-17 07:12  Ann (X) vs Bob (O)"))
    for id in ids {
      let replay = try run(arguments: ["replay", String(id)], environment: environment)
      #expect(replay.status == 0, "\(replay.error)")
    }
  }

  @Test func replayShowsEveryPositionWithASentence() async throws {
    let (database, _, ids) = try await seeded()
    let replay = try database.run("replay", String(ids[0]))
    #expect(replay.status == 0)
    let lines = replay.lines
    #expect(lines.filter { $0.contains(" plays ") }.count == 5)
    #expect(
      replay.output.contains(
        """
          a b c
        1 . . .
        2 . . .
        3 . . .

        X plays a1.
          a b c
        1 X . .
        2 . . .
        3 . . .

        O plays a2.
          a b c
        1 X . .
        2 O . .
        3 . . .
        """))
    #expect(lines.last == "X wins with a1, b1, c1.")
  }

  @Test func replayOfADrawEndsWithATie() async throws {
    let (database, _, ids) = try await seeded()
    let replay = try database.run("replay", String(ids[2]))
    #expect(replay.status == 0)
    #expect(replay.lines.filter { $0.contains(" plays ") }.count == 9)
    #expect(replay.lines.last == "Tied game.")
    #expect(
      replay.lines.first?.hasSuffix(
        ": alice (X) vs Computer (O, computer, Hard) on 3×3, 3 in a row.") == true)
  }

  @Test func replayOfAnUnknownGameFails() async throws {
    let database = try TemporaryDatabase()
    let result = try database.run("replay", "42")
    #expect(result.status == 1)
    #expect(
      result.error
        == "tictactoe: There is no finished game with id 42; tictactoe history lists them.\n")
  }

  @Test func resetNeedsConfirmationAndKeepsOtherPlayersGames() async throws {
    let (database, _, _) = try await seeded()
    let refused = try database.run(
      "stats", "alice", "--reset", "--password-stdin", input: "correct horse\n")
    #expect(refused.status == 2)
    #expect(refused.error.contains("--yes"))
    #expect(try database.run("stats", "alice", "--json").json()["games"] as? Int == 3)

    let reset = try database.run(
      "stats", "alice", "--reset", "--yes", "--password-stdin", input: "correct horse\n")
    #expect(reset.status == 0)
    #expect(reset.output == "Reset the stats of alice: deleted 3 finished games.\n")
    #expect(try database.run("stats", "alice", "--json").json()["games"] as? Int == 0)
    #expect(try database.run("stats", "--json").json()["games"] as? Int == 1)
  }

  // MARK: - Damaged databases

  @Test func randomBytesAreReportedAndLeftUnchanged() throws {
    let database = try TemporaryDatabase()
    var random = SeededBytes(seed: 2026)
    let bytes = Data(random.next(16_384))
    try bytes.write(to: URL(fileURLWithPath: database.path))
    let commands: [(arguments: [String], input: String)] = [
      (["stats"], ""), (["stats", "alice", "--json"], ""), (["history", "--json"], ""),
      (["replay", "1"], ""), (["account", "list"], ""),
      (["account", "create", "bob", "--password-stdin"], "correct horse\n"),
      (["login", "alice", "--password-stdin"], "correct horse\n"),
    ]
    for command in commands {
      let result = try TicTacToeCLITests.run(
        arguments: command.arguments, input: command.input, environment: database.environment)
      #expect(result.status == 1, "\(command.arguments)")
      #expect(
        result.error
          == "tictactoe: The database \(database.path) is damaged or is not a database of this "
          + "program; it was left unchanged, so move it aside or restore a backup to go on.\n")
      #expect(result.output.isEmpty)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: database.path)) == bytes)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: database.folder.path)
        == ["tictactoe.sqlite"])
  }

  @Test func missingFolderIsReportedNotCreated() throws {
    let database = try TemporaryDatabase()
    let missing = database.folder.appendingPathComponent("missing")
    let result = try database.run(
      "stats", "--database", missing.appendingPathComponent("tictactoe.sqlite").path)
    #expect(result.status == 1)
    #expect(result.error.contains("its folder is missing or not accessible"))
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }

  @Test func readOnlyDatabaseIsReportedAndLeftUnchanged() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: "correct horse")
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o400], ofItemAtPath: database.path)
    let before = try Data(contentsOf: URL(fileURLWithPath: database.path))
    let result = try database.run(
      "account", "create", "bob", "--password-stdin", input: "correct horse\n")
    #expect(result.status == 1)
    #expect(result.error.contains("is read-only"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: database.path)) == before)
  }
}
