import CSQLite
import Glibc

// SQLITE_TRANSIENT is a macro: it tells SQLite to copy bound text and blobs, which must happen
// because Swift's bridged pointers die when the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A connection to an SQLite database.
///
/// Opening an existing file first checks it (`PRAGMA quick_check`) on a read-only connection,
/// so a damaged file is refused before anything could write to it; then a writing connection
/// turns on write-ahead logging, `synchronous = FULL` and foreign keys, and waits up to the
/// busy timeout for other connections' locks. A missing file is created whole or not at all
/// (see ``create(at:preparing:)``). Every failure throws `SQLiteError`; a file is never
/// deleted or recreated.
///
/// A connection is not thread-safe as a value: share it behind a lock or an actor.
public final class Database {
  /// How to open the file.
  public enum OpenMode: Equatable, Sendable {
    /// Read and write, creating an empty database (mode 0600) if the file is missing; its
    /// folder must exist.
    case readWriteCreate
    /// Read and write an existing file.
    case readWrite
    /// Read an existing file only.
    case readOnly
  }

  /// The file path, or `:memory:`.
  public let path: String

  let handle: OpaquePointer

  private var savepointDepth = 0

  /// Whether this connection lives in memory only.
  public var isInMemory: Bool { Self.isInMemory(path) }

  /// Whether this connection only reads.
  public let isReadOnly: Bool

