import DatabaseClientLive
import Glibc
import TLS

/// The server's key and certificate in a file beside its database, made on first start.
enum ServerIdentity {
  /// Takes a lock on the database file for the life of the process, so that two servers never
  /// run games from the same database at once.
  ///
  /// - Throws: ``ServeFailure`` when another server holds it.
  static func lockExclusively(_ databasePath: String) throws(ServeFailure) {
    // flock locks are separate from SQLite's fcntl locks, so these do not disturb them. The
    // lock file sits beside the file a symbolic link leads to, and the database file itself
    // is locked too, since a hard link gives it a second name in any folder.
    let lockPath = LocalDatabase.resolvedPath(databasePath) + ".lock"
    for (path, creates) in [(lockPath, true), (databasePath, false)] {
      let descriptor = open(path, O_RDWR | O_CLOEXEC | (creates ? O_CREAT : 0), 0o600)
      guard descriptor >= 0 else {
        throw ServeFailure(
          "The lock file \(path) could not be opened (\(String(cString: strerror(errno)))).")
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        throw ServeFailure(
          "Another server is already running on the database \(databasePath); stop it first.")
      }
      // The descriptor stays open, and the lock held, until the process ends.
    }
  }

  /// The file that holds the identity of the server whose database is at `databasePath`.
  static func path(forDatabase databasePath: String) -> String { databasePath + ".tls.pem" }

  /// Reads the identity, or makes one and writes it (mode 0600) when there is none yet.
  ///
  /// - Returns: The identity and whether it was made now.
  /// - Throws: ``ServeFailure`` when the file cannot be read, is damaged, or cannot be written.
  static func loadOrCreate(at path: String) throws(ServeFailure) -> (TLSIdentity, created: Bool) {
    if let text = try contents(of: path) {
      // The key is a secret: keep the file private even if something loosened it.
      _ = chmod(path, 0o600)
      do {
        return (try TLSIdentity(pem: text), false)
      } catch {
        // The reason is a sentence of its own; its full stop would close the parentheses.
        let reason =
          error.description.hasSuffix(".")
          ? String(error.description.dropLast()) : error.description
        throw ServeFailure(
          "The server's certificate file \(path) is damaged (\(reason)); move it away to make "
            + "a new one, which clients will have to accept again.")
      }
    }
    let identity: TLSIdentity
    do {
      identity = try TLSIdentity.generate()
    } catch {
      throw ServeFailure("No certificate could be made: \(error.description)")
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ServeFailure(
        "The certificate file \(path) could not be created (\(String(cString: strerror(errno)))).")
    }
    defer { close(descriptor) }
    let bytes = Array(identity.pem.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else {
        let reason = String(cString: strerror(errno))
        unlink(path)
        throw ServeFailure("The certificate file \(path) could not be written (\(reason)).")
      }
      written += count
    }
    _ = fchmod(descriptor, 0o600)
    _ = fsync(descriptor)
    return (identity, true)
  }

  private static func contents(of path: String) throws(ServeFailure) -> String? {
    // Without waiting: opening a named pipe to read would wait for a writer for ever.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw ServeFailure(
        "The certificate file \(path) could not be read (\(String(cString: strerror(errno)))).")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw ServeFailure(
        "The certificate file \(path) is a folder, a pipe, a device or a socket, not a file; "
          + "move it away to make a new one, which clients will have to accept again.")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
      guard bytes.count < 1 << 20 else {
        throw ServeFailure("The certificate file \(path) is far too large to be one.")
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Why the server could not start, in one sentence.
public struct ServeFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The sentence.
  public var message: String

  init(_ message: String) { self.message = message }

  public var description: String { message }
}
