import Foundation
import Glibc

/// Reads passwords and codes: from the terminal with prompts on stderr (passwords without
/// echo), or one line each from standard input with `--password-stdin`.
struct PasswordInput {
  /// Whether every answer is the next line of standard input, without prompts.
  let fromStandardInput: Bool

  /// Whether answers come from a person at a terminal, who is prompted and asked to confirm.
  var isInteractive: Bool { !fromStandardInput && isatty(STDIN_FILENO) == 1 }

  /// Reads a password.
  ///
  /// - Parameters:
  ///   - prompt: The prompt shown on a terminal, such as `Password for alice: `.
  ///   - what: What is read, for the error when input ends, such as `the password`.
  /// - Returns: The password without its line ending.
  /// - Throws: ``UsageError`` when standard input is neither a terminal nor allowed, or ends.
  func password(prompt: String, what: String = "the password") throws(UsageError) -> String {
    if fromStandardInput { return try nextLine(what: what) }
    guard isatty(STDIN_FILENO) == 1 else {
      throw UsageError(
        "Standard input is not a terminal; pass --password-stdin to read \(what) from it.")
    }
    guard let line = readWithoutEcho(prompt: prompt) else {
      throw UsageError("No password was entered, so nothing was changed.")
    }
    return line
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
  /// - Parameter prompt: The prompt shown on a terminal.
  /// - Returns: The line without its line ending, or `nil` when input has ended.
  func visibleLine(prompt: String) -> String? {
    if isInteractive { writeStandardError(prompt) }
    return readStandardInputLine().map(Self.withoutCarriageReturn)
  }

  private func nextLine(what: String) throws(UsageError) -> String {
    guard let line = readStandardInputLine() else {
      throw UsageError("Standard input ended before \(what).")
    }
    return Self.withoutCarriageReturn(line)
  }

  private static func withoutCarriageReturn(_ line: String) -> String {
    line.hasSuffix("\r") ? String(line.dropLast()) : line
  }

  /// Reads a line with echo off, restoring the terminal afterwards and on Ctrl-C or SIGTERM.
  private func readWithoutEcho(prompt: String) -> String? {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      writeStandardError(prompt)
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
    writeStandardError(prompt)
    return readStandardInputLine().map(Self.withoutCarriageReturn)
  }
}

/// Reads one line from standard input a byte at a time, without its line ending.
///
/// Unlike `readLine()`, nothing past the newline is buffered, so whatever reads standard input
/// next (the game's moves after a password) sees every following line.
///
/// - Returns: The line, or `nil` when input ended before any byte.
func readStandardInputLine() -> String? {
  var bytes: [UInt8] = []
  var byte: UInt8 = 0
  while true {
    let count = read(STDIN_FILENO, &byte, 1)
    if count < 0 && errno == EINTR { continue }
    guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
    if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
    bytes.append(byte)
  }
}

/// Writes text to standard error as is.
func writeStandardError(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}

/// Writes a line to standard output at once, unbuffered, so a script reading it sees it before
/// the program waits for more input.
func writeLine(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

// The signal handler can only reach globals; it runs while the main code waits in `read`.
nonisolated(unsafe) private var terminalBeforePrompt = termios()

private func restoreTerminalAndExit(_ signal: Int32) {
  tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforePrompt)
  _ = write(STDERR_FILENO, "\n", 1)
  _exit(128 + signal)
}
