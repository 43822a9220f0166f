import GameCore
import GameRules
import TestSupport
import Testing

@testable import TerminalUI

struct GameInputTests {
  private func state(
    _ settings: GameSettings = .hotSeat, moves: [Cell] = []
  ) throws -> GameFeature.State {
    let start = try Board(rows: settings.rows, columns: settings.columns, k: settings.k)
    return GameFeature.State(
      settings: settings, game: try Game(start: start, moves: moves), startedAt: 0)
  }

  private func press(
    _ keys: Key..., state: GameFeature.State, terminal: inout GameTerminalState
  ) -> [GameResponse] {
    let frame = GameScreen(state, terminal: terminal).frame(width: 80, height: 24)
    return keys.map { GameInput.handle($0, frame: frame, state: state, terminal: &terminal) }
  }

  @Test func cursorMovesWithArrowsWASDAndVimKeysAndStaysOnTheBoard() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(terminal.cursor == .b2)
    _ = press(.up, state: state, terminal: &terminal)
    #expect(terminal.cursor == .b1)
    _ = press(.up, .character("w"), .character("k"), state: state, terminal: &terminal)
    #expect(terminal.cursor == .b1)
    _ = press(.left, .character("a"), state: state, terminal: &terminal)
    #expect(terminal.cursor == .a1)
    _ = press(.character("s"), .character("j"), .down, state: state, terminal: &terminal)
    #expect(terminal.cursor == .a3)
    _ = press(.right, .character("d"), .character("l"), state: state, terminal: &terminal)
    #expect(terminal.cursor == .c3)
  }

  @Test func enterAndSpacePlayAtTheCursor() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(.enter, .character(" "), state: state, terminal: &terminal) == [
        .send(.cellTapped(.b2)), .send(.cellTapped(.b2)),
      ])
  }

  @Test func digitsPickCellsOfAThreeByThreeBoard() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(.character("1"), .character("9"), state: state, terminal: &terminal) == [
        .send(.cellTapped(.a1)), .send(.cellTapped(.c3)),
      ])
    #expect(terminal.cursor == .c3)
  }

  @Test func digitsDoNothingOnLargerBoards() throws {
    var settings = GameSettings.hotSeat
    (settings.rows, settings.columns, settings.k) = (5, 5, 4)
    let state = try state(settings)
    var terminal = GameTerminalState(rows: 5, columns: 5)
    #expect(press(.character("1"), state: state, terminal: &terminal) == [.none])
    #expect(terminal.cursor == Cell(row: 2, column: 2))
  }

  @Test func takenCellIsRefusedWithASentence() throws {
    let state = try state(moves: [.b2])
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(press(.enter, state: state, terminal: &terminal) == [.none])
    #expect(terminal.notice == "b2 is taken.")
    let screen = GameScreen(state, terminal: terminal)
    #expect(screen.message == "b2 is taken.")
    #expect(screen.messageIsError)
    // The next key clears the notice.
    _ = press(.left, state: state, terminal: &terminal)
    #expect(terminal.notice == nil)
  }

  @Test func commandKeys() throws {
    let state = try state(moves: [.b2])
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(
        .character("u"), .character("r"), .character("h"), .character("n"), .character("q"),
        state: state, terminal: &terminal)
        == [
          .send(.undoTapped), .send(.redoTapped), .send(.hintTapped), .send(.quitTapped),
          .send(.quitTapped),
        ])
  }

  @Test func ctrlCAndCtrlDLeaveAtOnce() throws {
    let state = try state(moves: [.b2])
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(press(.interrupt, .endOfInput, state: state, terminal: &terminal) == [.exit, .exit])
  }

  @Test func quitConfirmationTakesYesOrNo() throws {
    var state = try state(moves: [.b2])
    state.isConfirmingQuit = true
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(
        .character("y"), .character("q"), .character("n"), .escape, .character("u"),
        state: state, terminal: &terminal)
        == [
          .send(.quitConfirmed), .send(.quitConfirmed), .send(.quitCancelled),
          .send(.quitCancelled), .none,
        ])
    let screen = GameScreen(state, terminal: terminal)
    #expect(screen.message == "Quit this game? It will not be saved.")
    #expect(screen.buttons.map(\.text) == ["[y] Quit", "[n] Keep playing"])
  }

  @Test func helpOpensWithQuestionMarkAndAnyKeyClosesIt() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    _ = press(.character("?"), state: state, terminal: &terminal)
    #expect(terminal.isShowingHelp)
    #expect(GameScreen(state, terminal: terminal).overlay == GameKeys.help)
    #expect(press(.character("5"), state: state, terminal: &terminal) == [.none])
    #expect(!terminal.isShowingHelp)
  }

  @Test func clicksPlayCellsAndPressButtons() throws {
    let state = try state(moves: [.a1])
    var terminal = GameTerminalState(rows: 3, columns: 3)
    // Line 8 is row 3; c3 spans columns 12 to 14. The buttons are on the last line.
    #expect(
      press(
        .mouse(MouseEvent(button: 0, row: 8, column: 13)),
        .mouse(MouseEvent(button: 0, row: 8, column: 13, isPress: false)),
        .mouse(MouseEvent(button: 2, row: 8, column: 13)),
        .mouse(MouseEvent(button: 0, row: 12, column: 2)),
        .mouse(MouseEvent(button: 0, row: 0, column: 0)),
        state: state, terminal: &terminal)
        == [.send(.cellTapped(.c3)), .none, .none, .send(.undoTapped), .none])
  }

  @Test func boardIgnoresMovesWhileTheComputerThinks() throws {
    var state = try state(.versusComputer, moves: [.b2])
    state.isThinking = true
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(press(.character("1"), state: state, terminal: &terminal) == [.none])
    let screen = GameScreen(state, terminal: terminal)
    #expect(screen.title == "Computer is thinking…")
    #expect(screen.decorations.cursor == nil)
  }

  @Test func gameOverOffersPlayAgain() throws {
    let state = try state(moves: [.a1, .b1, .b2, .c1, .c3])
    let screen = GameScreen(state, terminal: GameTerminalState(rows: 3, columns: 3))
    #expect(screen.title == "Winner! Congrats Blob!")
    #expect(screen.message == "X wins with a1, b2, c3.")
    #expect(screen.buttons.map(\.text).contains("[n] Play again"))
    #expect(screen.buttons.first { $0.label == "Undo" }?.isEnabled == false)
    #expect(screen.decorations.cursor == nil)
  }
}
