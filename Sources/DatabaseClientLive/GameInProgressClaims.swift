import DatabaseClient
import Glibc
import Synchronization

/// The owners whose game in progress one client plays, held as locks on a file beside the
/// database, so that two programs (two guests at once, one account in two terminals) never
/// overwrite each other's saved game: the second is refused with a sentence.
///
/// Each owner is one byte of `DATABASE-lock`, locked with an open-file-description lock: two
/// clients conflict even inside one process, and the kernel lets go when a killed program's
/// file closes, so a crash never leaves a game locked.
final class GameInProgressClaims: Sendable {
  private struct Held {
    var descriptor: Int32 = -1
    var owners: Set<Int64> = []
  }

  /// The lock file, or `nil` for a database in memory, which no other program can reach.
  private let path: String?
  private let held = Mutex(Held())

  /// Claims kept beside the database at `databasePath`, which is open already.
  ///
  /// The lock file sits beside the file the path leads to, so that two programs reaching one
  /// database by different names (a symbolic link, `..`) share it.
  init(databasePath: String) {
    path = Self.lockPath(for: databasePath)
  }

  /// The lock file of the database at `databasePath`, or `nil` for a database in memory.
  private static func lockPath(for databasePath: String) -> String? {
    guard databasePath != ":memory:", !databasePath.isEmpty else { return nil }
    return LocalDatabase.resolvedPath(databasePath) + "-lock"
  }

  deinit {
    held.withLock { held in
      if held.descriptor >= 0 { close(held.descriptor) }
    }
  }

  /// Takes the owner's game in progress for this client, or confirms it holds it already.
  ///
  /// - Throws: ``DatabaseError`` (busy) when another client holds it.
  func hold(_ owner: RecordOwner) throws(DatabaseError) {
    guard let path else { return }
    let key = Self.key(owner)
    try held.withLock { (held: inout Held) throws(DatabaseError) in
      guard !held.owners.contains(key) else { return }
      if held.descriptor < 0 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
          let reason = String(cString: strerror(errno))
          throw DatabaseError(
            "The lock file \(path) could not be opened (\(reason)).", kind: .cannotOpen)
        }
        held.descriptor = descriptor
      }
      guard Self.lock(held.descriptor, key, type: F_WRLCK) == 0 else {
        if errno == EAGAIN || errno == EACCES {
          throw DatabaseError.heldByAnotherProgram
        }
        let reason = String(cString: strerror(errno))
        throw DatabaseError(
          "The lock file \(path) could not be locked (\(reason)).", kind: .ioError)
      }
      held.owners.insert(key)
    }
  }

  /// Lets go of the owner's game in progress, as signing out does.
  func release(_ owner: RecordOwner) {
    let key = Self.key(owner)
    held.withLock { held in
      guard held.owners.remove(key) != nil else { return }
      _ = Self.lock(held.descriptor, key, type: F_UNLCK)
    }
  }

  /// Whether a client, in this program or another, plays the owner's game in progress on the
  /// database at `databasePath`: it holds the owner's claim.
  static func isHeld(_ owner: RecordOwner, databasePath: String) -> Bool {
    guard let path = lockPath(for: databasePath) else { return false }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var probe = byte(key(owner), type: F_WRLCK)
    // F_OFD_GETLK: whether a lock of another open file would stop this one.
    guard fcntl(descriptor, 36, &probe) == 0 else { return false }
    return probe.l_type != Int16(F_UNLCK)
  }

  /// Locks or unlocks the owner's byte without waiting.
  private static func lock(_ descriptor: Int32, _ key: Int64, type: Int32) -> Int32 {
    var lock = byte(key, type: type)
    // F_OFD_SETLK, which Glibc's module does not export: a lock of the open file, not the
    // process, so two clients of one process conflict too.
    return fcntl(descriptor, 37, &lock)
  }

  /// A lock of `type` on the owner's byte, `key`.
  private static func byte(_ key: Int64, type: Int32) -> flock {
    var lock = flock()
    lock.l_type = Int16(type)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = off_t(key)
    lock.l_len = 1
    return lock
  }

  private static func key(_ owner: RecordOwner) -> Int64 {
    switch owner {
    case .guest: 0
    case .account(let id): id
    }
  }
}
