import AppCore
import Architecture
import CAdw
import CGTK
import Foundation
import GTKUI
import GameCore
import GameRules
import NewGameCore
import StatsCore
import TestSupport
import XCTest

/// What the window adds around the screens: the header bar, the primary menu and its windows,
/// toasts, and the appearance kept between runs.
final class DesktopTests: XCTestCase {
  private var folder = ""

  override func setUp() {
    folder = NSTemporaryDirectory() + "tictactoe-gtk-\(UUID().uuidString)"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  private var preferences: PreferencesFile { PreferencesFile(path: folder + "/tictactoe-gtk.ini") }

  func testTheHeaderNamesEachScreenAndItsWayBack() throws {
    let preferences = preferences
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore(), preferences: preferences)
      defer { app.window.destroy() }
      XCTAssertEqual(app.header.title.title, "Sign in")
      XCTAssertFalse(app.backButton.isVisible, "Sign in is the first screen")

      try XCTUnwrap(app.loginView?.guestButton).click()
      XCTAssertEqual(app.header.title.title, "New game")
      XCTAssertEqual(app.header.title.subtitle, "Playing as a guest")
      XCTAssertTrue(app.backButton.isVisible)
      XCTAssertEqual(app.backButton.accessibleName, "Back to Sign in")
      XCTAssertEqual(app.backButton.tooltip, "Back to Sign in")

      try XCTUnwrap(app.newGameView).xNameEntry.type("Ann")
      try XCTUnwrap(app.newGameView).letsPlayButton.click()
      XCTAssertEqual(app.header.title.title, "Ann vs Computer")
      XCTAssertEqual(app.header.title.subtitle, "3×3, 3 in a row, Unbeatable")
      XCTAssertEqual(app.backButton.accessibleName, "Quit")

      app.backButton.click()
      pump { app.screen == .newGame }
      XCTAssertEqual(app.screen, .newGame, "no move yet: quitting does not ask")
      app.backButton.click()
      XCTAssertEqual(app.screen, .signIn)
      XCTAssertFalse(app.backButton.isVisible)
    }
  }

  func testTheMenuOffersWhatTheScreenAllows() throws {
    let preferences = preferences
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore(), preferences: preferences)
      defer { app.window.destroy() }
      @MainActor func enabled() -> [MenuItem] {
        MenuItem.allCases.filter { app.actions.isEnabled(AppWindow.actionName(of: $0)) }
      }
      XCTAssertEqual(enabled(), [.preferences, .keyboardShortcuts, .about])
      app.actions.activate(AppWindow.actionName(of: .statistics))
      XCTAssertEqual(app.screen, .signIn, "a disabled entry does nothing")

      try XCTUnwrap(app.loginView?.guestButton).click()
      XCTAssertEqual(enabled(), MenuItem.allCases)
      app.actions.activate(AppWindow.actionName(of: .statistics))
      XCTAssertEqual(app.screen, .stats)
      XCTAssertEqual(app.header.title.title, "Stats")
      XCTAssertEqual(enabled(), [.newGame, .preferences, .keyboardShortcuts, .about])
      app.actions.activate(AppWindow.actionName(of: .newGame))
      XCTAssertEqual(app.screen, .newGame, "New Game leaves Stats for the form")
    }
  }

  /// The buttons GTK and libadwaita show in About, the keyboard help and Preferences (the
  /// search buttons, the version button) have names, not `GtkImage` or `GtkButton`.
  func testTheMenusWindowsHaveNoUnnamedButton() throws {
    let preferences = preferences
    try MainActor.assumeIsolated {
      try requireDisplay()
      let app = AppWindow(application: nil, store: makeStore(), preferences: preferences)
      defer { app.window.destroy() }
      var named: [String] = []
      for panel in [MenuItem.about, .keyboardShortcuts, .preferences] {
        app.actions.activate(AppWindow.actionName(of: panel))
        let window = try XCTUnwrap(app.panelWindow)
        // What assistive technologies see: the buttons shown.
        for button in widgetTree(window.widget)
        where cgtk_is_button(button) != 0 && gtk_widget_get_mapped(button) != 0 {
          let name = cgtk_accessible_label(button).map { String(cString: $0) }
          XCTAssertNotNil(
            name, "a \(String(cString: gtk_widget_get_name(button))) of \(panel) has no name")
          named.append(name ?? "")
        }
      }
      XCTAssertTrue(named.contains("Version \(AppInfo.version)"), "\(named)")
      XCTAssertTrue(named.contains("Search"), "\(named)")
      XCTAssertFalse(named.contains { $0.hasPrefix("Gtk") }, "\(named)")
    }
  }

  func testTheMenuOpensAboutTheKeyboardHelpAndPreferences() throws {
    let preferences = preferences
    try MainActor.assumeIsolated {
      try requireDisplay()
      let store = makeStore()
      let app = AppWindow(application: nil, store: store, preferences: preferences)
      defer { app.window.destroy() }

      app.actions.activate(AppWindow.actionName(of: .about))
      XCTAssertEqual(store.state.panel, .about)
      let about = try XCTUnwrap(app.panelWindow)
      XCTAssertEqual(about.title, "About")
      about.close()
      XCTAssertNil(store.state.panel, "closing the window tells the core")
      XCTAssertNil(app.panelWindow)

      app.actions.activate(AppWindow.actionName(of: .keyboardShortcuts))
      XCTAssertEqual(try XCTUnwrap(app.panelWindow).title, "Keyboard help")
      // Another entry replaces the open window, and the core hears of no closing.
      app.actions.activate(AppWindow.actionName(of: .preferences))
      XCTAssertEqual(store.state.panel, .preferences)
      XCTAssertEqual(try XCTUnwrap(app.panelWindow).title, "Preferences")

      let row = try XCTUnwrap(app.appearanceRow)
      XCTAssertEqual(row.choices, ["Follow the system", "Light", "Dark"])
      XCTAssertEqual(row.selected, 0)
      row.choose(2)
      XCTAssertTrue(StyleManager.isDark, "the choice applies at once")
      XCTAssertEqual(preferences.appearance, .dark, "and is kept for the next start")
      row.choose(1)
      XCTAssertFalse(StyleManager.isDark)
      XCTAssertEqual(preferences.appearance, .light)
      row.choose(0)
      XCTAssertEqual(preferences.appearance, .system)
    }
  }

  func testTheKeyboardHelpListsEveryCommandWithItsKeys() {
    for command in DesktopCommand.allCases {
      let keys = MainActor.assumeIsolated { AppWindow.keys(of: command) }
      XCTAssertFalse(keys.isEmpty, "\(command)")
      for accelerator in keys.split(separator: " ") {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        XCTAssertNotEqual(
          gtk_accelerator_parse(String(accelerator), &key, &modifiers), 0,
          "\(accelerator) is an accelerator GTK reads")
      }
    }
  }

  func testNoticesAndResultsShowAsToasts() throws {
    let preferences = preferences
    try MainActor.assumeIsolated {
      try requireDisplay()
      let store = makeStoreInAGameOfAnnAndBob()
      let app = AppWindow(application: nil, store: store, preferences: preferences)
      defer { app.window.destroy() }
      let board = try XCTUnwrap(app.gameView)
      board.cells[1][1].click()
      pump { board.cells[1][1].accessibleName == "Row 2, column 2, X" }
      board.cells[1][1].click()
      XCTAssertEqual(app.toasts.shown, ["b2 is taken."])
      board.cells[1][1].click()
      XCTAssertEqual(app.toasts.shown, ["b2 is taken.", "b2 is taken."], "said twice, shown twice")
      for (row, column) in [(0, 0), (0, 2), (0, 1), (2, 0)] {
        board.cells[row][column].click()
        pump { board.cells[row][column].accessibleName?.hasSuffix("empty") == false }
      }
      pump { app.toasts.shown.count == 3 }
      XCTAssertEqual(app.toasts.shown.last, "X wins with c1, b2, a3.")
      XCTAssertEqual(board.titleLabel.text, "Winner! Congrats Ann!")
    }
  }

  /// Runs `body` on the window shown over Ann and Bob's game with X at b2, and closes it.
  private func onTheWindowWithXAtB2(_ body: @MainActor (AppWindow) throws -> Void) throws {
    let preferences = preferences
    try MainActor.assumeIsolated {
      let app = try Self.shownWithXAtB2(preferences)
      defer { app.window.destroy() }
      try body(app)
    }
  }

  /// Runs the main loop for `seconds`.
  @MainActor
  private static func wait(_ seconds: TimeInterval) {
    let end = Date().addingTimeInterval(seconds)
    pump { Date() >= end }
  }

  /// The window shown over a game of Ann and Bob, once X's first move, at b2, shows.
  @MainActor
  private static func shownWithXAtB2(_ preferences: PreferencesFile) throws -> AppWindow {
    try requireDisplay()
    let app = AppWindow(
      application: nil, store: makeStoreInAGameOfAnnAndBob(), preferences: preferences)
    gtk_window_present(cgtk_window(app.window.widget))
    let board = try XCTUnwrap(app.gameView)
    board.cells[1][1].click()
    pump { board.cells[1][1].accessibleName == "Row 2, column 2, X" }
    return app
  }

  /// "b2 is taken." goes once the player has moved on, as it goes from the status line: a
  /// toast never stays to contradict the board ("It is not your turn." once it is).
  func testAToastGoesOnceItsSentenceNoLongerHolds() throws {
    try onTheWindowWithXAtB2 { app in
      let board = try XCTUnwrap(app.gameView)
      board.cells[1][1].click()
      pump { app.toasts.titlesShowing == ["b2 is taken."] }
      XCTAssertEqual(app.toasts.titlesShowing, ["b2 is taken."])
      board.cells[0][0].click()
      pump { app.toasts.titlesShowing.isEmpty }
      XCTAssertEqual(app.toasts.titlesShowing, [], "O played a1: b2 being taken is old news")
      XCTAssertEqual(board.cells[0][0].accessibleName, "Row 1, column 1, O")
    }
  }

  func testTheLatestToastReplacesTheOneBefore() throws {
    try onTheWindowWithXAtB2 { app in
      let game = try XCTUnwrap(app.gameView)
      game.undoButton.click()
      pump { app.toasts.titlesShowing == ["One move taken back."] }
      XCTAssertEqual(app.toasts.titlesShowing, ["One move taken back."])
      // Redo's sentence shows at once, not after Undo's has timed out.
      game.redoButton.click()
      pump { app.toasts.titlesShowing == ["One move played again."] }
      XCTAssertEqual(app.toasts.titlesShowing, ["One move played again."])
    }
  }

  /// Undo held down (key repeat, 25 presses a second) says "There is no move to undo." each
  /// time: each toast replaces one still coming in or going out, which must not crash.
  func testToastsInQuickSuccessionReplaceEachOther() throws {
    try onTheWindowWithXAtB2 { app in
      for index in 0..<40 {
        app.toasts.show("Toast \(index).")
        Self.wait(0.04)
      }
      pump { app.toasts.titlesShowing == ["Toast 39."] }
      XCTAssertEqual(app.toasts.titlesShowing, ["Toast 39."])
      // Undo and Redo alternated: each sentence goes (the move it named is saved again)
      // before the next comes, 20 to 60 ms apart.
      for index in 0..<30 {
        app.toasts.show("Sentence \(index).")
        Self.wait(0.01 * Double(index % 3 + 1))
        app.toasts.dismiss(saying: "Sentence \(index).")
        Self.wait(0.01 * Double(index % 3 + 1))
      }
      // A settled toast dismissed, and the next sentence at once while it goes.
      for index in 0..<3 {
        Self.wait(1.1)
        app.toasts.dismiss(saying: app.toasts.shown.last ?? "")
        Self.wait(0.01)
        app.toasts.show("After \(index).")
      }
      app.toasts.show("Last.")
      pump { app.toasts.titlesShowing == ["Last."] }
      XCTAssertEqual(app.toasts.titlesShowing, ["Last."])
    }
  }

  /// A toast goes its time after its latest sentence, or when closed; the next sentence then
  /// comes in a toast of its own.
  func testAToastGoesAfterItsLatestSentenceOrWhenClosed() throws {
    try onTheWindowWithXAtB2 { app in
      let toasts = app.toasts
      toasts.duration = .milliseconds(300)
      toasts.show("First.")
      Self.wait(0.2)
      toasts.show("Second.")
      let second = Date()
      pump { toasts.titlesShowing.isEmpty }
      XCTAssertEqual(toasts.titlesShowing, [])
      XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(second), 0.3, "timed from the latest")
      toasts.show("Third.")
      pump { toasts.titlesShowing == ["Third."] && !toasts.closeButtons.isEmpty }
      toasts.duration = .seconds(60)
      toasts.show("Fourth.")
      let close = try XCTUnwrap(toasts.closeButtons.first)
      gtk_widget_activate(close)
      pump { toasts.titlesShowing.isEmpty }
      XCTAssertEqual(toasts.titlesShowing, [])
      toasts.show("Fifth.")
      pump { toasts.titlesShowing == ["Fifth."] }
      XCTAssertEqual(toasts.titlesShowing, ["Fifth."])
    }
  }

  func testAToastsCloseButtonIsNamed() throws {
    try onTheWindowWithXAtB2 { app in
      let board = try XCTUnwrap(app.gameView)
      board.cells[1][1].click()
      XCTAssertEqual(app.toasts.shown, ["b2 is taken."])
      var names: [String?] = []
      pump {
        names = app.toasts.closeButtons.map { button in
          cgtk_accessible_label(button).map { String(cString: $0) }
        }
        return !names.isEmpty
      }
      XCTAssertEqual(names, [ToastOverlay.dismissName], "libadwaita 1.2 gives it no name")
    }
  }

  func testTheAppearanceSurvivesADamagedFileAndAFolderThatCannotBeWritten() throws {
    XCTAssertEqual(preferences.appearance, .system, "no file yet")
    try preferences.save(.dark)
    XCTAssertEqual(preferences.appearance, .dark)
    let attributes = try FileManager.default.attributesOfItem(atPath: folder)
    XCTAssertEqual((attributes[.posixPermissions] as? Int) ?? 0, 0o700, "a folder of its own")

    for damage in [
      "\u{0}\u{1b}[2J garbage", "[Desktop]\nappearance=sepia\n",
      String(repeating: "x", count: 100_000),
    ] {
      try Data(damage.utf8).write(to: URL(fileURLWithPath: preferences.path))
      XCTAssertEqual(preferences.appearance, .system, "a damaged file follows the system")
    }
    try preferences.save(.light)
    XCTAssertEqual(preferences.appearance, .light, "a damaged file is replaced whole")

    try Data("# mine\n[Desktop]\nappearance=dark\n[Other]\nkey=kept\n".utf8).write(
      to: URL(fileURLWithPath: preferences.path))
    try preferences.save(.light)
    let text = try String(contentsOfFile: preferences.path, encoding: .utf8)
    XCTAssertTrue(text.contains("key=kept"), "what else the file holds is kept")

    let locked = PreferencesFile(path: "/proc/tictactoe/tictactoe-gtk.ini")
    XCTAssertThrowsError(try locked.save(.dark)) { error in
      XCTAssertFalse((error as? PreferencesError)?.message.isEmpty ?? true)
    }
    XCTAssertEqual(locked.appearance, .system)
  }
}
