public import AppCore
public import Architecture
public import CGTK
import GameCore
import LoginCore
import NewGameCore
import StatsCore
import TwoFactorCore

/// The app's window: a header bar with the screen's title, its back button and the primary
/// menu, the screen the core's state names under it, and toasts over both.
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
  /// The header bar: the title, the back button and the primary menu.
  package let header = HeaderBar()
  /// Leaves the screen, named by the core (`Quit`, `Sign out`, `Done`).
  package let backButton = Button(icon: "go-previous-symbolic", name: "Back")
  /// The primary menu's entries, as actions of the window.
  package let actions: Actions
  /// The toasts over the window's content.
  package let toasts: ToastOverlay
  /// The window the menu opened, while it is open.
  package private(set) var panelWindow: Window?
  /// Where the appearance is kept.
  package let preferences: PreferencesFile
  /// The appearance's choice, while Preferences is open.
  package private(set) var appearanceRow: ComboRow?

  private let content = Box.column(spacing: 0).expanding()
  private var observation: ObservationToken?
  private var shownPanel: Panel?
  private var shownToast: Int?

  /// Creates the window for an application (or a bare window when `application` is nil).
  ///
  /// - Parameters:
  ///   - application: The GTK application, or `nil` for a window of its own (tests).
  ///   - store: The app.
  ///   - preferences: Where the appearance is read from and saved to.
  public init(
    application: UnsafeMutablePointer<GtkApplication>?, store: Store<TicTacToe>,
    preferences: PreferencesFile = .standard
  ) {
    self.store = store
    self.preferences = preferences
    window = Window(application: application, title: AppInfo.name)
    window.setIcon(AppWindow.iconName)
    window.setDefaultSize(width: 640, height: 740)
    toasts = ToastOverlay(Box.column(spacing: 0, header, content))
    window.setChild(toasts)
    actions = Actions(of: window)
    StyleManager.apply(preferences.appearance)
    Self.installStyle()
    buildHeader()
    addShortcuts()
    observation = store.observe { [weak self] state in self?.render(state) }
  }

  isolated deinit {
    // The menu's window goes first: it lets go of its parent while the parent still exists.
    appearanceRow = nil
    let panel = panelWindow
    panelWindow = nil
    panel?.destroy()
  }

  /// The icon's name, as installed by the `.desktop` file's neighbour.
  public static let iconName = "org.tictactoe.TicTacToe"

  /// The action behind each menu entry.
  package static func actionName(of item: MenuItem) -> String {
    switch item {
    case .newGame: "new-game"
    case .statistics: "statistics"
    case .preferences: "preferences"
    case .keyboardShortcuts: "shortcuts"
    case .about: "about"
    }
  }

  private func buildHeader() {
    let store = store
    backButton.action = { store.send(.view(.backTapped)) }
    header.packStart(backButton)
    let games = Menu()
    let general = Menu()
    for item in MenuItem.allCases {
      let name = Self.actionName(of: item)
      actions.add(name) { store.send(.view(.menuItemChosen(item))) }
      ([.newGame, .statistics].contains(item) ? games : general).append(item.title, action: name)
    }
    let menu = Menu()
    menu.appendSection(games)
    menu.appendSection(general)
    header.packEnd(MenuButton(icon: "open-menu-symbolic", name: "Main menu", menu: menu))
  }

  private func render(_ state: TicTacToe.State) {
    if let termination = state.termination {
      onTermination(termination)
      return
    }
    let heading = state.heading
    header.title.title = heading.title
    header.title.subtitle = heading.subtitle ?? ""
    backButton.isVisible = heading.back != nil
    if let back = heading.back { (backButton.accessibleName, backButton.tooltip) = (back, back) }
    for item in MenuItem.allCases {
      actions.setEnabled(Self.actionName(of: item), state.isEnabled(item))
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
    showToast(state)
    showPanel(state.panel)
  }

  private func showToast(_ state: TicTacToe.State) {
    guard let toast = state.game?.toast else { return }
    guard toast.key != shownToast else { return }
    shownToast = toast.key
    toasts.show(toast.text, isProblem: toast.isProblem)
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
    case .game: gameView = GameView(over: window) { store.send(.newGame(.game(.view($0)))) }
    case .stats:
      statsView = StatsView(over: window, toasts: toasts) {
        store.send(.newGame(.stats(.view($0))))
      }
    case .recoveryCodes:
      recoveryCodesView = RecoveryCodesView(over: window) {
        store.send(.recoveryCodes(.view($0)))
      }
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

  // MARK: - The menu's windows

  private func showPanel(_ panel: Panel?) {
    guard panel != shownPanel else { return }
    shownPanel = panel
    appearanceRow = nil
    let closing = panelWindow
    panelWindow = nil
    closing?.destroy()
    guard let panel else { return }
    let opened: Window
    switch panel {
    case .about: opened = AboutWindow.present(over: window, icon: Self.iconName)
    case .keyboardShortcuts:
      opened = ShortcutsWindow.present(over: window, title: panel.title, groups: Self.shortcuts)
    case .preferences: opened = presentPreferences(title: panel.title)
    }
    panelWindow = opened
    opened.onClose { [weak self, weak opened] in
      // Closed by the player (Escape, the close button): the core hears it once.
      guard let self, let opened, self.panelWindow === opened else { return }
      self.panelWindow = nil
      self.appearanceRow = nil
      self.store.send(.view(.panelClosed))
    }
  }

  private func presentPreferences(title: String) -> Window {
    let preferencesWindow = PreferencesWindow(over: window, title: title)
    let row = ComboRow(title: Appearance.title)
    row.subtitle = Appearance.summary
    row.choices = Appearance.allCases.map(\.title)
    row.selected = Appearance.allCases.firstIndex(of: preferences.appearance)
    row.onSelect = { [preferences] index in
      let appearance = Appearance.allCases[index]
      StyleManager.apply(appearance)
      do throws(PreferencesError) {
        try preferences.save(appearance)
      } catch {
        preferencesWindow.show(Appearance.notSaved(error.message))
      }
    }
    preferencesWindow.add(BoxedList(title: Appearance.groupTitle, [row]))
    appearanceRow = row
    preferencesWindow.window.present()
    return preferencesWindow.window
  }

  /// The keyboard help: each command's title from the core, with its keys.
  private static var shortcuts: [(title: String, shortcuts: [(String, String)])] {
    DesktopCommand.groups.map { group in
      (
        group,
        DesktopCommand.allCases.filter { $0.group == group }.map { ($0.title, keys(of: $0)) }
      )
    }
  }

  /// The keys of a command, in GTK's accelerator syntax.
  package static func keys(of command: DesktopCommand) -> String {
    switch command {
    case .moveBetweenCells: "Left Right Up Down"
    case .playCell: "Return space"
    case .undo: "<Control>z"
    case .playAgain: "<Control>n"
    case .pressButton: "<Alt>u <Alt>h <Alt>a <Alt>p"
    case .nextControl: "Tab <Shift>Tab"
    case .help: "F1 <Control>question"
    case .preferences: "<Control>comma"
    case .menu: "F10"
    }
  }

  // MARK: - Keyboard

  private func addShortcuts() {
    let store = store
    window.addShortcut("<Control>z") { [weak self] in self?.undo() }
    window.addShortcut("<Control>n") { [weak self] in self?.newGame() }
    for help in ["F1", "<Control>question"] {
      window.addShortcut(help) { store.send(.view(.menuItemChosen(.keyboardShortcuts))) }
    }
    window.addShortcut("<Control>comma") { store.send(.view(.menuItemChosen(.preferences))) }
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

  // MARK: - Style

  private static var isStyleInstalled = false

  /// Theme colours only, so light, dark and high-contrast themes all apply.
  private static let css = """
    .turn { font-size: 1.5em; font-weight: 800; }
    .figure { font-size: 2em; font-weight: 800; }
    .codes { font-family: monospace; font-size: 1.2em; }
    """

  private static func installStyle() {
    guard !isStyleInstalled else { return }
    isStyleInstalled = Window.addStyle(css)
  }
}
