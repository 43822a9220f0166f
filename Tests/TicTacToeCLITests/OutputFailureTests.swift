import Foundation
import Testing

/// Output that cannot be written (a full disk, here `/dev/full`) is said in one sentence with
/// status 1, never lost in silence under status 0 and never a crash.
struct OutputFailureTests {
  /// Runs `program` with `arguments`, its standard output or standard error on `/dev/full`.
  private func runFull(
    _ arguments: [String], program: URL = executable, input: String = "",
    fullStream: KeyPath<Process, Any?> = \.standardOutput, environment: [String: String] = [:]
  ) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    let onFullDisk = fullStream == \Process.standardOutput
    process.standardOutput = onFullDisk ? full : output
    process.standardError = onFullDisk ? error : full
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(Data(input.utf8))
    try standardInput.fileHandleForWriting.close()
    let errorData = onFullDisk ? error.fileHandleForReading.readDataToEndOfFile() : Data()
    let outputData = onFullDisk ? Data() : output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }

  private let sentence = "The output could not be written (No space left on device).\n"

  @Test(arguments: [
    ["analyze", "x.o/.x./..o"], ["analyze", "x.o/.x./..o", "--json"], ["bestmove", "x.o/.x./..."],
    ["count"], ["solve"], ["--version"], ["--help"], ["analyze", "--help"],
    ["completions", "bash"],
  ])
  func aCommandWhoseOutputIsLostSaysSoWithStatus1(_ arguments: [String]) throws {
    let result = try runFull(arguments)
    #expect(result.status == 1)
    #expect(result.error == "tictactoe: " + sentence)
  }

  @Test func recordsAndAccountsSayItTooAndWhatWasAskedIsDone() throws {
    let database = try TemporaryDatabase()
    let environment = database.environment
    let created = try runFull(
      ["account", "create", "ann", "--password-stdin"], input: "correct horse\n",
      environment: environment)
    #expect(created.status == 1)
    // The change is told on standard error, since its sentence was lost.
    #expect(
      created.error
        == "tictactoe: " + sentence.dropLast(2) + "; it said: Created the account ann.\n")
    // The account was made before its sentence was lost.
    #expect(try database.run("account", "list").output.contains("ann"))
    for arguments in [["history"], ["stats", "--json"], ["account", "list"]] {
      let result = try runFull(arguments, environment: environment)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error == "tictactoe: " + sentence, "\(arguments)")
    }
  }

  @Test func theProtocolsStopAtTheFirstLostAnswer() throws {
    // Reading on after a lost answer would think about moves no one will see.
    let brain = executable.deletingLastPathComponent().appendingPathComponent("pbrain-tictactoe")
    let pbrain = try runFull([], program: brain, input: "ABOUT\nSTART 15\nBEGIN\nTURN 0,0\nEND\n")
    #expect(pbrain.status == 1)
    #expect(pbrain.error == "pbrain-tictactoe: " + sentence)
    let gtp = try runFull(["gtp"], input: "name\nboardsize 7\ngenmove b\nquit\n")
    #expect(gtp.status == 1)
    #expect(gtp.error == "tictactoe: " + sentence)
    let lines = try runFull(["analyze", "-"], input: "x.o/.x./..o\n.../.../...\n")
    #expect(lines.status == 1)
    #expect(lines.error == "tictactoe: " + sentence)
  }

  @Test(arguments: ["none", "o", "x", "both"])
  func aPlainGameIsNotPlayedBlind(computer: String) throws {
    let database = try TemporaryDatabase()
    let blind = try runFull(
      ["play", "--plain", "--computer", computer], input: "a1\nb1\na2\nb2\na3\n",
      environment: database.environment)
    #expect(blind.status == 1)
    // The computer, which moves without a line typed, is stopped at its first move.
    #expect(blind.error.hasSuffix("tictactoe: " + sentence), "\(blind.error)")
    #expect(
      blind.error.split(separator: "\n").allSatisfy { $0.hasPrefix("tictactoe: ") },
      "\(blind.error)")
    // The board shown at the start was lost already, so no line was played: no game was won
    // in the dark, and none is kept half played (the computer answering a move no one saw).
    #expect(try database.run("history").output == "No games recorded for the guest.\n")
    let next = try database.run("play", "--plain")
    #expect(!next.output.contains("Resume"), "\(next.output)")
  }

  @Test func aReaderThatWentAwayEndsItSilentlyAsSIGPIPEWould() throws {
    // The online commands ignore SIGPIPE for their connections; here the shell ignores it
    // for the program, whose output pipe has no reader left.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "trap '' PIPE; exec \"$0\" count", executable.path]
    let output = Pipe()
    try output.fileHandleForReading.close()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let said = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 141)
    #expect(said.isEmpty, "\(String(decoding: said, as: UTF8.self))")
  }

  @Test func aFullStandardErrorKeepsTheStatus() throws {
    // Nothing is left to say the sentence on, so the status alone tells.
    #expect(try runFull(["analyze", "zz"], fullStream: \.standardError).status == 2)
    let database = try TemporaryDatabase()
    let missing = try runFull(
      ["replay", "42"], fullStream: \.standardError, environment: database.environment)
    #expect(missing.status == 1)
    #expect(try runFull(["count"], fullStream: \.standardError).output.contains("5478"))
  }
}
