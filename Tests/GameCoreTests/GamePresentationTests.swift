import GameCore
import GameRules
import TestSupport
import Testing

struct GamePresentationTests {
  private func state(_ moves: [Cell], settings: GameSettings = .hotSeat) throws
    -> GameFeature.State
  {
    GameFeature.State(
      settings: settings, game: try Game(start: .classic, moves: moves),
      startedAt: TestClock.epoch)
  }

  @Test
  func cellsCarryLabelsAndAccessibleNames() throws {
    let rows = try state([.b1, .a1]).rows
    #expect(rows.count == 3)
    #expect(rows[0].map(\.label) == ["O", "X", ""])
    #expect(rows[0][1].accessibleName == "Row 1, column 2, X")
    #expect(rows[2][2].accessibleName == "Row 3, column 3, empty")
    #expect(rows[0][0].isLastMove)
    #expect(!rows[0][0].isEnabled)
    #expect(rows[2][2].isEnabled)
  }

  @Test
  func theWinningLineIsHighlighted() throws {
    let finished = try state([.a1, .b1, .b2, .c1, .c3])
    let winning = finished.rows.flatMap { $0 }.filter(\.isWinning).map(\.cell)
    #expect(winning == [.a1, .b2, .c3])
    #expect(finished.rows.flatMap { $0 }.allSatisfy { !$0.isEnabled })
    #expect(finished.isGameOver)
  }

  @Test
  func narrationTellsEachMoveAndTheResult() throws {
    let finished = try state([.a1, .b1, .b2, .c1, .c3])
    #expect(
      finished.narration == [
        "X plays a1.", "O plays b1.", "X plays b2.", "O plays c1.", "X plays c3.",
        "X wins with a1, b2, c3.",
      ])
  }

  @Test
  func titlesNameThePlayerToMove() throws {
    #expect(try state([]).title == "Blob, place your X")
    #expect(try state([.a1]).title == "Blob Jr, place your O")
    #expect(try state([.a1], settings: .versusComputer).title == "Computer is thinking…")
    #expect(try state([.a1, .b1, .b2, .c1, .c3]).title == "Winner! Congrats Blob!")
  }

  @Test
  func undoNeedsAPersonsMoveToTakeBack() throws {
    var settings = GameSettings.versusComputer
    settings.computerMark = .x
    #expect(try !state([.a1], settings: settings).canUndo)
    #expect(try state([.a1, .b2], settings: settings).canUndo)
    #expect(try !state([]).canUndo)
    #expect(try state([.a1]).canUndo)
  }
}
