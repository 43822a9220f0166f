import Foundation
import Testing

/// The built `pbrain-tictactoe`, as a tournament manager runs it.
struct PbrainCommandTests {
  /// The brain executable beside `tictactoe`.
  let brain = executable.deletingLastPathComponent().appendingPathComponent("pbrain-tictactoe")

  /// Runs the brain on `script` and returns its lines and exit status.
  func session(_ script: String, arguments: [String] = []) throws -> (
    lines: [String], status: Int32
  ) {
    let (process, input, output) = try running(arguments)
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    return (lines, process.terminationStatus)
  }

  /// The brain started, with pipes to write its input and read its output as it runs.
  func running(_ arguments: [String] = []) throws -> (process: Process, input: Pipe, output: Pipe) {
    let process = Process()
    process.executableURL = brain
    process.arguments = arguments
    let output = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    process.standardError = FileHandle.nullDevice
    try process.run()
    return (process, input, output)
  }

  /// The moves among `lines`, as (x, y).
  func moves(_ lines: [String]) -> [(x: Int, y: Int)] {
    lines.compactMap { line in
      let parts = line.split(separator: ",").compactMap { Int($0) }
      return parts.count == 2 && !line.contains(" ") ? (parts[0], parts[1]) : nil
    }
  }

  @Test func playsAGameOfFreestyleGomoku() throws {
    let script = """
      ABOUT
      INFO timeout_turn 200
      INFO max_memory 83886080
      INFO rule 0
      START 15
      BEGIN
      TURN 0,0
      TURN 14,14

      """
    let (lines, status) = try session(script)
    #expect(status == 0)
    #expect(lines.first?.hasPrefix("name=\"pbrain-tictactoe\", version=\"") == true)
    #expect(lines.contains("OK"))
    let played = moves(lines)
    #expect(played.count == 3, "\(lines)")
    // The first move of an empty board is its centre; the others are on the board and free.
    #expect(played.first.map { $0.x == 7 && $0.y == 7 } == true)
    var seen: Set<Int> = [0, 14 * 15 + 14]
    for move in played {
      #expect((0..<15).contains(move.x) && (0..<15).contains(move.y))
      #expect(seen.insert(move.y * 15 + move.x).inserted, "\(move) played twice")
    }
    #expect(
      lines.filter { $0.hasPrefix("DEBUG budget ") }
        == Array(repeating: "DEBUG budget 175 ms", count: 3))
    // The opening moves come from the deepening search, which says what it saw.
    let messages = lines.filter { $0.hasPrefix("MESSAGE depth ") }
    #expect(messages.count >= 2, "\(lines)")
    for message in messages {
      let fields = message.dropFirst("MESSAGE ".count).split(separator: " | ")
      #expect(fields.count == 4 && fields[0].hasPrefix("depth ") && fields[1].hasPrefix("eval "))
      #expect(fields.count == 4 && fields[3].hasSuffix(" ms"), "\(message)")
      let milliseconds = fields.count == 4 ? Int(fields[3].dropLast(3)) : nil
      // Within the manager's 200 ms a turn.
      #expect(milliseconds.map { $0 <= 200 } == true, "\(message)")
    }
  }

  @Test func takesAWinAndBlocksALoss() throws {
    // Own stones on row 0 from column 0 to 3: 4,0 wins.
    let win = try session(
      "START 15\nBOARD\n0,0,1\n1,0,1\n2,0,1\n3,0,1\n0,5,2\n1,7,2\n2,9,2\n3,11,2\nDONE\n")
    #expect(moves(win.lines).map { "\($0.x),\($0.y)" } == ["4,0"])
    // The opponent's four on column 14, open at the bottom only: 14,4 blocks it.
    let block = try session(
      "START 15\nBOARD\n14,0,2\n14,1,2\n14,2,2\n14,3,2\n5,5,1\n9,9,1\n5,9,1\nDONE\n")
    #expect(moves(block.lines).map { "\($0.x),\($0.y)" } == ["14,4"])
  }

  @Test func keepsWithinMaxMemory() throws {
    // Read the peak resident size while the brain is still running, after a few moves.
    let (process, input, output) = try running()
    let limit = 60_000_000
    var script = "INFO max_memory \(limit)\nINFO timeout_turn 150\nSTART 15\nBEGIN\n"
    for index in 0..<3 { script += "TURN \(index),\(index % 2 == 0 ? 0 : 14)\n" }
    input.fileHandleForWriting.write(Data(script.utf8))
    // Each of BEGIN and the three TURNs gets one answer: a move, or an error.
    var text = ""
    func answers() -> Int {
      text.split(separator: "\n").count {
        !$0.hasPrefix("DEBUG") && !$0.hasPrefix("MESSAGE") && $0 != "OK"
      }
    }
    while answers() < 4 {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    let status = try String(
      contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
    input.fileHandleForWriting.write(Data("END\n".utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
      .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    let kilobytes = try #require(peak, "\(status)")
    #expect(kilobytes * 1_024 < limit, "peak \(kilobytes) kB")
    #expect(text.components(separatedBy: "DEBUG budget").count == 5, "\(text)")
  }

  /// A manager waits only a moment for a brain to end: `END` in the middle of a move ends it
  /// at once, with no move sent; so does `END` already waiting when the move begins, or behind
  /// hundreds of lines sent during it.
  @Test func endEndsTheBrainAtOnceEvenInTheMiddleOfAMove() throws {
    // Ten seconds for a quiet position of four stones, which the brain thinks over.
    let quiet = "INFO timeout_turn 10000\nSTART 15\nBOARD\n7,7,1\n8,8,2\n6,8,1\n8,6,2\nDONE\n"
    let flood = String(repeating: "ABOUT\n", count: 300)
    // Each script, and what follows it 0.3 s into the move, if anything.
    for (script, during) in [(quiet, "END\n"), (quiet + "END\n", nil), (quiet, flood + "END\n")] {
      let (process, input, output) = try running()
      let sent = ContinuousClock.now
      input.fileHandleForWriting.write(Data(script.utf8))
      if let during {
        Thread.sleep(forTimeInterval: 0.3)
        input.fileHandleForWriting.write(Data(during.utf8))
      }
      let text = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let waited = ContinuousClock.now - sent
      try input.fileHandleForWriting.close()
      #expect(process.terminationStatus == 0)
      #expect(text == "OK\n", "a move or an answer was sent after END: \(text.prefix(200))")
      // Far below the ten seconds of the move, with room for a loaded machine.
      #expect(waited < .seconds(3), "the brain took \(waited) to end")
    }
  }

  @Test func refusesWhatItDoesNotPlayAndEndsAtTheEndOfInput() throws {
    let (lines, status) = try session("INFO rule 1\nSTART 20\nTURN 3,3\n")
    #expect(status == 0)
    #expect(lines.count == 3, "\(lines)")
    #expect(lines[0].hasPrefix("ERROR rule 1 is not supported: "))
    #expect(lines[1].hasPrefix("ERROR unsupported size 20×20"))
    #expect(lines[2] == "ERROR no board yet; send START first")
  }

  @Test func theBrainSaysItsVersionAndNamesItselfInRefusals() throws {
    let version = try session("", arguments: ["--version"])
    #expect(version.status == 0)
    #expect(version.lines.count == 1)
    #expect(version.lines.first == "pbrain-tictactoe 0.1.0")
    let process = Process()
    process.executableURL = brain
    process.arguments = ["--bogus"]
    let error = Pipe()
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(
      said
        == "pbrain-tictactoe: Unknown option --bogus for pbrain-tictactoe; see pbrain-tictactoe "
        + "--help.\n")
  }

  @Test func tictactoePbrainIsTheSameBrain() throws {
    let result = try run("pbrain", input: "ABOUT\nSTART 15\nBEGIN\n")
    #expect(result.status == 0)
    #expect(result.lines.first?.hasPrefix("name=\"pbrain-tictactoe\"") == true)
    #expect(result.lines.last == "7,7")
    let usage = try run("pbrain", "--k", "2")
    #expect(usage.status == 2)
    #expect(usage.error.contains("--k"))
  }
}
