import Foundation
import Glibc
import Testing

/// What a run on a pseudo-terminal showed on the terminal and printed to standard output.
struct TerminalRun {
  var status: Int32
  /// Everything written to the terminal: prompts, echoed input and errors.
  var terminal: String
  /// Standard output, which stays a pipe.
  var output: String
}

/// Runs the built executable with standard input and standard error on a pseudo-terminal,
/// typing each answer once its prompt has appeared.
func runOnTerminal(
  _ arguments: [String], environment: [String: String],
  answers: [(prompt: String, answer: String)]
) throws -> TerminalRun {
  let pseudoTerminal = try PseudoTerminalFunctions()
  let master = pseudoTerminal.open(O_RDWR | O_NOCTTY)
  try #require(master >= 0)
  defer { close(master) }
  try #require(pseudoTerminal.grant(master) == 0 && pseudoTerminal.unlock(master) == 0)
  var name = [CChar](repeating: 0, count: 128)
  try #require(pseudoTerminal.name(master, &name, name.count) == 0)
  let slave = open(
    String(decoding: name.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self), O_RDWR | O_NOCTTY)
  try #require(slave >= 0)
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
  let output = Pipe()
  process.standardInput = terminal
  process.standardError = terminal
  process.standardOutput = output
  try process.run()
  try terminal.close()

  var shown = [UInt8]()
  var consumed = 0
  for (prompt, answer) in answers {
    let deadline = Date().addingTimeInterval(20)
    while !String(decoding: shown[consumed...], as: UTF8.self).contains(prompt) {
      guard Date() < deadline, readAvailable(from: master, into: &shown) != nil else {
        process.terminate()
        Issue.record(
          "no prompt \"\(prompt)\"; the terminal showed \(String(decoding: shown, as: UTF8.self))")
        return TerminalRun(status: -1, terminal: String(decoding: shown, as: UTF8.self), output: "")
      }
    }
    consumed = shown.count
    let line = Array((answer + "\n").utf8)
    _ = line.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }
  let printed = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while let count = readAvailable(from: master, into: &shown, waitMilliseconds: 100), count > 0 {}
  return TerminalRun(
    status: process.terminationStatus, terminal: String(decoding: shown, as: UTF8.self),
    output: String(decoding: printed, as: UTF8.self))
}

/// Appends what the terminal has within a short wait.
///
/// - Returns: The number of bytes read (0 when nothing came), or `nil` once the terminal has
///   closed.
private func readAvailable(
  from descriptor: Int32, into buffer: inout [UInt8], waitMilliseconds: Int32 = 200
) -> Int? {
  var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
  guard poll(&request, 1, waitMilliseconds) > 0 else { return 0 }
  var chunk = [UInt8](repeating: 0, count: 1_024)
  let count = read(descriptor, &chunk, chunk.count)
  guard count > 0 else { return nil }
  buffer += chunk[..<count]
  return count
}

/// The libc calls that make a pseudo-terminal, looked up at run time: Glibc's Swift module is
/// built without `_XOPEN_SOURCE`, so `posix_openpt` and its friends are not imported.
private struct PseudoTerminalFunctions {
  let open: @convention(c) (Int32) -> Int32
  let grant: @convention(c) (Int32) -> Int32
  let unlock: @convention(c) (Int32) -> Int32
  let name: @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

  init() throws {
    let libc = dlopen(nil, RTLD_NOW)
    func function<Function>(_ symbol: String, as type: Function.Type) throws -> Function {
      unsafeBitCast(try #require(dlsym(libc, symbol), "libc has no \(symbol)"), to: type)
    }
    open = try function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    grant = try function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    unlock = try function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    name = try function(
      "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
  }
}