  /// Opens a connection.
  ///
  /// - Parameters:
  ///   - path: A file path, or `:memory:` for a private in-memory database.
  ///   - mode: Whether to write and create.
  ///   - busyTimeoutMilliseconds: How long to wait for another connection's lock.
  ///   - accepting: Checks the file on a connection that cannot write, before anything is
  ///     written to it (the switch to write-ahead logging, the owner-only mode): a file it
  ///     refuses is left exactly as it was found.
  /// - Throws: `SQLiteError`: `.cannotOpen` for a missing folder or file, `.notADatabase` for
  ///   a file that is not a database or fails the check (it is left unchanged), `.readOnly`
  ///   when writing was asked for but is impossible, `.busy` when locked, `.full` when a new
  ///   file does not fit on the disk, and whatever `accepting` throws.
  public convenience init(
    path: String, mode: OpenMode = .readWriteCreate, busyTimeoutMilliseconds: Int32 = 5_000,
    accepting: (Database) throws(SQLiteError) -> Void = { _ in }
  ) throws(SQLiteError) {
    if Self.isInMemory(path) {
      try self.init(
        opening: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
        busyTimeoutMilliseconds: busyTimeoutMilliseconds)
      try execute("PRAGMA foreign_keys = ON")
      return
    }
    guard !FileSystem.isSpecialFile(path) else {
      throw SQLiteError(kind: .notAFile, message: "not a file", path: path)
    }
    if mode != .readOnly { FileSystem.removeAbandonedTemporaryFiles(beside: path) }
    if mode == .readWriteCreate {
      try Self.create(at: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) { _ in }
    }
    // A file another program is creating has two names for an instant, until its temporary
    // one is removed.
    var names = FileSystem.linkCount(path)
    for _ in 0..<20 where names > 1 {
      usleep(10_000)
      names = FileSystem.linkCount(path)
    }
    guard names <= 1 else {
      throw SQLiteError(kind: .hardLinked(names: names), message: "\(names) links", path: path)
    }
    if mode != .readOnly, FileSystem.ownerCanWrite(path) {
      FileSystem.restoreOwnerWrite([path + "-wal", path + "-shm"])
    }
    if mode == .readOnly {
      // Check on a connection that cannot write (as below). A reader of a database in
      // write-ahead-log mode makes the log and its index beside the file, which a read-only
      // folder or file system, or a full disk, does not allow; where no log with pages is
      // there, every committed change is in the file itself, which is then read as a file
      // nothing changes.
      var isImmutable = false
      do {
        try Self.check(
          path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, accepting: accepting)
      } catch  where Self.isOnlyReadable(path, after: error) {
        // Read as it is, the file would lack the log's changes.
        guard !FileSystem.hasLogWithPages(path) else {
          throw SQLiteError(
            kind: .logUnreadable, code: error.code, message: error.message, path: path,
            systemError: error.systemError)
        }
        try Self.check(
          path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, accepting: accepting,
          asImmutable: true)
        isImmutable = true
      }
      try self.init(
        opening: path, flags: SQLITE_OPEN_READONLY,
        busyTimeoutMilliseconds: busyTimeoutMilliseconds, asImmutable: isImmutable)
      try execute("PRAGMA foreign_keys = ON")
      return
    }
    // A file that can be read but not written is refused before any connection opens it: even
    // a reader of a file in write-ahead-log mode leaves a log and its index beside it. The
    // owner's write bit is honoured too, because root ignores it and would otherwise write a
    // protected file.
    if FileSystem.exists(path), access(path, R_OK) == 0,
      !FileSystem.ownerCanWrite(path) || access(path, W_OK) != 0
    {
      throw Self.readOnlyError(path)
    }
    // Check on a connection that cannot write: it neither rolls back a journal nor
    // checkpoints a log into a damaged file.
    do {
      try Self.check(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, accepting: accepting)
    } catch  where error.kind == .cannotOpen && FileSystem.exists(path) {
      // A file this user cannot read is that, whatever its folder allows.
      guard access(path, R_OK) == 0 else { throw error }
      throw Self.unwritableFolder(of: path) ?? error
    }
    try self.init(
      opening: path, flags: SQLITE_OPEN_READWRITE,
      busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    // SQLite silently falls back to read-only for files it cannot write (one made unwritable
    // since the check above).
    if sqlite3_db_readonly(handle, "main") == 1 { throw Self.readOnlyError(path) }
    // A file made elsewhere (an empty file, a copy) may be open to others; this connection
    // writes private data to it, so it and its log become its owner's only.
    FileSystem.restrictToOwner([path, path + "-wal", path + "-shm"])
    let journalMode = try query("PRAGMA journal_mode = WAL").first?[0]
    guard journalMode == .text("wal") else {
      throw SQLiteError(
        kind: .other, message: "write-ahead logging could not be turned on", path: path)
    }
    // FULL syncs the log at every commit, so a committed change survives a power cut as well
    // as a killed process.
    try execute("PRAGMA synchronous = FULL")
    try execute("PRAGMA foreign_keys = ON")
  }

  /// Opens a private in-memory database.
  ///
  /// - Throws: `SQLiteError` if SQLite cannot allocate it.
  public static func inMemory() throws(SQLiteError) -> Database {
    try Database(path: ":memory:")
  }

  /// Opens a handle with the given flags and nothing else; `asImmutable` reads the file as one
  /// nothing changes (no locks, no log).
  init(
    opening path: String, flags: Int32, busyTimeoutMilliseconds: Int32, asImmutable: Bool = false
  ) throws(SQLiteError) {
    self.path = path
    isReadOnly = flags & SQLITE_OPEN_READONLY != 0
    let errorPath = Self.isInMemory(path) ? nil : path
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(
      asImmutable ? Self.immutableURI(path) : path, &opened,
      flags | SQLITE_OPEN_FULLMUTEX | (asImmutable ? SQLITE_OPEN_URI : 0), nil)
    guard let opened else {
      throw SQLiteError(kind: .other, code: status, message: "out of memory", path: errorPath)
    }
    guard status == SQLITE_OK else {
      let message = String(cString: sqlite3_errmsg(opened))
      let code = sqlite3_extended_errcode(opened)
      let systemError = SQLiteError.systemError(of: opened, code: code)
      sqlite3_close_v2(opened)
      throw SQLiteError(
        kind: SQLiteError.kind(forResultCode: code, systemError: systemError), code: code,
        message: message, path: errorPath, systemError: systemError)
    }
    handle = opened
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  private static func isInMemory(_ path: String) -> Bool { path == ":memory:" || path.isEmpty }

  /// The error for a database file this user may read but not write.
  private static func readOnlyError(_ path: String) -> SQLiteError {
    SQLiteError(
      kind: .readOnly, code: 8, message: "attempt to write a readonly database", path: path)
  }

  /// The error for a database that exists but whose folder cannot take the log a connection
  /// makes beside it, or `nil` when the folder can be written.
  private static func unwritableFolder(of path: String) -> SQLiteError? {
    let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
    guard access(folder, W_OK) != 0 else { return nil }
    let reason = errno
    return SQLiteError(
      kind: .readOnly, code: 8,
      message: reason == EROFS ? "Read-only file system" : "its folder cannot be written",
      path: path, systemError: reason)
  }

  /// Whether opening the existing file at `path` failed because nothing can be written where
  /// it lies (the file, its folder or file system is read-only, or the disk is full, which
  /// refuses even the log and index a reader makes): a reader may still open it read-only.
  public static func isOnlyReadable(_ path: String, after error: SQLiteError) -> Bool {
    [.readOnly, .cannotOpen, .full].contains(error.kind) && FileSystem.exists(path)
  }

  /// The URI that opens `path` as an immutable file, its bytes percent-encoded where a URI
  /// would read them otherwise.
  static func immutableURI(_ path: String) -> String {
    var uri = "file:"
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        uri += "%"
        uri.unicodeScalars.append(digits[Int(byte >> 4)])
        uri.unicodeScalars.append(digits[Int(byte & 15)])
      }
    }
    return uri + "?immutable=1"
  }

