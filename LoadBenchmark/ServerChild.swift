import CLinux
import Console
import Dispatch
import Foundation
import Synchronization

/// The server process the benchmark starts, which never outlives it.
///
/// The server asks the kernel to kill it when the benchmark ends, whatever the way (a crash or
/// SIGKILL included); on SIGTERM or SIGINT the benchmark also kills it itself and removes the
/// temporary folder before it ends.
enum ServerChild {
  /// The server's process id once it is started, 0 before.
  private static let processIdentifier = Atomic<Int32>(0)
  /// Whether SIGTERM or SIGINT came, and the benchmark is being stopped.
  private static let isStopping = Atomic<Bool>(false)

  /// Called first in the server process: it is killed with SIGKILL when `parent`, the benchmark,
  /// ends, and ends at once if `parent` has already ended.
  static func endWithParent(_ parent: pid_t) {
    guard tictactoe_set_parent_death_signal(SIGKILL) == 0 else {
      Console.error("tictactoe-load: cannot follow the benchmark.\n")
      exit(1)
    }
    // The benchmark may have ended before the request: the server then has another parent.
    if getppid() != parent { exit(1) }
  }

  /// Records the started server's process id, for the signal handlers.
  static func started(_ process: Process) {
    processIdentifier.store(process.processIdentifier, ordering: .releasing)
  }

  /// Returns at once, unless SIGTERM or SIGINT came: it then waits for the handler to end the
  /// benchmark of the signal, once the server is gone and the folder removed, so that no other
  /// ending (such as the server's) is reported first.
  static func letStopFinish() {
    while isStopping.load(ordering: .acquiring) { pause() }
  }

  /// Makes SIGTERM and SIGINT kill the server (once started), remove `folder`, then end the
  /// benchmark as the signal would have.
  ///
  /// - Returns: The signal sources, which must be kept for as long as the benchmark runs.
  static func stopOnSignals(removing folder: URL) -> [any DispatchSourceSignal] {
    [SIGTERM, SIGINT].map { number in
      // libdispatch catches the signal on its own thread, so the handler may do what it likes.
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        isStopping.store(true, ordering: .releasing)
        let server = processIdentifier.load(ordering: .acquiring)
        if server > 0 {
          kill(server, SIGKILL)
          // Until it has ended, without reaping it: Foundation does that.
          var info = siginfo_t()
          _ = waitid(P_PID, id_t(server), &info, WEXITED | WNOWAIT)
        }
        try? FileManager.default.removeItem(at: folder)
        // libdispatch blocks the signal on its threads: unblocked, with its default action, it
        // ends the process as it would have.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, number)
        signal(number, SIG_DFL)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        raise(number)
        _exit(128 + number)
      }
      source.resume()
      return source
    }
  }
}
