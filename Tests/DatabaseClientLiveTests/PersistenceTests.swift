import DatabaseClient
import Foundation
import GameRules
import SQLite
import Synchronization
import TestSupport
import Testing

@testable import DatabaseClientLive

struct PersistenceTests {
  @Test func gameInProgressSurvivesClosingAndReopening() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let record = GameRecord(
      x: Fixture.ann, o: Fixture.computer(.hard),
      moves: ["b2", "a1", "c3"].compactMap { Cell(name: $0) }, startedAt: 9_000)
    do {
      let client = DatabaseClient.live(database: try LocalDatabase(path: path).addingAnn())
      try await client.saveGameInProgress(record, .account(1))
    }
    let reopened = DatabaseClient.live(database: try LocalDatabase(path: path))
    let loaded = try #require(try await reopened.loadGameInProgress(.account(1)))
    #expect(loaded.moves == record.moves)
    #expect(try loaded.game().board.notation == "o../.x./..x")
  }

  @Test func earlierSchemaMigratesAndKeepsGames() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    do {
      let old = try Database(path: path)
      try old.migrate(Array(Schema.migrations.prefix(1)))
      try old.execute(
        """
        INSERT INTO games (x_name, o_name, o_computer, board_rows, board_columns, k,
          first_mover, result, started_at, ended_at)
        VALUES ('Guest', 'Computer', 0.25, 3, 3, 3, 'x', 'xWins', 1, 2);
        INSERT INTO moves VALUES (1, 0, 1, 1);
        """)
    }
    let client = DatabaseClient.live(database: try LocalDatabase(path: path).addingAnn())
    let stats = try await client.stats(.guest)
    #expect(stats.tallies == [Tally(opponent: .computer(.easy), wins: 1)])
    #expect(try Database(path: path).userVersion() == Schema.migrations.count)
  }

  /// Version 4 rebuilds the game tables so that deleting an account keeps the games of the
  /// accounts it played: every row, move and index of version 3 is kept.
  @Test func version3MigratesKeepingEveryGameAndTheOpponentsGamesOutliveAnAccount() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let indexesQuery =
      "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL "
      + "ORDER BY name"
    let indexesBefore: [[SQLiteValue]]
    do {
      let old = try Database(path: path)
      try old.migrate(Array(Schema.migrations.prefix(3)))
      try old.execute(
        """
        INSERT INTO accounts VALUES (1, 'pat', 'pat', 'h', 0), (2, 'quinn', 'quinn', 'h', 0);
        INSERT INTO games (id, x_name, x_account, o_name, o_account, board_rows, board_columns,
          k, first_mover, result, started_at, ended_at)
        VALUES (7, 'pat', 1, 'quinn', 2, 3, 3, 3, 'x', 'xWins', 1, 2);
        INSERT INTO moves VALUES (7, 0, 0, 0), (7, 1, 1, 0), (7, 2, 0, 1), (7, 3, 1, 1),
          (7, 4, 0, 2);
        INSERT INTO online_games (id, code, board_rows, board_columns, k, first_mover,
          x_account, x_rating, o_account, o_rating, created_at, result, end_reason, ended_at,
          game_id)
        VALUES (3, 'ABC234', 3, 3, 3, 'x', 1, 1200, 2, 1200, 1, 'xWins', 'completed', 2, 7);
        INSERT INTO online_moves SELECT 3, ply, cell_row, cell_column FROM moves;
        """)
      indexesBefore = try old.query(indexesQuery).map(\.values)
    }
    let client = DatabaseClient.live(database: try LocalDatabase(path: path))
    let database = try Database(path: path)
    #expect(try database.userVersion() == Schema.migrations.count)
    // Versions 5 and 8 add the indexes of the look-alike forms' and the sign-in attempts'
    // tables beside those version 3 had.
    #expect(
      try database.query(indexesQuery).map(\.values)
        == [[.text("account_name_forms_by_account"), .text("account_name_forms")]] + indexesBefore
        + [[.text("sign_in_attempts_by_key"), .text("sign_in_attempts")]])
    #expect(try database.query("PRAGMA foreign_key_check").isEmpty)
    for (table, count) in [("games", 1), ("moves", 5), ("online_games", 1), ("online_moves", 5)] {
      let rows = try database.query("SELECT COUNT(*) FROM \(table)")
      #expect(rows.first?[0] == .integer(count), "\(table)")
    }
    // Version 7 keeps the highest id a finished game had, so that no later game takes it.
    #expect(try database.query("SELECT highest FROM finished_game_ids").map(\.values) == [[7]])
    // Quinn's account goes; Pat's game stays, with Quinn's name as it was stored.
    try database.run("DELETE FROM accounts WHERE id = 2")
    let stats = try await client.stats(.account(1))
    #expect(stats.wins == 1)
    #expect(stats.recentGames.map(\.o.name) == ["quinn"])
    #expect(stats.recentGames.first?.moves.count == 5)
    let online = try database.query("SELECT x_account, o_account, game_id FROM online_games")
    #expect(online.first?.values == [.integer(1), .null, .integer(7)])
  }

  @Test func emptyDatabaseGetsTheLatestSchema() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    _ = try LocalDatabase(path: path)
    let tables = try Database(path: path).query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
    ).map { try $0.get(0, as: String.self) }
    #expect(
      tables == [
        "account_name_forms", "accounts", "finished_game_ids", "games", "known_servers", "moves",
        "online_games", "online_moves", "ratings", "recovery_codes", "sessions",
        "sign_in_attempts", "sign_in_failures", "two_factor",
      ])
  }

  @Test func fileOfRandomBytesGivesOneSentenceAndStaysUnchanged() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    var generator = SeededBytes(seed: 7)
    let garbage = generator.next(4_096)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
    #expect {
      _ = try LocalDatabase(path: path)
    } throws: { error in
      guard let error = error as? DatabaseError else { return false }
      return error.message.hasPrefix("The database \(path) is damaged or is not a database")
        && error.kind == .corrupt
        && error.message.hasSuffix(".") && !error.message.contains("\n")
    }
    #expect(contents(path) == garbage)
  }

  @Test func anotherProgramsDatabaseIsRefusedAndLeftByteForByte() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("other.sqlite")
    do {
      let other = try Database(path: path)
      try other.execute("CREATE TABLE notes (text TEXT)")
      try other.execute("INSERT INTO notes VALUES ('keep me')")
      // Back to a rollback journal, as most programs leave their files.
      #expect(try other.query("PRAGMA journal_mode = DELETE").first?[0] == .text("delete"))
    }
    let before = contents(path)
    #expect {
      _ = try LocalDatabase(path: path)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("not a database of this program") == true
    }
    // Not even switched to write-ahead logging, which rewrites the header.
    #expect(contents(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
  }

  @Test func anExistingFileOpenToOthersBecomesOwnerOnly() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("shared.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
    let database = try LocalDatabase(path: path).addingAnn()
    #expect(try permissions(path) == 0o600)
    // The log SQLite makes beside it, while the connection is open, takes the file's mode.
    #expect(try permissions(path + "-wal") == 0o600)
    _ = database
  }

  /// A folder where SQLite keeps its log, a link to nothing and a loop of links are each named
  /// as what they are, not as a missing folder or a folder database.
  @Test func oddPathsAreNamedForWhatTheyAre() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    _ = try LocalDatabase(path: path).addingAnn()
    try FileManager.default.createDirectory(
      atPath: path + "-wal", withIntermediateDirectories: false)
    func message(_ path: String) -> String? {
      do {
        _ = try LocalDatabase(path: path)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(
      message(path)
        == "The database \(path) cannot be opened: a file SQLite keeps beside it, ending in -wal "
        + "or -shm, is a folder; move that folder aside.")
    // The same for the index SQLite keeps beside it, which is found when reading.
    try FileManager.default.removeItem(atPath: path + "-wal")
    try FileManager.default.createDirectory(
      atPath: path + "-shm", withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o755])
    #expect(
      message(path)?.hasSuffix("ending in -wal or -shm, is a folder; move that folder aside.")
        == true)
    // Refused, and left as it was.
    let mode = try FileManager.default.attributesOfItem(atPath: path + "-shm")[.posixPermissions]
    #expect(mode as? Int == 0o755)
    let dangling = folder.file("dangling.sqlite")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: folder.file("nowhere.sqlite"))
    #expect(
      message(dangling)?.hasPrefix(
        "The database \(dangling) is a symbolic link to a file that does not exist") == true)
    let (one, two) = (folder.file("one.sqlite"), folder.file("two.sqlite"))
    try FileManager.default.createSymbolicLink(atPath: one, withDestinationPath: two)
    try FileManager.default.createSymbolicLink(atPath: two, withDestinationPath: one)
    #expect(
      message(one) == "The database \(one) cannot be opened: its path goes round in symbolic links."
    )
  }

  @Test func aFolderWhereTheFileShouldBeIsNamedAsOne() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    #expect {
      _ = try LocalDatabase(path: path)
    } throws: { error in
      (error as? DatabaseError)?.message
        == "The database \(path) is a folder, not a database file; give the path of a file in it."
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
  }

  @Test func aDatabaseWithTwoNamesIsRefusedUnderEither() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    _ = try LocalDatabase(path: path).addingAnn()
    let other = folder.file("other.sqlite")
    try FileManager.default.linkItem(atPath: path, toPath: other)
    let before = contents(path)
    for name in [path, other] {
      #expect {
        _ = try LocalDatabase(path: name)
      } throws: { error in
        (error as? DatabaseError)?.message.hasPrefix(
          "The database \(name) has 2 names (hard links)") == true
      }
    }
    #expect(contents(path) == before)
    #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
    try FileManager.default.removeItem(atPath: other)
    _ = try LocalDatabase(path: path)
  }

  @Test func readOnlyFileGivesOneSentenceAndStaysUnchanged() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    _ = try LocalDatabase(path: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
    let before = contents(path)
    #expect {
      _ = try LocalDatabase(path: path)
    } throws: { error in
      (error as? DatabaseError)?.message.hasPrefix("The database \(path) is read-only") == true
    }
    #expect(contents(path) == before)
  }

  @Test func twoConnectionsWritingAtOnceBothSucceed() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let first = DatabaseClient.live(database: try LocalDatabase(path: path).addingAnn())
    let second = DatabaseClient.live(database: try LocalDatabase(path: path))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (offset, client) in [first, second].enumerated() {
        group.addTask {
          for index in 0..<20 {
            _ = try await client.saveFinishedGame(
              Fixture.annAsX(
                against: Fixture.guest, .win, at: Int64(offset * 100 + index) * 1_000))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await first.stats(.account(1)).wins == 40)
  }

  @Test func newerDatabaseIsRefused() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    try Database(path: path).execute("PRAGMA user_version = 99")
    #expect {
      _ = try LocalDatabase(path: path)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("newer version") == true
    }
    #expect(try Database(path: path).userVersion() == 99)
  }

  @Test func lockedDatabaseReportsTheLock() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let client = DatabaseClient.live(
      database: try LocalDatabase(path: path, busyTimeoutMilliseconds: 50).addingAnn())
    let holder = try Database(path: path)
    try holder.execute("BEGIN IMMEDIATE")
    await #expect {
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.guest, .win, at: 1_000))
    } throws: { error in
      (error as? DatabaseError)?.message.contains("locked by another program") == true
    }
    try holder.execute("ROLLBACK")
  }
}

