public import DatabaseClient
import Glibc
public import SQLite
import Synchronization

/// The program's one SQLite database, opened, checked, migrated and shared by the live clients.
///
/// Calls are serialised on one connection; SQLite's busy timeout covers other processes.
public final class LocalDatabase: Sendable {
  /// What the program means to do with the database.
  public enum Access: Equatable, Sendable {
    /// Read and write: a file that cannot be written is refused.
    case writing
    /// Only read: a file that cannot be written is opened read-only, and any write to it
    /// throws the read-only sentence.
    case reading
  }

  /// The file path, or `:memory:`.
  public let path: String

  /// Whether the database was opened read-only, because it cannot be written and only
  /// reading was asked for.
  public let isReadOnly: Bool

  private let connection: Mutex<Database>
  /// The file's device and inode when it was opened (`nil` in memory), to notice it deleted
  /// or replaced while open.
  private let fileIdentity: [UInt64]?

  /// Opens the database at a path, creating it with the latest schema if it is missing.
  ///
  /// An existing file is checked before anything writes to it: a damaged file, a file of
  /// another program and a newer schema are refused and left byte for byte as they are. A
  /// missing file is created whole (schema included) or not at all.
  ///
  /// - Parameters:
  ///   - path: The file, whose folder must exist, or `:memory:`.
  ///   - access: Whether the caller writes, or only reads.
  ///   - busyTimeoutMilliseconds: How long to wait for another program's lock.
  /// - Throws: ``DatabaseError`` with one sentence; the file is never deleted or recreated.
  public init(
    path: String, access: Access = .writing, busyTimeoutMilliseconds: Int32 = 5_000
  ) throws(DatabaseError) {
    self.path = path
    do {
      let (database, isReadOnly) = try Self.open(
        path: path, access: access, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
      self.isReadOnly = isReadOnly
      connection = Mutex(database)
      fileIdentity = Self.identity(of: path)
    } catch {
      throw DatabaseError(error)
    }
  }

  private static func open(
    path: String, access: Access, busyTimeoutMilliseconds: Int32
  ) throws(SQLiteError) -> (Database, isReadOnly: Bool) {
    let migrations = Schema.migrations
    if path == ":memory:" || path.isEmpty {
      let database = try Database(path: path)
      try database.migrate(migrations)
      return (database, false)
    }
    // A missing file appears only with every table in it.
    try Database.create(at: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
      database throws(SQLiteError) in try database.migrate(migrations)
    }
    // Another program's database is refused before anything is written to it.
    let ownSchema = { (database: Database) throws(SQLiteError) in
      try requireOwnSchema(database, migrations: migrations)
    }
    let database: Database
    do {
      database = try Database(
        path: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
        accepting: ownSchema)
    } catch  where access == .reading && Database.isOnlyReadable(path, after: error) {
      let reader = try Database(
        path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
        accepting: ownSchema)
      let version = try reader.userVersion()
      guard version == migrations.count else {
        throw SQLiteError(
          kind: .readOnly, code: 8,
          message: "its schema (version \(version)) needs an upgrade that cannot be written",
          path: path)
      }
      return (reader, true)
    }
    try database.migrate(migrations)
    return (database, false)
  }

  /// Refuses a database of another program: schema version 0 with tables in it.
  private static func requireOwnSchema(
    _ database: Database, migrations: [String]
  ) throws(SQLiteError) {
    let version = try database.userVersion()
    if version > migrations.count {
      throw SQLiteError(
        kind: .schemaTooNew(found: version, known: migrations.count),
        message: "schema version \(version) is newer than \(migrations.count)",
        path: database.path)
    }
    guard version == 0 else { return }
    let tables: Int = try database.query("SELECT count(*) FROM sqlite_schema").first?.get(0) ?? 0
    guard tables == 0 else {
      throw SQLiteError(
        kind: .notADatabase, message: "tables of another program", path: database.path)
    }
  }

  /// The file `path` leads to, with symbolic links and `..` resolved, or `path` as it is when
  /// it cannot be resolved; locks kept beside a database go beside this name, so that every
  /// name of one file shares them.
  public static func resolvedPath(_ path: String) -> String {
    guard let name = realpath(path, nil) else { return path }
    defer { free(name) }
    return String(cString: name)
  }

  /// Opens a private in-memory database, for tests and guest-only runs.
  ///
  /// - Throws: ``DatabaseError`` if SQLite cannot allocate it.
  public static func inMemory() throws(DatabaseError) -> LocalDatabase {
    try LocalDatabase(path: ":memory:")
  }

  /// An empty database in memory that takes no write, for reading one that does not exist.
  private static func emptyForReading() throws(DatabaseError) -> LocalDatabase {
    let database = try inMemory()
    do {
      try database.connection.withLock { database throws(SQLiteError) in
        try database.execute("PRAGMA query_only = ON")
      }
    } catch {
      throw DatabaseError(error)
    }
    return database
  }

  /// Opens the database where PRODUCT.md §5 says it lives, creating the default folder; only
  /// reading one that does not exist yet creates nothing and reads an empty one.
  ///
  /// - Parameters:
  ///   - explicitPath: A `--database` path, which wins over everything.
  ///   - environment: The process environment.
  ///   - access: Whether the caller writes, or only reads.
  /// - Returns: The opened, checked, migrated database.
  /// - Throws: ``DatabaseError`` with one sentence.
  public static func open(
    explicitPath: String?, environment: [String: String], access: Access = .writing
  ) throws(DatabaseError) -> LocalDatabase {
    let location = try DatabaseLocation(explicitPath: explicitPath, environment: environment)
    var status = stat()
    let folderExists = stat(location.folder.isEmpty ? "." : location.folder, &status) == 0
    if access == .reading, lstat(location.path, &status) != 0, errno == ENOENT,
      location.isDefault || folderExists
    {
      // Reading a database that is not there yet makes none: it holds nothing, as an empty
      // one would (a path whose folder is missing is still refused, a likely mistake).
      return try emptyForReading()
    }
    if location.isDefault {
      try location.createFolder()
    }
    // Reading alongside the server is safe, and how an operator looks at its records; a
    // change behind its back (an account made or deleted) is not.
    if access == .writing, isHeldByServer(location.path) {
      throw DatabaseError(
        "The database \(location.path) belongs to a game server that is running; reach its "
          + "accounts and games with --server HOST:PORT, or stop the server first.",
        kind: .busy)
    }
    return try LocalDatabase(path: location.path, access: access)
  }

  /// Whether a running `tictactoe serve` holds the database at `path`.
  ///
  /// The server keeps an exclusive `flock` on the file, and on its lock file beside it, for as
  /// long as it runs (SQLite's own locks are `fcntl` locks, which this leaves alone). A
  /// program creating the database holds the file alone for a moment, and is no server.
  public static func isHeldByServer(_ path: String) -> Bool {
    isLockedByAnother(resolvedPath(path) + ".lock") && isLockedByAnother(path)
  }

  /// Whether another open file holds a `flock` on `path`.
  private static func isLockedByAnother(_ path: String) -> Bool {
    // Without blocking: a named pipe given as the database is refused later, not waited on.
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(descriptor, LOCK_UN)
    return false
  }

  /// The device and inode of the file at `path`, or `nil` for a database in memory or a path
  /// where nothing is.
  private static func identity(of path: String) -> [UInt64]? {
    guard path != ":memory:", !path.isEmpty else { return nil }
    var status = stat()
    guard stat(path, &status) == 0 else { return [] }
    return [UInt64(status.st_dev), UInt64(status.st_ino)]
  }

  /// Whether a program (this one included) plays the account's game on this database now.
  public func isPlaying(accountID: Int64) -> Bool {
    GameInProgressClaims.isHeld(.account(accountID), databasePath: path)
  }

  /// Runs a body with the connection, holding it for the body's duration.
  ///
  /// - Parameter body: Work on the connection; wrap writes in `database.transaction`.
  /// - Returns: What the body returns.
  /// - Throws: `SQLiteError` from the body.
  ///
  /// A file deleted or replaced since it was opened is refused (``SQLiteError/Kind/replaced``):
  /// whatever was written would be lost with the old file, while the program said it saved it.
  public func withConnection<Result: Sendable>(
    _ body: (Database) throws(SQLiteError) -> Result
  ) throws(SQLiteError) -> Result {
    if let fileIdentity, Self.identity(of: path) != fileIdentity {
      connection.withLock { (database: inout sending Database) in
        // The log beside the path is still this file's: its changes go into the file (wherever
        // it is now, if moved) and it is emptied, so that no database made or put at the path
        // later takes them for its own.
        _ = try? database.query("PRAGMA wal_checkpoint(TRUNCATE)")
      }
      throw SQLiteError(
        kind: .replaced, code: 0, message: "deleted or replaced while open", path: path)
    }
    return try connection.withLock {
      (database: inout sending Database) throws(SQLiteError) -> Result in
      try body(database)
    }
  }
}

extension DatabaseError {
  /// The error for a failure of SQLite: its sentence, and its kind for callers that act on it.
  ///
  /// - Parameter error: What SQLite or the wrapper reported.
  public init(_ error: SQLiteError) {
    let kind: Kind =
      switch error.kind {
      case .full: .full
      case .ioError: .ioError
      case .busy: .busy
      case .readOnly: .readOnly
      case .notADatabase, .typeMismatch: .corrupt
      case .cannotOpen, .hardLinked, .notAFile, .logUnreadable: .cannotOpen
      case .replaced: .gone
      case .schemaTooNew: .tooNew
      case .constraint: .invalidRequest
      case .other: .other
      }
    self.init(error.description, kind: kind)
  }
}
