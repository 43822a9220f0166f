import GameRules

/// What an option takes, or what stands in a positional place.
///
/// The parser reads the option names from here; the shell completions read names and values.
public enum ValueSyntax: Equatable, Sendable {
  /// One of these words.
  case choice([String])
  /// A whole number in this range.
  case integer(ClosedRange<Int>)
  /// A path to a file.
  case file
  /// Free text, shown as this placeholder (`NAME`, `SECONDS`).
  case text(String)
}

/// One `--option` of a subcommand.
public struct OptionSyntax: Equatable, Sendable {
  /// The name without the leading dashes.
  public var name: String
  /// What follows the option, or `nil` for a flag.
  public var value: ValueSyntax?
  /// What it does, in a few words.
  public var summary: String
  /// Whether it is spelled with one dash (`-h`), not two.
  public var isShort = false

  /// `--name`, or `-h` for a short option.
  public var spelling: String { (isShort ? "-" : "--") + name }
}

/// One subcommand: its name, options and positional values.
public struct CommandSyntax: Equatable, Sendable {
  /// The word that selects it (`play`, `analyze`).
  public var name: String
  /// What it does, in a few words.
  public var summary: String
  /// Its own options, without the common ones.
  public var ownOptions: [OptionSyntax]
  /// The positional values it takes, in order.
  public var positionals: [ValueSyntax]
  /// The options it shares with the other subcommands: ``Syntax/commonOptions``, less any it
  /// refuses (a window has no colour option).
  public var commonOptions = Syntax.commonOptions

  /// Every option it accepts: its own, then the common ones, then help and version.
  public var options: [OptionSyntax] { ownOptions + commonOptions + Syntax.globalOptions }

  /// The names of the options that take a value, as the parser wants them.
  var valued: Set<String> {
    Set((ownOptions + commonOptions).filter { $0.value != nil }.map(\.name))
  }

  /// The names of the flags, as the parser wants them.
  var flags: Set<String> {
    Set((ownOptions + commonOptions).filter { $0.value == nil }.map(\.name))
  }
}

/// The command line's grammar, declared once: the parser and the shell completions use it.
public enum Syntax {
  /// Options every subcommand takes.
  public static let commonOptions = [
    OptionSyntax(name: "database", value: .file, summary: "the database file"),
    OptionSyntax(name: "no-color", summary: "no colours"),
  ]

  /// Options that print a text instead of running the subcommand.
  public static let globalOptions = [
    OptionSyntax(name: "help", summary: "show help"),
    OptionSyntax(name: "h", summary: "show help", isShort: true),
    OptionSyntax(name: "version", summary: "show the version"),
  ]

  private static let side = Board.minimumSide...Board.maximumSide
  private static let k = OptionSyntax(
    name: "k", value: .integer(side), summary: "marks in a row to win")
  private static let json = OptionSyntax(name: "json", summary: "print JSON")
  private static let difficulty = OptionSyntax(
    name: "difficulty", value: .choice(Difficulty.named.map(\.name)),
    summary: "the computer's strength")
  private static let time = OptionSyntax(
    name: "time", value: .text("SECONDS"), summary: "thinking time per move")
  private static let passwordStdin = OptionSyntax(
    name: "password-stdin", summary: "read passwords from standard input")
  private static let code = OptionSyntax(
    name: "code", value: .text("CODE"), summary: "the two-factor or recovery code")
  private static let shape = [
    OptionSyntax(name: "size", value: .integer(side), summary: "an N×N board"),
    OptionSyntax(name: "rows", value: .integer(side), summary: "rows of the board"),
    OptionSyntax(name: "columns", value: .integer(side), summary: "columns of the board"),
    k,
  ]
  private static let online = [
    OptionSyntax(
      name: "server", value: .text("HOST[:PORT]"),
      summary: "the game server (default: this computer)"),
    OptionSyntax(
      name: "server-fingerprint", value: .text("SHA256:HEX"),
      summary: "the server's certificate to trust"),
  ]
  private static let position = ValueSyntax.text("POSITION")
  private static let user = ValueSyntax.text("USER")

