import DatabaseClient
import DatabaseClientLive
import GameRules
import Testing

struct RecordsTests {
  private let client: DatabaseClient

  init() throws {
    client = .live(database: try LocalDatabase.inMemory().addingAnn())
  }

  @Test func finishedGameRoundTrips() async throws {
    var record = GameRecord(
      x: Fixture.ann, o: Fixture.computer(.hard), rows: 4, columns: 5, k: 4, firstMover: .o,
      moves: ["b2", "a1", "e4", "c3"].compactMap { Cell(name: $0) }, result: .draw,
      startedAt: 1_700_000_000_000, endedAt: 1_700_000_090_000)
    let id = try await client.saveFinishedGame(record)
    record.id = id
    #expect(try await client.game(id) == record)
    #expect(try await client.history(.account(1), 10) == [record])
    let replayed = try #require(try await client.game(id)).moves
    #expect(replayed.map(\.name) == ["b2", "a1", "e4", "c3"])
  }

  @Test func unknownGameIsNil() async throws {
    #expect(try await client.game(42) == nil)
  }

  @Test func gameWithoutResultIsNotSavedAsFinished() async throws {
    let record = GameRecord(x: Fixture.ann, o: Fixture.guest, startedAt: 0)
    await #expect(throws: DatabaseError.self) { _ = try await client.saveFinishedGame(record) }
    #expect(try await client.history(.account(1), 10).isEmpty)
  }

  @Test func statsAfterAScriptedSeries() async throws {
    let easy = Fixture.computer(.easy)
    let hard = Fixture.computer(.hard)
    let games = [
      Fixture.annAsX(against: easy, .win, at: 1_000),
      Fixture.annAsO(against: easy, .win, at: 2_000),
      Fixture.annAsX(against: easy, .loss, at: 3_000),
      Fixture.annAsO(against: easy, .draw, at: 4_000),
      Fixture.annAsX(against: hard, .loss, at: 5_000),
      Fixture.annAsO(against: Fixture.guest, .win, at: 6_000),
      // Not Ann's: a guest game and a computer demo.
      Fixture.game(x: Fixture.guest, o: hard, result: .xWins, at: 7_000),
      Fixture.game(x: easy, o: hard, result: .oWins, at: 8_000),
    ]
    for game in games { _ = try await client.saveFinishedGame(game) }

    let stats = try await client.stats(.account(1))
    #expect(
      stats.tallies == [
        Tally(opponent: .person, wins: 1),
        Tally(opponent: .computer(.easy), wins: 2, losses: 1, draws: 1),
        Tally(opponent: .computer(.hard), losses: 1),
      ])
    #expect(stats.games == 6)
    #expect(stats.winRate == 0.5)
    #expect(stats.currentStreak == 1)
    #expect(stats.bestStreak == 2)
    #expect(stats.recentGames.map(\.endedAt) == [6_000, 5_000, 4_000, 3_000, 2_000, 1_000])

