import Foundation
import Testing

struct AnalysisCommandTests {
  @Test func analyzeJSONMatchesTheContract() throws {
    let result = try run("analyze", "x.o/.x./..o", "--json")
    #expect(result.status == 0)
    #expect(result.error.isEmpty)
    #expect(result.lines.count == 1)
    let json = try result.json()
    #expect(json["position"] as? String == "x.o/.x./..o")
    #expect(json["k"] as? Int == 3)
    #expect(json["toMove"] as? String == "x")
    #expect(json["outcome"] as? String == "inProgress")
    // O threatens c2; X must block it, and the game is then a draw after five more plies.
    #expect(json["value"] as? String == "draw")
    #expect(json["plies"] as? Int == 5)
    let moves = try #require(json["moves"] as? [[String: Any]])
    #expect(moves.map { $0["cell"] as? String } == ["b1", "a2", "c2", "a3", "b3"])
    let b1 = try #require(moves.first)
    #expect(b1["row"] as? Int == 1)
    #expect(b1["column"] as? Int == 2)
    #expect(b1["value"] as? String == "loss")
    #expect(b1["plies"] as? Int == 2)
    #expect(json["best"] as? [String] == ["c2"])
    #expect(result.output.hasPrefix("{\"position\":\"x.o/.x./..o\",\"k\":3,\"toMove\":\"x\""))
  }

  @Test func analyzeFinishedPositionHasNoMoves() throws {
    let json = try run("analyze", "XXX/OO./...", "--json").json()
    #expect(json["outcome"] as? String == "xWins")
    #expect(json["plies"] as? Int == 0)
    #expect(json["value"] as? String == "loss")
    #expect((json["moves"] as? [Any])?.isEmpty == true)
  }

  @Test func analyzeEmptyBoardIsADraw() throws {
    let json = try run("analyze", ".../.../...", "--json").json()
    #expect(json["value"] as? String == "draw")
    #expect(json["plies"] as? Int == 9)
    #expect((json["best"] as? [String])?.count == 9)
  }

  @Test func analyzeTextSaysTheValue() throws {
    let result = try run("analyze", "xx./oo./...")
    #expect(result.status == 0)
    #expect(result.output.contains("X to move: win in 1."))
    #expect(result.output.contains("Best: c1."))
  }

  @Test func analyzeReadsOnePositionALineFromStandardInput() throws {
    let result = try run(
      "analyze", "-", "--json", input: "x.o/.x./..o\n\n.../.../...\nxxx/xxx/xxx\nxx./oo./...\n")
    #expect(result.status == 2)
    #expect(result.lines.count == 4)
    // The bad line's result stands in its place, so that results match positions.
    #expect(result.lines[2].hasPrefix(#"{"line":4,"error":"#))
    #expect(result.lines[3].hasPrefix(#"{"position":"xx./oo./...""#))
    #expect(result.error.contains("line 4:"))
    #expect(result.error.split(separator: "\n").count == 1)
    let text = try run("analyze", "-", input: "x.o/.x./..o\nxxx/xxx/xxx\n.../.../...\n")
    #expect(text.lines.count == 2)
    #expect(text.error.contains("line 2:"))
  }

  @Test(arguments: [
    ["analyze", "xxx/.../..."],
    ["analyze", "x.o/.x/..o"],
    ["analyze", "abc"],
    ["analyze"],
    ["analyze", "x../.../...", "--k", "4"],
    ["analyze", "x../.../...", "--depth", "3"],
    ["bestmove", "xxx/oo./..."],
    ["solve", "--size", "16"],
    ["count", "--size", "3", "--rows", "4"],
    ["count", "--k", "nine"],
    ["frobnicate"],
  ])
  func badInputExitsTwoWithOneSentence(arguments: [String]) throws {
    let result = try run(arguments: arguments)
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    let lines = result.error.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(result.error.hasPrefix("tictactoe: "))
    #expect(!result.error.contains("Fatal"))
  }

  @Test func bestMoveWinsWhenItCan() throws {
    let result = try run("bestmove", "xx./oo./...")
    #expect(result.status == 0)
    #expect(result.output == "c1\n")
  }

  @Test func bestMoveWithASeedIsReproducible() throws {
    let first = try run("bestmove", ".../.../...", "--difficulty", "easy", "--seed", "7")
    let second = try run("bestmove", ".../.../...", "--difficulty", "easy", "--seed", "7")
    #expect(first.status == 0)
    #expect(first.output == second.output)
  }

  @Test func bestMoveJSONNamesTheCell() throws {
    let json = try run("bestmove", "xx./oo./...", "--json").json()
    #expect(json["cell"] as? String == "c1")
    #expect(json["row"] as? Int == 1)
    #expect(json["column"] as? Int == 3)
  }