  /// `tictactoe play`, also the options of `tictactoe-gtk`.
  public static let play = CommandSyntax(
    name: "play", summary: "play a game (the default)",
    ownOptions: [
      OptionSyntax(name: "plain", summary: "line by line text")
    ] + shape + [
      OptionSyntax(name: "x", value: .text("NAME"), summary: "X's name"),
      OptionSyntax(name: "o", value: .text("NAME"), summary: "O's name"),
      OptionSyntax(
        name: "computer", value: .choice(Command.computerSides.map(\.word)),
        summary: "the side the computer plays"),
      difficulty,
      OptionSyntax(
        name: "first", value: .choice(Command.startingRules.map(\.word)),
        summary: "who starts each game"),
      time,
      OptionSyntax(name: "user", value: .text("USER"), summary: "sign in first as USER"),
      passwordStdin,
      code,
    ] + online + [
      OptionSyntax(name: "new", summary: "create an online game with the game options"),
      OptionSyntax(name: "join", value: .text("CODE"), summary: "join the online game CODE"),
      OptionSyntax(name: "watch", value: .text("CODE"), summary: "watch the online game CODE"),
    ],
    positionals: [])

  /// Every subcommand, in the order help lists them.
  public static let commands = [
    play,
    CommandSyntax(
      name: "analyze", summary: "the value of a position and its moves",
      ownOptions: [k, json], positionals: [position]),
    CommandSyntax(
      name: "bestmove", summary: "the engine's move for a position",
      ownOptions: [
        k, difficulty, OptionSyntax(name: "seed", value: .text("N"), summary: "a random seed"),
        time, json,
      ],
      positionals: [position]),
    CommandSyntax(
      name: "solve", summary: "the value of an empty board",
      ownOptions: shape + [
        OptionSyntax(
          name: "value", summary: "only whether the first player wins, not each first move"),
        json,
      ],
      positionals: []),
    CommandSyntax(
      name: "count", summary: "reachable positions and games", ownOptions: shape + [json],
      positionals: []),
    CommandSyntax(
      name: "gtp", summary: "the engine over the Go Text Protocol",
      ownOptions: [k, difficulty, time], positionals: []),
    CommandSyntax(
      name: "pbrain", summary: "the engine as a Gomocup (Piskvork) brain",
      ownOptions: [k, difficulty, time], positionals: []),
    CommandSyntax(
      name: "account", summary: "create, list and change accounts",
      ownOptions: [passwordStdin, code, json] + online,
      positionals: [.choice(AccountAction.allCases.map(\.rawValue)), user]),
    CommandSyntax(
      name: "login", summary: "check a password and code",
      ownOptions: [code, passwordStdin] + online,
      positionals: [user]),
    CommandSyntax(
      name: "stats", summary: "wins, losses, draws and streaks",
      ownOptions: [
        json, OptionSyntax(name: "reset", summary: "delete the finished games"),
        OptionSyntax(name: "yes", summary: "confirm --reset"), passwordStdin, code,
      ] + online,
      positionals: [user]),
    CommandSyntax(
      name: "history", summary: "finished games", ownOptions: [json] + online,
      positionals: [user]),
    CommandSyntax(
      name: "replay", summary: "a finished game move by move", ownOptions: online,
      positionals: [.text("GAME")]),
    CommandSyntax(
      name: "serve", summary: "run a game server",
      ownOptions: [
        OptionSyntax(
          name: "listen", value: .text("HOST:PORT"), summary: "the address to listen on"),
        OptionSyntax(
          name: "reconnect-grace", value: .text("SECONDS"),
          summary: "seconds a dropped player's seat is held"),
      ],
      positionals: []),
    CommandSyntax(
      name: "games", summary: "the open games on a server", ownOptions: [json] + online,
      positionals: []),
  ]

  /// What `tictactoe-gtk` takes: `play` and its options, less those that read standard input,
  /// only make sense in a terminal (`--no-color` among them) or play online.
  public static let desktop = CommandSyntax(
    name: "play", summary: play.summary,
    ownOptions: play.ownOptions.filter {
      !["plain", "password-stdin", "code", "server", "server-fingerprint", "new", "join", "watch"]
        .contains($0.name)
    },
    positionals: [],
    commonOptions: commonOptions.filter { $0.name != "no-color" })

  /// The subcommand named `name`, which must be declared.
  public static func command(_ name: String) -> CommandSyntax {
    guard let syntax = commands.first(where: { $0.name == name }) else {
      preconditionFailure("no subcommand \(name) is declared")
    }
    return syntax
  }
}

extension Arguments {
  /// Splits `arguments` for a declared subcommand of `program` (`nil`: of `tictactoe`),
  /// refusing options it does not declare.
  init(_ arguments: [String], syntax: CommandSyntax, program: String? = nil) throws(UsageError) {
    try self.init(
      arguments, command: syntax.name, program: program, valued: syntax.valued,
      flags: syntax.flags)
  }
}
