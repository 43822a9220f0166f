import Foundation
import XCTest

/// The `tictactoe-gtk` built beside the tests, run as a user runs it; a refused command line
/// exits before GTK starts, so no display is needed.
final class CommandLineTests: XCTestCase {
  func testARefusalNamesTheDesktopProgramAndItsOwnHelp() throws {
    for (arguments, sentence) in [
      (["--bogus"], "Unknown option --bogus for tictactoe-gtk; see tictactoe-gtk --help."),
      (["play", "--bogus"], "Unknown option --bogus for tictactoe-gtk; see tictactoe-gtk --help."),
      (
        ["play", "extra"],
        "Unexpected argument \"extra\" for tictactoe-gtk; see tictactoe-gtk --help."
      ),
    ] {
      let (status, error) = try run(arguments)
      XCTAssertEqual(status, 2, "\(arguments)")
      XCTAssertEqual(error, "tictactoe-gtk: \(sentence)\n", "\(arguments)")
    }
  }

  /// Runs the built `tictactoe-gtk` with `arguments`, returning its exit status and standard
  /// error.
  private func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
    var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    // The test runner may be inside a .xctest bundle folder.
    while !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("tictactoe-gtk").path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    let process = Process()
    process.executableURL = directory.appendingPathComponent("tictactoe-gtk")
    process.arguments = arguments
    let error = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = error
    try process.run()
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
}
