import AppCore
import GameCore
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

  @Test func aCommandAfterItsOptionsIsToldToComeFirst() throws {
    #expect(
      throws: UsageError(
        "The command stats comes first and its options after it, as in tictactoe stats --help.")
    ) { try Command.parse(["--database", "games.db", "stats"]) }
    // A player named like a command is a name, not a command.
    guard case .play(let options) = try Command.parse(["--x", "stats", "--computer", "none"])
    else {
      Issue.record("expected play")
      return
    }
    #expect(options.request.xName == "stats")
  }

  @Test func afterADoubleDashHelpAndVersionAreArguments() throws {
    #expect(
      throws: UsageError(
        "A game id is a whole number from 1 to 9223372036854775807, not \"--version\".")
    ) {
      try Command.parse(["replay", "--", "--version"])
    }
    #expect(try Command.parse(["replay", "--version"]) == .version)
    guard case .analyze(let position, _, _) = try Command.parse(["analyze", "--", "--help"]) else {
      Issue.record("expected analyze")
      return
    }
    #expect(position == "--help")
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
    #expect(
      options.request
        == GameRequest(
          xName: "Ada", mode: .versusComputer, computerMark: .o, difficulty: .hard, rows: 7,
          columns: 7, k: 5, startingRule: .alternate))
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

  /// The user signed in with --user keeps a side under their name: the game is counted as theirs.
  @Test func theUserSignedInKeepsASideUnderTheirName() throws {
    let one =
      "The player signed in with --user plays under that name; leave out --x, or give it the "
      + "name \"alice\"."
    #expect(throws: UsageError(one)) {
      try Command.parse(["play", "--user", "alice", "--x", "Bob"])
    }
    #expect(
      throws: UsageError(
        "The player signed in with --user plays under that name; leave out --o, or give it the "
          + "name \"alice\".")
    ) {
      try Command.parse(["play", "--user", "alice", "--o", "Bob", "--computer", "x"])
    }
    #expect(
      throws: UsageError(
        "The player signed in with --user plays under that name; leave out --x and --o, or give "
          + "one of them the name \"alice\".")
    ) {
      try Command.parse([
        "play", "--user", "alice", "--x", "Bob", "--o", "Cy", "--computer", "none",
      ])
    }
    for allowed in [
      ["--x", "ALICE"], ["--o", "Bob"], ["--x", "Bob", "--computer", "x"],
      ["--x", "Bob", "--o", "alice", "--computer", "none"], ["--x", "Bob", "--computer", "both"],
    ] {
      #expect(throws: Never.self, "\(allowed)") {
        try Command.parse(["play", "--user", "alice"] + allowed)
      }
    }
  }

  /// Two people under one name (the same but for case and spaces around it) would share
  /// their records: refused, signed in or not; a computer may bear a person's name.
  @Test func twoPeopleNeedDifferentNames() throws {
    for arguments in [
      ["--x", "Ann", "--o", " ann", "--computer", "none"],
      ["--user", "alice", "--x", "alice", "--o", "ALICE", "--computer", "none"],
    ] {
      let name = arguments[arguments.firstIndex(of: "--x")! + 1]
      #expect(throws: UsageError("X and O need different names; both are \(name).")) {
        try Command.parse(["play"] + arguments)
      }
    }
    #expect(throws: Never.self) {
      try Command.parse(["play", "--x", "Ann", "--o", "Ann", "--computer", "o"])
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
    (["count", "--json", "--json"], "The option --json is given more than once."),
    (["solve", "extra"], "Unexpected argument \"extra\" for solve; see tictactoe solve --help."),
    (["-x"], "Unknown option -x for play; see tictactoe play --help."),
    // A negative number is a value, refused as one.
    (["replay", "-1"], "A game id is a whole number from 1 to 9223372036854775807, not \"-1\"."),
    (["play", "--rows", "3"], "Give both --rows and --columns, or --size for a square board."),
    (["count", "--columns", "4"], "Give both --rows and --columns, or --size for a square board."),
    (["play", "--database", ""], "The option --database needs a value, not an empty one."),
    (
      ["analyze", "x/x/x", "--k", "2"],
      "The option --k needs a whole number from 3 to 15, not \"2\"."
    ),
    (["count", "--k", "99"], "The option --k needs a whole number from 3 to 15, not \"99\"."),
    (["count", "--k", "9"], "k = 9 does not fit a 3×3 board; it must be 3."),
    (
      ["bestmove", "...", "--time", "0x10"],
      "The time must be a decimal number of seconds above 0 and up to 3600, such as 0.5, not \"0x10\"."
    ),
    (
      ["gtp", "--time", "1e-3"],
      "The time must be a decimal number of seconds above 0 and up to 3600, such as 0.5, not \"1e-3\"."
    ),
    (
      ["gtp", "--time", "nan"],
      "The time must be a decimal number of seconds above 0 and up to 3600, such as 0.5, not \"nan\"."
    ),
  ])
  func mistakesAreExplained(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try Command.parse(arguments) }
  }

  @Test(arguments: [
    (["--bogus"], "Unknown option --bogus for tictactoe-gtk; see tictactoe-gtk --help."),
    (["-x"], "Unknown option -x for tictactoe-gtk; see tictactoe-gtk --help."),
    (["extra"], "Unexpected argument \"extra\" for tictactoe-gtk; see tictactoe-gtk --help."),
    (["--computer", "maybe"], "The computer plays x, o, both or none, not \"maybe\"."),
    (["--plain"], "The option --plain is for tictactoe play in a terminal."),
    (
      ["--size", "4", "--no-color"],
      "The option --no-color is for tictactoe play in a terminal."
    ),
    (
      ["--server", "example.org"],
      "The option --server is for tictactoe play; tictactoe-gtk plays online from its Sign in and "
        + "New game screens."
    ),
    (
      ["--user", "ann", "--join", "ABC234"],
      "The option --join is for tictactoe play; tictactoe-gtk plays online from its Sign in and "
        + "New game screens."
    ),
    (
      ["--new"],
      "The option --new is for tictactoe play; tictactoe-gtk plays online from its Sign in and "
        + "New game screens."
    ),
    // A database needs its path.
    (["--database"], "The option --database needs a value."),
    // A name that reads like an option is a name.
    (
      ["--x", "--plain", "--computer", "maybe"],
      "The computer plays x, o, both or none, not \"maybe\"."
    ),
  ])
  func anotherProgramTakingPlayOptionsIsNamedInItsMistakes(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) {
      try Command.parsePlayOptions(arguments, for: "tictactoe-gtk")
    }
  }

  @Test func anotherProgramReadsPlayOptionsAsPlayDoes() throws {
    let arguments = ["--size", "4", "--computer", "none", "--x", "Ann"]
    guard case .play(let options) = try Command.parse(["play"] + arguments) else {
      Issue.record("expected play")
      return
    }
    #expect(try Command.parsePlayOptions(arguments, for: "tictactoe-gtk").options == options)
    #expect(try Command.parsePlayOptions(arguments, for: "tictactoe-gtk").database == nil)
    let database = try Command.parsePlayOptions(
      ["--database", "games.db"], for: "tictactoe-gtk")
    #expect(database.database == "games.db")
    #expect(!database.options.startsGame)
  }

  @Test func timesAreDecimalSeconds() throws {
    #expect(
      try Command.parse(["gtp", "--time", "0.25"]) == Command.parse(["gtp", "--time", ".25"]))
    #expect(try Command.parse(["gtp", "--time", "2"]) != Command.parse(["gtp", "--time", "0.25"]))
  }

  @Test func aHugeArgumentIsNotEchoedWhole() {
    let huge = String(repeating: "\u{1B}[2J", count: 25_000)
    for arguments in [
      [huge], ["play", "--computer", huge], ["count", "--size", huge], ["--" + huge],
    ] {
      do {
        _ = try Command.parse(arguments)
        Issue.record("\(arguments.count) arguments were accepted")
      } catch {
        #expect(error.message.count < 200)
        #expect(!error.message.unicodeScalars.contains("\u{1B}"))
      }
    }
  }
}
