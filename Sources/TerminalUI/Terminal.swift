public import Console
import Foundation
import Glibc
import Synchronization

// The terminal's I/O: raw mode, the alternate screen, mouse reporting, signals, the size, and
// input read on a thread of its own. Everything else in this module is pure.

/// Set by SIGWINCH, read and cleared by the input thread.
private let resizePending = Atomic<Bool>(false)
/// Tells the input thread to stop.
private let stopReading = Atomic<Bool>(false)
/// The `errno` of a read of standard input's lines that failed, or 0.
private let linesReadError = Atomic<Int32>(0)
/// Whether the terminal is in raw mode now, so restoring happens once.
private let isRaw = Atomic<Bool>(false)

// Written once before any handler is installed and only read afterwards, also from signal
// handlers, which may not allocate or take locks.
nonisolated(unsafe) private var savedAttributes = termios()
nonisolated(unsafe) private var previousActions: UnsafeMutablePointer<sigaction> = {
  let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
  actions.initialize(repeating: sigaction(), count: 65)
  return actions
}()
/// Whether our handlers are installed, so they are removed once.
private let handlersInstalled = Atomic<Bool>(false)
nonisolated(unsafe) private var leaveBytes = signalSafeBytes(Terminal.leaveSequence)
nonisolated(unsafe) private var enterBytes = signalSafeBytes(Terminal.enterSequence)

/// `text`'s bytes where a signal handler can write them without allocating.
private func signalSafeBytes(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
  let bytes = Array(text.utf8)
  let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
  _ = buffer.initialize(from: bytes)
  return buffer
}

/// Signals that end the program: restore the terminal, then die of the signal as usual.
private let endingSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
/// Signals of a crash: restore the terminal, then let the previous handler report it.
private let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

/// Puts the terminal back as it was; async-signal-safe (only `write` and `tcsetattr`).
private func restoreTerminal() {
  guard isRaw.exchange(false, ordering: .acquiringAndReleasing) else { return }
  _ = Glibc.write(STDOUT_FILENO, leaveBytes.baseAddress, leaveBytes.count)
  // Through standard output, the same terminal, when standard input has gone (closed under
  // the program): the shell would be left in raw mode.
  if tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedAttributes) != 0 {
    _ = tcsetattr(STDOUT_FILENO, TCSAFLUSH, &savedAttributes)
  }
}

private func onEndingSignal(_ signal: Int32) {
  restoreTerminal()
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}

private func onCrashSignal(_ signal: Int32) {
  restoreTerminal()
  // Returning re-runs the faulting instruction under the previous handler (the backtracer).
  sigaction(signal, previousActions + Int(signal), nil)
}

private func onResize(_: Int32) {
  resizePending.store(true, ordering: .relaxed)
}

/// Raw mode and the alternate screen, from the terminal's attributes as they are now (kept to
/// be restored); async-signal-safe.
///
/// - Returns: `false` when the attributes could not be read or set.
private func takeRawMode() -> Bool {
  guard tcgetattr(STDIN_FILENO, &savedAttributes) == 0 else { return false }
  var raw = savedAttributes
  cfmakeraw(&raw)
  guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
  isRaw.store(true, ordering: .releasing)
  _ = Glibc.write(STDOUT_FILENO, enterBytes.baseAddress, enterBytes.count)
  return true
}

/// Raw mode again after a stop, and a redraw; async-signal-safe.
private func reenterRawMode() {
  if takeRawMode() { resizePending.store(true, ordering: .relaxed) }
}

/// SIGTSTP, from Ctrl-Z (read as a key in raw mode) or from `kill`: the terminal is put back
/// while the program is stopped, and taken again once it is continued in the foreground.
private func onStop(_ signal: Int32) {
  restoreTerminal()
  Glibc.signal(SIGTSTP, SIG_DFL)
  // Installed with SA_NODEFER, the stop is taken here and now.
  raise(SIGTSTP)
  // Continued in the background (`kill -CONT`, `bg`), the terminal is the shell's: stop again
  // until `fg` makes this program the terminal's foreground.
  while true {
    let foreground = tcgetpgrp(STDIN_FILENO)
    guard foreground >= 0, foreground != getpgrp() else { break }
    raise(SIGTSTP)
  }
  installStopHandler()
  reenterRawMode()
}

