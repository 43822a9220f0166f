import ArchitectureTesting
import DatabaseClient
import GameRules
import StatsCore
import TestSupport
import Testing

@MainActor
struct StatsFeatureTests {
  private let recentGame = GameRecord(
    id: 7, x: PlayerRecord(name: "Blob", accountID: 1),
    o: PlayerRecord(name: "Computer", computer: .hard), moves: [.a1, .b2, .b1, .c1, .a3, .a2, .c3],
    result: .oWins, startedAt: TestClock.epoch, endedAt: TestClock.epoch + 60_000)

  private var stats: Stats {
    Stats(
      tallies: [
        Tally(opponent: .person, wins: 1, losses: 0, draws: 2),
        Tally(opponent: .computer(.hard), wins: 2, losses: 1, draws: 0),
      ],
      currentStreak: 0, bestStreak: 2, recentGames: [recentGame])
  }

  @Test
  func statsLoadWhenTheScreenStarts() async {
    let database = InMemoryDatabase(stats: [.account(1): stats])
    let store = TestStore(initialState: StatsFeature.State(owner: .account(1))) {
      StatsFeature(database: database.client)
    }
    #expect(store.state.isEmpty)
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.statsResponse(.success(stats))) {
      $0.isLoading = false
      $0.stats = stats
    }
    #expect(
      store.state.tallyLines == [
        "People: 1 win, 0 losses, 2 draws", "Computer (Hard): 2 wins, 1 loss, 0 draws",
      ])
    #expect(store.state.winRateText == "50%")
    #expect(store.state.streakText == "Current streak: 0 · Best streak: 2")
    #expect(store.state.recentGameLines == ["Blob vs Computer: Computer won in 7 moves"])
    await store.finish()
  }

  @Test
  func resetAsksFirstThenDeletesTheGames() async {
    let database = InMemoryDatabase(stats: [.guest: stats])
    var state = StatsFeature.State(owner: .guest)
    state.stats = stats
    let store = TestStore(initialState: state) { StatsFeature(database: database.client) }
    await store.send(.view(.resetTapped)) { $0.isConfirmingReset = true }
    await store.send(.view(.resetCancelled)) { $0.isConfirmingReset = false }
    await store.send(.view(.resetTapped)) { $0.isConfirmingReset = true }
    await store.send(.view(.resetConfirmed)) {
      $0.isConfirmingReset = false
      $0.isLoading = true
    }
    await store.receive(.statsResponse(.success(Stats()))) {
      $0.isLoading = false
      $0.stats = Stats()
    }
    #expect(store.state.isEmpty)
    #expect(store.state.winRateText == "–")
    await store.finish()
  }

  @Test
  func aFailureToReadIsShown() async {
    var database = DatabaseClient.unimplemented
    database.stats = { _ in throw DatabaseError("The database is locked.") }
    let store = TestStore(initialState: StatsFeature.State(owner: .guest)) {
      StatsFeature(database: database)
    }
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.statsResponse(.failure(DatabaseError("The database is locked.")))) {
      $0.isLoading = false
      $0.errorMessage = "The database is locked."
    }
    await store.finish()
  }

  @Test
  func aRecentGameReplaysMoveByMove() async throws {
    var state = StatsFeature.State(owner: .guest)
    state.stats = stats
    let store = TestStore(initialState: state) { StatsFeature(database: .unimplemented) }
    await store.send(.view(.recentGameTapped(0))) {
      $0.replay = StatsFeature.Replay(record: recentGame)
    }
    #expect(store.state.replayBoard == .classic)
    await store.send(.view(.replayBackTapped))
    await store.send(.view(.replayForwardTapped)) { $0.replay?.step = 1 }
    await store.send(.view(.replayForwardTapped)) { $0.replay?.step = 2 }
    #expect(store.state.replayBoard?.notation == "x../.o./...")
    #expect(store.state.replayProgressText == "Move 2 of 7")
    await store.send(.view(.replayClosed)) { $0.replay = nil }
    await store.send(.view(.closeTapped))
    await store.receive(.delegate(.didClose))
    await store.finish()
  }
}
