import CGTK
public import GameCore
public import GameRules

/// The Game screen: the title line, the drawn board, and the game's buttons.
///
/// It renders ``GameFeature/State`` and sends the player's actions; the core decides what they do.
public final class GameView {
  /// The screen's top widget.
  public let root: Widget
  /// The title line, a status that assistive technologies announce when it changes.
  public let titleLabel: Widget
  /// Undo.
  public let undoButton: Widget
  /// Redo.
  public let redoButton: Widget
  /// Hint.
  public let hintButton: Widget
  /// Show or hide every legal move's value.
  public let analysisButton: Widget
  /// The shown analysis in one sentence.
  public let analysisLabel: Widget
  /// Play again.
  public let playAgainButton: Widget
  /// Quit.
  public let quitButton: Widget
  /// The question shown before abandoning a game in progress, with its two answers.
  public let confirmBar: Widget
  /// Yes, quit the game in progress.
  public let confirmQuitButton: Widget
  /// No, keep playing.
  public let keepPlayingButton: Widget
  /// Spins while the computer thinks.
  public let spinner: Widget
  /// The board.
  public let board: BoardView
  /// The board's cells, row by row.
  public var cells: [[Widget]] { board.cells }

  private let send: (GameFeature.Action.View) -> Void
  private let frame: Widget
  private let confirmLabel: Widget
  private let errorLabel: Widget
  private var presented: GameFeature.State?

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (GameFeature.Action.View) -> Void) {
    self.send = send
    titleLabel = cgtk_status_label_new("")
    gtk_widget_add_css_class(titleLabel, "title")
    gtk_label_set_wrap(cgtk_label(titleLabel), 1)
    spinner = gtk_spinner_new()
    let header = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [titleLabel, spinner])
    gtk_widget_set_halign(header, GTK_ALIGN_CENTER)

    board = BoardView { send(.cellTapped($0)) }
    frame = gtk_aspect_frame_new(0.5, 0.5, 1, 0)
    gtk_widget_set_hexpand(frame, 1)
    gtk_widget_set_vexpand(frame, 1)
    gtk_aspect_frame_set_child(cgtk_aspect_frame(frame), board.root)

    undoButton = makeButton("_Undo") { send(.undoTapped) }
    redoButton = makeButton("_Redo") { send(.redoTapped) }
    hintButton = makeButton("_Hint") { send(.hintTapped) }
    analysisButton = makeButton("_Analysis") { send(.analysisTapped) }
    playAgainButton = makeButton("_Play again") { send(.playAgainTapped) }
    quitButton = makeButton("_Quit") { send(.quitTapped) }
    let buttons = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6,
      [undoButton, redoButton, hintButton, analysisButton, playAgainButton, quitButton])
    gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)

    confirmLabel = makeLabel()
    confirmQuitButton = makeButton("Quit _game") { send(.quitConfirmed) }
    keepPlayingButton = makeButton("_Keep playing") { send(.quitCancelled) }
    confirmBar = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6, [confirmLabel, confirmQuitButton, keepPlayingButton])
    gtk_widget_add_css_class(confirmBar, "confirm")
    gtk_widget_set_halign(confirmBar, GTK_ALIGN_CENTER)
    setVisible(confirmBar, false)

    errorLabel = makeLabel(classes: ["error"])
    setVisible(errorLabel, false)
    analysisLabel = makeLabel()
    gtk_label_set_xalign(cgtk_label(analysisLabel), 0.5)
    setVisible(analysisLabel, false)

    root = makeBox(
      GTK_ORIENTATION_VERTICAL, spacing: 12,
      [header, frame, analysisLabel, confirmBar, buttons, errorLabel])
    for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(root, 12) }
    for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(root, 12) }
    onKeyPressed(frame) { [weak self] keyval, modifiers in
      self?.moveFocus(keyval: keyval, modifiers: modifiers) ?? false
    }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: GameFeature.State) {
    let previous = presented
    presented = state
    gtk_aspect_frame_set_ratio(
      cgtk_aspect_frame(frame), Float(state.board.columns) / Float(state.board.rows))
    setText(titleLabel, state.title)
    setAccessibleName(titleLabel, state.title)
    setSpinning(spinner, state.isThinking)
    board.render(
      state.rows, mover: state.isBoardEnabled ? state.board.toMove : nil,
      isThinking: state.isThinking)
    setSensitive(undoButton, state.canUndo)
    setSensitive(redoButton, state.canRedo)
    setSensitive(hintButton, state.canHint)
    setSensitive(analysisButton, state.canAnalyze || state.analysis != nil)
    setClass(analysisButton, "active", state.analysis != nil)
    setMessage(analysisLabel, state.analysisSummary)
    setClass(playAgainButton, "suggested-action", state.isGameOver)
    setAccessibleDescription(playAgainButton, state.resultSentence ?? "")
    setVisible(confirmBar, state.isConfirmingQuit)
    setText(confirmLabel, state.quitConfirmationMessage)
    setMessage(errorLabel, state.errorMessage)

    let wasOver = previous?.isGameOver ?? false
    if state.isGameOver && !wasOver {
      // The result is announced with the focus move: the button's description is the result.
      gtk_widget_grab_focus(playAgainButton)
    } else if state.isConfirmingQuit && previous?.isConfirmingQuit != true {
      gtk_widget_grab_focus(keepPlayingButton)
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
    gtk_widget_grab_focus(cells[cell.row][cell.column])
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
    gtk_widget_grab_focus(cells[row][column])
    return true
  }

  /// The cell holding the keyboard focus, if any.
  public func focusedCell() -> Cell? {
    for (row, buttons) in cells.enumerated() {
      for (column, button) in buttons.enumerated() where gtk_widget_is_focus(button) != 0 {
        return Cell(row: row, column: column)
      }
    }
    return nil
  }

  /// Handles a key as the arrow keys on the board do; returns whether it was used.
  public func handleBoardKey(_ keyval: UInt32) -> Bool {
    moveFocus(keyval: keyval, modifiers: 0)
  }
}