  /// Checks the file on a read-only connection; when it is refused, removes the empty log and
  /// index files that connection made, so a refused file is left exactly as it was found.
  private static func check(
    _ path: String, busyTimeoutMilliseconds: Int32,
    accepting: (Database) throws(SQLiteError) -> Void = { _ in }, asImmutable: Bool = false
  ) throws(SQLiteError) {
    let sideFiles = [path + "-wal", path + "-shm"].filter { !FileSystem.exists($0) }
    do {
      let checker = try Database(
        opening: path, flags: SQLITE_OPEN_READONLY,
        busyTimeoutMilliseconds: busyTimeoutMilliseconds, asImmutable: asImmutable)
      try checker.checkIntegrity()
      try accepting(checker)
    } catch {
      switch error.kind {
      case .notADatabase, .schemaTooNew: FileSystem.removeEmptyFiles(sideFiles)
      default: break
      }
      throw error
    }
  }

  /// Refuses a file that is not a database or whose pages are damaged.
  ///
  /// Reading the schema makes a file of another kind or a locked file fail here; the quick
  /// check then reads every page of every table and index.
  private func checkIntegrity() throws(SQLiteError) {
    _ = try query("SELECT count(*) FROM sqlite_schema")
    let rows = try query("PRAGMA quick_check")
    guard rows.count == 1, rows[0][0] == .text("ok") else {
      let finding: String = rows.first.flatMap { try? $0.get(0, as: String.self) } ?? "no answer"
      throw SQLiteError(
        kind: .notADatabase, code: 11, message: "the quick check found: \(finding)", path: path)
    }
  }

  // MARK: - Creating

  /// Creates a database file whole or not at all.
  ///
  /// The database is built in a temporary file beside `path` (mode 0600), prepared by `body`
  /// (such as running migrations), switched to write-ahead logging, synced, and only then
  /// linked into place. If anything fails, the temporary file is removed and nothing is left
  /// at `path`; if another program created `path` meanwhile, its file is kept.
  ///
  /// - Parameters:
  ///   - path: The file to create; its folder must exist.
  ///   - busyTimeoutMilliseconds: How long the preparing connection waits for locks.
  ///   - body: Work on the new database before it appears at `path`.
  /// - Returns: `true` if this call created the file, `false` if it already existed.
  /// - Throws: `SQLiteError`: `.cannotOpen` for a missing folder, `.full` when the disk is
  ///   full, `.readOnly` on a read-only file system, or the body's error.
  @discardableResult
  public static func create(
    at path: String, busyTimeoutMilliseconds: Int32 = 5_000,
    preparing body: (Database) throws(SQLiteError) -> Void
  ) throws(SQLiteError) -> Bool {
    guard !FileSystem.exists(path) else { return false }
    let (temporary, lock) = try FileSystem.createTemporaryFile(beside: path)
    defer { close(lock) }
    do throws(SQLiteError) {
      do {
        let database = try Database(
          opening: temporary, flags: SQLITE_OPEN_READWRITE,
          busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try database.execute("PRAGMA foreign_keys = ON")
        try body(database)
        let journalMode = try database.query("PRAGMA journal_mode = WAL").first?[0]
        guard journalMode == .text("wal") else {
          throw SQLiteError(
            kind: .other, message: "write-ahead logging could not be turned on", path: path)
        }
      }
      // Closing the only connection emptied and removed the log, so the file holds
      // everything; make it durable before it takes the real name.
      try FileSystem.requireNoLog(temporary, reportedAs: path)
      try FileSystem.sync(temporary, reportedAs: path)
      let created = try FileSystem.linkIfMissing(temporary, to: path)
      FileSystem.removeDatabaseFiles(temporary)
      if created { FileSystem.syncFolder(of: path) }
      return created
    } catch {
      FileSystem.removeDatabaseFiles(temporary)
      throw SQLiteError(
        kind: error.kind, code: error.code, message: error.message, path: path)
    }
  }

  // MARK: - Running SQL

  /// Runs one or more SQL statements that return no rows, such as a migration script.
  ///
  /// - Parameter sql: The statements, separated by semicolons.
  /// - Throws: `SQLiteError` from the first statement that fails.
  public func execute(_ sql: String) throws(SQLiteError) {
    var errorMessage: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
    defer { sqlite3_free(errorMessage) }
    guard status == SQLITE_OK else {
      let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
      throw error(code: sqlite3_extended_errcode(handle), message: message)
    }
  }

  /// Compiles one SQL statement.
  ///
  /// - Parameter sql: A single statement with `?` placeholders.
  /// - Returns: The prepared statement.
  /// - Throws: `SQLiteError` for a syntax error or a database problem.
  public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else {
      throw lastError(status: status)
    }
    return Statement(handle: statement, database: self)
  }

