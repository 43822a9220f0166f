public import AppCore
public import Architecture
import CGTK
import Foundation
import GameCore
import NewGameCore

/// Runs the GTK application around a store.
public enum GTKApplication {
  /// The application's identifier, also the `.desktop` file's name.
  public static let id = "org.tictactoe.TicTacToe"

  private static var store: Store<TicTacToe>?
  private static var windows: [AppWindow] = []
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
  ///   standard error.
  public static func run(store: Store<TicTacToe>) -> Int32 {
    self.store = store
    let application = gtk_application_new(id, G_APPLICATION_NON_UNIQUE)
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
    guard let store else { return }
    activatedAt = g_get_monotonic_time()
    let window = AppWindow(application: application, store: store)
    window.onTermination = { termination in
      if case .failed(let sentence) = termination {
        FileHandle.standardError.write(Data("tictactoe-gtk: \(sentence)\n".utf8))
        status = 1
      }
      if let application = self.application {
        g_application_quit(cgtk_g_application(application))
      }
    }
    windows.append(window)
    window.window.present()
    store.send(.started)
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
