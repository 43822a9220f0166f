import Foundation
import GameAI

/// A fresh folder under the system temporary directory, removed with everything in it
/// (including SQLite's `-wal` and `-shm` files) when the value is released.
public final class TemporaryFolder {
  /// The folder's path.
  public let path: String

  /// Creates the folder.
  ///
  /// - Parameter prefix: The start of the folder's name, naming the suite that made it.
  /// - Throws: When the folder cannot be created.
  public init(prefix: String = "tictactoe-tests") throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  }

  deinit {
    // A test may have made the folder read-only; make it removable again first.
    try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The path of a file named `name` in the folder.
  public func file(_ name: String) -> String { path + "/" + name }
}

/// Reproducible "random" bytes for damaged-file tests.
public struct SeededBytes {
  private var generator: SplitMix64

  /// Creates a generator from a seed.
  public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  /// The next `count` bytes.
  public mutating func next(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
  }
}

/// The bytes of the file at `path`, or `nil` when it cannot be read.
public func contents(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { Array($0) }
}

/// The permission bits of the file at `path`.
///
/// - Throws: When the file's attributes cannot be read.
public func permissions(_ path: String) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  return (attributes[.posixPermissions] as? Int) ?? -1
}

/// Damages a database file the way a failing disk does: the header stays valid, so the file
/// still opens, but the header of every other page from the second on is overwritten, so
/// `PRAGMA quick_check` fails.
///
/// - Parameter path: A database file of at least two pages, closed.
/// - Returns: The damaged bytes, as written.
/// - Throws: When the file cannot be read or written, or has fewer than two pages.
@discardableResult
public func damagePages(of path: String) throws -> [UInt8] {
  guard var bytes = contents(path), bytes.count >= 100 else {
    throw CocoaError(.fileReadCorruptFile)
  }
  // The page size is stored big-endian at offset 16.
  let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
  guard pageSize >= 512, bytes.count >= 2 * pageSize else {
    throw CocoaError(.fileReadCorruptFile)
  }
  for page in stride(from: 1, to: bytes.count / pageSize, by: 2) {
    let start = page * pageSize
    bytes.replaceSubrange(
      start..<start + 8, with: [0x99, 0x77, 0x55, 0x33, 0x11, 0x22, 0x44, 0x66])
  }
  try Data(bytes).write(to: URL(fileURLWithPath: path))
  return bytes
}
