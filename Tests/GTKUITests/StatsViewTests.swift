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
      XCTAssertEqual(view.recentGameButtons.map(\.label), state.recentGameLines)
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
    }
  }
}
