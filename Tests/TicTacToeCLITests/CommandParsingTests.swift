import GameRules
import Testing
import TicTacToeCLI

struct CommandParsingTests {
  @Test func noArgumentsMeansPlay() throws {
    guard case .play(let options) = try Command.parse([]) else {
      Issue.record("expected play")
      return
    }
    #expect(!options.startsGame)
    #expect(!options.plain)
  }

  @Test func playOptionsStartAGame() throws {
    let command = try Command.parse([
      "play", "--computer", "o", "--difficulty=hard", "--size", "7", "--k", "5", "--x", " Ada ",
      "--first", "alternate",
    ])
    guard case .play(let options) = command else {
      Issue.record("expected play")
      return
    }
    #expect(options.startsGame)
    #expect(options.computer == .o)
    #expect(options.difficulty == .hard)
    #expect(options.shape == BoardShape(rows: 7, columns: 7, k: 5))
    #expect(options.xName == "Ada")
    #expect(options.first == .alternate)
  }

  @Test func userSignsInBeforeTheGame() throws {
    guard
      case .play(let options) = try Command.parse([
        "play", "--user", "alice", "--password-stdin", "--code", "123456",
      ])
    else {
      Issue.record("expected play")
      return
    }
    #expect(options.user == "alice")
    #expect(options.passwordFromStandardInput)
    #expect(options.code == "123456")
    #expect(options.startsGame)
    #expect(throws: UsageError("The options --password-stdin and --code go with --user.")) {
      try Command.parse(["play", "--password-stdin"])
    }
  }

  @Test func valuesMayFollowAnEqualsSign() throws {
    #expect(
      try Command.parse(["count", "--rows=3", "--columns=4"])
        == .count(BoardShape(rows: 3, columns: 4, k: 3), json: false))
  }

  @Test(arguments: [
    (["play", "--computer", "maybe"], "The computer plays x, o, both or none, not \"maybe\"."),
    (["analyze", "--k"], "The option --k needs a value."),
    (["count", "--json=yes"], "The option --json takes no value."),
    (["count", "--size", "3", "--size", "4"], "The option --size is given more than once."),
    (["solve", "extra"], "Unexpected argument \"extra\" for solve; see tictactoe solve --help."),
    (["-x"], "Unknown option -x for play; see tictactoe play --help."),
  ])
  func mistakesAreExplained(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try Command.parse(arguments) }
  }
}
