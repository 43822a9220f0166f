import CGTK
import DatabaseClient
import GTKUI
import GameRules
import StatsCore
import XCTest

final class StatsViewTests: XCTestCase {
  func testShowsTheCoreLinesAndReplaysAGameMoveByMove() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var sent: [StatsFeature.Action.View] = []
      let view = StatsView { sent.append($0) }
      var state = StatsFeature.State(owner: .guest)
      let record = GameRecord(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Computer", computer: .hard),
        rows: 3, columns: 3, k: 3, firstMover: .x,
        moves: ["a1", "b2", "b1"].compactMap { Cell(name: $0) }, result: nil, startedAt: 0)
      state.stats = Stats(
        tallies: [Tally(opponent: .computer(.hard), wins: 2, losses: 1)],
        currentStreak: 1, bestStreak: 2, recentGames: [record])
      view.render(state)

      XCTAssertEqual(view.tallyLabels.map(\.text), state.tallyLines)
      XCTAssertEqual(view.recentGameButtons.map(\.accessibleName), state.recentGameLines)
      XCTAssertFalse(view.emptyPage.isVisible)
      XCTAssertTrue(view.resetButton.isSensitive)
      XCTAssertEqual(view.replayCellNames, [])

      try XCTUnwrap(view.recentGameButtons.first).click()
      XCTAssertEqual(sent, [.recentGameTapped(0)])

