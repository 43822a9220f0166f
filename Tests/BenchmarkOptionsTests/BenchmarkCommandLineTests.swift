import BenchmarkOptions
import Testing

struct BenchmarkCommandLineTests {
  private let commandLine = BenchmarkCommandLine(
    program: "tictactoe-load",
    introduction: "The game server under load.",
    options: [
      BenchmarkOption(
        "--games", .number(atLeast: 0, placeholder: "N"), summary: "games played at once"),
      BenchmarkOption(
        "--solve", .text(placeholder: "ROWSxCOLUMNS:K", takes: "ROWSxCOLUMNS:K"),
        summary: "time one solve"),
      BenchmarkOption("--deep", summary: "more games"),
    ])

  /// The sentence refusing `arguments`, or `nil` when they are taken.
  private func refusal(_ arguments: String...) -> String? {
    refusal(arguments: arguments)
  }

  private func refusal(arguments: [String]) -> String? {
    do {
      _ = try commandLine.parse(arguments)
      return nil
    } catch {
      return commandLine.sentence(for: error)
    }
  }

  @Test func numbersTextAndSwitchesAreRead() throws {
    let request = try commandLine.parse(["--games", "0", "--deep", "--solve", "5x5:4"])
    guard case .run(let options) = request else {
      Issue.record("\(request)")
      return
    }
    #expect(options.number("--games") == 0)
    #expect(options.values["--solve"] == "5x5:4")
    #expect(options.has("--deep"))
    #expect(!options.has("--games"))
  }

  @Test func noArgumentsRunWithTheDefaults() throws {
    #expect(try commandLine.parse([]) == .run(ParsedBenchmarkOptions()))
  }

  @Test func helpIsAskedForByEitherSpellingAnywhere() throws {
    #expect(try commandLine.parse(["--help"]) == .help)
    #expect(try commandLine.parse(["-h"]) == .help)
    #expect(try commandLine.parse(["--games", "5", "--help"]) == .help)
  }

  @Test func helpListsEveryOption() {
    let help = commandLine.help
    #expect(help.hasPrefix("The game server under load.\n\nOptions:\n"))
    #expect(help.contains("  --games N               games played at once\n"))
    #expect(help.contains("  --solve ROWSxCOLUMNS:K  time one solve\n"))
    #expect(help.contains("  --deep                  more games\n"))
    #expect(help.hasSuffix("  --help, -h              show this text\n"))
  }

  @Test func anUnknownOptionIsNamedAndPointsToHelp() {
    #expect(
      refusal("--frobnicate")
        == "unknown option --frobnicate; run tictactoe-load --help for the options.")
    #expect(
      refusal("5") == "unknown option 5; run tictactoe-load --help for the options.")
  }

  @Test func anEmptyArgumentIsNamedVisibly() {
    #expect(
      refusal("--deep", "")
        == "unknown option \"\" (an empty argument); run tictactoe-load --help for the options.")
  }

  @Test func anUnknownOptionIsQuotedWithoutControlCharactersOrItsWholeLength() throws {
    let hostile = try #require(refusal("--x\u{1B}[2J\u{9B}"))
    #expect(hostile.hasPrefix("unknown option --x\\u{1B}[2J\\u{9B};"))
    let long = try #require(refusal("--" + String(repeating: "a", count: 100_000)))
    #expect(long.count < 200)
  }

  @Test func aValueAfterEqualsIsRefused() {
    #expect(refusal("--games=5") == "--games takes its value as the next argument, not after =.")
    #expect(refusal("--deep=1") == "--deep takes no value.")
  }

  @Test func aMissingOrBadNumberSaysWhatTheOptionTakes() {
    let usage = "--games takes a whole number of at least 0."
    for arguments in [["--games"], ["--games", "-5"], ["--games", "abc"], ["--games", "1e3"]] {
      #expect(refusal(arguments: arguments) == usage, "\(arguments)")
    }
    #expect(refusal("--solve") == "--solve takes ROWSxCOLUMNS:K.")
    #expect(refusal("--solve", "") == "--solve takes ROWSxCOLUMNS:K.")
  }

  @Test func anOptionGivenTwiceIsRefused() {
    #expect(refusal("--deep", "--deep") == "--deep is given twice; give it once.")
    #expect(refusal("--games", "1", "--games", "2") == "--games is given twice; give it once.")
  }
}
