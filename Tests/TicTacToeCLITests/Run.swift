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

/// Runs the built executable with an array of arguments.
func run(arguments: [String], input: String = "", environment: [String: String] = [:]) throws
  -> RunResult
{
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  var merged = ProcessInfo.processInfo.environment
  merged.merge(environment) { $1 }
  process.environment = merged
  let output = Pipe()
  let error = Pipe()
  let standardInput = Pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = standardInput
  try process.run()
  standardInput.fileHandleForWriting.write(Data(input.utf8))
  try standardInput.fileHandleForWriting.close()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return RunResult(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorData, as: UTF8.self))
}

/// Runs the built executable with raw bytes on standard input.
func run(arguments: [String], bytes: [UInt8], environment: [String: String] = [:]) throws
  -> RunResult
{
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let output = Pipe()
  let error = Pipe()
  let standardInput = Pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = standardInput
  // A program that stops reading early closes the pipe: that must not end the test runner.
  signal(SIGPIPE, SIG_IGN)
  try process.run()
  // Written from another thread: a program that stops reading early must not block the test.
  let writer = standardInput.fileHandleForWriting
  let data = Data(bytes)
  Thread.detachNewThread {
    // The throwing form: a program that exits before reading it all is no crash of the runner.
    try? writer.write(contentsOf: data)
    try? writer.close()
  }
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return RunResult(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorData, as: UTF8.self))
}
