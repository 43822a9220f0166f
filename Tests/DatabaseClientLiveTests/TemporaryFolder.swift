import Foundation

/// A fresh folder under the system temporary directory, removed with everything in it
/// (including SQLite's `-wal` and `-shm` files) when the test ends.
final class TemporaryFolder {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("records-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  }

  deinit {
    try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ name: String) -> String { path + "/" + name }
}

/// A deterministic byte generator (SplitMix64), so "random" test files are reproducible.
struct SeededBytes {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return UInt8(truncatingIfNeeded: value ^ (value >> 31))
    }
  }
}

func contents(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { Array($0) }
}

func permissions(_ path: String) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  return (attributes[.posixPermissions] as? Int) ?? -1
}
