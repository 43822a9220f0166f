import Foundation
import SQLite
import TestSupport
import Testing

private let steps = [
  "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
  "ALTER TABLE players ADD COLUMN wins INTEGER NOT NULL DEFAULT 0",
  """
  CREATE TABLE games (id INTEGER PRIMARY KEY, player INTEGER NOT NULL REFERENCES players(id));
  CREATE INDEX games_by_player ON games(player);
  """,
]

struct MigrationTests {
  @Test func emptyDatabaseMigratesToTheLatestVersion() throws {
    let database = try Database.inMemory()
    #expect(try database.userVersion() == 0)
    try database.migrate(steps)
    #expect(try database.userVersion() == 3)
    try database.run("INSERT INTO players (name, wins) VALUES ('Ann', 2)")
    try database.run("INSERT INTO games (player) VALUES (1)")
  }

  @Test("each earlier version migrates and keeps its data", arguments: 1...3)
  func earlierVersionMigratesKeepingData(version: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    do {
      let old = try Database(path: path)
      try old.migrate(Array(steps[..<version]))
      #expect(try old.userVersion() == version)
      try old.run("INSERT INTO players (name) VALUES ('Ann')")
    }
    let database = try Database(path: path)
    try database.migrate(steps)
    #expect(try database.userVersion() == steps.count)
    let row = try #require(try database.query("SELECT name, wins FROM players").first)
    #expect(try row.get(0) == "Ann")
    #expect(try row.get(1) == 0)
  }

  @Test func migratingTwiceChangesNothing() throws {
    let database = try Database.inMemory()
    try database.migrate(steps)
    try database.migrate(steps)
    #expect(try database.userVersion() == 3)
  }

  @Test func newerDatabaseIsRefusedAndLeftUnchanged() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("games.sqlite")
    do {
      let newer = try Database(path: path)
      try newer.migrate(steps)
      try newer.execute("PRAGMA user_version = 9")
    }
    let database = try Database(path: path)
    #expect {
      try database.migrate(steps)
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .schemaTooNew(found: 9, known: 3)
        && error.description.contains("newer version")
    }
    #expect(try database.userVersion() == 9)
  }

  @Test func failingStepRollsBackEveryPendingStep() throws {
    let database = try Database.inMemory()
    #expect(throws: SQLiteError.self) {
      try database.migrate([steps[0], "CREATE TABLE broken (oops"])
    }
    #expect(try database.userVersion() == 0)
    let tables = try database.query("SELECT name FROM sqlite_schema WHERE type = 'table'")
    #expect(tables.isEmpty)
  }
}