/// SIGCONT after a stop this program could not see (SIGSTOP): the shell has put the terminal
/// back in its own mode, so raw mode is taken again.
private func onContinue(_: Int32) {
  guard isRaw.load(ordering: .acquiring) else { return }
  reenterRawMode()
}

private func installStopHandler() {
  var action = sigaction()
  action.__sigaction_handler.sa_handler = onStop
  sigemptyset(&action.sa_mask)
  action.sa_flags = SA_NODEFER
  sigaction(SIGTSTP, &action, nil)
}

/// Something the terminal reports to the full-screen app.
public enum TerminalEvent: Hashable, Sendable {
  /// Keys pressed or mouse events, in order.
  case keys([Key])
  /// The window changed size.
  case resized
  /// Standard input closed.
  case endOfInput
}

/// The terminal: raw mode in and out, drawing, its size and its input.
public enum Terminal {
  /// Enters the alternate screen, hides the cursor and turns on SGR mouse reports and bracketed
  /// paste.
  static let enterSequence =
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[H\u{1B}[2J"
  /// Undoes ``enterSequence``.
  static let leaveSequence =
    "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

  /// Whether standard input and output are both terminals.
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// Switches to raw mode and the alternate screen, and arranges for the terminal to be restored
  /// on SIGTERM, SIGHUP, SIGINT, SIGQUIT and crashes.
  ///
  /// - Returns: `false` when the terminal's attributes could not be read.
  public static func enterRawMode() -> Bool {
    guard !isRaw.load(ordering: .acquiring) else { return true }
    // The handlers' bytes are made here, outside any handler (entering makes enterBytes).
    _ = leaveBytes.count
    guard takeRawMode() else { return false }
    if !handlersInstalled.exchange(true, ordering: .acquiringAndReleasing) {
      for signal in endingSignals { install(onEndingSignal, for: signal) }
      for signal in crashSignals { install(onCrashSignal, for: signal) }
      install(onResize, for: SIGWINCH)
      install(onContinue, for: SIGCONT)
      sigaction(SIGTSTP, nil, previousActions + Int(SIGTSTP))
      installStopHandler()
    }
    return true
  }

  /// Leaves raw mode and the alternate screen; safe to call more than once.
  public static func restore() {
    restoreTerminal()
    stopReading.store(true, ordering: .relaxed)
    guard handlersInstalled.exchange(false, ordering: .acquiringAndReleasing) else { return }
    for signal in endingSignals + crashSignals + [SIGWINCH, SIGCONT, SIGTSTP] {
      sigaction(signal, previousActions + Int(signal), nil)
    }
  }

  /// What the full screen says when Ctrl-Z cannot suspend it (``canSuspend``).
  public static let cannotSuspendSentence =
    "Ctrl-Z cannot suspend the game here: no shell started it with job control."

  /// Whether a stop would stop the program, its process group not being orphaned.
  ///
  /// The group's first process up the line of parents must have its parent in the same
  /// session: a shell with job control. Under `setsid`, `script` or a `sh -c` of its own, the
  /// system discards the stop, and nothing would take the terminal back.
  public static var canSuspend: Bool {
    let group = getpgrp()
    let session = getsid(0)
    var process = getpid()
    // Up the parents while they are in the group; the first outside it decides.
    for _ in 0..<64 {
      guard let parent = parentProcess(of: process), parent > 0 else { return false }
      let parentGroup = getpgid(parent)
      guard parentGroup >= 0 else { return false }
      if parentGroup != group { return getsid(parent) == session }
      process = parent
    }
    return false
  }

  /// The parent of `process`, from `/proc/PID/stat` (its fourth field, after the name in
  /// parentheses, which may hold any character).
  private static func parentProcess(of process: pid_t) -> pid_t? {
    if process == getpid() { return getppid() }
    guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
      let nameEnd = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
    guard fields.count > 1 else { return nil }
    return pid_t(fields[1])
  }

  /// Suspends the program as Ctrl-Z does in a shell: the terminal is restored while stopped,
  /// and raw mode comes back when the shell continues it in the foreground (the handler of
  /// SIGTSTP does both, for a `kill -TSTP` as well).
  public static func suspend() {
    guard handlersInstalled.load(ordering: .acquiring) else { return }
    // This runs on a thread of the concurrency pool, which blocks most signals: unblocked
    // here, the stop is taken at once instead of staying pending.
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGTSTP)
    var mask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &stop, &mask)
    raise(SIGTSTP)
    pthread_sigmask(SIG_SETMASK, &mask, nil)
  }

