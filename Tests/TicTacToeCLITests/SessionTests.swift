import DatabaseClient
import DatabaseClientLive
import Foundation
import GameRules
import Synchronization
import Testing

/// The game in progress through the binary: offered before it is replaced, and never overwritten
/// by a second program.
@Suite(.serialized)
struct SessionTests {
  /// A game in progress in plain mode whose input stays open until the test closes it.
  final class OpenGame: Sendable {
    let process = Process()
    private let input = Pipe()
    private let said = Said()

    /// The output so far, shared with the pipe's reader.
    private final class Said: Sendable {
      let text = Mutex("")
    }

    init(_ arguments: [String], environment: [String: String]) throws {
      process.executableURL = executable
      process.arguments = arguments
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      process.standardInput = input
      output.fileHandleForReading.readabilityHandler = { [said] handle in
        let data = handle.availableData
        said.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
      }
      try process.run()
    }

    /// What the game said so far.
    var output: String { said.text.withLock { $0 } }

    func type(_ line: String) {
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits up to ten seconds for `text` in the output.
    func waitFor(_ text: String) async throws {
      for _ in 0..<200 where !output.contains(text) {
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(output.contains(text), "never said \(text): \(output)")
    }

    func end() {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
  }

  private func gameInProgress(_ database: TemporaryDatabase) async throws -> GameRecord? {
    try await DatabaseClient.live(database: try LocalDatabase(path: database.path))
      .loadGameInProgress(.guest)
  }

  @Test func aSavedGameIsOfferedAndNotReplacedWithoutAChoice() async throws {
    let database = try TemporaryDatabase()
    let first = try database.run(
      "play", "--plain", "--computer", "none", "--x", "Ann", "--o", "Bob", input: "b2\na1\n")
    #expect(first.status == 0)
    #expect(first.lines.last == "Input ended; the unfinished game is saved.")
    let second = try database.run("play", "--plain", "--computer", "o", input: "c3\n")
    #expect(second.status == 0, "\(second.error)")
    #expect(
      second.lines.first
        == "Resume Ann vs Bob (2 moves played)? Type resume, or new to start a new game instead.")
    #expect(!second.output.contains("X plays c3."))
    let kept = try #require(try await gameInProgress(database))
    #expect(kept.x.name == "Ann")
    #expect(kept.moves.map(\.name) == ["b2", "a1"])
    // Choosing a new game replaces it, with the first move of the new one.
    let replaced = try database.run("play", "--plain", "--computer", "o", input: "new\nc3\n")
    #expect(replaced.output.contains("X plays c3."))
    #expect(try await gameInProgress(database)?.x.name == "Player X")
  }

  @Test func aSecondProgramIsRefusedAndTheFirstKeepsEveryMove() async throws {
    let database = try TemporaryDatabase()
    let first = try OpenGame(
      ["play", "--plain", "--computer", "none", "--x", "Ann", "--o", "Bob"],
      environment: database.environment)
    try await first.waitFor("Ann, place your X")
    first.type("b2")
    try await first.waitFor("X plays b2.")
    let second = try database.run(
      "play", "--plain", "--computer", "none", "--x", "Cid", "--o", "Dee", input: "a1\n")
    #expect(second.status == 1)
    #expect(
      second.error
        == "tictactoe: Another Tic-Tac-Toe holds this player's games just now (signed in as them, "
        + "or playing as the guest); sign out of it or close it first.\n")
    #expect(second.output.isEmpty)
    first.type("a1")
    try await first.waitFor("O plays a1.")
    first.end()
    #expect(first.process.terminationStatus == 0)
    let kept = try #require(try await gameInProgress(database))
    #expect(kept.x.name == "Ann")
    #expect(kept.moves.map(\.name) == ["b2", "a1"])
  }

  @Test func anOverlongLineIsSkippedAndTheNextLineStillPlays() throws {
    let database = try TemporaryDatabase()
    // Two megabytes without a newline, then a line that is "b2" only in its first bytes.
    let huge = String(repeating: "a", count: 2_000_000)
    let padded = "b2" + String(repeating: " ", count: 5_000) + "x"
    let result = try database.run(
      "play", "--plain", "--computer", "none", input: huge + "\n" + padded + "\nc3\n")
    #expect(result.status == 0, "\(result.error)")
    let skipped = result.lines.filter { $0.contains("longer") || $0.hasPrefix("Unknown") }
    #expect(
      skipped
        == Array(
          repeating: "The line is longer than 4096 bytes, more than any command; it was skipped.",
          count: 2), "\(result.lines)")
    #expect(!result.lines.contains("X plays b2."))
    #expect(result.lines.contains("X plays c3."))
  }

  @Test func theDemoPlaysToTheEndWhateverTheInput() throws {
    let database = try TemporaryDatabase()
    let demo = try database.run("play", "--plain", "--computer", "both")
    #expect(demo.status == 0, "\(demo.error)")
    #expect(
      demo.lines.contains {
        $0 == "Tied game." || $0.hasPrefix("X wins with") || $0.hasPrefix("O wins with")
      })
  }
}
