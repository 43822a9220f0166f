import Foundation
import SQLite
import TestSupport
import Testing

struct FailureTests {
  @Test func fileOfRandomBytesIsRejectedAndLeftUnchanged() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    var generator = SeededBytes(seed: 42)
    let garbage = generator.next(8_192)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
    #expect {
      _ = try Database(path: path)
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .notADatabase && error.code == 26
        && error.description.hasPrefix("The database \(path) is damaged or is not a database")
    }
    #expect(contents(path) == garbage)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["games.sqlite"])
  }

  @Test func readOnlyFileIsRejectedForWritingAndLeftUnchanged() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    do {
      let database = try Database(path: path)
      try database.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)")
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    let before = contents(path)
    #expect {
      _ = try Database(path: path)
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .readOnly && error.description.contains("is read-only")
    }
    #expect(contents(path) == before)
    #expect(try permissions(path) == 0o444)
    // Refused before any connection: no log or index was left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["games.sqlite"])
  }

  @Test func readOnlyModeReadsButRefusesWrites() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    do {
      let database = try Database(path: path)
      try database.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)")
    }
    let reader = try Database(path: path, mode: .readOnly)
    #expect(try reader.query("SELECT n FROM t")[0].get(0) == 1)
    #expect {
      try reader.run("INSERT INTO t VALUES (2)")
    } throws: { error in
      (error as? SQLiteError)?.kind == .readOnly
    }
  }

  @Test func missingFolderIsReportedAndNotCreated() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("missing/games.sqlite")
    #expect {
      _ = try Database(path: path)
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .cannotOpen && error.description.contains("folder is missing")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
  }

  @Test(arguments: [Database.OpenMode.readWriteCreate, .readWrite, .readOnly])
  func aPipeOrADeviceIsRefusedAtOnce(_ mode: Database.OpenMode) throws {
    // SQLite would wait for a writer at a pipe for ever, and read nothing from a device.
    let folder = try TemporaryFolder()
    let pipe = folder.file("games.sqlite")
    #expect(mkfifo(pipe, 0o600) == 0)
    let link = folder.file("null.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    for path in [pipe, link, "/dev/zero"] {
      #expect {
        _ = try Database(path: path, mode: mode)
      } throws: { error in
        guard let error = error as? SQLiteError else { return false }
        return error.kind == .notAFile
          && error.description
            == "The database \(path) is a pipe, a device or a socket, not a file; give the path "
            + "of a database file."
      }
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "games.sqlite", "null.sqlite",
      ])
  }

  @Test func aNameTooLongIsSaidSo() throws {
    let folder = try TemporaryFolder()
    let path = folder.file(String(repeating: "a", count: 300) + ".sqlite")
    #expect {
      _ = try Database(path: path)
    } throws: { error in
      (error as? SQLiteError)?.description
        == "The database \(path) cannot be opened: its path or a name in it is too long."
    }
  }

  @Test func missingFileIsNotCreatedWithoutTheCreateMode() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    #expect {
      _ = try Database(path: path, mode: .readWrite)
    } throws: { error in
      (error as? SQLiteError)?.kind == .cannotOpen
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func writerWaitsThenReportsAConnectionHoldingTheWriteLock() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    let holder = try Database(path: path)
    try holder.execute("CREATE TABLE t (n INTEGER)")
    try holder.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
    let other = try Database(path: path, busyTimeoutMilliseconds: 50)
    let before = contents(path)
    #expect {
      try other.transaction { () throws(SQLiteError) in
        try other.run("INSERT INTO t VALUES (2)")
      }
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .busy && error.description.contains("locked by another program")
    }
    #expect(contents(path) == before)
    try holder.execute("COMMIT")
    try other.run("INSERT INTO t VALUES (2)")
    #expect(try other.query("SELECT count(*) FROM t")[0].get(0) == 2)
  }

  @Test func exclusiveLockBlocksOpeningAndLeavesTheFileUnchanged() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    let holder = try Database(path: path)
    try holder.execute("CREATE TABLE t (n INTEGER)")
    try holder.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)")
    let before = contents(path)
    #expect {
      _ = try Database(path: path, busyTimeoutMilliseconds: 50)
    } throws: { error in
      (error as? SQLiteError)?.kind == .busy
    }
    #expect(contents(path) == before)
    #expect(FileManager.default.fileExists(atPath: path))
  }
}
