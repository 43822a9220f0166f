import Foundation
import Testing

/// Standard input read to its end (`analyze -`, `gtp`, `pbrain`): a line of any length takes no
/// more memory than its first 64 KiB and is refused in one answer, and a read that fails is said
/// and ends the command with status 1 instead of passing for the end of input.
struct InputLimitTests {
  /// 200,000 bytes with no newline until the end, then a good line.
  let long = String(repeating: "7", count: 200_000)

  @Test func aLineTooLongIsRefusedAndTheNextOneRead() throws {
    let analyzed = try run(
      arguments: ["analyze", "-"], bytes: Array((long + "\n.../.../...\n").utf8))
    #expect(analyzed.status == 2)
    #expect(
      analyzed.error
        == "tictactoe: line 1: The line is longer than 65536 bytes, far more than a position of "
        + "the largest board.\n")
    #expect(analyzed.lines.count == 1 && analyzed.lines[0].contains("X to move: draw."))

    let gtp = try run(arguments: ["gtp"], bytes: Array(("5 " + long + "\nname\n").utf8))
    #expect(gtp.status == 0)
    #expect(gtp.output == "?5 the line is longer than 65536 bytes\n\n= tictactoe\n\n")

    let brain = try run(
      arguments: ["pbrain"],
      bytes: Array(("START 15\nTURN 7," + long + "\nBOARD\n7,7,1\n\(long)\nDONE\nABOUT\n").utf8))
    #expect(brain.status == 0)
    #expect(
      brain.lines.prefix(3)
        == [
          "OK", "ERROR a line is longer than 65536 bytes, so it was not read",
          "ERROR a line is longer than 65536 bytes; the board is left as it was",
        ])
    #expect(brain.lines.last?.hasPrefix("name=\"pbrain-tictactoe\"") == true)
  }

  /// A line too long is answered as soon as it is, while its writer has not ended it (as from
  /// `/dev/zero`), and whatever it began with: spaces alone may hide a command.
  @Test(arguments: [
    (["analyze", "-"], "x", "longer than"), (["gtp"], " ", "? the line is longer than"),
    (["pbrain"], "x", "ERROR a line is longer than"),
    (["play", "--plain"], "x", "The line is longer than 4096 bytes"),
  ])
  func aLineTooLongIsAnsweredBeforeItEnds(arguments: [String], filler: String, answer: String)
    throws
  {
    let database = try TemporaryDatabase()
    let launched = try launch(
      arguments: arguments + (arguments[0] == "play" ? ["--database", database.path] : []),
      mergingErrors: true)
    defer {
      try? launched.input.fileHandleForWriting.close()
      launched.process.waitUntilExit()
    }
    try launched.input.fileHandleForWriting.write(
      contentsOf: Data(String(repeating: filler, count: 70_000).utf8))
    let said = Self.output(of: launched, until: answer)
    #expect(said.contains(answer), "\(arguments): \(said.prefix(300))")
  }

  /// What `launched` writes within 10 s, read without blocking on a program that never
  /// answers, up to the first time it holds `expected`.
  private static func output(of launched: Launched, until expected: String) -> String {
    var said = ""
    let reading = launched.output.fileHandleForReading.fileDescriptor
    let deadline = Date().addingTimeInterval(10)
    while !said.contains(expected), Date() < deadline {
      var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 100) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      said += String(decoding: chunk.prefix(count), as: UTF8.self)
    }
    return said
  }

  /// `analyze -` answers each line as it is read, while its input is still open: a program
  /// feeding it one position at a time gets each answer.
  @Test(arguments: [["analyze", "-"], ["analyze", "-", "--json"]])
  func eachPositionIsAnsweredBeforeTheInputEnds(arguments: [String]) throws {
    let launched = try launch(arguments: arguments)
    defer {
      try? launched.input.fileHandleForWriting.close()
      launched.process.waitUntilExit()
    }
    try launched.input.fileHandleForWriting.write(contentsOf: Data("x.o/.x./..o\n".utf8))
    let said = Self.output(of: launched, until: "\n")
    #expect(said.hasSuffix("\n") && said.contains("o") && said.contains("draw"), "\(said)")
  }

  /// Runs `arguments` with a folder as standard input, which opens for reading but fails to be
  /// read (EISDIR), and returns the exit status and what was said on standard error.
  private func withAFolderAsInput(_ arguments: [String]) throws -> (status: Int32, said: String) {
    let folder = try #require(FileHandle(forReadingAtPath: NSTemporaryDirectory()))
    let database = try TemporaryDatabase()
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments + ["--database", database.path]
    let error = Pipe()
    process.standardInput = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = error
    try process.run()
    let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, said)
  }

  @Test(arguments: [["analyze", "-"], ["gtp"], ["pbrain"], ["play", "--plain"]])
  func anInputThatCannotBeReadIsSaid(arguments: [String]) throws {
    let (status, said) = try withAFolderAsInput(arguments)
    #expect(status == 1, "\(arguments)")
    #expect(said == "tictactoe: The input could not be read (Is a directory).\n", "\(arguments)")
  }

  /// A program started with standard input closed says so, even where it opens its database
  /// before reading, which would otherwise take the descriptor's number and read as empty.
  @Test(arguments: [["play", "--plain"], ["gtp"], ["analyze", "-"], ["pbrain"]])
  func aClosedStandardInputIsSaid(arguments: [String]) throws {
    let database = try TemporaryDatabase()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments =
      [
        "-c", "exec \"$0\" \"$@\" <&-", executable.path,
      ] + arguments + ["--database", database.path]
    let error = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = error
    try process.run()
    let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "\(arguments)")
    #expect(
      said == "tictactoe: The input could not be read (Bad file descriptor).\n", "\(arguments)")
  }

  /// A password that cannot be read is a failure of the input, as elsewhere (exit 1), not a
  /// usage error.
  @Test(arguments: [
    ["login", "ann", "--password-stdin"], ["account", "create", "ann", "--password-stdin"],
    ["account", "passwd", "ann", "--password-stdin"],
  ])
  func aPasswordThatCannotBeReadIsNotSaidToHaveEnded(arguments: [String]) throws {
    let (status, said) = try withAFolderAsInput(arguments)
    #expect(status == 1, "\(arguments)")
    let what = arguments[1] == "passwd" ? "old password" : "password"
    #expect(
      said
        == "tictactoe: Standard input could not be read (Is a directory), so the \(what) was "
        + "not read.\n", "\(arguments)")
  }
}
