public import AppCore
public import Architecture
import CAdw
import CGTK
import Console
import Foundation
import GameCore
import NewGameCore

/// Runs the GTK application around a store.
public enum GTKApplication {
  /// The application's identifier, also the `.desktop` file's name.
  public static let id = "org.tictactoe.TicTacToe"

  private static var store: Store<TicTacToe>?
  /// The windows open, kept alive while the application runs.
  private static var windows: [AnyObject] = []
  private static var application: UnsafeMutablePointer<GtkApplication>?
  private static var status: Int32 = 0
  private static var lastTick = 0
  private static var activatedAt = 0

  /// The longest gap between two turns of the main loop so far, in milliseconds.
  ///
  /// The loop turns every 10 ms when idle; a long gap means the window did not respond.
  public private(set) static var longestStall: Double = 0

  /// The longest gap between two turns of the main loop while the computer was thinking, in
  /// milliseconds, after the first second (which builds the window).
  public private(set) static var longestStallWhileThinking: Double = 0

  /// Opens the window on `store` and runs until it closes, SIGINT, SIGTERM or the core ends the
  /// app.
  ///
  /// - Returns: The exit status: 1 when the core stopped the app, after its sentence went to
  ///   standard error and was shown in a message dialog until dismissed.
  public static func run(store: Store<TicTacToe>) -> Int32 {
    self.store = store
    return runApplication()
  }

  /// Shows why the app cannot start (a database it cannot open, say) in a message dialog of its
  /// own until it is dismissed, SIGINT or SIGTERM: started from the desktop, nobody reads
  /// standard error, where the caller has written the sentence too.
  ///
  /// - Returns: The exit status, 1; at once when there is no display to show the dialog on.
  public static func runFailure(_ sentence: String) -> Int32 {
    startupFailure = sentence
    status = 1
    guard gtk_init_check() != 0 else { return status }
    return runApplication()
  }

  /// The sentence of ``runFailure(_:)``, shown instead of the window.
  private static var startupFailure: String?
  /// The dialog saying why the app stopped, while it is shown.
  private static var failureDialog: MessageDialog?

  /// The heading over a sentence saying why the app stopped.
  private static let failureHeading = "Tic-Tac-Toe cannot go on"

  private static func runApplication() -> Int32 {
    // libadwaita's application loads its style sheet and follows the system's colour scheme.
    let application = cadw_gtk_application(adw_application_new(id, G_APPLICATION_NON_UNIQUE))
    self.application = application
    g_signal_connect_data(
      UnsafeMutableRawPointer(application), "activate",
      unsafeBitCast(activateTrampoline, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
    // Main-actor tasks (effects delivering actions) only run when the main run loop is drained.
    g_timeout_add(10, tickleMainRunLoop, nil)
    let applicationPointer = UnsafeMutableRawPointer(application)
    g_unix_signal_add(SIGTERM, quitOnSignal, applicationPointer)
    g_unix_signal_add(SIGINT, quitOnSignal, applicationPointer)
    // Our options are parsed already: GTK sees none of them.
    let ran = g_application_run(cgtk_g_application(application), 0, nil)
    windows.removeAll()
    self.application = nil
    g_object_unref(UnsafeMutableRawPointer(application))
    return status == 0 ? ran : status
  }

  fileprivate static func didActivate(_ application: UnsafeMutablePointer<GtkApplication>) {
    if let startupFailure {
      // A window never shown, which keeps the application running: a dialog without a parent
      // is discouraged (and logged as such).
      let parent = Window(application: application, title: AppInfo.name)
      windows.append(parent)
      showFailure(startupFailure, over: parent)
      return
    }
    guard let store else { return }
    activatedAt = g_get_monotonic_time()
    let window = AppWindow(application: application, store: store)
    window.onTermination = { [weak window] termination in
      guard case .failed(let sentence) = termination, let window else { return quit() }
      Console.error("tictactoe-gtk: \(sentence)\n")
      status = 1
      showFailure(sentence, over: window.window)
    }
    windows.append(window)
    window.window.present()
    store.send(.started)
  }

  /// Says why the app stopped in a message dialog over `parent`, and quits once it is answered
  /// or closed.
  private static func showFailure(_ sentence: String, over parent: Window) {
    let dialog = MessageDialog(
      over: parent, heading: failureHeading, body: sentence,
      answers: [(id: "quit", label: "Quit", style: .suggested)], cancel: "quit",
      preferred: "quit")
    dialog.onResponse = { _ in quit() }
    failureDialog = dialog
    dialog.present()
  }

  private static func quit() {
    if let application { g_application_quit(cgtk_g_application(application)) }
  }

  fileprivate static func didTick() {
    let now = g_get_monotonic_time()
    if lastTick != 0 {
      let gap = Double(now - lastTick) / 1_000
      longestStall = max(longestStall, gap)
      // Building the first window is start-up, not thinking.
      let isStartingUp = now - activatedAt < 1_000_000
      if !isStartingUp, store?.state.game?.isThinking == true {
        longestStallWhileThinking = max(longestStallWhileThinking, gap)
      }
    }
    lastTick = now
  }
}

private nonisolated let activateTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = {
  application, _ in
  guard let application else { return }
  nonisolated(unsafe) let pointer = application.assumingMemoryBound(to: GtkApplication.self)
  MainActor.assumeIsolated { GTKApplication.didActivate(pointer) }
}

private nonisolated let tickleMainRunLoop: @convention(c) (gpointer?) -> gboolean = { _ in
  _ = RunLoop.main.limitDate(forMode: .default)
  MainActor.assumeIsolated { GTKApplication.didTick() }
  return 1
}

private nonisolated let quitOnSignal: @convention(c) (gpointer?) -> gboolean = { application in
  if let application { g_application_quit(cgtk_g_application(application)) }
  return 0
}
