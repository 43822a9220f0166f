import CGTK
public import GameCore
package import GameRules

/// The Game screen: the title line, the board as a grid of buttons, and the game's buttons.
///
/// It renders ``GameFeature/State`` and sends the player's actions; the core decides what they
/// do, and says why when they do nothing.
public final class GameView {
  /// The screen's top widget.
  public let root: Element
  package let titleLabel = Label.status().classes("title")
  package let undoButton = Button(mnemonic: "_Undo")
  package let redoButton = Button(mnemonic: "_Redo")
  package let hintButton = Button(mnemonic: "_Hint")
  package let analysisButton = Button(mnemonic: "_Analysis")
  package let playAgainButton = Button(mnemonic: "_Play again")
  package let quitButton = Button(mnemonic: "_Quit")
  package let confirmBar: Box
  package let confirmQuitButton = Button(mnemonic: "Quit _game")
  package let keepPlayingButton = Button(mnemonic: "_Keep playing")
  package let spinner = Spinner()
  package let analysisLabel = Label().centeredText()
  /// The core's line about the last action: a refusal, an undo, a hint, why the game stopped.
  package let statusLabel = Label().centeredText()
  package private(set) var cells: [[Button]] = []

  private let send: (GameFeature.Action.View) -> Void
  private let frame = AspectFrame().expanding()
  private var grid = Grid()
  private let confirmLabel = Label()
  private var presented: GameFeature.State?

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (GameFeature.Action.View) -> Void) {
    self.send = send
    Button.send(
      [
        undoButton: .undoTapped, redoButton: .redoTapped, hintButton: .hintTapped,
        analysisButton: .analysisTapped, playAgainButton: .playAgainTapped,
        quitButton: .quitTapped, confirmQuitButton: .quitConfirmed,
        keepPlayingButton: .quitCancelled,
      ], to: send)
    confirmBar = Box.row(confirmLabel, confirmQuitButton, keepPlayingButton)
      .classes("confirm").centered()
    confirmBar.isVisible = false
    analysisLabel.isVisible = false
    statusLabel.isVisible = false
    root = Box.column(
      spacing: 12, Box.row(spacing: 12, titleLabel, spinner).centered(), frame, analysisLabel,
      statusLabel, confirmBar,
      Box.row(
        undoButton, redoButton, hintButton, analysisButton, playAgainButton, quitButton
      ).centered()
    ).margin(12)
    frame.onKeyPressed { [weak self] keyval, modifiers in
      self?.moveFocus(keyval: keyval, modifiers: modifiers) ?? false
    }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: GameFeature.State) {
    let previous = presented
    presented = state
    if cells.count != state.board.rows || cells.first?.count != state.board.columns {
      buildBoard(rows: state.board.rows, columns: state.board.columns)
    }
    titleLabel.text = state.title
    titleLabel.accessibleName = state.title
    spinner.isSpinning = state.isThinking
    grid.setClass("thinking", state.isThinking)
    for (row, presentations) in state.rows.enumerated() {
      for (column, cell) in presentations.enumerated() {
        render(cells[row][column], cell)
      }
    }
    undoButton.isSensitive = state.canUndo
    redoButton.isSensitive = state.canRedo
    hintButton.isSensitive = state.canHint
    analysisButton.isSensitive = state.canAnalyze || state.analysis != nil
    analysisButton.setClass("active", state.analysis != nil)
    analysisLabel.message = state.analysisSummary
    // The question has a bar of its own; the analysis summary has its own line.
    let status = state.isConfirmingQuit || state.notice?.kind == .analysis ? nil : state.statusLine
    statusLabel.message = state.notice == nil && state.failure == nil ? nil : status
    statusLabel.setClass("error", state.statusIsProblem)
    playAgainButton.setClass("suggested-action", state.isGameOver)
    playAgainButton.accessibleDescription = state.resultSentence ?? ""
    confirmBar.isVisible = state.isConfirmingQuit
    confirmLabel.text = state.quitConfirmationMessage

    let wasOver = previous?.isGameOver ?? false
    if state.isGameOver && !wasOver {
      // The result is announced with the focus move: the button's description is the result.
      playAgainButton.grabFocus()
    } else if state.isConfirmingQuit && previous?.isConfirmingQuit != true {
      keepPlayingButton.grabFocus()
    } else if previous == nil || (wasOver && !state.isGameOver)
      || (previous?.isConfirmingQuit == true && !state.isConfirmingQuit)
    {
      focusBoard()
    }
  }

  /// Moves the keyboard focus to the board: the last move, else the first cell.
  public func focusBoard() {
    guard let state = presented, !cells.isEmpty else { return }
    let cell = state.game.lastMove ?? Cell(row: 0, column: 0)
    cells[cell.row][cell.column].grabFocus()
  }

  private func render(_ button: Button, _ cell: CellPresentation) {
    // An empty cell shows its value while the analysis is on; its name stays the core's.
    button.label = cell.label.isEmpty ? cell.analysisText ?? "" : cell.label
    button.setClass("analysis", cell.label.isEmpty && cell.analysisText != nil)
    button.accessibleName = cell.accessibleName
    // The hint is otherwise only a border: screen readers hear it on the cell.
    button.accessibleDescription = cell.accessibleDescription
    button.isAccessibleDisabled = !cell.isEnabled
    button.setClass("playable", cell.isEnabled)
    button.setClass("x", cell.label == "X")
    button.setClass("o", cell.label == "O")
    button.setClass("winning", cell.isWinning)
    button.setClass("last-move", cell.isLastMove)
    button.setClass("hint", cell.isHint)
  }

  private func buildBoard(rows: Int, columns: Int) {
    grid = Grid(rowSpacing: 4, columnSpacing: 4, isHomogeneous: true)
      .classes("board", Self.sizeClass(rows: rows, columns: columns))
    cells = (0..<rows).map { row in
      (0..<columns).map { column in
        // Every cell stays focusable so arrows can walk the board; occupied or waiting cells are
        // marked disabled for assistive technologies, and the core refuses them.
        let cell = Cell(row: row, column: column)
        let button = Button(label: "") { [send] in send(.cellTapped(cell)) }
          .classes("cell").expanding()
        grid.attach(button, row: row, column: column)
        return button
      }
    }
    frame.show(grid, columns: columns, rows: rows)
  }

  private static func sizeClass(rows: Int, columns: Int) -> String {
    switch max(rows, columns) {
    case ...4: "small"
    case ...7: "medium"
    default: "large"
    }
  }

  /// Arrow keys move the focus from cell to cell, stopping at the edges.
  private func moveFocus(keyval: UInt32, modifiers: UInt32) -> Bool {
    guard modifiers & (Modifier.control | Modifier.alt) == 0 else { return false }
    let step: (row: Int, column: Int)
    switch Int32(keyval) {
    case GDK_KEY_Up, GDK_KEY_KP_Up: step = (-1, 0)
    case GDK_KEY_Down, GDK_KEY_KP_Down: step = (1, 0)
    case GDK_KEY_Left, GDK_KEY_KP_Left: step = (0, -1)
    case GDK_KEY_Right, GDK_KEY_KP_Right: step = (0, 1)
    default: return false
    }
    guard let focused = focusedCell() else { return false }
    let row = min(max(focused.row + step.row, 0), cells.count - 1)
    let column = min(max(focused.column + step.column, 0), cells[row].count - 1)
    cells[row][column].grabFocus()
    return true
  }

  /// The cell holding the keyboard focus, if any.
  package func focusedCell() -> Cell? {
    for (row, buttons) in cells.enumerated() {
      for (column, button) in buttons.enumerated() where button.isFocused {
        return Cell(row: row, column: column)
      }
    }
    return nil
  }

  /// Handles a key as the arrow keys on the board do; returns whether it was used.
  package func handleBoardKey(_ keyval: UInt32) -> Bool {
    moveFocus(keyval: keyval, modifiers: 0)
  }
}
