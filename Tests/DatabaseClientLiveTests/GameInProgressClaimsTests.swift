import DatabaseClient
import Foundation
import GameRules
import TestSupport
import Testing

@testable import DatabaseClientLive

/// Two sessions on one database file never overwrite each other's game in progress.
struct GameInProgressClaimsTests {
  private let record = GameRecord(
    x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"),
    moves: ["b2", "a1"].compactMap { Cell(name: $0) }, startedAt: 1)

  @Test func aSymbolicLinkToTheDatabaseSharesItsClaims() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let link = folder.file("link.sqlite")
    let first = DatabaseClient.live(database: try LocalDatabase(path: path))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let second = DatabaseClient.live(database: try LocalDatabase(path: link))
    try await first.claimGameInProgress(.guest)
    await #expect(throws: DatabaseError.self) { try await second.claimGameInProgress(.guest) }
    await #expect(throws: DatabaseError.self) {
      try await second.saveGameInProgress(record, .guest)
    }
    #expect(!FileManager.default.fileExists(atPath: link + "-lock"))
  }

  @Test func aSecondSessionIsRefusedUntilTheFirstLetsGo() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let first = DatabaseClient.live(database: try LocalDatabase(path: path))
    let second = DatabaseClient.live(database: try LocalDatabase(path: path))
    try await first.claimGameInProgress(.guest)
    try await first.saveGameInProgress(record, .guest)

    await #expect(throws: DatabaseError.self) { try await second.claimGameInProgress(.guest) }
    var other = record
    other.x.name = "Cid"
    await #expect(throws: DatabaseError.self) { try await second.saveGameInProgress(other, .guest) }
    await #expect(throws: DatabaseError.self) { try await second.clearGameInProgress(.guest) }
    #expect(try await first.loadGameInProgress(.guest)?.x.name == "Ann")
    do {
      try await second.claimGameInProgress(.guest)
      Issue.record("the second session took the guest's game")
    } catch let error as DatabaseError {
      #expect(error.kind == .busy)
      #expect(error.message == DatabaseError.heldByAnotherProgram.message)
    }
    // Another player's game is free.
    try await second.claimGameInProgress(.account(7))

    await first.releaseGameInProgress(.guest)
    try await second.saveGameInProgress(other, .guest)
    #expect(try await first.loadGameInProgress(.guest)?.x.name == "Cid")
  }

  @Test func aClosedSessionLetsGoAsAKilledProgramDoes() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    do {
      let first = DatabaseClient.live(database: try LocalDatabase(path: path))
      try await first.saveGameInProgress(record, .guest)
    }
    let next = DatabaseClient.live(database: try LocalDatabase(path: path))
    try await next.claimGameInProgress(.guest)
    #expect(try await next.loadGameInProgress(.guest)?.moves == record.moves)
  }

  @Test func aDatabaseInMemoryNeedsNoLock() async throws {
    let client = DatabaseClient.live(database: try LocalDatabase.inMemory())
    try await client.claimGameInProgress(.guest)
    try await client.saveGameInProgress(record, .guest)
    await client.releaseGameInProgress(.guest)
  }
}
