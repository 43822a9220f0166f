public import AppCore
public import Architecture
public import CGTK
import GameCore
import LoginCore
import NewGameCore
import OnlineCore
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
  package private(set) var onlineGameView: OnlineGameView?
  package private(set) var openGamesView: OpenGamesView?
  /// The view shown: a screen, or one of New game's views of a server.
  package private(set) var page: Page?
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
  private var shownToast: (key: Int, text: String)?
  private var shownClosedGameSentence: String?
  /// The online game's sentence last shown as a toast, until a move makes it old news.
  private var shownOnlineToast: String?
  /// How many of the online game's notices have been considered for toasts.
  private var shownNotices = 0

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
    // Closing the window while one's own online game waits for an opponent cancels that game
    // first; the app then ends, as the core says.
    window.onCloseRequest { [store] in
      guard store.state.newGameState?.online?.isCancellable == true, !store.state.isLeaving
      else { return false }
      store.send(.view(.windowClosed))
      return store.state.termination == nil
    }
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
    let page = Page(state)
    if page != self.page { show(page) }
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
      } else if let online = newGame.online {
        onlineGameView?.render(online)
      } else if let openGames = newGame.openGames {
        openGamesView?.render(openGames)
      } else {
        newGameView?.render(newGame)
      }
    }
    if page != self.page {
      screen = kind
      self.page = page
      focusScreen()
    }
    showToast(state)
    showPanel(state.panel)
  }

  private func showToast(_ state: TicTacToe.State) {
    showOnlineToasts(state.newGameState?.online)
    // The sentence of an online game that closed, such as its cancellation, said once.
    let closed = state.newGameState?.closedGameSentence
    if let closed, closed != shownClosedGameSentence { toasts.show(closed) }
    shownClosedGameSentence = closed
    guard let toast = state.game?.toast else {
      // The game's sentence no longer holds (the player or the computer moved on): it goes,
      // as it goes from the status line ("It is not your turn." once it is).
      if let shown = shownToast { toasts.dismiss(saying: shown.text) }
      shownToast = nil
      return
    }
    guard toast.key != shownToast?.key else { return }
    shownToast = toast
    toasts.show(toast.text)
  }

  /// Shows the online game's news as toasts.
  ///
  /// A player lost or regained the connection, this client reconnects, a refusal, the result;
  /// moves and the board are the screen's own.
  private func showOnlineToasts(_ online: OnlineGame.State?) {
    guard let online else {
      shownNotices = 0
      return
    }
    if online.notices.count < shownNotices { shownNotices = 0 }
    for notice in online.notices.dropFirst(shownNotices) {
      if Self.isToasted(notice), let sentence = online.statusSentence(for: notice) {
        toasts.show(sentence)
        shownOnlineToast = sentence
      } else if case .moved = notice, let shown = shownOnlineToast {
        // A move is played: what the toast said before ("It is bob's turn.") is old news.
        toasts.dismiss(saying: shown)
        shownOnlineToast = nil
      }
    }
    shownNotices = online.notices.count
  }

  private static func isToasted(_ notice: OnlineGame.Notice) -> Bool {
    switch notice {
    case .joined, .refused, .away, .back, .ended, .reconnecting, .retrying, .reconnected,
      .notConnected, .stillSending, .stopped, .keptPlaying, .notOnline, .digitsNeedTheClassicBoard,
      .unknownCommand, .cancelled, .moveLost:
      true
    // The title, the invite code and the board show these; the dialog asks the question; the
    // screen closes with a cancellation left unconfirmed, and New game says it.
    case .created, .shown, .moved, .askedToResign, .answerYesOrNo, .help, .board, .inputEnded,
      .notCancelled:
      false
    }
  }

  private func show(_ page: Page) {
    content.removeAll()
    loginView = nil
    twoFactorView = nil
    newGameView = nil
    gameView = nil
    statsView = nil
    recoveryCodesView = nil
    onlineGameView = nil
    openGamesView = nil
    let store = store
    switch page {
    case .onlineGame:
      let view = OnlineGameView(over: window) { store.send(.newGame(.online(.view($0)))) }
      view.onNote = { [toasts] in toasts.show($0) }
      onlineGameView = view
    case .openGames:
      openGamesView = OpenGamesView { store.send(.newGame(.openGames(.view($0)))) }
    case .screen(.signIn): loginView = LoginView(over: window) { store.send(.login(.view($0))) }
    case .screen(.twoFactor):
      twoFactorView = TwoFactorView { store.send(.login(.twoFactor(.view($0)))) }
    case .screen(.newGame):
      newGameView = NewGameView(over: window) { store.send(.newGame(.view($0))) }
    case .screen(.game):
      gameView = GameView(over: window) { store.send(.newGame(.game(.view($0)))) }
    case .screen(.stats):
      statsView = StatsView(over: window, toasts: toasts) {
        store.send(.newGame(.stats(.view($0))))
      }
    case .screen(.recoveryCodes):
      recoveryCodesView = RecoveryCodesView(over: window) {
        store.send(.recoveryCodes(.view($0)))
      }
    }
    let roots = [
      loginView?.root, twoFactorView?.root, newGameView?.root, gameView?.root, statsView?.root,
      recoveryCodesView?.root, onlineGameView?.root, openGamesView?.root,
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
    onlineGameView?.focusBoard()
    openGamesView?.focus()
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
    opened.nameUnnamedButtons()
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
    case .redo: "<Control><Shift>z"
    case .playAgain: "<Control>n"
    case .pressButton: "<Alt>u <Alt>r <Alt>h <Alt>a <Alt>p"
    case .nextControl: "Tab <Shift>Tab"
    case .help: "F1 <Control>question"
    case .preferences: "<Control>comma"
    case .menu: "F10"
    }
  }

  // MARK: - Keyboard

  private func addShortcuts() {
    let store = store
    window.addShortcut("<Control>z") { [weak self] in self?.undoOrRedoKey(redo: false) }
    window.addShortcut("<Control><Shift>z") { [weak self] in self?.undoOrRedoKey(redo: true) }
    window.addShortcut("<Control>n") { [weak self] in self?.newGame() }
    for help in ["F1", "<Control>question"] {
      window.addShortcut(help) { store.send(.view(.menuItemChosen(.keyboardShortcuts))) }
    }
    window.addShortcut("<Control>comma") { store.send(.view(.menuItemChosen(.preferences))) }
  }

  /// Ctrl+Z and Ctrl+Shift+Z: the Game screen's Undo and Redo, which say why when there is
  /// nothing to take back or play again (their buttons, insensitive then, say nothing); in an
  /// online game, which takes nothing back, they say that.
  package func undoOrRedoKey(redo: Bool) {
    if page == .onlineGame {
      store.send(.newGame(.online(.view(.lineTyped(redo ? "redo" : "undo")))))
      return
    }
    guard page == .screen(.game) else { return }
    store.send(.newGame(.game(.view(redo ? .redoTapped : .undoTapped))))
  }

  /// Ctrl+N: on the Game screen, another game once this one is over and a new game (asked
  /// first) while it goes on; on New game, the game the form describes.
  private func newGame() {
    guard case .screen(let screen) = page else { return }
    switch screen {
    case .game: store.send(.newGame(.game(.view(.newGameTapped))))
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

/// What the window shows under the header bar: a screen, or one of New game's views of a game
/// server (the core counts those as New game, with the online game or the list over it).
package enum Page: Hashable {
  case screen(TicTacToe.Screen)
  case onlineGame
  case openGames

  /// The view `state` shows.
  init(_ state: TicTacToe.State) {
    let screen = state.screen
    guard screen == .newGame, let newGame = state.newGameState else {
      self = .screen(screen)
      return
    }
    if newGame.online != nil {
      self = .onlineGame
    } else if newGame.openGames != nil {
      self = .openGames
    } else {
      self = .screen(screen)
    }
  }

  /// The core's screen under the view.
  var screen: TicTacToe.Screen {
    if case .screen(let screen) = self { screen } else { .newGame }
  }
}
