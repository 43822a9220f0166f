import Foundation
import SQLite
import TestSupport
import Testing

/// Opening checks a file before anything writes to it, and creating makes a whole file or none.
struct OpeningTests {
  /// A closed database of several pages in write-ahead mode, as the program leaves one.
  private func realDatabase(in folder: TemporaryFolder) throws -> String {
    let path = folder.file("games.sqlite")
    let database = try Database(path: path)
    try database.execute(
      """
      CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE INDEX players_by_name ON players(name);
      """)
    try database.transaction { () throws(SQLiteError) in
      for index in 0..<400 {
        try database.run(
          "INSERT INTO players (name) VALUES (?)",
          .text("player \(index) " + String(repeating: "x", count: 40)))
      }
    }
    return path
  }

  @Test(arguments: [Database.OpenMode.readWriteCreate, .readWrite, .readOnly])
  func damagedPagesAreRefusedBeforeAnyWrite(mode: Database.OpenMode) throws {
    let folder = try TemporaryFolder()
    let path = try realDatabase(in: folder)
    let damaged = try damagePages(of: path)
    #expect {
      _ = try Database(path: path, mode: mode)
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .notADatabase
        && error.description
          == "The database \(path) is damaged or is not a database of this program; it was "
          + "left unchanged, so move it aside or restore a backup to go on."
    }
    #expect(contents(path) == damaged)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["games.sqlite"])
  }

  @Test func undamagedDatabasePassesTheCheckAndKeepsItsData() throws {
    let folder = try TemporaryFolder()
    let path = try realDatabase(in: folder)
    let reopened = try Database(path: path, mode: .readWrite)
    #expect(try reopened.query("SELECT count(*) FROM players")[0].get(0) == 400)
  }

  @Test func failedCreationLeavesNothingBehind() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    #expect(throws: SQLiteError.self) {
      try Database.create(at: path) { database throws(SQLiteError) in
        try database.execute("CREATE TABLE t (n INTEGER)")
        throw SQLiteError(kind: .full, code: 13, message: "database or disk is full")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func createdFileHoldsEverythingAndIsPrivate() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    let created = try Database.create(at: path) { database throws(SQLiteError) in
      try database.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (7)")
    }
    #expect(created)
    // No log or temporary file beside it: the schema and rows are in the file itself.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["games.sqlite"])
    #expect(try permissions(path) == 0o600)
    let database = try Database(path: path, mode: .readOnly)
    #expect(try database.query("SELECT n FROM t")[0].get(0) == 7)
    #expect(try database.journalMode() == "wal")
  }

  @Test func aLogLeftReadOnlyBecomesWritableWithTheFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    try Database(path: path).execute("CREATE TABLE t (n INTEGER)")
    // Read while the file was read-only: SQLite makes the log and index read-only too.
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
    do {
      let reader = try Database(path: path, mode: .readOnly)
      #expect(try reader.query("SELECT count(*) FROM t")[0].get(0) == 0)
      #expect(try permissions(path + "-shm") == 0o400)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    let writer = try Database(path: path)
    try writer.execute("INSERT INTO t VALUES (1)")
    #expect(try permissions(path + "-shm") == 0o600)
    #expect(try permissions(path + "-wal") == 0o600)
  }

  @Test func aReadOnlyOpeningLeavesTheModesAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    try Database(path: path).execute("CREATE TABLE t (n INTEGER)")
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
    _ = try Database(path: path, mode: .readOnly).query("SELECT count(*) FROM t")
    let writer = try? Database(path: path)
    #expect(writer == nil, "a file its owner made read-only stays read-only")
    #expect(try permissions(path) == 0o400)
    #expect(try permissions(path + "-shm") == 0o400)
  }

  @Test func creatingOverAnExistingFileKeepsIt() throws {
    let folder = try TemporaryFolder()
    let path = try realDatabase(in: folder)
    let before = contents(path)
    let created = try Database.create(at: path) { database throws(SQLiteError) in
      try database.execute("CREATE TABLE other (n INTEGER)")
    }
    #expect(!created)
    #expect(contents(path) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["games.sqlite"])
  }

  @Test func creationInAMissingFolderFailsAndCreatesNothing() throws {
    let folder = try TemporaryFolder()
    #expect {
      try Database.create(at: folder.file("missing/games.sqlite")) { _ in }
    } throws: { error in
      (error as? SQLiteError)?.kind == .cannotOpen
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}

/// What a creation killed part-way leaves beside the database is cleared at the next opening
/// that may write, unless a living process is still making it.
struct AbandonedCreationTests {
  private func names(in folder: TemporaryFolder) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  /// A creation killed after its file took the real name leaves the database with two names,
  /// which opening would refuse for good.
  @Test func aCreationKilledAfterItsLinkDoesNotLockTheDatabaseOut() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    let database = try Database(path: path)
    try database.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (7)")
    #expect(link(path, folder.file(".games.sqlite.new-AbCdEf")) == 0)
    let reopened = try Database(path: path, mode: .readWrite)
    #expect(try reopened.query("SELECT n FROM t")[0].get(0) == 7)
    #expect(!(try names(in: folder)).contains(".games.sqlite.new-AbCdEf"))
  }

  @Test func anAbandonedFileAndItsJournalGoAndAFileBeingMadeStays() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    _ = try Database(path: path)
    let abandoned = folder.file(".games.sqlite.new-Killed")
    #expect(FileManager.default.createFile(atPath: abandoned, contents: Data([1, 2, 3])))
    #expect(FileManager.default.createFile(atPath: abandoned + "-journal", contents: Data([4])))
    let orphan = folder.file(".games.sqlite.new-Gone00-wal")
    #expect(FileManager.default.createFile(atPath: orphan, contents: Data([5])))
    // One a living process holds, and one just made and not yet locked.
    let held = folder.file(".games.sqlite.new-Living")
    #expect(FileManager.default.createFile(atPath: held, contents: Data([6])))
    let holder = open(held, O_RDONLY)
    defer { close(holder) }
    #expect(flock(holder, LOCK_EX) == 0)
    let fresh = folder.file(".games.sqlite.new-Fresh0")
    #expect(FileManager.default.createFile(atPath: fresh, contents: Data()))
    // Empty, as when killed before SQLite wrote to it, and older than a creation takes.
    let empty = folder.file(".games.sqlite.new-Empty0")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -10)], ofItemAtPath: empty)
    // Another database's files in the same folder are not this one's, and files named alike
    // but not as a creation names them are someone's own.
    let other = folder.file(".other.sqlite.new-Killed")
    #expect(FileManager.default.createFile(atPath: other, contents: Data([7])))
    for name in [".games.sqlite.new-notes.txt", ".games.sqlite.new-", ".games.sqlite.new-AB-wal"] {
      #expect(FileManager.default.createFile(atPath: folder.file(name), contents: Data([8])))
    }
    _ = try Database(path: path, mode: .readWrite)
    #expect(
      try names(in: folder) == [
        ".games.sqlite.new-", ".games.sqlite.new-AB-wal", ".games.sqlite.new-Fresh0",
        ".games.sqlite.new-Living", ".games.sqlite.new-notes.txt", ".other.sqlite.new-Killed",
        "games.sqlite",
      ])
  }
}
