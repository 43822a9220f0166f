public import GameCore
public import GameRules

/// What the terminal keeps about the game screen besides the core's state.
public struct GameTerminalState: Hashable, Sendable {
  /// The cursor's cell.
  public var cursor: Cell
  /// Whether the help covers the board.
  public var isShowingHelp = false

  /// Creates the state with the cursor in the middle of a board of `rows` × `columns`.
  public init(rows: Int, columns: Int) {
    cursor = Cell(row: rows / 2, column: columns / 2)
  }
}

extension GameControl {
  /// The key that presses the control on the terminal.
  var key: Character {
    switch self {
    case .undo: "u"
    case .redo: "r"
    case .hint: "h"
    case .analysis: "e"
    case .newGame, .playAgain, .keepPlaying: "n"
    case .quit: "q"
    case .confirm: "y"
    }
  }
}

extension GameScreen {
  /// The game screen for the core's `state` and the terminal's own `terminal` state.
  public init(_ state: GameFeature.State, terminal: GameTerminalState) {
    var buttons = state.controls.map { control, isEnabled in
      // The question's own answer: Quit, or New game when a new game was asked for.
      let label = control == .confirm ? state.quitConfirmationAnswer : control.title
      return ScreenButton(control.key, label, isEnabled: isEnabled)
    }
    if !state.isConfirmingQuit { buttons.append(ScreenButton("?", "Help")) }
    self.init(
      title: state.title, board: state.board,
      decorations: BoardDecorations(
        cursor: state.isBoardEnabled ? terminal.cursor : nil, lastMove: state.game.lastMove,
        hint: state.hint),
      message: state.statusLine, messageIsError: state.statusIsProblem, buttons: buttons,
      overlay: terminal.isShowingHelp ? GameKeys.help : GameScreen.analysisLines(state))
  }

  /// The widest line of cell values in the analysis: six cells, so that a line fits the
  /// narrowest screen a game is shown on (50 columns).
  static let analysisWidth = 48
  /// How many lines of cell values the analysis shows before it says how many more there are.
  static let analysisValueLines = 9

  /// The analysis overlay: the summary, every empty cell's value in short codes, and the
  /// legend; `nil` when no analysis is shown.
  static func analysisLines(_ state: GameFeature.State) -> [String]? {
    guard let summary = state.analysisSummary else { return nil }
    let entries = state.rows.joined().compactMap { cell in
      cell.analysisCode.map { "\(cell.cell.name) \($0)" }
    }
    // Eight columns an entry, as many entries a line as fit.
    let perLine = analysisWidth / 8
    let valueLines = stride(from: 0, to: entries.count, by: perLine).map { start in
      entries[start..<min(start + perLine, entries.count)]
        .map { $0.padding(to: 7) + " " }.joined().trimmingTrailingWhitespace()
    }
    var lines = ["Analysis", "", summary, ""]
    if valueLines.count > analysisValueLines {
      let hidden = entries.count - analysisValueLines * perLine
      lines += valueLines.prefix(analysisValueLines) + ["… and \(hidden) more cells."]
    } else {
      lines += valueLines
    }
    return lines + ["", GameFeature.State.analysisLegend, "Any key closes the analysis."]
  }
}

/// Turns keys and clicks on the game screen into the core's actions.
///
/// The terminal keeps only the cursor and the help; whether a move, an undo or a hint is allowed,
/// and what is said when it is not, is the core's.
public enum GameInput {
  /// Handles `key` on a game screen laid out as `frame`.
  ///
  /// - Returns: The action for the core, if any; `terminal` holds the cursor and the help.
  public static func handle(
    _ key: Key, frame: Frame, state: GameFeature.State, terminal: inout GameTerminalState
  ) -> GameFeature.Action.View? {
    guard let command = GameKeys.command(for: key, frame: frame) else { return nil }
    return handle(command, state: state, terminal: &terminal)
  }

  /// Handles a command on the game screen.
  public static func handle(
    _ command: GameCommand, state: GameFeature.State, terminal: inout GameTerminalState
  ) -> GameFeature.Action.View? {
    if state.isConfirmingQuit {
      switch command {
      case .confirm: return .quitConfirmed
      // q again answers the question q asked; asked about a new game, it discards nothing.
      case .quit: return state.phase == .confirming(.quit) ? .quitConfirmed : nil
      // Enter and Space, which play a cell, keep the game that would be lost, as the desktop's
      // default answer does.
      case .cancel, .newGame, .playAtCursor: return .quitCancelled
      default: return nil
      }
    }
    if terminal.isShowingHelp {
      // Any key closes the help; q still quits.
      terminal.isShowingHelp = false
      return command == .quit ? .quitTapped : nil
    }
    if state.analysis != nil, command != .quit {
      // Any key closes the analysis, which covers the board.
      return .analysisTapped
    }
    let board = state.board
    switch command {
    case .moveCursor(let rows, let columns):
      terminal.cursor = GameKeys.moving(
        terminal.cursor, rows: rows, columns: columns, boardRows: board.rows,
        boardColumns: board.columns)
      return nil
    case .playAtCursor:
      return .cellTapped(terminal.cursor)
    case .play(let cell):
      if board.contains(cell) { terminal.cursor = cell }
      return .cellTapped(cell)
    case .digit(let digit):
      if let cell = Cell(digit: digit, on: board) { terminal.cursor = cell }
      return .digitTyped(digit)
    case .undo: return .undoTapped
    case .redo: return .redoTapped
    case .hint: return .hintTapped
    case .analysis: return .analysisTapped
    case .newGame: return .newGameTapped
    case .quit: return .quitTapped
    case .toggleHelp:
      terminal.isShowingHelp = true
      return nil
    case .confirm, .cancel:
      return nil
    }
  }
}
