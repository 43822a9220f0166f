import Foundation
import SQLite
import TestSupport
import Testing

struct DatabaseTests {
  @Test func valuesRoundTripWithTheirTypes() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
    let blob: [UInt8] = [0, 1, 254, 255]
    try database.run(
      "INSERT INTO t VALUES (?, ?, ?, ?, ?)", SQLiteValue(Int.min), 2.5, "héllo ✕◯", .blob(blob),
      SQLiteValue(String?.none))
    let row = try #require(try database.query("SELECT i, r, s, b, n FROM t").first)
    #expect(try row.get(0) == Int.min)
    #expect(try row.get(1) == 2.5)
    #expect(try row.get(2) == "héllo ✕◯")
    #expect(try row.get(3) == blob)
    #expect(try row.get(4, as: String?.self) == nil)
    #expect(row[4] == .null)
  }

  @Test func textHoldingANULKeepsAllOfIt() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (s TEXT)")
    try database.run("INSERT INTO t VALUES (?)", "a\u{0}b")
    try database.execute("INSERT INTO t VALUES ('c' || char(0) || 'd')")
    let rows = try database.query("SELECT s, length(CAST(s AS BLOB)) FROM t ORDER BY rowid")
    #expect(try rows.map { try $0.get(0, as: String.self) } == ["a\u{0}b", "c\u{0}d"])
    #expect(try rows.map { try $0.get(1, as: Int.self) } == [3, 3])
  }

  @Test func emptyBlobStaysABlobAndEmptyTextStaysText() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (b BLOB, s TEXT)")
    try database.run("INSERT INTO t VALUES (?, ?)", .blob([]), "")
    let row = try #require(try database.query("SELECT b, s FROM t").first)
    #expect(row.values == [.blob([]), .text("")])
  }

  @Test func readingTheWrongTypeThrowsATypeMismatch() throws {
    let database = try Database.inMemory()
    let row = try #require(try database.query("SELECT 'text', NULL").first)
    #expect {
      _ = try row.get(0, as: Int.self)
    } throws: { error in
      (error as? SQLiteError)?.kind
        == .typeMismatch(column: 0, expected: "an integer", found: "text")
    }
    #expect(throws: SQLiteError.self) { _ = try row.get(1, as: String.self) }
    #expect(try row.get(1, as: Int?.self) == nil)
  }

  @Test func preparedStatementsCanBeReboundAndReused() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (n INTEGER)")
    let insert = try database.prepare("INSERT INTO t VALUES (?)")
    for value in 1...3 {
      try insert.bind([SQLiteValue(value)])
      #expect(try insert.step() == nil)
    }
    let rows = try database.query("SELECT n FROM t WHERE n >= ? ORDER BY n", 2)
    #expect(try rows.map { try $0.get(0, as: Int.self) } == [2, 3])
    #expect(database.lastInsertRowID == 3)
  }

  @Test func bindingTheWrongNumberOfValuesIsAnError() throws {
    let database = try Database.inMemory()
    #expect(throws: SQLiteError.self) { try database.run("SELECT ?, ?", 1) }
  }

  @Test func syntaxErrorsCarrySQLitesMessageAndCode() throws {
    let database = try Database.inMemory()
    #expect {
      try database.execute("SELEC 1")
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.code == 1 && error.message.contains("syntax error") && error.kind == .other
    }
  }

  @Test func constraintViolationsHaveTheExtendedCode() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (n INTEGER UNIQUE)")
    try database.run("INSERT INTO t VALUES (1)")
    #expect {
      try database.run("INSERT INTO t VALUES (1)")
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      // SQLITE_CONSTRAINT_UNIQUE, only visible with extended result codes.
      return error.kind == .constraint && error.code == 2067 && error.message.contains("UNIQUE")
    }
  }

  @Test func foreignKeysAreEnforced() throws {
    let database = try Database.inMemory()
    try database.execute(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent INTEGER NOT NULL REFERENCES parent(id));
      """)
    #expect(throws: SQLiteError.self) { try database.run("INSERT INTO child VALUES (7)") }
  }

  @Test func deferredTransactionReadsOneSnapshotWhileAnotherConnectionWrites() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    let reader = try Database(path: path)
    try reader.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)")
    let writer = try Database(path: path, busyTimeoutMilliseconds: 50)
    func count(_ database: Database) throws(SQLiteError) -> Int? {
      try database.query("SELECT COUNT(*) FROM t").first?.get(0)
    }
    let counts = try reader.transaction(.deferred) { () throws(SQLiteError) -> [Int?] in
      let before = try count(reader)
      // In WAL mode the writer is not blocked by the reader's open snapshot.
      try writer.transaction { () throws(SQLiteError) in
        try writer.run("INSERT INTO t VALUES (2)")
      }
      return [before, try count(reader)]
    }
    #expect(counts == [1, 1])
    #expect(try count(reader) == 2)
  }

  @Test func transactionCommitsWhenTheBodyReturns() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (n INTEGER)")
    let count = try database.transaction { () throws(SQLiteError) in
      try database.run("INSERT INTO t VALUES (1)")
      try database.run("INSERT INTO t VALUES (2)")
      return try database.query("SELECT count(*) FROM t")[0].get(0, as: Int.self)
    }
    #expect(count == 2)
    #expect(try database.query("SELECT count(*) FROM t")[0].get(0) == 2)
  }

  @Test func transactionRollsBackWhenTheBodyThrows() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (n INTEGER UNIQUE)")
    #expect(throws: SQLiteError.self) {
      try database.transaction { () throws(SQLiteError) in
        try database.run("INSERT INTO t VALUES (1)")
        try database.run("INSERT INTO t VALUES (1)")
      }
    }
    #expect(try database.query("SELECT count(*) FROM t")[0].get(0) == 0)
  }

  @Test func nestedTransactionRollsBackOnlyItsOwnWork() throws {
    let database = try Database.inMemory()
    try database.execute("CREATE TABLE t (n INTEGER UNIQUE)")
    try database.transaction { () throws(SQLiteError) in
      try database.run("INSERT INTO t VALUES (1)")
      try? database.transaction { () throws(SQLiteError) in
        try database.run("INSERT INTO t VALUES (2)")
        try database.run("INSERT INTO t VALUES (1)")
      }
      try database.run("INSERT INTO t VALUES (3)")
    }
    let rows = try database.query("SELECT n FROM t ORDER BY n")
    #expect(try rows.map { try $0.get(0, as: Int.self) } == [1, 3])
  }

  @Test func inMemoryDatabasesReportMemoryJournalMode() throws {
    #expect(try Database.inMemory().journalMode() == "memory")
  }

  @Test func filesUseWriteAheadLoggingFullSyncAndPrivatePermissions() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    let database = try Database(path: path)
    #expect(try database.journalMode() == "wal")
    // FULL (2): every commit reaches the disk before it is reported.
    #expect(try database.query("PRAGMA synchronous")[0].get(0) == 2)
    #expect(try database.query("PRAGMA foreign_keys")[0].get(0) == 1)
    try database.execute("CREATE TABLE t (n INTEGER)")
    #expect(try permissions(path) == 0o600)
  }

  @Test func dataSurvivesClosingAndReopening() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    do {
      let database = try Database(path: path)
      try database.execute("CREATE TABLE t (s TEXT)")
      try database.run("INSERT INTO t VALUES ('kept')")
    }
    let reopened = try Database(path: path, mode: .readWrite)
    #expect(try reopened.query("SELECT s FROM t")[0].get(0) == "kept")
  }
}
