import DatabaseClientLive
import Foundation
import TestSupport
import Testing

@testable import ServerLive

/// One server a database, whatever name reaches the file.
struct ServerLockTests {
  @Test func aSecondServerIsRefusedThroughAnyNameOfTheFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("server.sqlite")
    _ = try LocalDatabase(path: path)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("symbolic.sqlite"), withDestinationPath: path)
    try FileManager.default.createDirectory(
      atPath: folder.file("elsewhere"), withIntermediateDirectories: false)
    try FileManager.default.linkItem(atPath: path, toPath: folder.file("elsewhere/hard.sqlite"))

    try ServerIdentity.lockExclusively(path)
    for name in [path, folder.file("symbolic.sqlite"), folder.file("elsewhere/hard.sqlite")] {
      #expect {
        try ServerIdentity.lockExclusively(name)
      } throws: { error in
        (error as? ServeFailure)?.message
          == "Another server is already running on the database \(name); stop it first."
      }
    }
    // Another database is free.
    let other = folder.file("other.sqlite")
    _ = try LocalDatabase(path: other)
    try ServerIdentity.lockExclusively(other)
  }
}
