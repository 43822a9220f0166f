import Foundation

/// What a run of the built `tictactoe` printed and how it exited.
struct RunResult {
  var status: Int32
  var output: String
  var error: String

  /// Standard output split into lines, without the final empty one.
  var lines: [String] {
    output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// Standard output parsed as one JSON object.
  func json() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
    guard let dictionary = object as? [String: Any] else { throw CocoaError(.coderInvalidValue) }
    return dictionary
  }
}

/// The `tictactoe` executable built beside the test bundle.
let executable: URL = {
  let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  var directory = bundle.deletingLastPathComponent()
  // The test runner may be inside a .xctest bundle folder.
  while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("tictactoe").path),
    directory.path != "/"
  {
    directory = directory.deletingLastPathComponent()
  }
  return directory.appendingPathComponent("tictactoe")
}()

/// Runs the built executable with `arguments` and `input` on standard input.
func run(_ arguments: String..., input: String = "", environment: [String: String] = [:]) throws
  -> RunResult
{
  try run(arguments: arguments, input: input, environment: environment)
}

/// The built executable started with pipes for its standard streams.
struct Launched {
  let process: Process
  let input: Pipe
  let output: Pipe
  let error: Pipe

  /// Reads both outputs to their end and waits for the program to exit.
  func finish() -> RunResult {
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }
}

/// Starts the built executable with `arguments`, its standard streams on pipes (standard error
/// on the output's pipe when `mergingErrors`).
func launch(
  arguments: [String], environment: [String: String] = [:], mergingErrors: Bool = false
) throws -> Launched {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let launched = Launched(process: process, input: Pipe(), output: Pipe(), error: Pipe())
  process.standardOutput = launched.output
  process.standardError = mergingErrors ? launched.output : launched.error
  process.standardInput = launched.input
  // A program that stops reading early closes the pipe: that must not end the test runner.
  signal(SIGPIPE, SIG_IGN)
  try process.run()
  return launched
}

/// Runs the built executable with an array of arguments.
func run(arguments: [String], input: String = "", environment: [String: String] = [:]) throws
  -> RunResult
{
  let launched = try launch(arguments: arguments, environment: environment)
  launched.input.fileHandleForWriting.write(Data(input.utf8))
  try launched.input.fileHandleForWriting.close()
  return launched.finish()
}

/// Runs the built executable with raw bytes on standard input.
func run(arguments: [String], bytes: [UInt8], environment: [String: String] = [:]) throws
  -> RunResult
{
  let launched = try launch(arguments: arguments, environment: environment)
  // Written from another thread: a program that stops reading early must not block the test.
  let writer = launched.input.fileHandleForWriting
  let data = Data(bytes)
  Thread.detachNewThread {
    // The throwing form: a program that exits before reading it all is no crash of the runner.
    try? writer.write(contentsOf: data)
    try? writer.close()
  }
  return launched.finish()
}