    let guestStats = try await client.stats(.guest)
    #expect(guestStats.tallies == [Tally(opponent: .computer(.hard), wins: 1)])
  }

  /// The top level counts apart where it is named Strongest.
  ///
  /// A win on 15×15 is never said to be one against Unbeatable. Lower levels count as one across
  /// boards.
  @Test func theTopLevelCountsApartWhereItIsNamedStrongest() async throws {
    func fiveInARow(x: PlayerRecord, o: PlayerRecord, at time: Timestamp) -> GameRecord {
      GameRecord(
        x: x, o: o, rows: 15, columns: 15, k: 5,
        moves: ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"].compactMap { Cell(name: $0) },
        result: .xWins, startedAt: time - 60_000, endedAt: time)
    }
    let unbeatable = Fixture.computer(.unbeatable)
    let hard = Fixture.computer(.hard)
    // The 15×15 games come first, so that the order shown is not the order played.
    for game in [
      fiveInARow(x: Fixture.ann, o: unbeatable, at: 1_000),
      fiveInARow(x: Fixture.ann, o: hard, at: 2_000),
      Fixture.annAsX(against: unbeatable, .draw, at: 3_000),
      Fixture.annAsO(against: unbeatable, .loss, at: 4_000),
      Fixture.annAsX(against: hard, .win, at: 5_000),
    ] {
      _ = try await client.saveFinishedGame(game)
    }
    let stats = try await client.stats(.account(1))
    #expect(
      stats.tallies == [
        Tally(opponent: .computer(.hard), wins: 2),
        Tally(opponent: .computer(.unbeatable), losses: 1, draws: 1),
        Tally(opponent: .computer(.unbeatable, isStrongest: true), wins: 1),
      ])
    #expect(stats.tallies.map(\.opponent.levelName) == ["Hard", "Unbeatable", "Strongest"])
    #expect(stats.games == 5)
  }

  @Test(
    "streaks follow the order games ended in",
    arguments: [
      ("wwlwwwdw", 1, 3), ("wwww", 4, 4), ("wwl", 0, 2), ("", 0, 0), ("ldl", 0, 0),
      ("lwwdwww", 3, 3),
    ])
  func streaks(script: String, current: Int, best: Int) async throws {
    // Saved out of order to show the order comes from the end times, not the ids.
    for (index, letter) in script.enumerated().reversed() {
      let outcome: Fixture.Outcome = letter == "w" ? .win : letter == "l" ? .loss : .draw
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.computer(.medium), outcome, at: Int64(index + 1) * 1_000))
    }
    let stats = try await client.stats(.account(1))
    #expect(stats.currentStreak == current)
    #expect(stats.bestStreak == best)
  }

  @Test func historyIsNewestFirstAndLimited() async throws {
    for time in [3_000, 1_000, 2_000] as [Int64] {
      _ = try await client.saveFinishedGame(
        Fixture.annAsX(against: Fixture.guest, .win, at: time))
    }
    let history = try await client.history(.account(1), 2)
    #expect(history.map(\.endedAt) == [3_000, 2_000])
  }

  @Test func resetDeletesOnlyTheOwnersGames() async throws {
    _ = try await client.saveFinishedGame(Fixture.annAsX(against: Fixture.guest, .win, at: 1_000))
    _ = try await client.saveFinishedGame(
      Fixture.game(x: Fixture.guest, o: Fixture.computer(.easy), result: .draw, at: 2_000))
    try await client.resetStats(.account(1))
    #expect(try await client.stats(.account(1)) == Stats())
    #expect(try await client.history(.guest, 10).count == 1)
  }

  /// A finished game's id names that game for good: after a reset deletes the latest games,
  /// the next games are numbered above them, not given their ids.
  @Test func theIdsOfDeletedGamesAreNotGivenAgain() async throws {
    var ids: [Int64] = []
    for at in [1_000, 2_000, 3_000] as [Int64] {
      ids.append(
        try await client.saveFinishedGame(Fixture.annAsX(against: Fixture.guest, .win, at: at)))
    }
    try await client.resetStats(.account(1))
    #expect(try await client.game(ids[2]) == nil)
    // A game in progress, saved and replaced, takes ids too, never a finished game's.
    let progress = GameRecord(
      x: Fixture.ann, o: Fixture.guest, moves: [Cell(row: 1, column: 1)], startedAt: 4_000)
    try await client.saveGameInProgress(progress, .account(1))
    try await client.saveGameInProgress(progress, .account(1))
    let next = try await client.saveFinishedGame(
      Fixture.annAsX(against: Fixture.guest, .loss, at: 5_000))
    #expect(next > ids[2])
    #expect(try await client.game(ids[2]) == nil)
    #expect(try await client.history(.account(1), 10).map(\.id) == [next])
  }

  /// A game between two computers counts in no tally (``WatchedGamesTests``): a reset of the
  /// stats, which says how many games it deletes, deletes the games counted and leaves it.
  @Test func aGameBetweenComputersIsNotDeletedWithTheStats() async throws {
    _ = try await client.saveFinishedGame(
      Fixture.game(
        x: Fixture.computer(.easy), o: Fixture.computer(.hard), result: .oWins, at: 1_000))
    _ = try await client.saveFinishedGame(
      Fixture.game(x: Fixture.guest, o: Fixture.computer(.easy), result: .draw, at: 2_000))
    let before = try await client.stats(.guest)
    #expect(before.games == 1)
    try await client.resetStats(.guest)
    #expect(try await client.stats(.guest).games == 0)
    #expect(try await client.history(.guest, 10).map(\.endedAt) == [1_000])
  }

  @Test func gameInProgressIsSavedReplacedLoadedAndCleared() async throws {
    #expect(try await client.loadGameInProgress(.guest) == nil)
    var record = GameRecord(
      x: Fixture.guest, o: Fixture.computer(.unbeatable),
      moves: [Cell(row: 1, column: 1)], startedAt: 5_000)
    try await client.saveGameInProgress(record, .guest)
    record.moves.append(Cell(row: 0, column: 0))
    try await client.saveGameInProgress(record, .guest)
    let loaded = try #require(try await client.loadGameInProgress(.guest))
    #expect(loaded.moves == record.moves)
    #expect(loaded.x == record.x && loaded.o == record.o && loaded.startedAt == 5_000)
    #expect(try await client.loadGameInProgress(.account(1)) == nil)
    #expect(try await client.history(.guest, 10).isEmpty)
    #expect(try await client.stats(.guest) == Stats())
    try await client.clearGameInProgress(.guest)
    #expect(try await client.loadGameInProgress(.guest) == nil)
  }

  @Test func aLateSaveOfAFinishedGameIsNotOfferedForResuming() async throws {
    var record = GameRecord(
      x: Fixture.guest, o: Fixture.computer(.unbeatable),
      moves: [Cell(row: 1, column: 1), Cell(row: 0, column: 0)], startedAt: 7_000)
    let earlier = record
    record.moves += [Cell(row: 2, column: 2), Cell(row: 0, column: 2)]
    record.moves += [Cell(row: 0, column: 1), Cell(row: 2, column: 1), Cell(row: 1, column: 0)]
    record.moves += [Cell(row: 1, column: 2), Cell(row: 2, column: 0)]
    record.result = .draw
    record.endedAt = 9_000
    _ = try await client.saveFinishedGame(record)
    try await client.clearGameInProgress(.guest)
    // The save of an earlier move arrives only now.
    try await client.saveGameInProgress(earlier, .guest)
    #expect(try await client.loadGameInProgress(.guest) == nil)
    // Another game with the same players is saved as usual.
    var next = earlier
    next.startedAt = 10_000
    try await client.saveGameInProgress(next, .guest)
    #expect(try await client.loadGameInProgress(.guest)?.startedAt == 10_000)
  }
}
