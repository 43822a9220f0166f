import DatabaseClient
import GameCore
import GameRules
public import StatsCore

/// The Stats screen: the figures, a chart of the results and the recent games with a replay.
///
/// The replay steps through a game on the drawn board; Reset stats asks in a dialog first; a
/// status page stands in while there is nothing to count. The header bar's back button closes
/// it.
public final class StatsView {
  /// The screen's top widget.
  public let root: Element
  package let resetButton = Button(mnemonic: "Reset _stats").classes("destructive-action", "pill")
  package let backButton = Button(mnemonic: "_Back a move")
  package let forwardButton = Button(mnemonic: "_Forward a move")
  package let closeReplayButton = Button(mnemonic: "Close _replay")
  package let emptyPage = StatusPage(icon: "non-starred-symbolic")
  package private(set) var recentGameButtons: [Button] = []
  package private(set) var tallyLabels: [Label] = []
  /// The replayed game's board.
  package let replayBoard = BoardView { _ in }
  /// The server and the player's rating there, for a game server account's record.
  package let serverList = BoxedList()
  /// The lines of ``serverList``, as shown.
  package private(set) var serverLines: [String] = []
  /// The question asked before the guest's stats are reset, while it is asked.
  package var confirmation: MessageDialog? { asked.dialog }
  /// An account's reset asks on the page for its password (and code) before it deletes.
  package let resetPasswordEntry = Entry(isPassword: true)
  package let resetCodeEntry = Entry(isPassword: false)
  package let resetConfirmButton = Button(label: "").classes("destructive-action")
  package let resetCancelButton = Button(label: "")
  /// The fields and answers of an account's reset, shown while it is confirmed.
  package let resetForm: Box
  private let resetHeading = Label().classes("heading").centeredText()
  private let resetDetail = Label().centeredText()
  package let resetCodeRow: FieldRow
  private var shownResetField: StatsFeature.ResetCredentials?

  private let send: (StatsFeature.Action.View) -> Void
  private let asked: AskedQuestion
  private let toasts: ToastOverlay?
  private let spinner = Spinner()
  private let figures = Box.row(spacing: 12).centered()
  private let results: BoxedList
  private let resultsRows = Box.column(spacing: 14)
  private let recent: BoxedList
  private var recentRows: [ActionRow] = []
  private let replay: BoxedList
  private let scrolled: Scrolled
  private let replayTitle = Label().classes("heading").centeredText()
  private let replayProgress = Label().centeredText()
  private let replayFrame = AspectFrame().size(width: 240, height: 240)
  private let summary: Box
  private var shownFigures: [String]?
  private var shownBars: [StatsFeature.State.ResultsBar]?
  private var shownRecent: [String]?
  private var shownError: String?
  private var serverRows: [ActionRow] = []
  private let serverColumn: Box