  /// Runs one statement that returns no rows.
  ///
  /// - Parameters:
  ///   - sql: A single statement with `?` placeholders.
  ///   - bindings: The values for the placeholders, in order.
  /// - Throws: `SQLiteError`.
  public func run(_ sql: String, _ bindings: SQLiteValue...) throws(SQLiteError) {
    let statement = try prepare(sql)
    try statement.bind(bindings)
    while try statement.step() != nil {}
  }

  /// Runs one statement and returns all its rows.
  ///
  /// - Parameters:
  ///   - sql: A single statement with `?` placeholders.
  ///   - bindings: The values for the placeholders, in order.
  /// - Returns: The rows.
  /// - Throws: `SQLiteError`.
  public func query(_ sql: String, _ bindings: SQLiteValue...) throws(SQLiteError) -> [Row] {
    try query(sql, bindings: bindings)
  }

  /// Runs one statement with an array of bindings and returns all its rows.
  ///
  /// - Parameters:
  ///   - sql: A single statement with `?` placeholders.
  ///   - bindings: The values for the placeholders, in order.
  /// - Returns: The rows.
  /// - Throws: `SQLiteError`.
  public func query(_ sql: String, bindings: [SQLiteValue]) throws(SQLiteError) -> [Row] {
    let statement = try prepare(sql)
    try statement.bind(bindings)
    return try statement.allRows()
  }

  /// The row id of the last successful insert on this connection.
  public var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

  /// The number of rows the last insert, update or delete changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The journal mode: `wal` for files, `memory` for in-memory databases.
  ///
  /// - Throws: `SQLiteError`.
  public func journalMode() throws(SQLiteError) -> String {
    try query("PRAGMA journal_mode").first?.get(0) ?? ""
  }

  // MARK: - Transactions

  /// How an outermost transaction begins.
  public enum TransactionKind: Sendable {
    /// Takes the write lock at once (waiting up to the busy timeout), for writes.
    case immediate
    /// Takes no lock until the first statement, for a consistent read of several queries.
    case deferred
  }

  /// Runs a body in a transaction, committing if it returns and rolling back if it throws.
  ///
  /// The outermost transaction is `BEGIN IMMEDIATE` by default, so it takes the write lock at
  /// once instead of failing midway; nested calls use savepoints.
  ///
  /// - Parameters:
  ///   - kind: How the outermost transaction begins.
  ///   - body: The work to do atomically.
  /// - Returns: What the body returns.
  /// - Throws: `SQLiteError` from the body, or from beginning or committing.
  public func transaction<Result>(
    _ kind: TransactionKind = .immediate, _ body: () throws(SQLiteError) -> Result
  ) throws(SQLiteError) -> Result {
    let depth = savepointDepth
    let savepoint = "level\(depth)"
    let begin = kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED"
    try execute(depth == 0 ? begin : "SAVEPOINT \(savepoint)")
    savepointDepth += 1
    defer { savepointDepth -= 1 }
    do {
      let result = try body()
      try execute(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
      return result
    } catch {
      // The rollback's own failure is secondary; report the original error.
      if depth == 0 {
        try? execute("ROLLBACK")
      } else {
        try? execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
      }
      throw error
    }
  }

  // MARK: - Migrations

  /// The schema version stored in `PRAGMA user_version`.
  ///
  /// - Throws: `SQLiteError`.
  public func userVersion() throws(SQLiteError) -> Int {
    try query("PRAGMA user_version").first?.get(0) ?? 0
  }

  /// Brings the schema up to date by running the steps it has not run yet.
  ///
  /// Step `i` (from 0) moves the schema from version `i` to `i + 1`; all pending steps run in one
  /// transaction, so a failure leaves the database as it was.
  ///
  /// - Parameter steps: Every migration since the first, in order. Never edit a released step;
  ///   append a new one.
  /// - Throws: `SQLiteError` with `.schemaTooNew` if the database is newer than `steps`, or the
  ///   failing step's error.
  public func migrate(_ steps: [String]) throws(SQLiteError) {
    try transaction { () throws(SQLiteError) in
      let version = try userVersion()
      guard version <= steps.count else {
        throw SQLiteError(
          kind: .schemaTooNew(found: version, known: steps.count),
          message: "schema version \(version) is newer than \(steps.count)",
          path: isInMemory ? nil : path)
      }
      for (index, step) in steps.enumerated() where index >= version {
        try execute(step)
        try execute("PRAGMA user_version = \(index + 1)")
      }
    }
  }

  // MARK: - Errors

  var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

  func lastError(status: Int32) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    return error(code: extended != 0 ? extended : status, message: lastErrorMessage)
  }

