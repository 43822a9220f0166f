import GameCore
import GameProtocol
package import GameRules
import NewGameCore
public import OnlineCore

/// An online game's screen: the title line, the invite code while the game waits for an
/// opponent, the drawn board, the latest event, and Resign or Leave.
///
/// It renders ``OnlineGame/State`` and sends the player's actions; the server judges the moves
/// and the core says what happened. Who plays and the opponent's connection are the header
/// bar's; events worth a glance (a lost connection, a reconnection, the result) are toasts.
public final class OnlineGameView {
  /// The screen's top widget.
  public let root: Element
  /// Whose turn it is, the wait, or the result: a status that assistive technologies announce.
  package let titleLabel = Label.status().classes("turn").centeredText()
  /// The invite code, selectable, while the game waits for an opponent.
  package let inviteCodeLabel = Label(wraps: false).classes("codes").centeredText()
  /// Copies the invite code.
  package let copyButton = Button(
    icon: "edit-copy-symbolic", name: NewGame.State.copyInviteCode.title)
  /// The latest event in one sentence.
  package let statusLabel = Label().centeredText()
  /// Resign (asks first) or Leave.
  package let controlButton = Button(label: OnlineControl.leave.title).classes("pill")
  package let spinner = Spinner()
  /// The question asked before giving the game up, while it is asked.
  package var confirmation: MessageDialog? { asked.dialog }
  /// The board.
  package let board: BoardView
  /// The board's cells, row by row.
  package var cells: [[Button]] { board.cells }
  /// Called with a sentence to show briefly, such as that the code was copied.
  var onNote: (String) -> Void = { _ in }

  private let send: (OnlineGame.Action.View) -> Void
  private let asked: AskedQuestion
  private let frame = AspectFrame().expanding()
  private let inviteRow: Box
  /// Sizes the title line with the window.
  package let scaler: TitleScaler
  private var presented: OnlineGame.State?

  /// Creates the screen over `parent`, which its questions are asked over; `send` receives the
  /// player's actions.
  public init(over parent: Window? = nil, send: @escaping (OnlineGame.Action.View) -> Void) {
    self.send = send
    asked = AskedQuestion(over: parent)
    board = BoardView { send(.cellTapped($0)) }
    inviteCodeLabel.selectable()
    let caption = Label(NewGame.State.inviteCodeTitle, wraps: false).classes("dim-label")
    inviteRow = Box.row(spacing: 12, caption, inviteCodeLabel, copyButton).centered()
    inviteRow.isVisible = false
    let column = Box.column(
      spacing: 12, Box.row(spacing: 12, titleLabel, spinner).centered(), inviteRow, frame,
      statusLabel, controlButton.centered()
    ).margin(18, bottom: ToastOverlay.clearance)
    scaler = TitleScaler(column, title: titleLabel)
    root = scaler.root
    // Resign asks first (the core's question); Leave leaves.
    controlButton.action = { send(.quitTapped) }
    copyButton.action = { [weak self] in
      guard let self, let code = self.presented?.code else { return }
      self.copyButton.copyToClipboard(code)
      self.onNote(NewGame.State.copyInviteCode.done)
    }
    frame.onKeyPressed { [weak self] keyval, modifiers in
      guard let self, modifiers & (Modifier.control | Modifier.alt) == 0 else { return false }
      return BoardFocus.move(in: self.cells, keyval: keyval)
    }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: OnlineGame.State) {
    let previous = presented
    presented = state
    titleLabel.text = state.title
    titleLabel.accessibleName = state.title
    spinner.isSpinning = state.board == nil && state.link != .closed
    let isWaiting = state.snapshot?.status == .waiting
    inviteRow.isVisible = isWaiting && state.code != nil
    inviteCodeLabel.text = state.code ?? ""
    inviteCodeLabel.accessibleName = state.code.map { "\(NewGame.State.inviteCodeTitle) \($0)" }
    if let board = state.board {
      if cells.count != board.rows || cells.first?.count != board.columns {
        frame.show(self.board.root, columns: board.columns, rows: board.rows)
      }
      self.board.render(
        state.cells, mover: state.isBoardEnabled ? board.toMove : nil, isThinking: false)
    }
    frame.isVisible = state.board != nil
    statusLabel.message = state.statusLine
    statusLabel.setClass("error", state.statusIsProblem)
    statusLabel.setClass("dim-label", !state.statusIsProblem)
    if let (shown, isEnabled) = state.controls.first(where: { !$0.control.isAnswer }) {
      controlButton.label = shown.title
      controlButton.isSensitive = isEnabled
      controlButton.setClass("destructive-action", shown == .resign)
    }
    controlButton.setClass("suggested-action", state.isOver)
    renderQuestion(state)
    // After the question, the focus goes to the last move, as after a local game's: a held
    // Enter that answered it then plays nothing on an empty cell.
    if (previous?.board == nil && state.board != nil)
      || (previous?.isConfirmingResign == true && !state.isConfirmingResign)
    {
      focusBoard()
    }
  }

  /// Asks the core's question in a dialog while the core asks it.
  private func renderQuestion(_ state: OnlineGame.State) {
    let question = Question(
      heading: state.resignQuestion, body: "", keep: OnlineControl.keepPlaying.title,
      act: OnlineControl.confirmResign.title)
    asked.render(
      state.isConfirmingResign ? question : nil, actions: (.resignCancelled, .resignConfirmed),
      send: send)
  }

  /// The cell holding the keyboard focus, if any.
  package func focusedCell() -> Cell? { BoardFocus.focusedCell(in: cells) }

  /// Moves the keyboard focus to the board: the last move, else the first cell.
  public func focusBoard() {
    guard let state = presented, !cells.isEmpty else { return }
    let cell = state.lastMove ?? Cell(row: 0, column: 0)
    guard cells.indices.contains(cell.row), cells[cell.row].indices.contains(cell.column) else {
      return
    }
    cells[cell.row][cell.column].grabFocus()
  }
}

extension OnlineControl {
  /// Whether the control answers the question about resigning (the dialog's answers).
  fileprivate var isAnswer: Bool { self == .confirmResign || self == .keepPlaying }
}
