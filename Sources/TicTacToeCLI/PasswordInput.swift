import AuthenticationClient
import Console
import Foundation
import Glibc
import Synchronization

/// Reads passwords and codes: from the terminal with prompts on stderr (passwords without
/// echo), or one line each from standard input with `--password-stdin`.
///
/// Every line must be UTF-8 text without NUL or other control characters (a tab aside) and at
/// most ``maximumLineLength`` bytes long; anything else is refused with a sentence (exit 2)
/// before it reaches an account.
struct PasswordInput {
  /// The longest line read, in bytes.
  static let maximumLineLength = 4_096

  /// Whether every answer is the next line of standard input, without prompts.
  let fromStandardInput: Bool

  /// What a refused answer leaves undone, ending its sentence: `nothing was changed` for a
  /// command that changes something, `no one was signed in` for a sign-in.
  var outcome = "nothing was changed"

  /// Whether answers come from a person at a terminal, who is prompted and asked to confirm.
  var isInteractive: Bool { !fromStandardInput && isatty(STDIN_FILENO) == 1 }

  /// Reads a password.
  ///
  /// - Parameters:
  ///   - prompt: The prompt shown on a terminal, such as `Password for alice: `.
  ///   - what: What is read, for the error when input ends, such as `the password`.
  /// - Returns: The password without its line ending.
  /// - Throws: ``UsageError`` when standard input is neither a terminal nor allowed, ends, or
  ///   holds what no password can.
  func password(prompt: String, what: String = "the password") throws(UsageError) -> String {
    let password: String
    if fromStandardInput {
      password = try nextLine(what: what)
    } else {
      guard isatty(STDIN_FILENO) == 1 else {
        throw UsageError(
          "Standard input is not a terminal; pass --password-stdin to read \(what) from it.")
      }
      guard let line = readWithoutEcho(prompt: prompt) else {
        throw UsageError("No password was entered, so \(outcome).")
      }
      password = try text(line, what: what)
    }
    // No password is empty, so an empty line is a slip, not a wrong password.
    guard !password.isEmpty else {
      throw UsageError("No password was entered, so \(outcome).")
    }
    return password
  }

  /// Reads a new password, asking a person at a terminal to type it twice.
  ///
  /// - Parameters:
  ///   - prompt: The first prompt.
  ///   - what: What is read, for errors.
  /// - Returns: The password.
  /// - Throws: ``UsageError`` when input ends or the two entries differ.
  func newPassword(prompt: String, what: String = "the password") throws(UsageError) -> String {
    let password = try password(prompt: prompt, what: what)
    guard isInteractive else { return password }
    let repeated = try self.password(prompt: "Type it again: ", what: what)
    guard password == repeated else {
      throw UsageError("The two passwords differ, so nothing was changed.")
    }
    return password
  }

  /// Reads a line that may be shown, such as a two-factor code or a confirmation.
  ///
  /// - Parameters:
  ///   - prompt: The prompt shown on a terminal.
  ///   - what: What is read, for errors, such as `the code`.
  /// - Returns: The line without its line ending, or `nil` when input has ended.
  /// - Throws: ``UsageError`` for a line that is not text.
  func visibleLine(prompt: String, what: String) throws(UsageError) -> String? {
    if isInteractive { Console.error(prompt) }
    return try readStandardInputLine().map { line throws(UsageError) in
      try text(line, what: what)
    }
  }

  private func nextLine(what: String) throws(UsageError) -> String {
    guard let line = readStandardInputLine() else {
      let code = standardInputError.load(ordering: .relaxed)
      if code != 0 {
        throw UsageError(
          "Standard input could not be read (\(LineReader.Failure(code: code).reason)), so \(what) "
            + "was not read.", isInputFailure: true)
      }
      throw UsageError("Standard input ended before \(what); \(outcome).")
    }
    return try text(line, what: what)
  }

  /// The line as text.
  func text(_ line: InputLine, what: String) throws(UsageError) -> String {
    guard !line.isTooLong else {
      throw UsageError(
        "The line with \(what) is longer than \(Self.maximumLineLength) bytes; \(outcome).")
    }
    guard let text = String(validating: line.bytes, as: UTF8.self) else {
      throw UsageError("The line with \(what) holds bytes that are not UTF-8 text; \(outcome).")
    }
    guard PasswordRule.isText(text) else {
      throw UsageError(
        "The line with \(what) holds NUL or other control characters; \(outcome).")
    }
    return text
  }

  /// Reads a line with echo off, restoring the terminal afterwards and on Ctrl-C or SIGTERM.
  private func readWithoutEcho(prompt: String) -> InputLine? {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      Console.error(prompt)
      return readStandardInputLine()
    }
    var quiet = original
    // ECHONL still echoes the Enter, so the next prompt starts on its own line.
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ECHONL)
    terminalBeforePrompt = original
    let previousInterrupt = signal(SIGINT, restoreTerminalAndExit)
    let previousTerminate = signal(SIGTERM, restoreTerminalAndExit)
    let previousHangUp = signal(SIGHUP, restoreTerminalAndExit)
    defer {
      tcsetattr(STDIN_FILENO, TCSANOW, &original)
      signal(SIGINT, previousInterrupt)
      signal(SIGTERM, previousTerminate)
      signal(SIGHUP, previousHangUp)
    }
    // Echo goes off before the prompt shows, so nothing typed after it can appear; what was
    // typed before it is dropped.
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    Console.error(prompt)
    return readStandardInputLine()
  }
}

/// Reads one line from standard input a byte at a time, without its line ending.
///
/// Unlike `readLine()`, nothing past the newline is taken, so whatever reads standard input
/// next (the game's moves after a password) sees every following line. A line longer than
/// ``PasswordInput/maximumLineLength`` is returned, marked too long, as soon as it is known to
/// be, with the rest left unread: it is refused, and nothing reads on.
///
/// - Returns: The line, or `nil` when input ended (or could not be read) before any byte.
func readStandardInputLine() -> InputLine? {
  let reader = LineReader(maximumLineBytes: PasswordInput.maximumLineLength, readsAhead: false)
  do {
    return try reader.next()
  } catch {
    standardInputError.store(error.code, ordering: .relaxed)
    return nil
  }
}

extension LineReader {
  /// The most bytes of a line kept by the commands that read standard input to its end
  /// (`analyze -`, `gtp`, `pbrain`).
  static let commandLineBytes = PbrainSession.maximumLineBytes

  /// Standard input for the commands that read it to its end, read in blocks.
  static func commandInput() -> LineReader { LineReader(maximumLineBytes: commandLineBytes) }
}

/// The `errno` of a read of standard input that failed, or 0: such input did not end, it
/// could not be read.
private let standardInputError = Atomic<Int32>(0)

// The signal handler can only reach globals; it runs while the main code waits in `read`.
nonisolated(unsafe) private var terminalBeforePrompt = termios()

private func restoreTerminalAndExit(_ signal: Int32) {
  tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforePrompt)
  _ = write(STDERR_FILENO, "\n", 1)
  _exit(128 + signal)
}
