import Glibc

/// The few file operations the wrapper needs, kept in one place.
enum FileSystem {
  /// Creates an empty file readable and writable by its owner only, unless it exists.
  ///
  /// SQLite gives its `-wal` and `-shm` files the main file's permissions, so they stay private
  /// too. An existing file is never truncated (`O_EXCL`).
  static func createPrivateFileIfMissing(_ path: String) throws(SQLiteError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
      return
    }
    let reason = errno
    guard reason != EEXIST else { return }
    throw SQLiteError(
      kind: reason == ENOSPC ? .full : reason == EROFS ? .readOnly : .cannotOpen,
      code: 14, message: String(cString: strerror(reason)), path: path)
  }

  /// Whether the file's owner write permission bit is set (true if the file is missing).
  static func ownerCanWrite(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return true }
    return status.st_mode & S_IWUSR != 0
  }
}