  private static func install(
    _ handler: @escaping @convention(c) (Int32) -> Void, for signal: Int32
  ) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signal, &action, previousActions + Int(signal))
  }

  /// The window's size in columns and rows; 80 × 24 when it cannot be read.
  public static var size: (width: Int, height: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The bytes that replace the screen with `frame`: home, each line cleared to its end.
  public static func drawing(_ frame: Frame, mode: ColorMode) -> String {
    "\u{1B}[H" + frame.lines.map { $0.rendered(mode) + "\u{1B}[K" }.joined(separator: "\r\n")
      + "\u{1B}[J"
  }

  /// Keys, resizes and the end of input, read on a thread of its own.
  ///
  /// A blocking read on the main actor would hold back the store's effects; a task would pin a
  /// cooperative thread. The thread polls so that it notices a resize and can give up on a lone
  /// escape after a short pause.
  public static func events() -> AsyncStream<TerminalEvent> {
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    stopReading.store(false, ordering: .relaxed)
    Thread.detachNewThread {
      var decoder = InputDecoder()
      var buffer = [UInt8](repeating: 0, count: 1024)
      while !stopReading.load(ordering: .relaxed) {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, decoder.hasPending ? 30 : 100)
        if resizePending.exchange(false, ordering: .relaxed) { continuation.yield(.resized) }
        if ready == 0 {
          let keys = decoder.flush()
          if !keys.isEmpty { continuation.yield(.keys(keys)) }
          continue
        }
        if ready < 0 {
          if errno == EINTR { continue }
          break
        }
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count < 0, errno == EINTR || errno == EAGAIN { continue }
        guard count > 0 else { break }
        let keys = decoder.decode(buffer[..<count])
        if !keys.isEmpty { continuation.yield(.keys(keys)) }
      }
      if !stopReading.load(ordering: .relaxed) { continuation.yield(.endOfInput) }
      continuation.finish()
    }
    return events
  }

  /// Why ``lines()`` stopped before the end of input, as a sentence, or `nil` when it did not:
  /// input that cannot be read (a folder) is not input that ended.
  public static var linesFailure: String? {
    let code = linesReadError.load(ordering: .relaxed)
    guard code != 0 else { return nil }
    return LineReader.Failure(code: code).message
  }

  /// The bytes of a line of standard input kept; the rest of a longer line is dropped.
  public static let maximumLineLength = 4_096

  /// What plain mode says of a line longer than ``maximumLineLength`` bytes, which it skips.
  public static let tooLongLineSentence =
    "The line is longer than \(maximumLineLength) bytes, more than any command; it was skipped."

  /// Lines of standard input, read on a thread of its own; the stream ends with the input.
  ///
  /// The last line counts even without a final newline. A line longer than
  /// ``maximumLineLength`` bytes comes marked too long as soon as that many are read, with
  /// those bytes only; the rest of it is read once and dropped, however long it is.
  public static func lines() -> AsyncStream<InputLine> {
    let (lines, continuation) = AsyncStream.makeStream(of: InputLine.self)
    Thread.detachNewThread {
      let reader = LineReader(maximumLineBytes: maximumLineLength)
      do throws(LineReader.Failure) {
        while let line = try reader.next() { continuation.yield(line) }
      } catch {
        linesReadError.store(error.code, ordering: .relaxed)
      }
      continuation.finish()
    }
    return lines
  }
}
