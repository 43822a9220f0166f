import DatabaseClient
import GameCore
import GameRules
public import StatsCore

/// The Stats screen: tallies, win rate, streaks, recent games with replay, and Reset stats.
public final class StatsView {
  /// The screen's top widget.
  public let root: Element
  package let closeButton = Button(mnemonic: "_Done")
  package let resetButton = Button(mnemonic: "Reset _stats")
  package let forwardButton = Button(mnemonic: "_Forward a move")
  package private(set) var recentGameButtons: [Button] = []
  package private(set) var tallyLabels: [Label] = []

  private let send: (StatsFeature.Action.View) -> Void
  private let titleLabel = Label().classes("title")
  private let spinner = Spinner()
  private let winRateLabel = Label()
  private let streakLabel = Label()
  private let talliesBox = Box.column(spacing: 4)
  private let recentBox = Box.column(spacing: 4)
  private let confirmBar: Box
  private let confirmLabel = Label()
  private let replayBox: Box
  private let replayLabel = Label()
  private let replayFrame = AspectFrame().size(width: 240, height: 240)
  private let errorLabel = Label().classes("error")
  private let emptyLabel = Label("No finished games yet.").classes("dim-label")
  private var shownTallies: [String]?
  private var shownRecent: [String]?
  private var replayCells: [[Label]] = []

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (StatsFeature.Action.View) -> Void) {
    self.send = send
    Button.send(
      [closeButton: .closeTapped, resetButton: .resetTapped, forwardButton: .replayForwardTapped],
      to: send)
    confirmBar = Box.row(
      confirmLabel,
      Button(mnemonic: "_Reset") { send(.resetConfirmed) }.classes("destructive-action"),
      Button(mnemonic: "_Keep them") { send(.resetCancelled) })
    replayBox = Box.column(
      replayLabel, replayFrame,
      Box.row(
        Button(mnemonic: "_Back a move") { send(.replayBackTapped) }, forwardButton,
        Button(mnemonic: "Close _replay") { send(.replayClosed) }))
    for hidden in [confirmBar, replayBox, errorLabel, emptyLabel] as [Element] {
      hidden.isVisible = false
    }
    root = Scrolled(
      formColumn(
        Box.row(spacing: 12, titleLabel, spinner), emptyLabel, winRateLabel, streakLabel,
        talliesBox, recentBox, replayBox, confirmBar, errorLabel,
        Box.row(closeButton, resetButton), width: 480, spacing: 12))
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: StatsFeature.State) {
    titleLabel.text = state.title
    spinner.isSpinning = state.isLoading
    winRateLabel.text = "Win rate: \(state.winRateText)"
    streakLabel.text = state.streakText
    emptyLabel.isVisible = state.isEmpty && !state.isLoading && state.errorMessage == nil
    if shownTallies != state.tallyLines {
      shownTallies = state.tallyLines
      talliesBox.removeAll()
      tallyLabels = state.tallyLines.map { Label($0) }
      for label in tallyLabels { talliesBox.append(label) }
    }
    if shownRecent != state.recentGameLines {
      shownRecent = state.recentGameLines
      recentBox.removeAll()
      recentGameButtons = state.recentGameLines.enumerated().map { index, line in
        let button = Button(label: line) { [send] in send(.recentGameTapped(index)) }
        button.accessibleName = line
        button.accessibleDescription = "Replay this game"
        recentBox.append(button)
        return button
      }
    }
    confirmBar.isVisible = state.isConfirmingReset
    confirmLabel.text = state.resetConfirmationMessage
    resetButton.isSensitive = !state.isLoading && !state.isEmpty
    renderReplay(state)
    errorLabel.message = state.errorMessage
  }

  /// The replayed board's cells, row by row, while a game is replayed.
  package var replayCellNames: [[String]] {
    replayBox.isVisible ? replayCells.map { $0.map { $0.accessibleName ?? "" } } : []
  }

  /// Puts the keyboard focus on Done.
  public func focus() {
    closeButton.grabFocus()
  }

  private func renderReplay(_ state: StatsFeature.State) {
    guard let board = state.replayBoard, let record = state.replay?.record else {
      replayBox.isVisible = false
      return
    }
    replayBox.isVisible = true
    replayLabel.text = state.replayProgressText ?? ""
    // The game screen's presentation names the replayed cells as the live board does.
    let shown = GameFeature.State(
      settings: GameSettings(resuming: record, accountID: nil), game: Game(start: board),
      startedAt: record.startedAt)
    if replayCells.count != board.rows || replayCells.first?.count != board.columns {
      let grid = Grid(isHomogeneous: true).classes("board", "replay")
      replayCells = (0..<board.rows).map { row in
        (0..<board.columns).map { column in
          let label = Label().classes("cell").centeredText()
          grid.attach(label, row: row, column: column)
          return label
        }
      }
      replayFrame.show(grid, columns: board.columns, rows: board.rows)
    }
    for (row, cells) in shown.rows.enumerated() {
      for (column, cell) in cells.enumerated() {
        let label = replayCells[row][column]
        label.text = cell.label
        label.accessibleName = cell.accessibleName
        label.setClass("winning", cell.isWinning)
      }
    }
  }
}