  /// Creates the screen over `parent`, with its problems shown on `toasts`; `send` receives the
  /// player's actions.
  package init(
    over parent: Window? = nil, toasts: ToastOverlay? = nil,
    send: @escaping (StatsFeature.Action.View) -> Void
  ) {
    self.send = send
    asked = AskedQuestion(over: parent)
    self.toasts = toasts
    Button.send(
      [
        resetButton: .resetTapped, backButton: .replayBackTapped,
        forwardButton: .replayForwardTapped, closeReplayButton: .replayClosed,
        resetConfirmButton: .resetConfirmed, resetCancelButton: .resetCancelled,
      ], to: send)
    Entry.send(
      [
        resetPasswordEntry: StatsFeature.Action.View.resetPasswordChanged,
        resetCodeEntry: { .resetCodeChanged($0) },
      ],
      submit: .resetConfirmed, to: send)
    let captions = StatsFeature.State.resetCredentialTitles
    resetCodeRow = FieldRow(caption: captions.code, field: resetCodeEntry)
    resetForm = Box.column(
      spacing: 12, resetHeading, resetDetail,
      BoxedList([FieldRow(caption: captions.password, field: resetPasswordEntry), resetCodeRow]),
      Box.row(spacing: 12, resetCancelButton, resetConfirmButton).centered())
    resetForm.isVisible = false
    let titles = StatsFeature.State.sectionTitles
    let legend = Box.row(spacing: 16).centered()
    for (kind, title) in zip(ResultKind.allCases, StatsFeature.State.resultTitles) {
      let swatch = Canvas().size(width: 12, height: 12).verticallyCentered()
      swatch.onDraw { [swatch] context, width, _ in
        ChartPainter.paintSwatch(kind, palette: swatch.themePalette(), on: context, side: width)
      }
      legend.append(Box.row(spacing: 6, swatch, Label(title, wraps: false)))
    }
    results = BoxedList(
      title: titles.results, [WidgetRow(Box.column(spacing: 14, resultsRows, legend).margin(6))])
    recent = BoxedList(title: titles.recent)
    replayFrame.show(replayBoard.root, columns: 3, rows: 3)
    replay = BoxedList(
      title: titles.replay,
      [
        WidgetRow(
          Box.column(
            spacing: 12, replayTitle, replayFrame.centered(), replayProgress,
            Box.row(spacing: 0, backButton, forwardButton).classes("linked").centered(),
            closeReplayButton.centered()))
      ])
    replay.isVisible = false
    summary = Box.column(
      spacing: 24, figures, results, replay, recent, resetButton.centered(), resetForm)
    scrolled = Scrolled(formColumn(summary, width: 560, spacing: 24))
    emptyPage.isVisible = false
    emptyPage.expanding()
    serverColumn = formColumn(serverList, width: 560, spacing: 0)
    serverColumn.isVisible = false
    root = Box.column(spacing: 0, serverColumn, spinner.centered(), emptyPage, scrolled)
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: StatsFeature.State) {
    spinner.isSpinning = state.isLoading
    let empty = state.emptyMessage
    emptyPage.isVisible = empty != nil
    emptyPage.title = empty?.title ?? ""
    emptyPage.detail = empty?.detail ?? ""
    summary.isVisible = empty == nil && state.stats != nil
    renderFigures(state.highlights)
    renderBars(state.resultsBars)
    renderRecent(state.recentGameLines)
    resetButton.isSensitive = !state.isLoading && state.canReset
    renderServer(state)
    renderReplay(state)
    renderQuestion(state)
    if state.errorMessage != shownError {
      shownError = state.errorMessage
      if let error = state.errorMessage { toasts?.show(error) }
    }
  }

  /// Shows whose record on which game server this is (`Stats on example.org:7457`) and the
  /// rating there, or nothing for this computer's records.
  private func renderServer(_ state: StatsFeature.State) {
    serverColumn.isVisible = state.serverAccount != nil
    serverList.title = state.serverAccount == nil ? "" : state.title
    let lines = state.ratingText.map { [$0] } ?? []
    guard lines != serverLines else { return }
    serverLines = lines
    for row in serverRows { serverList.remove(row) }
    serverRows = lines.map { ActionRow(title: $0) }
    for row in serverRows { serverList.add(row) }
  }

  /// The replayed board's cells, row by row, while a game is replayed.
  package var replayCellNames: [[String]] {
    replay.isVisible ? replayBoard.cells.map { $0.map { $0.accessibleName ?? "" } } : []
  }

  /// How far down the screen is scrolled, in pixels.
  package var scrollOffset: Double { scrolled.offset }

  /// Whether the replay shows.
  package var isReplaying: Bool { replay.isVisible }

  /// Puts the keyboard focus on the first recent game, else on Reset stats.
  public func focus() {
    if let first = recentGameButtons.first { first.grabFocus() } else { resetButton.grabFocus() }
  }

  private func renderFigures(_ highlights: [(title: String, value: String)]) {
    let lines = highlights.map { "\($0.title) \($0.value)" }
    guard lines != shownFigures else { return }
    shownFigures = lines
    figures.removeAll()
    for highlight in highlights {
      let value = Label(highlight.value, wraps: false).classes("figure").centeredText()
      let title = Label(highlight.title, wraps: false).classes("caption", "dim-label")
        .centeredText()
      figures.append(
        Box.column(spacing: 2, value, title).classes("card").size(width: 118).margin(0))
    }
  }

  private func renderBars(_ bars: [StatsFeature.State.ResultsBar]) {
    guard bars != shownBars else { return }
    shownBars = bars
    resultsRows.removeAll()
    let scale = bars.map(\.games).max() ?? 0
    tallyLabels = bars.map { bar in
      let label = Label(bar.summary)
      let picture = ResultsBarPicture(
        wins: bar.wins, draws: bar.draws, losses: bar.losses, scale: scale)
      let canvas = Canvas().size(height: 22)
      canvas.onDraw { [canvas] context, width, height in
        ChartPainter.paint(
          picture, palette: canvas.themePalette(), on: context, width: width, height: height)
      }
      resultsRows.append(Box.column(spacing: 6, label, canvas))
      return label
    }
  }