  func error(code: Int32, message: String) -> SQLiteError {
    let systemError = SQLiteError.systemError(of: handle, code: code)
    return SQLiteError(
      kind: SQLiteError.kind(forResultCode: code, systemError: systemError), code: code,
      message: message, path: isInMemory ? nil : path, systemError: systemError)
  }
}

/// A compiled SQL statement.
public final class Statement {
  private let handle: OpaquePointer
  private let database: Database

  init(handle: OpaquePointer, database: Database) {
    self.handle = handle
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Replaces the placeholder values, resetting the statement first.
  ///
  /// - Parameter values: One value per `?`, in order.
  /// - Throws: `SQLiteError` if the count is wrong or SQLite refuses a value.
  public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard values.count == expected else {
      throw SQLiteError(
        kind: .other, code: 25,
        message: "\(values.count) values bound to \(expected) placeholders",
        path: database.isInMemory ? nil : database.path)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32 =
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let integer): sqlite3_bind_int64(handle, index, sqlite3_int64(integer))
        case .real(let real): sqlite3_bind_double(handle, index, real)
        case .text(let text):
          // By its length: a NUL inside the text is stored, not taken for its end.
          sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), transient)
        case .blob(let bytes):
          bytes.withUnsafeBytes {
            // A zero-length blob needs a non-null pointer, or SQLite stores NULL.
            sqlite3_bind_blob(
              handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
              Int32($0.count), transient)
          }
        }
      guard status == SQLITE_OK else { throw database.lastError(status: status) }
    }
  }

  /// Runs the statement until it produces a row or finishes.
  ///
  /// - Returns: The next row, or `nil` when done.
  /// - Throws: `SQLiteError`.
  public func step() throws(SQLiteError) -> Row? {
    let status = sqlite3_step(handle)
    switch status {
    case SQLITE_ROW: return currentRow()
    case SQLITE_DONE: return nil
    default:
      sqlite3_reset(handle)
      throw database.lastError(status: status)
    }
  }

  /// Runs the statement to the end and returns every row.
  ///
  /// - Returns: The rows.
  /// - Throws: `SQLiteError`.
  public func allRows() throws(SQLiteError) -> [Row] {
    var rows: [Row] = []
    while let row = try step() { rows.append(row) }
    sqlite3_reset(handle)
    return rows
  }

  private func currentRow() -> Row {
    let count = sqlite3_column_count(handle)
    var values: [SQLiteValue] = []
    values.reserveCapacity(Int(count))
    for column in 0..<count {
      switch sqlite3_column_type(handle, column) {
      case SQLITE_INTEGER:
        values.append(.integer(Int(sqlite3_column_int64(handle, column))))
      case SQLITE_FLOAT:
        values.append(.real(sqlite3_column_double(handle, column)))
      case SQLITE_TEXT:
        // Checked type first: column_text is NULL for SQL NULL. Read by its length, so that a
        // NUL another program stored inside the text does not cut it short.
        let text = sqlite3_column_text(handle, column).map { start in
          String(
            decoding: UnsafeBufferPointer(
              start: start, count: Int(sqlite3_column_bytes(handle, column))),
            as: UTF8.self)
        }
        values.append(.text(text ?? ""))
      case SQLITE_BLOB:
        let length = Int(sqlite3_column_bytes(handle, column))
        let bytes = sqlite3_column_blob(handle, column).map {
          Array(UnsafeRawBufferPointer(start: $0, count: length))
        }
        values.append(.blob(bytes ?? []))
      default:
        values.append(.null)
      }
    }
    return Row(values: values, path: database.isInMemory ? nil : database.path)
  }
}
