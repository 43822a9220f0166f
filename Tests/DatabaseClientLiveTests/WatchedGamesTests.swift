import DatabaseClient
import DatabaseClientLive
import GameRules
import Testing

/// Games between two computers: listed with the watcher's games, counted in no tally.
struct WatchedGamesTests {
  @Test func aDemoIsListedForItsWatcherButScoredForNoOne() async throws {
    let client = DatabaseClient.live(database: try LocalDatabase.inMemory().addingAnn())
    let easy = Fixture.computer(.easy)
    let hard = Fixture.computer(.hard)
    var watchedByAnn = Fixture.game(x: easy, o: hard, result: .xWins, at: 2_000)
    watchedByAnn.x.accountID = 1
    for game in [
      Fixture.annAsX(against: easy, .win, at: 1_000), watchedByAnn,
      Fixture.game(x: easy, o: hard, result: .oWins, at: 3_000),
      Fixture.game(x: Fixture.guest, o: hard, result: .draw, at: 4_000),
    ] {
      _ = try await client.saveFinishedGame(game)
    }

    let ann = try await client.stats(.account(1))
    #expect(ann.tallies == [Tally(opponent: .computer(.easy), wins: 1)])
    #expect(ann.currentStreak == 1)
    #expect(ann.recentGames.map(\.endedAt) == [2_000, 1_000])
    #expect(try await client.history(.account(1), 10).map(\.endedAt) == [2_000, 1_000])

    let guest = try await client.stats(.guest)
    #expect(guest.tallies == [Tally(opponent: .computer(.hard), draws: 1)])
    #expect(guest.recentGames.map(\.endedAt) == [4_000, 3_000])
  }
}
