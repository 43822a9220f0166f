import CGTK
import DatabaseClient
import GameCore
import GameRules
public import StatsCore

/// The Stats screen: tallies, win rate, streaks, recent games with replay, and Reset stats.
public final class StatsView {
  /// The screen's top widget.
  public let root: Widget
  /// Back to New game.
  public let closeButton: Widget
  /// Reset stats (asks first).
  public let resetButton: Widget
  /// The recent games, one button each.
  public private(set) var recentGameButtons: [Widget] = []

  private let send: (StatsFeature.Action.View) -> Void
  private let titleLabel: Widget
  private let spinner: Widget
  private let winRateLabel: Widget
  private let streakLabel: Widget
  private let talliesBox: Widget
  private let recentBox: Widget
  private let confirmBar: Widget
  private let confirmLabel: Widget
  private let replayBox: Widget
  private let replayLabel: Widget
  private let replayFrame: Widget
  private let errorLabel: Widget
  private let emptyLabel: Widget
  private var shownTallies: [String]?
  private var shownRecent: [String]?
  private var replayCells: [[Widget]] = []

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (StatsFeature.Action.View) -> Void) {
    self.send = send
    titleLabel = makeLabel(classes: ["title"])
    spinner = gtk_spinner_new()
    winRateLabel = makeLabel()
    streakLabel = makeLabel()
    talliesBox = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4)
    recentBox = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4)
    confirmLabel = makeLabel()
    let confirmButton = makeButton("_Reset") { send(.resetConfirmed) }
    gtk_widget_add_css_class(confirmButton, "destructive-action")
    let keepButton = makeButton("_Keep them") { send(.resetCancelled) }
    confirmBar = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6, [confirmLabel, confirmButton, keepButton])
    setVisible(confirmBar, false)
    replayLabel = makeLabel()
    replayFrame = gtk_aspect_frame_new(0.5, 0.5, 1, 0)
    gtk_widget_set_size_request(replayFrame, 240, 240)
    let backButton = makeButton("_Back a move") { send(.replayBackTapped) }
    let forwardButton = makeButton("_Forward a move") { send(.replayForwardTapped) }
    let closeReplayButton = makeButton("Close _replay") { send(.replayClosed) }
    replayBox = makeBox(
      GTK_ORIENTATION_VERTICAL, spacing: 6,
      [
        replayLabel, replayFrame,
        makeBox(
          GTK_ORIENTATION_HORIZONTAL, spacing: 6, [backButton, forwardButton, closeReplayButton]),
      ])
    setVisible(replayBox, false)
    errorLabel = makeLabel(classes: ["error"])
    setVisible(errorLabel, false)
    emptyLabel = makeLabel("No finished games yet.", classes: ["dim-label"])
    setVisible(emptyLabel, false)
    resetButton = makeButton("Reset _stats") { send(.resetTapped) }
    closeButton = makeButton("_Done") { send(.closeTapped) }
    let content = makeBox(
      GTK_ORIENTATION_VERTICAL, spacing: 12,
      [
        makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [titleLabel, spinner]),
        emptyLabel, winRateLabel, streakLabel, talliesBox, recentBox, replayBox, confirmBar,
        errorLabel,
        makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [closeButton, resetButton]),
      ])
    layOutForm(content)
    gtk_widget_set_size_request(content, 480, -1)
    root = gtk_scrolled_window_new()
    gtk_scrolled_window_set_child(cgtk_scrolled_window(root), content)
    gtk_scrolled_window_set_policy(
      cgtk_scrolled_window(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_widget_set_vexpand(root, 1)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: StatsFeature.State) {
    setText(titleLabel, state.title)
    setSpinning(spinner, state.isLoading)
    setText(winRateLabel, "Win rate: \(state.winRateText)")
    setText(streakLabel, state.streakText)
    setVisible(emptyLabel, state.isEmpty && !state.isLoading && state.errorMessage == nil)
    if shownTallies != state.tallyLines {
      shownTallies = state.tallyLines
      removeChildren(talliesBox)
      for line in state.tallyLines { append(talliesBox, makeLabel(line)) }
    }
    if shownRecent != state.recentGameLines {
      shownRecent = state.recentGameLines
      removeChildren(recentBox)
      recentGameButtons = state.recentGameLines.enumerated().map { index, line in
        let button: Widget = gtk_button_new_with_label(line)
        cgtk_set_accessible_label(button, line)
        cgtk_set_accessible_description(button, "Replay this game")
        connect(button, "clicked") { [send] in send(.recentGameTapped(index)) }
        append(recentBox, button)
        return button
      }
    }
    setVisible(confirmBar, state.isConfirmingReset)
    setText(confirmLabel, state.resetConfirmationMessage)
    setSensitive(resetButton, !state.isLoading && !state.isEmpty)
    renderReplay(state)
    setMessage(errorLabel, state.errorMessage)
  }

  /// The lines shown for the opponents, such as `Computer (Hard): 3 wins, 1 loss, 0 draws`.
  public var tallyTexts: [String] {
    var texts: [String] = []
    var child = gtk_widget_get_first_child(talliesBox)
    while let label = child {
      texts.append(labelText(of: label))
      child = gtk_widget_get_next_sibling(label)
    }
    return texts
  }

  /// The replayed board's cells, row by row, while a game is replayed.
  public var replayCellNames: [[String]] {
    isVisible(replayBox) ? replayCells.map { $0.map { accessibleName(of: $0) ?? "" } } : []
  }

  /// Puts the keyboard focus on Done.
  public func focus() {
    gtk_widget_grab_focus(closeButton)
  }

  private func renderReplay(_ state: StatsFeature.State) {
    guard let board = state.replayBoard, let record = state.replay?.record else {
      setVisible(replayBox, false)
      return
    }
    setVisible(replayBox, true)
    setText(replayLabel, state.replayProgressText ?? "")
    // The game screen's presentation names the replayed cells as the live board does.
    let shown = GameFeature.State(
      settings: GameSettings(xName: record.x.name, oName: record.o.name),
      game: Game(start: board), startedAt: record.startedAt)
    if replayCells.count != board.rows || replayCells.first?.count != board.columns {
      let grid: Widget = gtk_grid_new()
      gtk_widget_add_css_class(grid, "board")
      gtk_widget_add_css_class(grid, "replay")
      gtk_grid_set_row_homogeneous(cgtk_grid(grid), 1)
      gtk_grid_set_column_homogeneous(cgtk_grid(grid), 1)
      replayCells = (0..<board.rows).map { row in
        (0..<board.columns).map { column in
          let label = makeLabel(classes: ["cell"])
          gtk_label_set_xalign(cgtk_label(label), 0.5)
          gtk_grid_attach(cgtk_grid(grid), label, Int32(column), Int32(row), 1, 1)
          return label
        }
      }
      gtk_aspect_frame_set_ratio(
        cgtk_aspect_frame(replayFrame), Float(board.columns) / Float(board.rows))
      gtk_aspect_frame_set_child(cgtk_aspect_frame(replayFrame), grid)
    }
    for (row, cells) in shown.rows.enumerated() {
      for (column, cell) in cells.enumerated() {
        let label = replayCells[row][column]
        setText(label, cell.label)
        setAccessibleName(label, cell.accessibleName)
        setClass(label, "winning", cell.isWinning)
      }
    }
  }
}

/// Removes every child of a box.
func removeChildren(_ box: Widget) {
  while let child = gtk_widget_get_first_child(box) {
    gtk_box_remove(cgtk_box(box), child)
  }
}
