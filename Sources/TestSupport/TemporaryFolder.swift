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
