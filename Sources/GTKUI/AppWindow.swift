public import AppCore
public import Architecture
public import CGTK
import GameCore
import LoginCore
import NewGameCore
import StatsCore
import TwoFactorCore

/// The app's window: shows the screen the core's state names and sends the player's actions.
public final class AppWindow {
  /// The window.
  public let window: Window
  /// The store the window renders.
  public let store: Store<TicTacToe>
  /// The screen shown.
  public private(set) var screen: TicTacToe.Screen?
  /// Called once the core says the app is done.
  var onTermination: (TicTacToe.Termination) -> Void = { _ in }
  package private(set) var loginView: LoginView?
  package private(set) var twoFactorView: TwoFactorView?
  package private(set) var newGameView: NewGameView?
  package private(set) var gameView: GameView?
  package private(set) var statsView: StatsView?
  package private(set) var recoveryCodesView: RecoveryCodesView?

  private let content = Box.column(spacing: 0)
  private var observation: ObservationToken?

  /// Creates the window for an application (or a bare window when `application` is nil).
  public init(application: UnsafeMutablePointer<GtkApplication>?, store: Store<TicTacToe>) {
    self.store = store
    window = Window(application: application, title: "Tic-Tac-Toe")
    window.setIcon(AppWindow.iconName)
    window.setDefaultSize(width: 560, height: 680)
    window.setChild(content)
    Self.installStyle()
    addShortcuts()
    observation = store.observe { [weak self] state in self?.render(state) }
  }

  /// The icon's name, as installed by the `.desktop` file's neighbour.
  public static let iconName = "org.tictactoe.TicTacToe"

  private func render(_ state: TicTacToe.State) {
    if let termination = state.termination {
      onTermination(termination)
      return
    }
    let kind = state.screen
    if kind != screen { show(kind) }
    if let codes = state.recoveryCodes { recoveryCodesView?.render(codes) }
    switch state.destination {
    case .login(let login):
      if let twoFactor = login.twoFactor {
        twoFactorView?.render(twoFactor)
      } else {
        loginView?.render(login)
      }
    case .newGame(let newGame):
      if let game = newGame.game {
        gameView?.render(game)
      } else if let stats = newGame.stats {
        statsView?.render(stats)
      } else {
        newGameView?.render(newGame)
      }
    }
    if kind != screen {
      screen = kind
      focusScreen()
    }
  }

  private func show(_ kind: TicTacToe.Screen) {
    content.removeAll()
    loginView = nil
    twoFactorView = nil
    newGameView = nil
    gameView = nil
    statsView = nil
    recoveryCodesView = nil
    let store = store
    switch kind {
    case .signIn: loginView = LoginView { store.send(.login(.view($0))) }
    case .twoFactor: twoFactorView = TwoFactorView { store.send(.login(.twoFactor(.view($0)))) }
    case .newGame: newGameView = NewGameView { store.send(.newGame(.view($0))) }
    case .game: gameView = GameView { store.send(.newGame(.game(.view($0)))) }
    case .stats: statsView = StatsView { store.send(.newGame(.stats(.view($0)))) }
    case .recoveryCodes:
      recoveryCodesView = RecoveryCodesView { store.send(.recoveryCodes(.view($0))) }
    }
    let roots = [
      loginView?.root, twoFactorView?.root, newGameView?.root, gameView?.root, statsView?.root,
      recoveryCodesView?.root,
    ]
    guard let root = roots.compactMap({ $0 }).first else {
      preconditionFailure("every screen has a view")
    }
    content.append(root)
  }

  private func focusScreen() {
    loginView?.focus()
    twoFactorView?.focus()
    newGameView?.focus()
    gameView?.focusBoard()
    statsView?.focus()
    recoveryCodesView?.focus()
  }

  // MARK: - Keyboard

  private func addShortcuts() {
    window.addShortcut("<Control>z") { [weak self] in self?.undo() }
    window.addShortcut("<Control>n") { [weak self] in self?.newGame() }
    window.addShortcut("F1") { [weak self] in self?.showHelp() }
  }

  private func undo() {
    guard screen == .game else { return }
    store.send(.newGame(.game(.view(.undoTapped))))
  }

  /// Ctrl+N: another game on the Game screen, the game the form describes on New game.
  private func newGame() {
    switch screen {
    case .game: store.send(.newGame(.game(.view(.playAgainTapped))))
    case .newGame: store.send(.newGame(.view(.letsPlayTapped)))
    default: break
    }
  }

  /// The keys, in a small window that Escape or Close dismisses.
  public func showHelp() {
    let dialog = Window(application: nil, title: "Keyboard help")
    dialog.makeModal(over: window)
    let close = Button(mnemonic: "_Close") { dialog.destroy() }
    dialog.setChild(Box.column(spacing: 12, Label(Self.helpText), close).margin(18))
    dialog.addShortcut("Escape") { dialog.destroy() }
    dialog.present()
    close.grabFocus()
  }

  private static let helpText = """
    Board: arrow keys move between cells; Enter or Space plays the focused cell.
    Ctrl+Z: undo · Ctrl+N: play again (on New game: start the game)
    Alt with the underlined letter presses a button (Alt+U undo, Alt+H hint, Alt+A analysis, \
    Alt+P play again, Alt+Q quit).
    Tab moves between controls; F1 shows this help.
    """

  // MARK: - Style

  private static var isStyleInstalled = false

  /// Theme colours only, so light, dark and high-contrast themes all apply; the winning line also
  /// differs in weight and border, not only in colour.
  private static let css = """
    .title { font-size: 1.4em; font-weight: bold; }
    .error { color: @error_color; }
    .board .cell { padding: 0; min-width: 20px; min-height: 20px; font-weight: bold; }
    .board.small .cell { font-size: 2.6em; }
    .board.medium .cell { font-size: 1.6em; }
    .board.large .cell { font-size: 1em; }
    .board .cell.winning {
      background-image: none;
      background-color: @theme_selected_bg_color;
      color: @theme_selected_fg_color;
      box-shadow: inset 0 0 0 3px @theme_fg_color;
    }
    .board .cell.last-move { box-shadow: inset 0 0 0 2px @theme_selected_bg_color; }
    .board .cell.hint { box-shadow: inset 0 0 0 3px @theme_selected_bg_color; }
    .board .cell.hint.winning, .board .cell.last-move.winning {
      box-shadow: inset 0 0 0 3px @theme_fg_color;
    }
    .board.thinking .cell { opacity: 0.75; }
    .board .cell.analysis { font-size: 0.8em; font-weight: normal; }
    .board.replay .cell { font-size: 1.6em; }
    """

  private static func installStyle() {
    guard !isStyleInstalled else { return }
    isStyleInstalled = Window.addStyle(css)
  }

}
