public import DatabaseClient
import Synchronization

extension DatabaseClient {
  /// A client whose every endpoint fails the test when called.
  public static let unimplemented = DatabaseClient(
    saveFinishedGame: { _ in try fail("DatabaseClient.saveFinishedGame") },
    finishGameInProgress: { _, _ in try fail("DatabaseClient.finishGameInProgress") },
    saveGameInProgress: { _, _ in try fail("DatabaseClient.saveGameInProgress") },
    loadGameInProgress: { _ in try fail("DatabaseClient.loadGameInProgress") },
    clearGameInProgress: { _ in try fail("DatabaseClient.clearGameInProgress") },
    claimGameInProgress: { _ in try fail("DatabaseClient.claimGameInProgress") },
    releaseGameInProgress: { _ in TestSupport.unimplemented("DatabaseClient.releaseGameInProgress")
    },
    stats: { _ in try fail("DatabaseClient.stats") },
    history: { _, _ in try fail("DatabaseClient.history") },
    game: { _ in try fail("DatabaseClient.game") },
    resetStats: { _ in try fail("DatabaseClient.resetStats") }
  )
}

/// Game records kept in memory, so tests can check what a feature saved.
public final class InMemoryDatabase: Sendable {
  private struct Contents {
    var finishedGames: [GameRecord] = []
    var gamesInProgress: [RecordOwner: GameRecord] = [:]
    var stats: [RecordOwner: Stats] = [:]
    /// Which session (client) plays each owner's game in progress.
    var claims: [RecordOwner: Int] = [:]
    var sessions = 0
  }

  private let contents: Mutex<Contents>

  /// Creates records holding the given games in progress and stats.
  public init(gamesInProgress: [RecordOwner: GameRecord] = [:], stats: [RecordOwner: Stats] = [:]) {
    contents = Mutex(Contents(gamesInProgress: gamesInProgress, stats: stats))
  }

  /// The finished games saved so far, in order, with their ids.
  public var finishedGames: [GameRecord] { contents.withLock(\.finishedGames) }

  /// The games in progress by owner.
  public var gamesInProgress: [RecordOwner: GameRecord] { contents.withLock(\.gamesInProgress) }

  /// A client over these records; history, single games and unknown stats fail the test.
  ///
  /// Each client is a session of its own, as each live client is: a game in progress one of
  /// them claimed or wrote is refused to the others until it lets go.
  public var client: DatabaseClient {
    let session = contents.withLock { contents in
      contents.sessions += 1
      return contents.sessions
    }
    var client = DatabaseClient.unimplemented
    client.saveFinishedGame = { record in try self.finish(record, owner: nil) }
    client.finishGameInProgress = { record, owner in
      try self.hold(owner, for: session)
      return try self.finish(record, owner: owner)
    }
    client.saveGameInProgress = { record, owner in
      try self.hold(owner, for: session)
      self.contents.withLock { $0.gamesInProgress[owner] = record }
    }
    client.loadGameInProgress = { owner in
      self.contents.withLock { $0.gamesInProgress[owner] }
    }
    client.clearGameInProgress = { owner in
      try self.hold(owner, for: session)
      self.contents.withLock { $0.gamesInProgress[owner] = nil }
    }
    client.claimGameInProgress = { owner in try self.hold(owner, for: session) }
    client.releaseGameInProgress = { owner in
      self.contents.withLock { contents in
        if contents.claims[owner] == session { contents.claims[owner] = nil }
      }
    }
    client.stats = { owner in
      guard let stats = self.contents.withLock({ $0.stats[owner] }) else {
        return try fail("DatabaseClient.stats for \(owner)")
      }
      return stats
    }
    client.resetStats = { owner in
      self.contents.withLock { $0.stats[owner] = Stats() }
    }
    return client
  }

  /// Takes the owner's game in progress for a session, as the live client's lock does.
  private func hold(_ owner: RecordOwner, for session: Int) throws {
    try contents.withLock { (contents: inout Contents) throws in
      guard contents.claims[owner] ?? session == session else {
        throw DatabaseError.heldByAnotherProgram
      }
      contents.claims[owner] = session
    }
  }

  /// Saves a finished game, forgetting the owner's game in progress when there is an owner.
  private func finish(_ record: GameRecord, owner: RecordOwner?) throws -> Int64 {
    // The live records refuse the same: a finished game has a result and an end time.
    guard record.result != nil, record.endedAt != nil else {
      throw DatabaseError("A game without a result and an end time cannot be saved as finished.")
    }
    return contents.withLock { contents in
      var saved = record
      saved.id = Int64(contents.finishedGames.count + 1)
      contents.finishedGames.append(saved)
      if let owner { contents.gamesInProgress[owner] = nil }
      return Int64(contents.finishedGames.count)
    }
  }
}

private func fail<T>(_ endpoint: String) throws -> T {
  unimplemented(endpoint)
  throw UnimplementedError(endpoint: endpoint)
}
