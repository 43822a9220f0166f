public import OnlineCore

/// The Open games screen: the games a server lists, each a button that joins it (when it waits
/// for an opponent and the player has an account) or watches it, with Refresh.
///
/// The title and the way back are the header bar's.
public final class OpenGamesView {
  /// The screen's top widget.
  public let root: Element
  /// What the list says besides the games: loading, nothing listed, or who may join.
  package let noteLabel = Label().classes("dim-label").centeredText()
  package let errorLabel = Label().classes("error").centeredText()
  package let refreshButton = Button(mnemonic: "_Refresh").classes("pill")
  /// One button for each game listed, in the server's order.
  package private(set) var gameButtons: [Button] = []

  private let list = BoxedList()
  private var rows: [WidgetRow] = []
  private var lines: [String] = []
  private let spinner = Spinner()
  private let send: (OpenGames.Action.View) -> Void

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (OpenGames.Action.View) -> Void) {
    self.send = send
    Button.send([refreshButton: .refreshTapped], to: send)
    list.isVisible = false
    errorLabel.isVisible = false
    root = Scrolled(
      formColumn(
        Box.row(spacing: 12, noteLabel, spinner).centered(), list, errorLabel,
        refreshButton.centered(), width: 560, spacing: 18))
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: OpenGames.State) {
    noteLabel.text = state.note
    spinner.isSpinning = state.isLoading
    errorLabel.message = state.errorMessage
    refreshButton.isSensitive = !state.isLoading
    guard state.lines != lines else { return }
    lines = state.lines
    for row in rows { list.remove(row) }
    rows = []
    gameButtons = []
    for (index, line) in lines.enumerated() {
      let button = Button(label: line).classes("flat")
      button.action = { [send] in send(.gameTapped(index)) }
      let row = WidgetRow(button)
      list.add(row)
      rows.append(row)
      gameButtons.append(button)
    }
    list.isVisible = !lines.isEmpty
  }

  /// Puts the keyboard focus on the first game, else on Refresh.
  public func focus() {
    if let first = gameButtons.first { first.grabFocus() } else { refreshButton.grabFocus() }
  }
}
