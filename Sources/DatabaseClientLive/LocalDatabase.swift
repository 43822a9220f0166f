public import DatabaseClient
public import SQLite
import Synchronization

/// The program's one SQLite database, opened, migrated and shared by the live clients.
///
/// Calls are serialised on one connection; SQLite's busy timeout covers other processes.
public final class LocalDatabase: Sendable {
  /// The file path, or `:memory:`.
  public let path: String

  private let connection: Mutex<Database>

  /// Opens (creating if missing) and migrates the database at a path.
  ///
  /// - Parameters:
  ///   - path: The file, whose folder must exist, or `:memory:`.
  ///   - busyTimeoutMilliseconds: How long to wait for another program's lock.
  /// - Throws: ``DatabaseError`` with one sentence; the file is never deleted or recreated.
  public init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(DatabaseError) {
    self.path = path
    do {
      let database = try Database(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
      try database.migrate(Schema.migrations)
      connection = Mutex(database)
    } catch {
      throw DatabaseError(error.description)
    }
  }

  /// Opens a private in-memory database, for tests and guest-only runs.
  ///
  /// - Throws: ``DatabaseError`` if SQLite cannot allocate it.
  public static func inMemory() throws(DatabaseError) -> LocalDatabase {
    try LocalDatabase(path: ":memory:")
  }

  /// Opens the database where PRODUCT.md §5 says it lives, creating the default folder.
  ///
  /// - Parameters:
  ///   - explicitPath: A `--database` path, which wins over everything.
  ///   - environment: The process environment.
  /// - Returns: The opened, migrated database.
  /// - Throws: ``DatabaseError`` with one sentence.
  public static func open(
    explicitPath: String?, environment: [String: String]
  ) throws(DatabaseError) -> LocalDatabase {
    let location = try DatabaseLocation(explicitPath: explicitPath, environment: environment)
    if location.isDefault {
      try location.createFolder()
    }
    return try LocalDatabase(path: location.path)
  }

  /// Runs a body with the connection, holding it for the body's duration.
  ///
  /// - Parameter body: Work on the connection; wrap writes in `database.transaction`.
  /// - Returns: What the body returns.
  /// - Throws: `SQLiteError` from the body.
  public func withConnection<Result: Sendable>(
    _ body: (Database) throws(SQLiteError) -> Result
  ) throws(SQLiteError) -> Result {
    try connection.withLock { (database: inout sending Database) throws(SQLiteError) -> Result in
      try body(database)
    }
  }
}
