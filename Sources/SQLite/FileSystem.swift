import Glibc

/// The few file operations the wrapper needs, kept in one place.
enum FileSystem {
  /// Whether anything exists at `path` (a broken symbolic link counts).
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Creates an empty file readable and writable by its owner only, with a fresh name in the
  /// folder of `path`, and returns its path.
  ///
  /// SQLite gives its `-wal` and `-shm` files the main file's permissions, so they stay private
  /// too.
  static func createTemporaryFile(beside path: String) throws(SQLiteError) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array((folder + "." + name + ".new-XXXXXX").utf8CString)
    // mkstemp opens with mode 0600 and writes the name it chose into the template.
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw error(errno, path: path) }
    close(descriptor)
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether the write-ahead log beside the database at `path` holds anything (a missing or
  /// empty log holds no change the file lacks).
  static func hasLogWithPages(_ path: String) -> Bool {
    var status = stat()
    return stat(path + "-wal", &status) == 0 && status.st_size > 0
  }

  /// Refuses a new database whose log still holds pages after its connection closed; removes
  /// an empty log and the shared-memory index.
  static func requireNoLog(_ path: String, reportedAs reported: String) throws(SQLiteError) {
    var status = stat()
    if stat(path + "-wal", &status) == 0, status.st_size > 0 {
      throw SQLiteError(
        kind: .other, message: "the new database's log could not be emptied", path: reported)
    }
    unlink(path + "-wal")
    unlink(path + "-shm")
  }

  /// Whether `path` (followed through links) names something that is neither a file nor a
  /// folder: a pipe, a device or a socket.
  static func isSpecialFile(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    return ![S_IFREG, S_IFDIR].contains(status.st_mode & S_IFMT)
  }

  /// Whether a folder stands where SQLite keeps the log or the index of the database at `path`.
  static func hasFolderBeside(_ path: String) -> Bool {
    isFolder(path + "-wal") || isFolder(path + "-shm")
  }

  /// Whether `path` leads to a folder.
  static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  /// Why the symbolic link `path` leads nowhere (`ENOENT`: its target does not exist,
  /// `ELOOP`: it goes round), or 0 when it is not a link or leads somewhere.
  static func linkFailure(_ path: String) -> Int32 {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return 0 }
    return stat(path, &status) == 0 ? 0 : errno
  }

  /// How many names (hard links) the regular file at `path` has; 0 when there is none.
  static func linkCount(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(status.st_nlink)
  }

  /// Takes the group's and others' permissions off those of the files that exist and belong
  /// to this process's user; a failure leaves the mode as it was.
  static func restrictToOwner(_ paths: [String]) {
    for path in paths {
      var status = stat()
      // Only files: a folder where SQLite keeps its log or index is refused, not changed.
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == geteuid(), status.st_mode & 0o077 != 0
      else { continue }
      _ = chmod(path, status.st_mode & 0o700)
    }
  }

  /// Gives the owner back the write permission on those of the files that exist, belong to
  /// this process's user and lack it; a failure leaves the mode as it was.
  ///
  /// SQLite gives a new log and index the database file's mode. Made while the file was
  /// read-only, they stay read-only after the file is made writable again, and every write
  /// then fails as if the database itself were read-only.
  static func restoreOwnerWrite(_ paths: [String]) {
    for path in paths {
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == geteuid(), status.st_mode & S_IWUSR == 0
      else { continue }
      _ = chmod(path, (status.st_mode | S_IWUSR) & 0o700)
    }
  }

  /// Removes those of the files that exist and are empty, after their connection closed.
  static func removeEmptyFiles(_ paths: [String]) {
    // The index (-shm) is never empty once made, so it goes only together with an empty log.
    guard let log = paths.first(where: { $0.hasSuffix("-wal") }) else { return }
    var status = stat()
    guard stat(log, &status) == 0, status.st_size == 0 else { return }
    for path in paths { unlink(path) }
  }

  /// Writes the file's data to the disk.
  static func sync(_ path: String, reportedAs reported: String) throws(SQLiteError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw error(errno, path: reported) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw error(errno, path: reported) }
  }

  /// Gives the file at `source` the name `destination` unless something already has it.
  ///
  /// - Returns: `true` when linked, `false` when `destination` existed.
  static func linkIfMissing(_ source: String, to destination: String) throws(SQLiteError) -> Bool {
    if link(source, destination) == 0 { return true }
    let reason = errno
    if reason == EEXIST { return false }
    // Some file systems have no hard links; a rename may replace a file made meanwhile, so it
    // is only tried while the name is free.
    guard [EPERM, EOPNOTSUPP, EXDEV, EMLINK].contains(reason) else {
      throw error(reason, path: destination)
    }
    guard !exists(destination) else { return false }
    guard rename(source, destination) == 0 else { throw error(errno, path: destination) }
    return true
  }

  /// Removes a database file and the journal, log and index SQLite may have left beside it.
  static func removeDatabaseFiles(_ path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
  }

  /// Makes a new name in the folder of `path` durable; a failure only weakens durability.
  static func syncFolder(of path: String) {
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    let descriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// Whether the file's owner write permission bit is set (true if the file is missing).
  static func ownerCanWrite(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return true }
    return status.st_mode & S_IWUSR != 0
  }

  /// The error for a failed system call on the database at `path`.
  static func error(_ reason: Int32, path: String) -> SQLiteError {
    let kind: SQLiteError.Kind =
      switch reason {
      case ENOSPC, EDQUOT: .full
      case EROFS: .readOnly
      case EIO: .ioError
      default: .cannotOpen
      }
    return SQLiteError(
      kind: kind, code: kind == .full ? 13 : 14, message: String(cString: strerror(reason)),
      path: path, systemError: reason)
  }
}