struct LocationTests {
  /// A named pipe given as the database is refused with a sentence, not waited on: opening it
  /// to look for a server's lock would wait for a writer for ever.
  @Test func aNamedPipeIsRefusedWithoutWaiting() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("pipe.sqlite")
    try #require(mkfifo(path, 0o600) == 0)
    let answered = DispatchSemaphore(value: 0)
    let outcome = Mutex<String?>(nil)
    Thread.detachNewThread {
      do {
        _ = try LocalDatabase.open(explicitPath: path, environment: [:])
        outcome.withLock { $0 = "opened" }
      } catch {
        outcome.withLock { $0 = (error as? DatabaseError)?.message ?? "\(error)" }
      }
      answered.signal()
    }
    try #require(answered.wait(timeout: .now() + 10) == .success)
    #expect(
      outcome.withLock { $0 }
        == "The database \(path) is a pipe, a device or a socket, not a file; give the path of a "
        + "database file.")
  }

  @Test func explicitPathWinsOverEverything() throws {
    let location = try DatabaseLocation(
      explicitPath: "/tmp/a.sqlite",
      environment: ["TICTACTOE_DATABASE": "/tmp/b.sqlite", "XDG_DATA_HOME": "/x", "HOME": "/h"])
    #expect(location.path == "/tmp/a.sqlite")
    #expect(!location.isDefault)
  }

  @Test func environmentVariableWinsOverXDG() throws {
    let location = try DatabaseLocation(
      explicitPath: nil,
      environment: ["TICTACTOE_DATABASE": "/tmp/b.sqlite", "XDG_DATA_HOME": "/x"])
    #expect(location.path == "/tmp/b.sqlite")
    #expect(!location.isDefault)
  }

  @Test func xdgDataHomeThenHome() throws {
    let xdg = try DatabaseLocation(
      explicitPath: nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ann"])
    #expect(xdg.path == "/data/tictactoe/tictactoe.sqlite")
    #expect(xdg.isDefault)
    let home = try DatabaseLocation(
      explicitPath: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ann"])
    #expect(home.path == "/home/ann/.local/share/tictactoe/tictactoe.sqlite")
    #expect(home.folder == "/home/ann/.local/share/tictactoe")
  }

  /// An empty variable is a script's mistake, not a wish for the player's own database.
  @Test func anEmptyEnvironmentVariableIsRefused() {
    #expect(
      throws: DatabaseError(
        "TICTACTOE_DATABASE is set but empty; unset it to use the usual database, or set it to "
          + "a path.")
    ) {
      _ = try DatabaseLocation(
        explicitPath: nil, environment: ["TICTACTOE_DATABASE": "", "HOME": "/home/ann"])
    }
    for blank in [" ", "\n", "\t "] {
      #expect(throws: DatabaseError.self, "\(blank.debugDescription)") {
        _ = try DatabaseLocation(
          explicitPath: nil, environment: ["TICTACTOE_DATABASE": blank, "HOME": "/home/ann"])
      }
    }
    #expect(
      throws: DatabaseError(
        "TICTACTOE_DATABASE holds a control character (db\\u{1B}[2J.sqlite); set it to a path.")
    ) {
      _ = try DatabaseLocation(
        explicitPath: nil, environment: ["TICTACTOE_DATABASE": "db\u{1B}[2J.sqlite"])
    }
  }

  /// A variable whose bytes are not UTF-8 arrives with U+FFFD in their place, and would name
  /// another folder than the player's: it is refused where it is used, and only there.
  @Test func aVariableThatIsNotUTF8IsRefusedWhereItIsUsed() throws {
    for (name, environment) in [
      ("TICTACTOE_DATABASE", ["TICTACTOE_DATABASE": "/tmp/db-\u{FFFD}.sqlite"]),
      ("XDG_DATA_HOME", ["XDG_DATA_HOME": "/data-\u{FFFD}", "HOME": "/home/ann"]),
      ("HOME", ["HOME": "/home/\u{FFFD}"]),
    ] {
      #expect(
        throws: DatabaseError(
          "\(name) holds bytes that are not UTF-8 text, so it cannot name the database's place; "
            + "pass --database PATH.")
      ) { _ = try DatabaseLocation(explicitPath: nil, environment: environment) }
    }
    let unused = try DatabaseLocation(
      explicitPath: nil, environment: ["TICTACTOE_DATABASE": "/tmp/b.sqlite", "HOME": "/\u{FFFD}"])
    #expect(unused.path == "/tmp/b.sqlite")
  }

  @Test func noHomeIsAnError() {
    #expect(throws: DatabaseError.self) {
      _ = try DatabaseLocation(explicitPath: nil, environment: [:])
    }
  }

  @Test func defaultFolderIsCreatedPrivateAndTheFileIsOwnerOnly() throws {
    let folder = try TemporaryFolder()
    let database = try LocalDatabase.open(
      explicitPath: nil, environment: ["XDG_DATA_HOME": folder.file("data")])
    let path = folder.file("data/tictactoe/tictactoe.sqlite")
    #expect(database.path == path)
    #expect(try permissions(folder.file("data/tictactoe")) == 0o700)
    #expect(try permissions(path) == 0o600)
  }

  /// A server holds the database and the lock file beside it; a program creating the
  /// database holds the file alone for a moment, and is not taken for a server.
  @Test func onlyTheFileAndItsLockFileHeldTogetherAreAServer() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    _ = try LocalDatabase(path: path)
    let file = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(file) }
    #expect(flock(file, LOCK_EX | LOCK_NB) == 0)
    #expect(!LocalDatabase.isHeldByServer(path), "a creation in progress")
    let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
    #expect(LocalDatabase.isHeldByServer(path))
    flock(file, LOCK_UN)
    #expect(!LocalDatabase.isHeldByServer(path), "a lock file left held alone")
  }

  /// Reading (stats, history, replay, account list) a database not made yet makes nothing: no
  /// folder, no file, and nothing to read; a path in a missing folder is still refused.
  @Test func readingADatabaseThatIsNotThereMakesNothing() async throws {
    let folder = try TemporaryFolder()
    let database = try LocalDatabase.open(
      explicitPath: nil, environment: ["XDG_DATA_HOME": folder.file("data")], access: .reading)
    #expect(!FileManager.default.fileExists(atPath: folder.file("data")))
    let records = DatabaseClient.live(database: database)
    #expect(try await records.history(.guest, 10).isEmpty)
    #expect(try await records.stats(.guest) == Stats())
    // It takes no write, so nothing can seem saved.
    let unsaved = GameRecord(
      x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: [.b2], startedAt: 0)
    await #expect {
      try await records.saveGameInProgress(unsaved, .guest)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("read-only") == true
    }
    _ = try LocalDatabase.open(
      explicitPath: folder.file("games.sqlite"), environment: [:], access: .reading)
    #expect(!FileManager.default.fileExists(atPath: folder.file("games.sqlite")))
    #expect {
      _ = try LocalDatabase.open(
        explicitPath: folder.file("missing/games.sqlite"), environment: [:], access: .reading)
    } throws: { error in
      (error as? DatabaseError)?.message.contains("folder is missing") == true
    }
  }

  @Test func explicitPathInAMissingFolderIsAnErrorAndCreatesNothing() throws {
    let folder = try TemporaryFolder()
    #expect {
      _ = try LocalDatabase.open(
        explicitPath: folder.file("missing/games.sqlite"), environment: [:])
    } throws: { error in
      (error as? DatabaseError)?.message.contains("folder is missing") == true
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
  }
}
