import GameAI
import GameCore
import GameRules
import TestSupport
import Testing

@testable import TerminalUI

/// The analysis on the full screen: the `e` key and its overlay.
struct AnalysisTests {
  /// A hot-seat game after `moves`, with the analysis shown when `analysed`.
  private func state(moves: [Cell] = [.a1, .b2], analysed: Bool = true) throws
    -> GameFeature.State
  {
    var state = GameFeature.State(
      settings: .hotSeat, game: try Game(start: .classic, moves: moves), startedAt: 0)
    if analysed { state.analysis = Engine().analyze(state.board) }
    return state
  }

  @Test func eAsksForTheAnalysis() throws {
    let state = try state(analysed: false)
    var terminal = GameTerminalState(rows: 3, columns: 3)
    #expect(GameKeys.command(for: .character("e")) == .analysis)
    #expect(GameInput.handle(.analysis, state: state, terminal: &terminal) == .analysisTapped)
  }

  @Test func anyKeyClosesTheAnalysisButQStillQuits() throws {
    let state = try state()
    var terminal = GameTerminalState(rows: 3, columns: 3)
    for command in [GameCommand.playAtCursor, .moveCursor(rows: 1, columns: 0), .analysis] {
      #expect(GameInput.handle(command, state: state, terminal: &terminal) == .analysisTapped)
    }
    #expect(terminal.cursor == .b2)
    #expect(GameInput.handle(.quit, state: state, terminal: &terminal) == .quitTapped)
  }

  @Test func overlayListsEveryEmptyCellsValue() throws {
    let state = try state()
    let lines = try #require(GameScreen.analysisLines(state))
    #expect(
      lines == [
        "Analysis",
        "",
        "X to move: draw. Best: b1, c1, a2, c2, a3, b3, c3.",
        "",
        "b1 D    c1 D    a2 D    c2 D    a3 D    b3 D",
        "c3 D",
        "",
        "W3 win in 3 plies, D draw, L2 loss in 2 plies, ≤ at most; ~ marks an estimate.",
        "Any key closes the analysis.",
      ])
    #expect(GameScreen(state, terminal: GameTerminalState(rows: 3, columns: 3)).overlay == lines)
    #expect(GameScreen.analysisLines(try self.state(analysed: false)) == nil)
  }

  @Test func overlayOfALargeBoardSaysHowManyCellsItLeavesOut() throws {
    var state = GameFeature.State(
      settings: .hotSeat, game: Game(start: try Board(size: 15)), startedAt: 0)
    let estimate = Evaluation(value: .draw, plies: 225, isExact: false)
    state.analysis = Analysis(
      evaluation: estimate,
      moves: state.board.emptyCells.map { MoveEvaluation(cell: $0, evaluation: estimate) },
      best: [Cell(row: 7, column: 7)])
    let lines = try #require(GameScreen.analysisLines(state))
    #expect(lines.contains("… and 171 more cells."))
    #expect(lines.count <= 17)
    // On the narrowest screen the game is shown on, every value shows whole and the legend
    // wraps.
    let size = GameScreen.neededSize(rows: 15, columns: 15)
    let screen = GameScreen(state, terminal: GameTerminalState(rows: 15, columns: 15))
    let text = screen.frame(width: size.width, height: size.height).text
    #expect(text.contains("\n d4 D~   e4 D~   f4 D~   g4 D~   h4 D~   i4 D~\n"), "\(text)")
    #expect(text.contains("~ marks an estimate."), "\(text)")
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= size.width }, "\(text)")
  }
}
