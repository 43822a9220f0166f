import DatabaseClient
import Foundation
import GameRules
import SQLite
import TestSupport
import Testing

@testable import DatabaseClientLive

/// The database is checked before use, refused the same way everywhere when damaged, readable
/// when read-only, and every failed write says what failed.
struct IntegrityTests {
  /// A closed database with Ann's account and a dozen finished games.
  private func realDatabase(in folder: TemporaryFolder) async throws -> String {
    let path = folder.file("tictactoe.sqlite")
    let client = DatabaseClient.live(database: try LocalDatabase(path: path).addingAnn())
    for index in 0..<12 {
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.computer(.hard), .draw, at: Int64(index + 1) * 60_000))
    }
    return path
  }

  @Test(arguments: [LocalDatabase.Access.writing, .reading])
  func damagedDatabaseIsRefusedInOneSentenceAndLeftByteForByte(
    access: LocalDatabase.Access
  ) async throws {
    let folder = try TemporaryFolder()
    let path = try await realDatabase(in: folder)
    let damaged = try damagePages(of: path)
    #expect {
      _ = try LocalDatabase(path: path, access: access)
    } throws: { error in
      guard let error = error as? DatabaseError else { return false }
      return error.kind == .corrupt
        && error.message
          == "The database \(path) is damaged or is not a database of this program; it was "
          + "left unchanged, so move it aside or restore a backup to go on."
    }
    #expect(contents(path) == damaged)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tictactoe.sqlite"])
  }

  /// A database deleted, or replaced by another file, while it is open takes nothing more:
  /// what it took would be lost with the old file while the program said it was saved.
  @Test(arguments: [false, true])
  func aDatabaseDeletedOrReplacedWhileOpenTakesNothingMore(replaced: Bool) async throws {
    let folder = try TemporaryFolder()
    let path = try await realDatabase(in: folder)
    let client = DatabaseClient.live(database: try LocalDatabase(path: path))
    #expect(try await client.stats(.account(1)).draws == 12)
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    if replaced { _ = try LocalDatabase(path: path) }
    await #expect {
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.computer(.hard), .draw, at: 13 * 60_000))
    } throws: { error in
      (error as? DatabaseError)?.message
        == "The database \(path) was deleted or replaced while this program used it, so nothing "
        + "more can be saved in it."
    }
  }

  /// A database deleted while open, its log left beside the path: the log is emptied into the
  /// deleted file, so a database made at the path later starts clean rather than taking the old
  /// one's changes for its own.
  @Test func aDeletedDatabasesLogIsNotLeftForTheNextOne() async throws {
    let folder = try TemporaryFolder()
    let path = try await realDatabase(in: folder)
    do {
      let client = DatabaseClient.live(database: try LocalDatabase(path: path))
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.computer(.hard), .draw, at: 13 * 60_000))
      let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
      #expect((log ?? 0) > 0, "the game is in the log")
      unlink(path)
      await #expect(throws: DatabaseError.self) {
        _ = try await client.saveFinishedGame(
          Fixture.annAsX(against: Fixture.computer(.hard), .draw, at: 14 * 60_000))
      }
      let left = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
      #expect((left ?? 0) == 0, "the log was left with the deleted file's changes")
    }
    let fresh = DatabaseClient.live(database: try LocalDatabase(path: path).addingAnn())
    #expect(try await fresh.stats(.account(1)).games == 0)
    _ = try await fresh.saveFinishedGame(
      Fixture.annAsX(against: Fixture.computer(.hard), .draw, at: 15 * 60_000))
    #expect(try await fresh.stats(.account(1)).draws == 1)
  }

  @Test func readOnlyDatabaseIsReadableAndRefusesWritesInOneSentence() async throws {
    let folder = try TemporaryFolder()
    let path = try await realDatabase(in: folder)
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
    let before = contents(path)
    #expect {
      _ = try LocalDatabase(path: path, access: .writing)
    } throws: { error in
      (error as? DatabaseError)?.kind == .readOnly
    }
    let reader = try LocalDatabase(path: path, access: .reading)
    #expect(reader.isReadOnly)
    let client = DatabaseClient.live(database: reader)
    #expect(try await client.stats(.account(1)).draws == 12)
    #expect(try await client.history(.account(1), 100).count == 12)
    #expect(try await client.game(1)?.moves.count == 9)
    await #expect {
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.guest, .win, at: 999_000))
    } throws: { error in
      guard let error = error as? DatabaseError else { return false }
      return error.kind == .readOnly
        && error.message.hasPrefix("The database \(path) is read-only, so nothing can be saved")
    }
    #expect(contents(path) == before)
  }

  @Test func databaseOfAnotherProgramIsRefusedAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    do {
      let other = try Database(path: path)
      try other.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
    }
    let before = contents(path)
    #expect {
      _ = try LocalDatabase(path: path)
    } throws: { error in
      (error as? DatabaseError)?.kind == .corrupt
    }
    #expect(contents(path) == before)
    let tables = try Database(path: path, mode: .readOnly).query(
      "SELECT name FROM sqlite_schema WHERE type = 'table'")
    #expect(tables.map { $0[0] } == [.text("notes")])
  }

  @Test func newDatabaseAppearsWithEveryTableOrNotAtAll() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    _ = try LocalDatabase(path: path)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
        !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
      } == ["tictactoe.sqlite"])
    let reader = try Database(path: path, mode: .readOnly)
    #expect(try reader.userVersion() == Schema.migrations.count)
  }

  // MARK: - Failed writes

  @Test func fullDatabaseFailsTheWriteWithItsKindAndStoresNothing() async throws {
    let database = try LocalDatabase.inMemory().addingAnn()
    let client = DatabaseClient.live(database: database)
    _ = try await client.saveFinishedGame(Fixture.annAsX(against: Fixture.guest, .win, at: 1_000))
    // No page may be added from here on: the next game does not fit. The pages the migrations
    // freed (version 4 rebuilds the game tables) are given back first, or games would fill them.
    try database.withConnection { database throws(SQLiteError) in
      try database.execute("VACUUM")
      let pages: Int = try database.query("PRAGMA page_count")[0].get(0)
      try database.execute("PRAGMA max_page_count = \(pages)")
    }
    var saved = 1
    var failure: DatabaseError?
    for index in 0..<200 {
      do {
        _ = try await client.saveFinishedGame(
          Fixture.annAsX(against: Fixture.guest, .win, at: Int64(index + 2) * 1_000))
        saved += 1
      } catch let error as DatabaseError {
        failure = error
        break
      }
    }
    let error = try #require(failure)
    #expect(error.kind == .full)
    #expect(error.message.contains("the disk is full"))
    // Every save that returned is stored, and the one that threw left no trace.
    #expect(try await client.history(.account(1), 1_000).count == saved)
    #expect(try await client.stats(.account(1)).wins == saved)
  }

  @Test func lockedDatabaseFailsTheWriteAsBusy() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let client = DatabaseClient.live(
      database: try LocalDatabase(path: path, busyTimeoutMilliseconds: 50).addingAnn())
    let holder = try Database(path: path)
    try holder.execute("BEGIN IMMEDIATE")
    await #expect {
      try await client.saveGameInProgress(
        Fixture.annAsX(against: Fixture.guest, .win, at: 1_000), .account(1))
    } throws: { error in
      (error as? DatabaseError)?.kind == .busy
    }
    try holder.execute("ROLLBACK")
    #expect(try await client.loadGameInProgress(.account(1)) == nil)
  }

  // MARK: - Names read back

  @Test func namesReadFromTheDatabaseFollowTheNameRule() async throws {
    let database = try LocalDatabase.inMemory()
    try database.withConnection { database throws(SQLiteError) in
      try database.execute(
        """
        INSERT INTO games (x_name, o_name, board_rows, board_columns, k, first_mover, result,
          started_at, ended_at)
        VALUES (char(27) || '[2J' || char(27) || ']0;PWNED' || char(7), '  Bob  ', 3, 3, 3, 'x',
          'draw', 1, 2),
          (char(0) || 'Eve', 'Bob', 3, 3, 3, 'x', 'draw', 1, 2);
        """)
    }
    let record = try #require(try await DatabaseClient.live(database: database).game(1))
    // Escaped, then cut to the longest name: printable, and within the rule's length.
    #expect(record.x.name.hasPrefix("\\u{1B}[2J\\u{1B}]0;"))
    #expect(record.x.name.hasSuffix("…") && record.x.name.count == Name.maximumLength)
    #expect(record.x.name.unicodeScalars.allSatisfy { $0.isPrintable })
    #expect(record.o.name == "Bob")
    // A NUL inside a name neither cuts it short nor reaches a terminal.
    let nul = try #require(try await DatabaseClient.live(database: database).game(2))
    #expect(nul.x.name == "\\u{0}Eve")
  }
}