      state.replay = StatsFeature.Replay(record: record, step: 2)
      view.render(state)
      XCTAssertEqual(
        view.replayCellNames,
        [
          ["Row 1, column 1, X", "Row 1, column 2, empty", "Row 1, column 3, empty"],
          ["Row 2, column 1, empty", "Row 2, column 2, O", "Row 2, column 3, empty"],
          ["Row 3, column 1, empty", "Row 3, column 2, empty", "Row 3, column 3, empty"],
        ])
      XCTAssertTrue(
        view.replayBoard.cells.joined().allSatisfy(\.isAccessibleDisabled),
        "nothing is played on a replay")
      XCTAssertEqual(
        view.replayBoard.cells.joined().map { $0.hasClass("last-move") },
        [false, false, false, false, true, false, false, false, false],
        "the move stepped to, b2, is the last move")
      XCTAssertTrue(view.backButton.isSensitive)
      XCTAssertTrue(view.forwardButton.isSensitive)
      view.forwardButton.click()
      view.closeReplayButton.click()
      XCTAssertEqual(sent, [.recentGameTapped(0), .replayForwardTapped, .replayClosed])
      state.replay = StatsFeature.Replay(record: record, step: 3)
      view.render(state)
      XCTAssertFalse(view.forwardButton.isSensitive, "the last move is shown")
    }
  }

  /// Names with characters Pango markup gives a meaning to are drawn as typed: a row of a
  /// boxed list, a group's title and a toast read their text as markup in libadwaita.
  func testNamesThatLookLikeMarkupAreDrawnAsTyped() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = StatsView { _ in }
      var state = StatsFeature.State(owner: .guest)
      let record = GameRecord(
        x: PlayerRecord(name: "a<b"), o: PlayerRecord(name: "<b>&amp;</b>"),
        rows: 3, columns: 3, k: 3, firstMover: .x,
        moves: ["a1", "b2", "b1"].compactMap { Cell(name: $0) }, result: nil, startedAt: 0)
      state.stats = Stats(
        tallies: [Tally(opponent: .person, wins: 1)], currentStreak: 1, bestStreak: 1,
        recentGames: [record])
      view.render(state)
      let drawn = widgetTree(view.root.widget).compactMap {
        cgtk_label_text($0).map { String(cString: $0) }
      }
      let line = try XCTUnwrap(state.recentGameLines.first)
      XCTAssertTrue(line.contains("a<b vs <b>&amp;</b>"), line)
      XCTAssertTrue(drawn.contains(line), "\(drawn)")
      // A group's title is escaped, and shown from the start.
      XCTAssertTrue(drawn.contains("Recent games"), "\(drawn)")
    }
  }

  func testAReplayOpenedBelowTheFoldScrollsIntoView() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = StatsView { _ in }
      let window = gtk_window_new()
      gtk_window_set_default_size(cgtk_window(window), 480, 360)
      gtk_window_set_child(cgtk_window(window), view.root.widget)
      defer { gtk_window_destroy(cgtk_window(window)) }
      gtk_window_present(cgtk_window(window))
      var state = StatsFeature.State(owner: .guest)
      let record = GameRecord(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Computer", computer: .hard),
        rows: 3, columns: 3, k: 3, firstMover: .x,
        moves: ["a1", "b2", "b1"].compactMap { Cell(name: $0) }, result: nil, startedAt: 0)
      state.stats = Stats(
        tallies: [Tally(opponent: .computer(.hard), wins: 2, losses: 1)],
        currentStreak: 1, bestStreak: 2, recentGames: Array(repeating: record, count: 10))
      view.render(state)
      pump { false }
      XCTAssertEqual(view.scrollOffset, 0, "the screen opens at its top")

      state.replay = StatsFeature.Replay(record: record, step: 0)
      view.render(state)
      pump { view.scrollOffset > 0 }
      XCTAssertGreaterThan(view.scrollOffset, 100, "the replay, below the chart, is brought up")
    }
  }

  func testNothingToCountShowsTheStatusPage() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = StatsView { _ in }
      var state = StatsFeature.State(owner: .guest)
      state.isLoading = true
      view.render(state)
      XCTAssertFalse(view.emptyPage.isVisible, "not while reading")
      state.isLoading = false
      state.stats = Stats()
      view.render(state)
      XCTAssertTrue(view.emptyPage.isVisible)
      XCTAssertEqual(view.emptyPage.title, "No finished games yet")
      XCTAssertFalse(view.resetButton.isSensitive)
    }
  }

  func testResetAsksInADialogAndProblemsAreToasts() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var sent: [StatsFeature.Action.View] = []
      let toasts = ToastOverlay()
      let view = StatsView(toasts: toasts) { sent.append($0) }
      var state = StatsFeature.State(owner: .guest)
      state.stats = Stats(tallies: [Tally(opponent: .person, wins: 1)])
      state.isConfirmingReset = true
      view.render(state)
      let dialog = try XCTUnwrap(view.confirmation)
      XCTAssertEqual(dialog.heading, "Reset your stats?")
      dialog.respond(.act)
      XCTAssertEqual(sent, [.resetConfirmed])
      state.isConfirmingReset = false
      state.errorMessage = "The database is locked."
      view.render(state)
      view.render(state)
      XCTAssertEqual(toasts.shown, ["The database is locked."], "once, not at every render")
    }
  }

  /// An account's reset asks on the page for the password, then the code, and sends what is
  /// typed; no dialog opens.
  func testAnAccountsResetAsksForThePasswordThenTheCode() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var sent: [StatsFeature.Action.View] = []
      let view = StatsView { sent.append($0) }
      var state = StatsFeature.State(owner: .account(1))
      state.userName = "Ada"
      state.stats = Stats(tallies: [Tally(opponent: .person, wins: 1)])
      view.render(state)
      XCTAssertFalse(view.resetForm.isVisible)
      state.isConfirmingReset = true
      state.resetCredentials = StatsFeature.ResetCredentials()
      view.render(state)
      XCTAssertNil(view.confirmation, "an account's reset asks on the page")
      XCTAssertTrue(view.resetForm.isVisible)
      XCTAssertFalse(view.resetButton.isVisible)
      XCTAssertFalse(view.resetCodeRow.isVisible)
      XCTAssertEqual(view.resetPasswordEntry.accessibleName, "Password")
      view.resetPasswordEntry.type("secret!")
      state.resetCredentials?.password = "secret!"
      state.resetCredentials?.needsCode = true
      view.render(state)
      XCTAssertTrue(view.resetCodeRow.isVisible)
      view.resetConfirmButton.click()
      view.resetCancelButton.click()
      XCTAssertEqual(sent, [.resetPasswordChanged("secret!"), .resetConfirmed, .resetCancelled])
      XCTAssertEqual(view.resetConfirmButton.label, state.resetConfirmationAnswers.reset)
      XCTAssertEqual(view.resetCancelButton.label, state.resetConfirmationAnswers.keep)
    }
  }
}
