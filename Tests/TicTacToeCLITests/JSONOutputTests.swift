import DatabaseClient
import Foundation
import GameRules
import Testing

@testable import TicTacToeCLI

/// Every `--json` output, parsed strictly: one object a line, no key twice in any object.
@Suite(.serialized)
struct JSONOutputTests {
  /// Parses every line of a run's output strictly, after checking the run succeeded.
  private func objects(_ result: RunResult, _ what: String) throws -> [StrictJSON] {
    #expect(result.status == 0, "\(what): \(result.error)")
    #expect(!result.lines.isEmpty, "\(what) printed nothing")
    return try result.lines.map { line in
      do {
        return try StrictJSON(parsing: line)
      } catch {
        Issue.record("\(what): \(error) in \(line)")
        throw error
      }
    }
  }

  @Test func analyzeAndItsLinesHaveNoKeyTwice() throws {
    let single = try objects(try run("analyze", "x.o/.x./..o", "--json"), "analyze")
    #expect(
      single.first?.keys
        == ["position", "k", "toMove", "outcome", "value", "plies", "moves", "best"])
    let lines = try objects(
      try run("analyze", "-", "--json", input: ".../.../...\nxx./oo./...\nxxx/oo./...\n"),
      "analyze -")
    #expect(lines.count == 3)
    // An estimate on a large board says so once.
    let estimate = try objects(
      try run("analyze", "...../...../..x../...../.....", "--k", "4", "--json"), "analyze 5×5")
    #expect(estimate.first?["value"] != nil)
  }

  @Test func bestMoveHasNoKeyTwice() throws {
    let move = try objects(try run("bestmove", "x.o/.x./...", "--json"), "bestmove")
    #expect(
      move.first?.keys == ["position", "k", "toMove", "difficulty", "cell", "row", "column"])
  }

  @Test func solveSaysExactOnceWhetherProvedOrEstimated() throws {
    let proved = try objects(try run("solve", "--size", "3", "--json"), "solve --size 3")
    #expect(proved.first?["exact"] == .bool(true))
    // 9×9 cannot be solved within the budget: the estimate says exact once, as false.
    let estimated = try objects(try run("solve", "--size", "9", "--json"), "solve --size 9")
    #expect(estimated.first?["exact"] == .bool(false))
    #expect(
      estimated.first?.keys
        == ["rows", "columns", "k", "value", "plies", "exact", "best", "nodes", "seconds"])
  }

  @Test func countHasNoKeyTwice() throws {
    let counts = try objects(try run("count", "--json"), "count")
    #expect(counts.first?["positions"] == .number(5478))
    #expect(counts.first?.keys.count == 12)
  }

  @Test func recordsAndAccountsHaveNoKeyTwice() async throws {
    let database = try TemporaryDatabase()
    try database.createAccount("ada", password: "correct horse")
    let accountID = try #require(
      try StrictJSON(parsing: try database.run("account", "list", "--json").output)
        .objects.first { $0["userName"] == .string("ada") }?["id"])
    guard case .number(let id) = accountID else { throw StrictJSON.Failure(description: "id") }
    try await database.seed([
      try .finished(
        x: PlayerRecord(name: "ada", accountID: Int64(id)),
        o: PlayerRecord(name: "Computer", computer: .easy), moves: "a1 a2 b1 b2 c1",
        endedAt: 1_700_000_000_000),
      try .finished(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: "a1 a2 b1 b2 c1",
        endedAt: 1_700_000_060_000),
    ])
    for arguments in [
      ["account", "list", "--json"], ["stats", "ada", "--json"], ["stats", "--json"],
      ["history", "ada", "--json"], ["history", "--json"],
    ] {
      let parsed = try objects(
        try run(arguments: arguments, environment: database.environment),
        arguments.joined(separator: " "))
      #expect(parsed.count == 1)
    }
    let stats = try objects(try database.run("stats", "ada", "--json"), "stats")
    #expect(stats.first?.keys.prefix(2) == ["user", "games"])
    #expect(stats.first?["recentGames"]?.elements.count == 1)
  }

  @Test func theEncoderRefusesAKeyGivenTwice() {
    struct Twice: Encodable {
      enum CodingKeys: String, CodingKey { case exact }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(false, forKey: .exact)
        try container.encode(false, forKey: .exact)
      }
    }
    #expect(throws: EncodingError.self) { try JSON.encoded(Twice()) }
  }

  @Test func theEncoderKeepsKeyOrderAndEscapesControlCharacters() throws {
    struct Sample: JSONObject {
      var fields: [(key: String, value: (any Encodable)?)] {
        [("zebra", 1), ("apple", "a/b \"q\" \u{1B}[2J"), ("none", String?.none)]
      }
    }
    #expect(
      try JSON.encoded(Sample()) == #"{"zebra":1,"apple":"a/b \"q\" \u001b[2J","none":null}"#)
    struct Twice: JSONObject {
      var fields: [(key: String, value: (any Encodable)?)] { [("exact", false), ("exact", true)] }
    }
    #expect(throws: EncodingError.self) { try JSON.encoded(Twice()) }
  }

  @Test func theStrictParserCatchesADuplicatedKey() {
    #expect(throws: StrictJSON.Failure.self) {
      try StrictJSON(parsing: #"{"exact":false,"exact":false}"#)
    }
    #expect(throws: StrictJSON.Failure.self) { try StrictJSON(parsing: #"{"a":1} x"#) }
  }

  @Test func charactersThatDoNotPrintAreWrittenAsEscapes() throws {
    // A C1 CSI, a direction override, a zero-width space and a tag character (two UTF-16
    // units); an emoji and accents stay as they are.
    let text = "a\u{9B}31m\u{202E}\u{200B}\u{E0041}Zoë😀\u{1B}"
    let quoted = JSON.line(text)
    #expect(quoted == #""a\u009b31m\u202e\u200b\udb40\udc41Zoë😀\u001b""#)
    #expect(quoted.unicodeScalars.allSatisfy { $0.isPrintable })
    let decoded = try JSONDecoder().decode(String.self, from: Data(quoted.utf8))
    #expect(decoded == text)
  }
}
