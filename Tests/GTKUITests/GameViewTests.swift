import CAdw
import CGTK
import GTKUI
import GameAI
import GameCore
import GameRules
import TestSupport
import XCTest

// GTK wants the process's main thread: these synchronous XCTest methods run there, and a
// `@MainActor` XCTest method or class crashes the run on Linux, hence `MainActor.assumeIsolated`.
final class GameViewTests: XCTestCase {
  func testCellsCarryTheCoreLabelsAndAccessibleNames() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let state = try game(.hotSeat, moves: ["b2", "a1", "c3"])
      let view = GameView { _ in }
      view.render(state)

      XCTAssertEqual(view.cells.count, 3)
      XCTAssertEqual(view.cells.map(\.count), [3, 3, 3])
      let names = view.cells.flatMap { $0.map { $0.accessibleName ?? "" } }
      XCTAssertEqual(Set(names).count, 9, "every cell has its own name")
      for (row, presentations) in state.rows.enumerated() {
        for (column, cell) in presentations.enumerated() {
          let button = view.cells[row][column]
          XCTAssertEqual(button.accessibleName, cell.accessibleName)
          XCTAssertEqual(button.label, "", "marks are drawn, not button labels")
          XCTAssertEqual(button.isAccessibleDisabled, !cell.isEnabled)
        }
      }
      XCTAssertEqual(view.cells[1][1].accessibleName, "Row 2, column 2, X")
      XCTAssertEqual(view.cells[0][0].accessibleName, "Row 1, column 1, O")
      XCTAssertEqual(view.cells[0][1].accessibleName, "Row 1, column 2, empty")
      XCTAssertEqual(view.board.picture().rows, state.rows, "the board draws the core's cells")
      XCTAssertEqual(view.board.picture().mover, .o, "O's mark shows under the pointer")
      XCTAssertEqual(view.titleLabel.text, "Blob Jr, place your O")
      XCTAssertEqual(view.titleLabel.accessibleName, "Blob Jr, place your O")
    }
  }

  func testWinningLineIsHighlightedAndPlayAgainTakesTheFocus() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      let window = present(view.root)
      defer { window.destroy() }
      view.render(try game(.hotSeat, moves: ["a1", "a2", "b1", "b2"]))
      XCTAssertFalse(view.playAgainButton.isVisible, "another game is for after this one")

      view.render(try game(.hotSeat, moves: ["a1", "a2", "b1", "b2", "c1"]))

      let winning = view.cells.flatMap { $0 }.filter { $0.hasClass("winning") }
      XCTAssertEqual(
        winning.map(\.accessibleName),
        [
          "Row 1, column 1, X", "Row 1, column 2, X", "Row 1, column 3, X",
        ])
      XCTAssertEqual(view.titleLabel.text, "Winner! Congrats Blob!")
      XCTAssertTrue(view.playAgainButton.isVisible)
      XCTAssertTrue(view.playAgainButton.isFocused)
      XCTAssertEqual(view.playAgainButton.accessibleDescription, "X wins with a1, b1, c1.")
      XCTAssertTrue(view.playAgainButton.hasClass("suggested-action"))
      XCTAssertTrue(view.cells.flatMap { $0 }.allSatisfy(\.isAccessibleDisabled))
      XCTAssertFalse(view.undoButton.isSensitive)
    }
  }

  func testChoosingACellSendsThatCell() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var sent: [GameFeature.Action.View] = []
      let view = GameView { sent.append($0) }
      view.render(try game(.hotSeat, moves: []))

      view.cells[1][2].click()
      view.undoButton.click()
      view.render(try game(.hotSeat, moves: ["a1", "a2", "b1", "b2", "c1"]))
      view.playAgainButton.click()

      XCTAssertEqual(
        sent, [.cellTapped(Cell(row: 1, column: 2)), .undoTapped, .playAgainTapped])
    }
  }

  func testArrowKeysMoveTheFocusAndStopAtTheEdges() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      let window = present(view.root)
      defer { window.destroy() }
      view.render(try game(.hotSeat, moves: []))
      XCTAssertEqual(view.focusedCell(), Cell(row: 0, column: 0))

      XCTAssertTrue(view.handleBoardKey(UInt32(GDK_KEY_Right)))
      XCTAssertTrue(view.handleBoardKey(UInt32(GDK_KEY_Down)))
      XCTAssertEqual(view.focusedCell(), Cell(row: 1, column: 1))
      XCTAssertTrue(view.handleBoardKey(UInt32(GDK_KEY_Up)))
      XCTAssertTrue(view.handleBoardKey(UInt32(GDK_KEY_Up)))
      XCTAssertEqual(view.focusedCell(), Cell(row: 0, column: 1), "the top edge stops the focus")
      XCTAssertFalse(view.handleBoardKey(UInt32(GDK_KEY_a)))
    }
  }

  func testThinkingDisablesTheBoardAndShowsTheSpinner() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      var state = try game(.versusComputer, moves: ["b2"])
      state.phase = .thinking
      view.render(state)

      XCTAssertEqual(view.titleLabel.text, "Computer is thinking…")
      XCTAssertTrue(view.spinner.isVisible)
      XCTAssertTrue(view.cells.flatMap { $0 }.allSatisfy(\.isAccessibleDisabled))
      XCTAssertFalse(view.hintButton.isSensitive)
    }
  }

  func testAnalysisShowsEachEmptyCellsValueAndTheSummary() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      var state = try game(.hotSeat, moves: ["a1", "b2"])
      view.render(state)
      XCTAssertFalse(view.analysisLabel.isVisible)

      let draw = Evaluation(value: .draw, plies: 7)
      state.analysis = Analysis(
        evaluation: draw,
        moves: state.board.emptyCells.map { MoveEvaluation(cell: $0, evaluation: draw) },
        best: [Cell(row: 0, column: 1)])
      view.render(state)

      let presented = try XCTUnwrap(state.rows[0][1].analysisText)
      XCTAssertNotNil(state.rows[0][1].analysisCode)
      XCTAssertEqual(
        view.board.picture().rows[0][1].analysisCode, state.rows[0][1].analysisCode,
        "the value is drawn")
      XCTAssertEqual(view.cells[0][1].accessibleDescription, presented)
      XCTAssertEqual(view.cells[0][1].accessibleName, "Row 1, column 2, empty")
      XCTAssertEqual(view.board.picture().rows[0][0].label, "X", "marks stay as they are")
      XCTAssertTrue(view.analysisLabel.isVisible)
      XCTAssertEqual(view.analysisLabel.text, state.analysisSummary)

      state.analysis = nil
      view.render(state)
      XCTAssertNil(
        view.board.picture().rows[0][1].analysisCode, "hiding the analysis empties cells")
      XCTAssertFalse(view.analysisLabel.isVisible)
    }
  }

  func testHintIsMarkedOnItsCellForEyesAndEars() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      var state = try game(.hotSeat, moves: ["a1"])
      state.hint = Cell(row: 1, column: 1)
      view.render(state)

      XCTAssertTrue(view.cells[1][1].hasClass("hint"))
      XCTAssertEqual(view.cells[1][1].accessibleDescription, "Suggested move")
      XCTAssertFalse(view.cells[0][1].hasClass("hint"))
      XCTAssertEqual(view.cells[0][1].accessibleDescription ?? "", "")

      state.hint = nil
      view.render(state)
      XCTAssertFalse(view.cells[1][1].hasClass("hint"))
      XCTAssertEqual(view.cells[1][1].accessibleDescription, "")
    }
  }

  func testOnlyAFailedSaveIsSaidUnderTheBoard() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      var state = try game(.hotSeat, moves: ["b2"])
      state.post(.refused(.occupied(Cell(row: 1, column: 1))))
      view.render(state)
      XCTAssertFalse(view.statusLabel.isVisible, "a refusal is a toast of the window's")
      let failure = GameFeature.SaveFailure(
        reason: "The disk is full.", stored: Game(start: .classic), unstored: state.game,
        write: .progress)
      state.phase = .stopped(failure)
      view.render(state)
      XCTAssertTrue(view.statusLabel.isVisible)
      XCTAssertEqual(view.statusLabel.text, failure.sentence)
      XCTAssertTrue(view.statusLabel.hasClass("error"))
    }
  }

  func testTheQuestionIsADialogWhoseAnswersReachTheCore() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var sent: [GameFeature.Action.View] = []
      let view = GameView { sent.append($0) }
      var asking = try game(.hotSeat, moves: ["b2"])
      view.render(asking)
      XCTAssertNil(view.confirmation)
      asking.phase = .confirming(.quit)
      view.render(asking)
      let dialog = try XCTUnwrap(view.confirmation, "the core asks: a dialog shows")
      XCTAssertEqual(dialog.heading, "Quit this game?")
      XCTAssertEqual(dialog.body, "It will not be saved.")
      view.render(asking)
      XCTAssertTrue(view.confirmation === dialog, "one dialog per question")
      dialog.respond(.keep)
      XCTAssertEqual(sent, [.quitCancelled])
      XCTAssertNil(view.confirmation)

      view.render(asking)
      try XCTUnwrap(view.confirmation).respond(.act)
      XCTAssertEqual(sent, [.quitCancelled, .quitConfirmed])

      view.render(asking)
      XCTAssertNotNil(view.confirmation)
      asking.phase = .playing
      view.render(asking)
      XCTAssertNil(view.confirmation, "the question went away: so does the dialog")
      XCTAssertEqual(sent.count, 2, "closing it answers nothing")

      asking.phase = .confirming(.newGame)
      view.render(asking)
      XCTAssertEqual(view.confirmation?.heading, "Start a new game?")
    }
  }

  func testADialogLeftOpenClosesUnansweredWhenItsViewGoes() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var sent: [GameFeature.Action.View] = []
      var asking = try game(.hotSeat, moves: ["b2"])
      asking.phase = .confirming(.quit)
      var view: GameView? = GameView { sent.append($0) }
      view?.render(asking)
      let dialog = try XCTUnwrap(view?.confirmation)
      XCTAssertTrue(dialog.isVisible)
      view = nil
      XCTAssertFalse(dialog.isVisible, "the view went: its dialog closed")
      XCTAssertEqual(sent, [], "closing it answers nothing")
    }
  }

  func testBoardGrowsToTheGameSize() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let view = GameView { _ in }
      var settings = GameSettings.hotSeat
      settings.rows = 7
      settings.columns = 7
      settings.k = 5
      view.render(try GameFeature.State(settings: settings, firstMover: .x, startedAt: 0))

      let names = view.cells.flatMap { $0.compactMap(\.accessibleName) }
      XCTAssertEqual(names.count, 49)
      XCTAssertEqual(Set(names).count, 49)
      XCTAssertEqual(names.last, "Row 7, column 7, empty")
    }
  }
}

/// Whether GTK could be initialised, asked once: after a failed first call, GTK 4 answers yes to
/// a second one without a display, and the next widget crashes the run.
@MainActor
private let hasDisplay: Bool = {
  guard gtk_init_check() != 0 else { return false }
  adw_init()
  return true
}()

/// Skips the test when there is no display to initialise GTK on.
@MainActor
func requireDisplay() throws {
  guard hasDisplay else { throw XCTSkip("no display: run under xvfb-run -a") }
}

/// A game with `moves` (cell names) played from an empty 3×3 board, X first.
func game(_ settings: GameSettings, moves: [String]) throws -> GameFeature.State {
  var state = try GameFeature.State(settings: settings, firstMover: .x, startedAt: 0)
  for name in moves {
    let cell = try XCTUnwrap(Cell(name: name))
    try state.game.play(at: cell)
  }
  state.phase = state.board.outcome.isOver ? .finished(recordID: 1) : .playing
  return state
}

/// Puts a widget in a window on screen, so focus can move inside it.
@MainActor
func present(_ element: Element) -> Window {
  Window(showing: element)
}
