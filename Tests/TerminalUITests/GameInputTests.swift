import GameCore
import GameRules
import TestSupport
import Testing

@testable import TerminalUI

/// Keys on the game screen: each reaches the core as one view action, with no rule checked here.
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
  ) -> [GameFeature.Action.View?] {
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
        .cellTapped(.b2), .cellTapped(.b2),
      ])
  }

  @Test func digitsGoToTheCoreAndMoveTheCursorOnThreeByThree() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(.character("1"), .character("9"), state: state, terminal: &terminal) == [
        .digitTyped(1), .digitTyped(9),
      ])
    #expect(terminal.cursor == .c3)
    // On a larger board the core says what digits do; the cursor stays.
    var settings = GameSettings.hotSeat
    (settings.rows, settings.columns, settings.k) = (5, 5, 4)
    var large = GameTerminalState(rows: 5, columns: 5)
    #expect(
      press(.character("1"), state: try self.state(settings), terminal: &large) == [.digitTyped(1)])
    #expect(large.cursor == Cell(row: 2, column: 2))
  }

  @Test func aTakenCellIsSentAndTheCoreRefusesIt() throws {
    let state = try state(moves: [.b2])
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(press(.enter, state: state, terminal: &terminal) == [.cellTapped(.b2)])
    var refused = state
    refused.post(.refused(.occupied(.b2)))
    let screen = GameScreen(refused, terminal: terminal)
    #expect(screen.message == "b2 is taken.")
    #expect(screen.messageIsError)
  }

  @Test func commandKeys() throws {
    let state = try state(moves: [.b2])
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(
        .character("u"), .character("r"), .character("h"), .character("n"), .character("q"),
        state: state, terminal: &terminal)
        == [.undoTapped, .redoTapped, .hintTapped, .newGameTapped, .quitTapped])
  }

  @Test func quitConfirmationTakesYesOrNo() throws {
    var state = try state(moves: [.b2])
    state.phase = .confirming(.quit)
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(
      press(
        .character("y"), .character("q"), .character("n"), .escape, .enter, .character(" "),
        .character("u"), state: state, terminal: &terminal)
        == [
          .quitConfirmed, .quitConfirmed, .quitCancelled, .quitCancelled, .quitCancelled,
          .quitCancelled, nil,
        ])
    let screen = GameScreen(state, terminal: terminal)
    #expect(screen.message == "Quit this game? It will not be saved.")
    #expect(screen.buttons.map(\.text) == ["[y] Quit game", "[n] Keep playing"])
    // Asked about a new game, the answer says so.
    state.phase = .confirming(.newGame)
    let asked = GameScreen(state, terminal: terminal)
    #expect(asked.message == "Start a new game? This one will not be saved.")
    #expect(asked.buttons.map(\.text) == ["[y] New game", "[n] Keep playing"])
    // Only y throws the game away there: q, which did not ask, does nothing.
    #expect(
      press(
        .character("q"), .character("y"), .character("n"), state: state, terminal: &terminal)
        == [nil, .quitConfirmed, .quitCancelled])
  }

  @Test func helpOpensWithQuestionMarkOrF1AndAnyKeyClosesIt() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    _ = press(.character("?"), state: state, terminal: &terminal)
    #expect(terminal.isShowingHelp)
    #expect(GameScreen(state, terminal: terminal).overlay == GameKeys.help)
    #expect(GameKeys.help.contains { $0.contains("<X> the winning line") })
    #expect(GameKeys.help.contains { $0.contains("+ the hint") })
    #expect(press(.character("5"), state: state, terminal: &terminal) == [nil])
    #expect(!terminal.isShowingHelp)
    _ = press(.f1, state: state, terminal: &terminal)
    #expect(terminal.isShowingHelp)
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
        state: state, terminal: &terminal)
        == [.cellTapped(.c3), nil, nil, .undoTapped])
    #expect(terminal.cursor == .c3)
  }

  @Test func theFooterOffersOnlyWhatWorksWhenTheGameIsOver() throws {
    let over = try state(moves: [.a1, .b1, .b2, .c1, .c3])
    let screen = GameScreen(over, terminal: GameTerminalState(rows: 3, columns: 3))
    #expect(screen.buttons.map(\.text) == ["[n] Play again", "[q] Quit", "[?] Help"])
    let playing = GameScreen(try state(), terminal: GameTerminalState(rows: 3, columns: 3))
    #expect(
      playing.buttons.map(\.text) == [
        "[u] Undo", "[r] Redo", "[h] Hint", "[e] Analysis", "[n] New game", "[q] Quit",
        "[?] Help",
      ])
    #expect(playing.buttons.map(\.isEnabled) == [false, false, true, true, true, true, true])
  }

  @Test func theStatusLineSaysUndoAndHintsFromTheCore() throws {
    var state = try state(moves: [.a1])
    state.post(.undone(2))
    #expect(
      GameScreen(state, terminal: GameTerminalState(rows: 3, columns: 3)).message
        == "2 moves taken back.")
    state.hint = .b2
    state.post(.hint(.b2))
    let screen = GameScreen(state, terminal: GameTerminalState(rows: 3, columns: 3))
    #expect(screen.message == "Hint: b2.")
    #expect(!screen.messageIsError)
    #expect(screen.frame(width: 80, height: 24).text.contains("│[+]│"))
  }
}
