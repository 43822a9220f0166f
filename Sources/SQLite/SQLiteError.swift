import CSQLite
import Glibc

/// A failure reported by SQLite or by this wrapper, with a one-sentence explanation.
public struct SQLiteError: Error, Equatable, Sendable {
  /// What went wrong, in terms a caller can act on.
  public enum Kind: Equatable, Sendable {
    /// The file could not be opened: a missing folder, a directory, or no permission.
    case cannotOpen
    /// The file is not a database or is corrupt.
    case notADatabase
    /// The database cannot be written.
    case readOnly
    /// Another connection holds a lock longer than the busy timeout.
    case busy
    /// The disk or the database is full.
    case full
    /// A constraint (unique, foreign key, not null, check) was violated.
    case constraint
    /// The disk reported an input or output error.
    case ioError
    /// The database's schema version is newer than any this code knows.
    case schemaTooNew(found: Int, known: Int)
    /// The file has more than one name (hard links), which SQLite cannot keep safe: each name
    /// would get a log of its own.
    case hardLinked(names: Int)
    /// The path names something other than a file or a folder: a pipe, a device or a socket,
    /// which SQLite would wait on or misread.
    case notAFile
    /// The file was deleted, or another put in its place, while it was open: what is written
    /// would go to a file nobody can open again.
    case replaced
    /// The log beside the file holds changes the file lacks, and where it lies (a read-only
    /// folder or file system, a full disk) nothing can be written: reading them needs the
    /// log's index, which cannot be made.
    case logUnreadable
    /// A column held a value of another type than the one asked for.
    case typeMismatch(column: Int, expected: String, found: String)
    /// Any other failure; `message` has SQLite's words.
    case other
  }

  /// The category of the failure.
  public let kind: Kind

  /// SQLite's extended result code, or 0 when the wrapper detected the problem itself.
  public let code: Int32

  /// SQLite's own message, or the wrapper's when `code` is 0.
  public let message: String

  /// The database file, or `nil` for an in-memory database.
  public let path: String?

  /// The operating system's error number behind a failure to open, read or write the file,
  /// or 0.
  public let systemError: Int32

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: The category.
  ///   - code: SQLite's extended result code, or 0.
  ///   - message: SQLite's message.
  ///   - path: The database file, if any.
  ///   - systemError: The operating system's error number, if it explains the failure.
  public init(
    kind: Kind, code: Int32 = 0, message: String, path: String? = nil, systemError: Int32 = 0
  ) {
    self.kind = kind
    self.code = code
    self.message = message
    self.path = path
    self.systemError = systemError
  }

  /// The category of SQLite's result code, where the operating system's error number behind a
  /// failure to open, read or write says more: a full disk, or a folder where the file should
  /// be, both of which SQLite reports as a disk error.
  static func kind(forResultCode code: Int32, systemError: Int32) -> Kind {
    guard [10, 14].contains(code & 0xff) else { return kind(forResultCode: code) }
    switch systemError {
    case ENOSPC, EDQUOT: return .full
    case EISDIR: return .cannotOpen
    // The file (or the log beside it) could not be made or opened for writing on a file
    // system mounted read-only: the database is read-only, not missing.
    case EROFS: return .readOnly
    default: return kind(forResultCode: code)
    }
  }

  /// The operating system's error number for the connection's last failure, where its result
  /// code is one of opening, reading or writing the file; otherwise 0.
  static func systemError(of handle: OpaquePointer, code: Int32) -> Int32 {
    [10, 13, 14].contains(code & 0xff) ? sqlite3_system_errno(handle) : 0
  }

  /// The category that SQLite's primary result code falls into.
  static func kind(forResultCode code: Int32) -> Kind {
    switch code & 0xff {
    case 14: .cannotOpen  // SQLITE_CANTOPEN
    case 26, 11: .notADatabase  // SQLITE_NOTADB, SQLITE_CORRUPT
    case 8: .readOnly  // SQLITE_READONLY
    case 5, 6: .busy  // SQLITE_BUSY, SQLITE_LOCKED
    case 13: .full  // SQLITE_FULL
    case 19: .constraint  // SQLITE_CONSTRAINT
    case 10: .ioError  // SQLITE_IOERR
    default: .other
    }
  }
}

extension SQLiteError {
  /// What a folder where SQLite keeps a file of its own does to a database.
  static let folderBeside =
    "cannot be opened: a file SQLite keeps beside it, ending in -wal or -shm, is a folder; move "
    + "that folder aside."
}

extension SQLiteError: CustomStringConvertible {
  /// One sentence for the player, naming the file and what to do about it.
  public var description: String {
    let file = path.map { "The database \($0)" } ?? "The database"
    return switch kind {
    case .cannotOpen:
      switch systemError {
      case EISDIR where path.map(FileSystem.isFolder) == false: "\(file) \(Self.folderBeside)"
      case EISDIR: "\(file) is a folder, not a database file; give the path of a file in it."
      case _ where systemError == ELOOP || path.map(FileSystem.linkFailure) == ELOOP:
        "\(file) cannot be opened: its path goes round in symbolic links."
      case _ where path.map(FileSystem.linkFailure) == ENOENT:
        "\(file) is a symbolic link to a file that does not exist (\(message))."
      case ENAMETOOLONG: "\(file) cannot be opened: its path or a name in it is too long."
      case EACCES, EPERM:
        "\(file) cannot be opened: this user may not read or write it, or its folder "
          + "(\(message))."
      default: "\(file) cannot be opened: its folder is missing or not accessible (\(message))."
      }
    case .notADatabase:
      // One sentence whatever SQLite found, so every command refuses a damaged file alike.
      "\(file) is damaged or is not a database of this program; it was left unchanged, so "
        + "move it aside or restore a backup to go on."
    case .readOnly where path.map(FileSystem.hasFolderBeside) == true:
      "\(file) \(Self.folderBeside)"
    case .readOnly:
      "\(file) is read-only, so nothing can be saved (\(message))."
    case .busy:
      "\(file) is locked by another program; try again once it has finished (\(message))."
    case .full:
      "\(file) could not be written because the disk is full (\(message))."
    case .constraint:
      "\(file) refused a change that breaks one of its rules (\(message))."
    case .ioError:
      "\(file) could not be read or written because of a disk error (\(message))."
    case .schemaTooNew(let found, let known):
      "\(file) was written by a newer version of this program (schema \(found), this version "
        + "knows up to \(known)); it was left unchanged."
    case .notAFile:
      "\(file) is a pipe, a device or a socket, not a file; give the path of a database file."
    case .hardLinked(let names):
      "\(file) has \(names) names (hard links), and SQLite keeps a log beside each name, which "
        + "could damage it; it was left unchanged, so remove the other names first."
    case .replaced:
      "\(file) was deleted or replaced while this program used it, so nothing more can be "
        + "saved in it."
    case .logUnreadable:
      "\(file) cannot be read here: its log (\(path ?? "")-wal) holds changes not yet in the "
        + "file, which can be read only where something can be written beside it; open it once "
        + "its folder can be written (or the disk has room), or copy the folder where it can."
    case .typeMismatch(let column, let expected, let found):
      "\(file) holds \(found) in column \(column) where \(expected) was expected."
    case .other:
      "\(file) reported an error: \(message)."
    }
  }
}
