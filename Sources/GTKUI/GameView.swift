public import GameCore
package import GameRules

/// The Game screen: the title line, the drawn board, and the game's buttons.
///
/// It renders ``GameFeature/State`` and sends the player's actions; the core decides what they
/// do, and says why when they do nothing.
public final class GameView {
  /// The screen's top widget.
  public let root: Element
  /// Whose turn it is, or the result: a status that assistive technologies announce.
  package let titleLabel = Label.status().classes("turn").centeredText()
  package let undoButton = Button(mnemonic: "_Undo")
  package let redoButton = Button(mnemonic: "_Redo")
  package let hintButton = Button(mnemonic: "_Hint")
  package let analysisButton = Button(mnemonic: "_Analysis")
  package let playAgainButton = Button(mnemonic: "_Play again").classes("pill")
  package let spinner = Spinner()
  package let analysisLabel = Label().centeredText().classes("dim-label")
  /// Why the game stopped, when a move could not be saved; other notices are toasts.
  package let statusLabel = Label().centeredText().classes("error")
  /// The question asked before abandoning a game in progress, while it is asked.
  package var confirmation: MessageDialog? { asked.dialog }
  /// The board.
  package let board: BoardView
  /// The board's cells, row by row.
  package var cells: [[Button]] { board.cells }

  private let send: (GameFeature.Action.View) -> Void
  private let asked: AskedQuestion
  private let frame = AspectFrame().expanding()
  private var presented: GameFeature.State?
  /// Sizes the title line with the window.
  package let scaler: TitleScaler

  /// Creates the screen over `parent`, which its questions are asked over; `send` receives the
  /// player's actions.
  public init(over parent: Window? = nil, send: @escaping (GameFeature.Action.View) -> Void) {
    self.send = send
    asked = AskedQuestion(over: parent)
    board = BoardView { send(.cellTapped($0)) }
    Button.send(
      [
        undoButton: .undoTapped, redoButton: .redoTapped, hintButton: .hintTapped,
        analysisButton: .analysisTapped, playAgainButton: .playAgainTapped,
      ], to: send)
    analysisLabel.isVisible = false
    statusLabel.isVisible = false
    let controls = Box.row(spacing: 0, undoButton, redoButton, hintButton, analysisButton)
      .classes("linked")
    scaler = TitleScaler(
      Box.column(
        spacing: 12, Box.row(spacing: 12, titleLabel, spinner).centered(), frame, analysisLabel,
        statusLabel, Box.row(spacing: 18, controls, playAgainButton).centered()
      ).margin(18, bottom: ToastOverlay.clearance), title: titleLabel)
    root = scaler.root
    frame.onKeyPressed { [weak self] keyval, modifiers in
      self?.moveFocus(keyval: keyval, modifiers: modifiers) ?? false
    }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: GameFeature.State) {
    let previous = presented
    presented = state
    if cells.count != state.board.rows || cells.first?.count != state.board.columns {
      frame.show(board.root, columns: state.board.columns, rows: state.board.rows)
    }
    titleLabel.text = state.title
    titleLabel.accessibleName = state.title
    spinner.isSpinning = state.isThinking
    board.render(
      state.rows, mover: state.isBoardEnabled ? state.board.toMove : nil,
      isThinking: state.isThinking)
    undoButton.isSensitive = state.canUndo
    redoButton.isSensitive = state.canRedo
    hintButton.isSensitive = state.canHint
    analysisButton.isSensitive = state.canAnalyze || state.analysis != nil
    analysisButton.setClass("active", state.analysis != nil)
    analysisLabel.message = state.analysisSummary
    statusLabel.message = state.failure?.sentence
    // Another game is a game-over action; while a game goes on, the menu's New Game asks first.
    playAgainButton.isVisible = state.isGameOver
    playAgainButton.setClass("suggested-action", state.isGameOver)
    playAgainButton.accessibleDescription = state.resultSentence ?? ""
    renderQuestion(state)

    let wasOver = previous?.isGameOver ?? false
    if state.isGameOver && !wasOver {
      // The result is announced with the focus move: the button's description is the result.
      playAgainButton.grabFocus()
    } else if previous == nil || (wasOver && !state.isGameOver)
      || (previous?.isConfirmingQuit == true && !state.isConfirmingQuit)
    {
      focusBoard()
    }
  }

  /// Asks the core's question in a dialog while the core asks it.
  private func renderQuestion(_ state: GameFeature.State) {
    let question = Question(
      heading: state.quitConfirmationHeading, body: state.quitConfirmationDetail,
      keep: GameControl.keepPlaying.title, act: state.quitConfirmationAnswer)
    asked.render(
      state.isConfirmingQuit ? question : nil, actions: (.quitCancelled, .quitConfirmed),
      send: send)
  }

  /// Moves the keyboard focus to the board: the last move, else the first cell.
  public func focusBoard() {
    guard let state = presented, !cells.isEmpty else { return }
    let cell = state.game.lastMove ?? Cell(row: 0, column: 0)
    cells[cell.row][cell.column].grabFocus()
  }

  /// Arrow keys move the focus from cell to cell, stopping at the edges.
  private func moveFocus(keyval: UInt32, modifiers: UInt32) -> Bool {
    guard modifiers & (Modifier.control | Modifier.alt) == 0 else { return false }
    return BoardFocus.move(in: cells, keyval: keyval)
  }

  /// The cell holding the keyboard focus, if any.
  package func focusedCell() -> Cell? {
    BoardFocus.focusedCell(in: cells)
  }

  /// Handles a key as the arrow keys on the board do; returns whether it was used.
  package func handleBoardKey(_ keyval: UInt32) -> Bool {
    moveFocus(keyval: keyval, modifiers: 0)
  }
}