  private func renderRecent(_ lines: [String]) {
    guard lines != shownRecent else { return }
    shownRecent = lines
    for row in recentRows { recent.remove(row) }
    recent.isVisible = !lines.isEmpty
    var buttons: [Button] = []
    recentRows = lines.enumerated().map { index, line in
      let button = Button(icon: "media-playback-start-symbolic", name: line) { [send] in
        send(.recentGameTapped(index))
      }.classes("flat")
      button.accessibleDescription = StatsFeature.State.replayHint
      buttons.append(button)
      let row = ActionRow(title: line).addSuffix(button)
      row.activates(button)
      recent.add(row)
      return row
    }
    recentGameButtons = buttons
  }

  private func renderReplay(_ state: StatsFeature.State) {
    guard let board = state.replayBoard, let record = state.replay?.record else {
      replay.isVisible = false
      return
    }
    let wasReplaying = replay.isVisible
    replay.isVisible = true
    replayTitle.text = state.replayTitle ?? ""
    replayProgress.text = state.replayProgressText ?? ""
    (backButton.isSensitive, forwardButton.isSensitive) = state.replaySteps
    // The game screen's presentation names and draws the replayed cells as the live board does.
    let shown = GameFeature.State(
      settings: GameSettings(resuming: record, accountID: nil), game: Game(start: board),
      startedAt: record.startedAt)
    if replayBoard.cells.count != board.rows || replayBoard.cells.first?.count != board.columns {
      replayFrame.show(replayBoard.root, columns: board.columns, rows: board.rows)
    }
    // Nothing is played on a replay: every cell says so. The move just stepped to is tinted, as
    // the last move is in a game.
    let step = state.replay?.step ?? 0
    let last = step > 0 && step <= record.moves.count ? record.moves[step - 1] : nil
    let cells = shown.rows.enumerated().map { row, cells in
      cells.enumerated().map { column, cell in
        var cell = cell
        cell.isEnabled = false
        cell.isLastMove = last == Cell(row: row, column: column)
        return cell
      }
    }
    replayBoard.render(cells, mover: nil, isThinking: false)
    if !wasReplaying {
      forwardButton.grabFocus()
      scrolled.reveal(replay)
    }
  }

  private func renderQuestion(_ state: StatsFeature.State) {
    renderResetForm(state)
    let answers = state.resetConfirmationAnswers
    let question = Question(
      heading: state.resetConfirmationHeading, body: state.resetConfirmationDetail,
      keep: answers.keep, act: answers.reset)
    // An account's reset asks on the page, where its password is typed.
    let asks = state.isConfirmingReset && state.resetCredentials == nil
    asked.render(asks ? question : nil, actions: (.resetCancelled, .resetConfirmed), send: send)
  }

  /// Shows the password and code fields of an account's reset while it is confirmed, with the
  /// focus on the field to fill in.
  private func renderResetForm(_ state: StatsFeature.State) {
    let credentials = state.isConfirmingReset ? state.resetCredentials : nil
    resetForm.isVisible = credentials != nil
    resetButton.isVisible = state.serverAccount == nil && credentials == nil
    guard let credentials else {
      shownResetField = nil
      return
    }
    resetHeading.text = state.resetConfirmationHeading
    resetDetail.text = state.resetConfirmationDetail
    let answers = state.resetConfirmationAnswers
    resetConfirmButton.label = answers.reset
    resetCancelButton.label = answers.keep
    resetPasswordEntry.text = credentials.password
    resetCodeEntry.text = credentials.code
    resetCodeRow.isVisible = credentials.needsCode
    for control in [resetPasswordEntry, resetCodeEntry] as [Element] {
      control.isSensitive = !credentials.isChecking
    }
    resetConfirmButton.isSensitive = !credentials.isChecking
    let previous = shownResetField
    shownResetField = credentials
    if previous == nil {
      resetPasswordEntry.grabFocus()
      scrolled.reveal(resetForm)
    } else if credentials.needsCode, previous?.needsCode == false {
      resetCodeEntry.grabFocus()
    }
  }
}
