import Glibc

/// The few file operations the wrapper needs, kept in one place.
enum FileSystem {
  /// Whether anything exists at `path` (a broken symbolic link counts).
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Creates an empty file readable and writable by its owner only, beside `path`.
  ///
  /// The file gets a fresh name in the folder of `path`. It comes with a descriptor that holds
  /// an exclusive `flock` on it: while the creating process lives,
  /// ``removeAbandonedTemporaryFiles(beside:)`` leaves the file alone. The caller closes the
  /// descriptor once the file is gone.
  ///
  /// SQLite gives its `-wal` and `-shm` files the main file's permissions, so they stay private
  /// too.
  static func createTemporaryFile(
    beside path: String
  ) throws(SQLiteError) -> (path: String, lock: Int32) {
    let (folder, name) = split(path)
    var template = Array((folder + "." + name + temporaryMarker + "XXXXXX").utf8CString)
    // mkstemp opens with mode 0600 and writes the name it chose into the template.
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw error(errno, path: path) }
    // Nobody else knows the name yet, so the lock is free; the file stays empty until SQLite
    // writes to it, after this.
    flock(descriptor, LOCK_EX)
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return (temporary, descriptor)
  }

  /// What SQLite adds to a database's name for its rollback journal, its log and the log's
  /// index.
  private static let companionSuffixes = ["-journal", "-wal", "-shm"]

  /// What follows a database's name in the name of a temporary file made to create it.
  private static let temporaryMarker = ".new-"

  /// The folder of `path` (with its slash, or empty) and the file's name.
  private static func split(_ path: String) -> (folder: String, name: String) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return (folder, name)
  }

  /// Removes what a creation of the database at `path` left when its process was killed:
  /// a temporary database no living process holds, with its journal and log.
  ///
  /// One killed after the new file took its real name would otherwise leave the database
  /// with two names, which opening refuses. A file still empty may be one whose creator has
  /// not locked it yet, and is left until it is a few seconds old (the lock follows at once).
  static func removeAbandonedTemporaryFiles(beside path: String) {
    let (folder, name) = split(path)
    let prefix = "." + name + temporaryMarker
    guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
    var found: [String] = []
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      // Only the names mkstemp makes, six letters and digits after the marker, with SQLite's
      // own files beside them: not a file someone named alike.
      var rest = entryName.dropFirst(prefix.count)
      let companion = companionSuffixes.first { rest.hasSuffix($0) }
      if let companion { rest = rest.dropLast(companion.count) }
      guard entryName.hasPrefix(prefix), rest.count == 6,
        rest.unicodeScalars.allSatisfy({
          $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
        })
      else { continue }
      found.append(folder + entryName)
    }
    closedir(directory)
    for file in found where !companionSuffixes.contains(where: { file.hasSuffix($0) }) {
      let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      guard descriptor >= 0 else { continue }
      defer { close(descriptor) }
      var status = stat()
      guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        flock(descriptor, LOCK_EX | LOCK_NB) == 0,
        status.st_size > 0 || time(nil) - status.st_mtim.tv_sec > 2
      else { continue }
      removeDatabaseFiles(file)
    }
    // A journal or log whose temporary database is gone belongs to no creation; only a file
    // of that name is removed, not a link or a folder.
    for file in found {
      var status = stat()
      guard let suffix = companionSuffixes.first(where: { file.hasSuffix($0) }),
        !exists(String(file.dropLast(suffix.count))), lstat(file, &status) == 0,
        status.st_mode & S_IFMT == S_IFREG
      else { continue }
      unlink(file)
    }
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
    for suffix in [""] + companionSuffixes { unlink(path + suffix) }
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
