import ArchitectureTesting
import DatabaseClient
import GameRules
import StatsCore
import Synchronization
import TestSupport
import Testing

/// The credentials a test's accounts were asked to check, in order.
final class CheckedCredentials: Sendable {
  private let checked = Mutex<[String]>([])

  func record(_ line: String) { checked.withLock { $0.append(line) } }

  var all: [String] { checked.withLock { $0 } }
}

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
      StatsFeature(database: database.client, localTime: TestClock.localTime)
    }
    #expect(store.state.isEmpty)
    await store.send(.started) { $0.isLoading = true }
    await store.receive(.statsResponse(.success(stats))) {
      $0.isLoading = false
      $0.stats = stats
      // It ended at 22:14:20 UTC, an hour behind the test clock's time zone.
      $0.recentGameTimes = [
        LocalTime(year: 2023, month: 11, day: 14, hour: 23, minute: 14, second: 20)
      ]
    }
    #expect(
      store.state.tallyLines == [
        "People: 1 win, 0 losses, 2 draws", "Computer (Hard): 2 wins, 1 loss, 0 draws",
      ])
    #expect(store.state.winRateText == "50%")
    #expect(store.state.streakText == "Current streak: 0 · Best streak: 2")
    #expect(
      store.state.recentGameLines == [
        "2023-11-14 23:14 · Blob vs Computer: Computer won in 7 moves"
      ])
    await store.finish()
  }

  @Test
  func resetAsksFirstThenDeletesTheGames() async {
    let database = InMemoryDatabase(stats: [.guest: stats])
    var state = StatsFeature.State(owner: .guest)
    state.stats = stats
    let store = TestStore(initialState: state) {
      StatsFeature(database: database.client, localTime: TestClock.localTime)
    }
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

  /// An account's reset needs its sign-in: the password, then, with two-factor on, a code;
  /// wrong ones delete nothing.
  @Test
  func anAccountsResetNeedsItsPasswordAndCode() async {
    let database = InMemoryDatabase(stats: [.account(1): stats])
    var state = StatsFeature.State(owner: .account(1))
    state.stats = stats
    state.userName = "blob"
    let checked = CheckedCredentials()
    let store = TestStore(initialState: state) {
      StatsFeature(
        database: database.client, localTime: TestClock.localTime,
        checkCredentials: { userName, password, code in
          checked.record("\(userName) \(password) \(code ?? "-")")
          guard password == "correct horse" else {
            return .refused("The user name or password is wrong.")
          }
          guard let code else { return .codeNeeded }
          return code == "123456" ? .accepted : .refused("That code is not valid.")
        })
    }
    await store.send(.view(.resetTapped)) {
      $0.isConfirmingReset = true
      $0.resetCredentials = StatsFeature.ResetCredentials()
    }
    /// Reset confirmed with what is typed: check `number` is asked for.
    func confirm(check number: Int) async {
      await store.send(.view(.resetConfirmed)) {
        $0.checks = number
        $0.resetCredentials?.isChecking = true
        $0.errorMessage = nil
      }
    }
    // Nothing typed: asked for, not checked.
    await store.send(.view(.resetConfirmed)) {
      $0.errorMessage = "Enter the account's password to reset its stats."
    }
    await store.send(.view(.resetPasswordChanged("wrong"))) {
      $0.resetCredentials?.password = "wrong"
    }
    await confirm(check: 1)
    await store.receive(
      .resetCredentialsChecked(number: 1, .refused("The user name or password is wrong."))
    ) {
      $0.resetCredentials?.isChecking = false
      $0.resetCredentials?.password = ""
      $0.errorMessage = "The user name or password is wrong."
    }
    await store.send(.view(.resetPasswordChanged("correct horse"))) {
      $0.resetCredentials?.password = "correct horse"
    }
    await confirm(check: 2)
    await store.receive(.resetCredentialsChecked(number: 2, .codeNeeded)) {
      $0.resetCredentials?.isChecking = false
      $0.resetCredentials?.needsCode = true
      $0.errorMessage =
        "This account has two-factor on: enter a code from the authenticator app, or a recovery "
        + "code."
    }
    // A wrong code: the code is typed again, the password that was right is kept.
    await store.send(.view(.resetCodeChanged("000000"))) { $0.resetCredentials?.code = "000000" }
    await confirm(check: 3)
    await store.receive(.resetCredentialsChecked(number: 3, .refused("That code is not valid."))) {
      $0.resetCredentials?.isChecking = false
      $0.resetCredentials?.code = ""
      $0.errorMessage = "That code is not valid."
    }
    await store.send(.view(.resetCodeChanged("123456"))) { $0.resetCredentials?.code = "123456" }
    await confirm(check: 4)
    await store.receive(.resetCredentialsChecked(number: 4, .accepted)) {
      $0.isConfirmingReset = false
      $0.resetCredentials = nil
      $0.isLoading = true
    }
    await store.receive(.statsResponse(.success(Stats()))) {
      $0.isLoading = false
      $0.stats = Stats()
    }
    #expect(
      checked.all == [
        "blob wrong -", "blob correct horse -", "blob correct horse 000000",
        "blob correct horse 123456",
      ])
    await store.finish()
  }

  /// An answer to a check the player cancelled (Esc, Keep them) is not the answer to the next
  /// question: a wrong password typed then is never taken for the right one typed before.
  @Test
  func anAnswerToACancelledCheckIsNotTheNextQuestions() {
    let feature = StatsFeature(database: .unimplemented, localTime: TestClock.localTime)
    var state = StatsFeature.State(owner: .account(1))
    state.userName = "blob"
    state.isConfirmingReset = true
    state.checks = 1
    var credentials = StatsFeature.ResetCredentials()
    credentials.password = "wrong"
    credentials.isChecking = true
    state.resetCredentials = credentials
    state.checks = 2
    // The answer to check 1, asked before Esc, comes while check 2 is awaited.
    let before = state
    _ = feature.reduce(into: &state, action: .resetCredentialsChecked(number: 1, .accepted))
    #expect(state == before)
    #expect(state.isConfirmingReset)
    // Esc cancels the check in flight and the question.
    _ = feature.reduce(into: &state, action: .view(.resetCancelled))
    #expect(state.resetCredentials == nil)
    _ = feature.reduce(into: &state, action: .resetCredentialsChecked(number: 2, .accepted))
    #expect(!state.isLoading && state.resetCredentials == nil && !state.isConfirmingReset)
  }

  @Test
  func aFailureToReadIsShown() async {
    var database = DatabaseClient.unimplemented
    database.stats = { _ in throw DatabaseError("The database is locked.") }
    let store = TestStore(initialState: StatsFeature.State(owner: .guest)) {
      StatsFeature(database: database, localTime: TestClock.localTime)
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
    let store = TestStore(initialState: state) {
      StatsFeature(database: .unimplemented, localTime: TestClock.localTime)
    }
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

/// What the desktop draws of the stats: the chart's bars, the figures, the empty state, the
/// replay's title and steps.
struct StatsPresentationTests {
  private let record = GameRecord(
    id: 3, x: PlayerRecord(name: "Ann", accountID: 1),
    o: PlayerRecord(name: "Computer", computer: .easy), moves: [.b2, .a1, .c1],
    result: .xWins, startedAt: TestClock.epoch, endedAt: TestClock.epoch + 1_000)

  private func state(_ stats: Stats?) -> StatsFeature.State {
    var state = StatsFeature.State(owner: .account(1))
    state.stats = stats
    return state
  }

  @Test func theChartHasABarPerOpponentWithTheTallysSentence() {
    let stats = Stats(
      tallies: [
        Tally(opponent: .person, wins: 1, losses: 0, draws: 2),
        Tally(opponent: .computer(.unbeatable), wins: 0, losses: 3, draws: 4),
        Tally(opponent: .computer(.unbeatable, isStrongest: true), wins: 1, losses: 1, draws: 0),
      ], currentStreak: 1, bestStreak: 4, recentGames: [record])
    let bars = state(stats).resultsBars
    #expect(bars.map(\.opponent) == ["People", "Computer (Unbeatable)", "Computer (Strongest)"])
    #expect(bars.map { [$0.wins, $0.draws, $0.losses] } == [[1, 2, 0], [0, 4, 3], [1, 0, 1]])
    #expect(bars.map(\.games) == [3, 7, 2])
    #expect(bars.map(\.summary) == state(stats).tallyLines)
    #expect(state(stats).tallyLines.last == "Computer (Strongest): 1 win, 1 loss, 0 draws")
    #expect(
      state(stats).highlights.map { "\($0.title) \($0.value)" } == [
        "Win rate 17%", "Current streak 1", "Best streak 4", "Games 12",
      ])
    #expect(StatsFeature.State.resultTitles == ["Wins", "Draws", "Losses"])
  }

  @Test func nothingToCountShowsTheEmptyStateOnlyOnceLoaded() {
    #expect(state(Stats()).emptyMessage?.title == "No finished games yet")
    // Games between two computers are listed but count for no one: none is "finished" of yours.
    var watched = Stats()
    watched.recentGames = [GameRecord.unfinishedAnnAgainstBob]
    #expect(state(watched).emptyMessage?.title == "No games counted yet")
    #expect(state(nil).emptyMessage != nil, "no games were read")
    var loading = state(nil)
    loading.isLoading = true
    #expect(loading.emptyMessage == nil, "not while reading")
    var failed = state(nil)
    failed.errorMessage = "The database is locked."
    #expect(failed.emptyMessage == nil, "the error says it instead")
    #expect(state(Stats(tallies: [Tally(opponent: .person, wins: 1)])).emptyMessage == nil)
    #expect(state(Stats()).resultsBars.isEmpty)
    #expect(state(nil).highlights.map(\.value) == ["–", "0", "0", "0"])
  }

  @Test func theReplayIsTitledByItsGameAndStepsWithinIt() {
    var replaying = state(Stats(recentGames: [record]))
    #expect(replaying.replayTitle == nil)
    #expect(replaying.replaySteps == (false, false))
    replaying.replay = StatsFeature.Replay(record: record)
    #expect(replaying.replayTitle == "Ann vs Computer: Ann won in 3 moves")
    #expect(replaying.replaySteps == (false, true))
    replaying.replay?.step = 2
    #expect(replaying.replaySteps == (true, true))
    replaying.replay?.step = 3
    #expect(replaying.replaySteps == (true, false))
  }

  @Test func aGameWonBeforeAnyMoveSaysSo() {
    let forfeited = GameRecord(
      id: 4, x: PlayerRecord(name: "ann", accountID: 1), o: PlayerRecord(name: "bob"), moves: [],
      result: .oWins, startedAt: TestClock.epoch, endedAt: TestClock.epoch + 1_000)
    let line = state(Stats(recentGames: [forfeited])).recentGameLines.first ?? ""
    #expect(line.hasPrefix("ann vs bob: bob won before any move"), "\(line)")
    // Moves that do not finish the game: the loser resigned, or did not come back in time.
    var resigned = forfeited
    resigned.moves = [.b2, .a1, .c3]
    resigned.result = .xWins
    var online = StatsFeature.State(
      serverAccount: StatsFeature.ServerAccount(server: "example.org:7457", userName: "ann"))
    online.stats = Stats(recentGames: [resigned])
    let after = online.recentGameLines.first ?? ""
    #expect(after.hasPrefix("ann vs bob: ann won after 3 moves: bob resigned or left"), "\(after)")
  }

  @Test func theResetQuestionSplitsIntoHeadingAndDetail() {
    let shown = state(Stats())
    #expect(
      shown.resetConfirmationMessage
        == "\(shown.resetConfirmationHeading) \(shown.resetConfirmationDetail)")
    #expect(shown.resetConfirmationAnswers == ("Reset", "Keep them"))
  }
}
