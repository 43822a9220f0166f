import Glibc
import Testing

@testable import SQLite

/// Reading a database whose folder or file system cannot take the log a reader makes (the
/// end-to-end faults script mounts a read-only file system for the whole path).
struct ReadOnlyFolderTests {
  @Test func theImmutableURIEscapesWhatAURIWouldReadOtherwise() {
    #expect(
      Database.immutableURI("/tmp/a b/%#?é~_-.sqlite")
        == "file:/tmp/a%20b/%25%23%3F%C3%A9~_-.sqlite?immutable=1")
    #expect(Database.immutableURI("games.sqlite") == "file:games.sqlite?immutable=1")
  }

  @Test func aLogThatCannotBeMadeOnAReadOnlyFileSystemIsCalledReadOnly() {
    // SQLITE_CANTOPEN with EROFS: the file exists, its file system is mounted read-only.
    #expect(SQLiteError.kind(forResultCode: 14, systemError: EROFS) == .readOnly)
    #expect(SQLiteError.kind(forResultCode: 14, systemError: ENOENT) == .cannotOpen)
  }

  @Test func aLogWithChangesThatCannotBeReadSaysWhatWouldReadIt() {
    // The end-to-end faults script makes the case on a read-only file system.
    let error = SQLiteError(
      kind: .logUnreadable, code: 14, message: "unable to open database file",
      path: "/srv/games.sqlite", systemError: ENOENT)
    #expect(
      error.description
        == "The database /srv/games.sqlite cannot be read here: its log (/srv/games.sqlite-wal) "
        + "holds changes not yet in the file, which can be read only where something can be "
        + "written beside it; open it once its folder can be written (or the disk has room), or "
        + "copy the folder where it can.")
  }

  @Test func aFileOpenedAsImmutableReadsItsRowsAtAPathThatNeedsEscaping() throws {
    let folder = "/tmp/tictactoe-immutable-\(getpid()) #%"
    mkdir(folder, 0o700)
    defer {
      for name in ["t.sqlite", "t.sqlite-wal", "t.sqlite-shm"] { unlink("\(folder)/\(name)") }
      rmdir(folder)
    }
    let path = "\(folder)/t.sqlite"
    do {
      let writer = try Database(path: path)
      try writer.execute("CREATE TABLE t (v INTEGER)")
      try writer.run("INSERT INTO t VALUES (?)", 42)
    }
    // Closed: no log is left, so the reader may read the file as it is.
    #expect(access("\(path)-wal", F_OK) != 0)
    // 1 is SQLITE_OPEN_READONLY.
    let reader = try Database(
      opening: path, flags: 1, busyTimeoutMilliseconds: 1_000, asImmutable: true)
    #expect(try reader.query("SELECT v FROM t").first?.get(0) == 42)
  }
}
