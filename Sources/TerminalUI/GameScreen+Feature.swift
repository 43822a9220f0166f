public import GameCore
public import GameRules

/// What the terminal keeps about the game screen besides the core's state.
public struct GameTerminalState: Hashable, Sendable {
  /// The cursor's cell.
  public var cursor: Cell
  /// Whether the help covers the board.
  public var isShowingHelp = false
  /// A refused move's reason, until the next key.
  public var notice: String?

  /// Creates the state with the cursor in the middle of a board of `rows` × `columns`.
  public init(rows: Int, columns: Int) {
    cursor = Cell(row: rows / 2, column: columns / 2)
  }
}

/// What a key on the game screen leads to.
public enum GameResponse: Equatable, Sendable {
  /// Nothing for the core (the terminal's own state may have changed).
  case none
  /// An action for the core.
  case send(GameFeature.Action.View)
  /// Leave the program now.
  case exit
}

extension GameScreen {
  /// The game screen for the core's `state` and the terminal's own `terminal` state.
  public init(_ state: GameFeature.State, terminal: GameTerminalState) {
    let buttons: [ScreenButton]
    let message: String?
    if state.isConfirmingQuit {
      message = state.quitConfirmationMessage
      buttons = [ScreenButton("y", "Quit"), ScreenButton("n", "Keep playing")]
    } else {
      message = state.errorMessage ?? terminal.notice ?? state.narration.last
      buttons = [
        ScreenButton("u", "Undo", isEnabled: state.canUndo),
        ScreenButton("r", "Redo", isEnabled: state.canRedo),
        ScreenButton("h", "Hint", isEnabled: state.canHint),
        ScreenButton("e", "Analysis", isEnabled: state.canAnalyze || state.analysis != nil),
        ScreenButton("n", state.isGameOver ? "Play again" : "New game"),
        ScreenButton("q", "Quit"),
        ScreenButton("?", "Help"),
      ]
    }
    self.init(
      title: state.title, board: state.board,
      decorations: BoardDecorations(
        cursor: state.isBoardEnabled ? terminal.cursor : nil, lastMove: state.game.lastMove,
        hint: state.hint),
      message: message,
      messageIsError: !state.isConfirmingQuit
        && (state.errorMessage != nil || terminal.notice != nil),
      buttons: buttons,
      overlay: terminal.isShowingHelp ? GameKeys.help : GameScreen.analysisLines(state))
  }

  /// The widest line of cell values in the analysis.
  static let analysisWidth = 60
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
        .map { $0.padding(toLength: 8) }.joined().trimmingTrailingSpaces
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

extension String {
  /// The text padded with spaces on the right to `length` characters.
  fileprivate func padding(toLength length: Int) -> String {
    count >= length ? self + " " : self + String(repeating: " ", count: length - count)
  }

  /// The text without trailing spaces.
  fileprivate var trimmingTrailingSpaces: String {
    String(reversed().drop { $0 == " " }.reversed())
  }
}

/// Turns keys and clicks on the game screen into the core's actions.
public enum GameInput {
  /// Handles `key` on a game screen laid out as `frame`.
  ///
  /// - Returns: What to send to the core, if anything; `terminal` holds the cursor, the help
  ///   and a refused move's reason.
  public static func handle(
    _ key: Key, frame: Frame, state: GameFeature.State, terminal: inout GameTerminalState
  ) -> GameResponse {
    let board = state.board
    let command: GameCommand?
    if case .mouse(let event) = key {
      guard event.isLeftClick, let target = frame.target(row: event.row, column: event.column)
      else { return .none }
      switch target {
      case .cell(let cell): command = .play(cell)
      case .key(let key):
        command = GameKeys.command(for: key, rows: board.rows, columns: board.columns)
      case .field: command = nil
      }
    } else {
      command = GameKeys.command(for: key, rows: board.rows, columns: board.columns)
    }
    guard let command else { return .none }
    terminal.notice = nil
    return handle(command, state: state, terminal: &terminal)
  }

  /// Handles a command on the game screen.
  public static func handle(
    _ command: GameCommand, state: GameFeature.State, terminal: inout GameTerminalState
  ) -> GameResponse {
    if command == .exit { return .exit }
    if state.isConfirmingQuit {
      switch command {
      case .confirm, .quit, .playAtCursor: return .send(.quitConfirmed)
      case .cancel, .newGame: return .send(.quitCancelled)
      default: return .none
      }
    }
    if terminal.isShowingHelp {
      // Any key closes the help; q still quits.
      terminal.isShowingHelp = false
      return command == .quit ? .send(.quitTapped) : .none
    }
    if state.analysis != nil, command != .quit {
      // Any key closes the analysis, which covers the board.
      return .send(.analysisTapped)
    }
    let board = state.board
    switch command {
    case .moveCursor(let rows, let columns):
      terminal.cursor = GameKeys.moving(
        terminal.cursor, rows: rows, columns: columns, boardRows: board.rows,
        boardColumns: board.columns)
      return .none
    case .playAtCursor:
      return play(terminal.cursor, state: state, terminal: &terminal)
    case .play(let cell):
      if board.contains(cell) { terminal.cursor = cell }
      return play(cell, state: state, terminal: &terminal)
    case .undo: return .send(.undoTapped)
    case .redo: return .send(.redoTapped)
    case .hint: return .send(.hintTapped)
    case .analysis: return .send(.analysisTapped)
    case .newGame:
      // Mid-game, a new game means leaving this one (confirmed) for the New game screen.
      return .send(state.isGameOver ? .playAgainTapped : .quitTapped)
    case .quit: return .send(.quitTapped)
    case .toggleHelp:
      terminal.isShowingHelp = true
      return .none
    case .confirm, .cancel, .exit:
      return .none
    }
  }

  private static func play(
    _ cell: Cell, state: GameFeature.State, terminal: inout GameTerminalState
  ) -> GameResponse {
    guard state.isBoardEnabled else { return .none }
    do {
      _ = try state.board.playing(at: cell)
      return .send(.cellTapped(cell))
    } catch {
      terminal.notice = error.description
      return .none
    }
  }
}
