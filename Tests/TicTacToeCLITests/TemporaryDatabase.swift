import Crypto
import DatabaseClient
import DatabaseClientLive
import Foundation
import GameRules
import Testing

/// A private folder holding one test's database, removed when the value is released.
final class TemporaryDatabase {
  /// The folder.
  let folder: URL

  /// The database file inside it (created by the first command that opens it).
  let path: String

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tictactoe-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    path = folder.appendingPathComponent("tictactoe.sqlite").path
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// The environment that points the binary at this database with cheap password hashing.
  var environment: [String: String] {
    ["TICTACTOE_DATABASE": path, "TICTACTOE_PASSWORD_COST": "test"]
  }

  /// Runs the binary against this database.
  func run(_ arguments: String..., input: String = "") throws -> RunResult {
    try run(arguments: arguments, input: input)
  }

  /// Runs the binary against this database with an array of arguments.
  func run(arguments: [String], input: String = "") throws -> RunResult {
    try TicTacToeCLITests.run(arguments: arguments, input: input, environment: environment)
  }

  /// Creates an account through the binary and returns its id.
  @discardableResult
  func createAccount(_ user: String, password: String) throws -> Int64 {
    let created = try run("account", "create", user, "--password-stdin", input: password + "\n")
    #expect(created.status == 0, "account create: \(created.error)")
    let accounts = try #require(try run("account", "list", "--json").json()["accounts"] as? [Any])
    let account = try #require(
      accounts.compactMap { $0 as? [String: Any] }.first { $0["userName"] as? String == user })
    return try #require(account["id"] as? Int64 ?? (account["id"] as? Int).map(Int64.init))
  }

  /// Saves finished games straight through the live records client, as the game would.
  ///
  /// - Returns: The games' ids in order.
  @discardableResult
  func seed(_ records: [GameRecord]) async throws -> [Int64] {
    let client = DatabaseClient.live(database: try LocalDatabase(path: path))
    var ids: [Int64] = []
    for record in records { ids.append(try await client.saveFinishedGame(record)) }
    return ids
  }

  /// Runs `account 2fa-enable USER --password-stdin`, answering the secret it prints with the
  /// current TOTP code, or with `codeFor` applied to the secret.
  func enableTwoFactor(
    _ user: String, password: String,
    codeFor: ([UInt8]) -> String = { OneTimePassword.totp(secret: $0, unixTime: unixTime()) }
  ) throws -> (result: RunResult, secret: [UInt8]) {
    let process = Process()
    process.executableURL = executable
    process.arguments = ["account", "2fa-enable", user, "--password-stdin"]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(Data((password + "\n").utf8))
    // The secret and URI must arrive while the program waits for the code: a program that
    // buffered them would hang here until the test times out.
    var printed = Data()
    while printed.split(separator: UInt8(ascii: "\n")).count < 2 {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      printed.append(chunk)
    }
    let text = String(decoding: printed, as: UTF8.self)
    let secretLine = text.split(separator: "\n").first { $0.hasPrefix("Secret: ") }
    let secretText = secretLine.map { String($0.dropFirst("Secret: ".count)) } ?? ""
    let secret = (try? Base32.decode(secretText)) ?? []
    input.fileHandleForWriting.write(Data((codeFor(secret) + "\n").utf8))
    try input.fileHandleForWriting.close()
    printed.append(output.fileHandleForReading.readDataToEndOfFile())
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let result = RunResult(
      status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
    #expect(secret.count == 20, "2fa-enable printed: \(result.output) \(result.error)")
    return (result, secret)
  }
}

/// The current Unix time in seconds.
func unixTime() -> Int64 { Int64(Date().timeIntervalSince1970) }

/// The recovery codes in a 2fa-enable run's output.
func recoveryCodes(in output: String) -> [String] {
  output.split(separator: "\n").map(String.init).filter { line in
    line.count == 11 && line.split(separator: "-").map(\.count) == [5, 5]
  }
}

extension GameRecord {
  /// A finished 3×3 game from its moves by name; the result follows from the moves.
  static func finished(
    x: PlayerRecord, o: PlayerRecord, moves: String, endedAt: Timestamp
  ) throws -> GameRecord {
    let cells = try moves.split(separator: " ").map { try #require(Cell(name: $0)) }
    let board = try Game(start: .classic, moves: cells).board
    let result: GameResult =
      switch board.outcome {
      case .win(.x, _): .xWins
      case .win(.o, _): .oWins
      default: .draw
      }
    #expect(board.outcome.isOver, "the moves \(moves) do not finish the game")
    return GameRecord(
      x: x, o: o, moves: cells, result: result,
      startedAt: endedAt >= .min + 60_000 ? endedAt - 60_000 : endedAt, endedAt: endedAt)
  }
}