  @Test func solveClassicBoardIsADraw() throws {
    let result = try run("solve")
    #expect(result.status == 0)
    #expect(result.output.contains("3×3, k = 3: a draw with perfect play."))
    let json = try run("solve", "--rows", "3", "--columns", "4", "--json").json()
    #expect(json["value"] as? String == "win")
    #expect(json["exact"] as? Bool == true)
  }

  @Test(arguments: [
    (["--size", "3"], "draw"), (["--rows", "3", "--columns", "4", "--k", "3"], "win"),
    (["--size", "4", "--k", "3"], "win"), (["--size", "4", "--k", "4"], "draw"),
  ])
  func solveValueAgreesWithTheFullSolve(shape: [String], value: String) throws {
    let full = try run(arguments: ["solve"] + shape + ["--json"]).json()
    let proved = try run(arguments: ["solve"] + shape + ["--value", "--json"]).json()
    #expect(full["value"] as? String == value)
    #expect(proved["value"] as? String == value)
    #expect(proved["valueOnly"] as? Bool == true)
    #expect(proved["best"] == nil, "the first moves are not settled")
    let text = try run(arguments: ["solve"] + shape + ["--value"])
    #expect(text.status == 0)
    let word = value == "win" ? "a first-player win" : "a draw"
    #expect(text.output.contains(word), "\(text.output)")
  }

  @Test func solveValueRefusesBoardsPast64Cells() throws {
    let result = try run("solve", "--size", "9", "--value")
    #expect(result.status == 2)
    #expect(
      result.error == "tictactoe: solve --value proves boards of up to 64 cells; 9×9 has 81.\n")
    #expect(result.output.isEmpty)
  }

  @Test func countKnowsTheClassicFigures() throws {
    let json = try run("count", "--json").json()
    #expect(json["positions"] as? Int == 5_478)
    #expect(json["terminalPositions"] as? Int == 958)
    #expect(json["xWinPositions"] as? Int == 626)
    #expect(json["oWinPositions"] as? Int == 316)
    #expect(json["drawPositions"] as? Int == 16)
    #expect(json["games"] as? Int == 255_168)
    #expect(json["xWinGames"] as? Int == 131_184)
    #expect(json["oWinGames"] as? Int == 77_904)
    #expect(json["drawGames"] as? Int == 46_080)
  }

  @Test func countRefusesBoardsTooLargeToEnumerate() throws {
    let result = try run("count", "--size", "9")
    #expect(result.status == 2)
    #expect(result.error.split(separator: "\n").count == 1)
  }

  /// A large board's forced wins are given as "at most" their length.
  ///
  /// On 9×9 with three in a row the first player wins in 5 plies, as on 8×8, which is solved to
  /// the end. The larger board's search finds forced wins without showing that none is faster,
  /// so it never claims a length of perfect play it has not proven.
  @Test func aWinFoundOnALargeBoardIsGivenAsAtMostItsLength() throws {
    let small = try run("solve", "--size", "8", "--k", "3")
    #expect(small.lines.first == "8×8, k = 3: a first-player win in 5 plies with perfect play.")
    let large = try run("solve", "--size", "9", "--k", "3", "--json")
    #expect(large.status == 0)
    let fields = try #require(
      try JSONSerialization.jsonObject(with: Data(large.output.utf8)) as? [String: Any])
    #expect(fields["value"] as? String == "win")
    #expect(fields["exact"] as? Bool == true)
    #expect(fields["fastest"] as? Bool == false)
    #expect((fields["plies"] as? Int).map { $0 >= 5 } == true)
    // O answers in the corner: X still wins, and no move's length is stated as exact past two
    // plies; the best moves are the wins, the shortest line first.
    let position =
      "o......../........./........./........./....x..../........./........./"
      + "........./........."
    let analysis = try run("analyze", position, "--k", "3")
    #expect(analysis.status == 0)
    let moves = try #require(analysis.lines.first { $0.hasPrefix("Moves: ") })
    for entry in moves.dropFirst("Moves: ".count).split(separator: ", ") {
      let words = entry.split(separator: " ")
      let plies = Int(words.last ?? "") ?? 0
      #expect(plies <= 2 || entry.contains(" in at most "), "\(entry)")
    }
    let best = try #require(analysis.lines.last { $0.hasPrefix("Best: ") })
    let first = try #require(best.dropFirst("Best: ".count).split(separator: ",").first)
    #expect(moves.contains("\(first) win in at most 3"), "\(best) \(moves)")
  }

  @Test func helpLeadsWithExamples() throws {
    for arguments in [["--help"], ["analyze", "--help"], ["solve", "-h"], ["count", "--help"]] {
      let result = try run(arguments: arguments)
      #expect(result.status == 0)
      let firstLines = result.lines.prefix(4).joined(separator: "\n")
      #expect(firstLines.contains("Examples:"), "\(arguments)")
    }
  }

  @Test func versionIsPrinted() throws {
    let result = try run("--version")
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("tictactoe "))
  }
}
