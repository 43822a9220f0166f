public import AppCore
import AuthenticationClient
import GameCore
import GameProtocol
public import GameRules
import NewGameCore
public import ServerLive

/// A board's shape from `--size` or `--rows`/`--columns`, and `--k`.
public struct BoardShape: Equatable, Sendable {
  /// Rows.
  public var rows: Int
  /// Columns.
  public var columns: Int
  /// Marks in a row to win.
  public var k: Int

  /// Creates a shape; the command line validates it before use.
  public init(rows: Int, columns: Int, k: Int) {
    self.rows = rows
    self.columns = columns
    self.k = k
  }

  /// An empty board of this shape with `firstMover` to start.
  public func board(firstMover: Mark = .x) -> Board {
    guard let board = try? Board(rows: rows, columns: columns, k: k, firstMover: firstMover) else {
      preconditionFailure("a parsed shape is always valid")
    }
    return board
  }
}

/// The options of `tictactoe play`.
public struct PlayOptions: Equatable, Sendable {
  /// Line-by-line text instead of full screen.
  public var plain = false
  /// Whether any game option was given, so the menus are skipped.
  public var startsGame = false
  /// The game the options describe; the core fills in what they leave out.
  public var request = GameRequest()
  /// The computer's time budget per move.
  public var seconds: Double?
  /// The account to sign in as before the game, with `--user`.
  public var user: String?
  /// Whether the password (and code) for `--user` come from standard input lines.
  public var passwordFromStandardInput = false
  /// The two-factor or recovery code for `--user`, if given.
  public var code: String?
  /// Online play with `--server`: create, join or watch a game.
  public var online: OnlinePlay?
}

/// A parsed command line.
public enum Command: Equatable, Sendable {
  case play(PlayOptions)
  case analyze(position: String, k: Int?, json: Bool)
  case bestMove(
    position: String, k: Int?, difficulty: Difficulty, seed: UInt64?, seconds: Double?, json: Bool)
  /// With `valueOnly`, only whether the first player forces a line, not each first move.
  case solve(BoardShape, json: Bool, valueOnly: Bool)
  case count(BoardShape, json: Bool)
  case gtp(k: Int?, difficulty: Difficulty, seconds: Double?)
  case pbrain(k: Int, difficulty: Difficulty, seconds: Double?)
  case account(AccountOptions)
  case login(LoginOptions)
  case stats(StatsOptions)
  case history(user: String?, json: Bool)
  case replay(gameID: Int64)
  case serve(ServeOptions)
  case games(json: Bool)
  case help(String?)
  case version
  /// The hidden `tictactoe completions SHELL`, for packagers.
  case completions(Completions.Shell)
}

/// Options every subcommand accepts.
struct CommonOptions: Equatable, Sendable {
  var database: String?
  var noColor = false
  /// The game server of `--server`, for online accounts, stats and play.
  var server: ServerAddress?
  /// The fingerprint of `--server-fingerprint`, pinned up front.
  var serverFingerprint: [UInt8]?
}

/// What a command line asks for instead of running: its help, or the version.
public enum InfoRequest: Equatable, Sendable {
  /// `--help` or `-h`.
  case help
  /// `--version`.
  case version

  /// The request among `arguments`, if any, help first; after `--` these are arguments like
  /// any other.
  public init?(_ arguments: [String]) {
    let named = arguments.prefix { $0 != "--" }
    if named.contains("--help") || named.contains("-h") {
      self = .help
    } else if named.contains("--version") {
      self = .version
    } else {
      return nil
    }
  }
}

extension Command {
  /// The subcommands, in the order help lists them.
  static let names = Syntax.commands.map(\.name)

  /// Parses the arguments after the program's name.
  ///
  /// - Throws: ``UsageError`` with one sentence for anything malformed.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    try parseWithCommon(arguments).command
  }

  /// Parses the options of `tictactoe play` given to a program with a window, such as
  /// `tictactoe-gtk`, which takes them without the word play.
  ///
  /// The terminal's own options are refused rather than ignored: the window draws in colour,
  /// and plays online from its Sign in and New game screens.
  ///
  /// - Parameters:
  ///   - arguments: The options, without `play`, `--help` or `--version`.
  ///   - program: The program's name, which a refusal names with its own `--help`.
  /// - Returns: The options as `tictactoe play` reads them, and the `--database` path if one
  ///   was given.
  /// - Throws: ``UsageError`` with one sentence for anything malformed.
  public static func parsePlayOptions(
    _ arguments: [String], for program: String
  ) throws(UsageError) -> (options: PlayOptions, database: String?) {
    let (parsed, options) = try play(arguments, program: program)
    return (options, parsed.value("database"))
  }

  /// Refuses the options only the terminal honours, given to `program`, which has a window.
  private static func refuseTerminalOptions(
    _ parsed: Arguments, for program: String
  ) throws(UsageError) {
    if let option = ["plain", "no-color"].first(where: parsed.has) {
      throw UsageError("The option --\(option) is for tictactoe play in a terminal.")
    }
    let online = ["server", "server-fingerprint", "join", "watch"].first { parsed.value($0) != nil }
    if let option = online ?? (parsed.has("new") ? "new" : nil) {
      throw UsageError(
        "The option --\(option) is for tictactoe play; \(program) plays online from its Sign in "
          + "and New game screens.")
    }
  }

  /// The brain's options, given to `tictactoe pbrain` or, when `program` names it, to
  /// `pbrain-tictactoe`, whose refusals name it and its own `--help`.
  static func pbrain(
    _ arguments: [String], program: String? = nil
  ) throws(UsageError) -> (command: Command, parsed: Arguments) {
    let parsed = try Arguments(arguments, syntax: Syntax.command("pbrain"), program: program)
    try parsed.requirePositionals(atMost: 0, command: "pbrain")
    let command = Command.pbrain(
      k: try parsed.integer("k", in: 3...15) ?? 5, difficulty: try difficulty(parsed),
      seconds: try seconds(parsed))
    return (command, parsed)
  }

  /// The arguments of `play` (of `program`, a window, when not `tictactoe`) and the options
  /// they give.
  private static func play(
    _ arguments: [String], program: String? = nil
  ) throws(UsageError) -> (parsed: Arguments, options: PlayOptions) {
    let parsed = try Arguments(arguments, syntax: Syntax.play, program: program)
    try parsed.requirePositionals(atMost: 0, command: "play")
    if let program { try refuseTerminalOptions(parsed, for: program) }
    var options = try playOptions(parsed)
    options.online = try onlinePlay(parsed, options: options)
    return (parsed, options)
  }

  static func parseWithCommon(
    _ arguments: [String]
  ) throws(UsageError) -> (command: Command, common: CommonOptions) {
    if arguments.first == "completions" {
      let rest = Array(arguments.dropFirst())
      if rest.contains("--help") || rest.contains("-h") {
        return (.help("completions"), CommonOptions())
      }
      return (.completions(try Completions.shell(rest)), CommonOptions())
    }
    var rest = arguments
    var name = "play"
    if let first = rest.first, !first.hasPrefix("-") {
      guard names.contains(first) else {
        throw UsageError(
          "Unknown command \"\(first.quotable)\"; run tictactoe --help to see the commands.")
      }
      name = first
      rest.removeFirst()
    }
    switch InfoRequest(rest) {
    case .help?:
      return (.help(arguments.first.flatMap { names.contains($0) ? $0 : nil }), CommonOptions())
    case .version?: return (.version, CommonOptions())
    case nil: break
    }

    let command: Command
    let parsed: Arguments
    switch name {
    case "analyze":
      parsed = try Arguments(rest, syntax: Syntax.command(name))
      command = .analyze(
        position: try position(parsed, command: name), k: try lineLength(parsed),
        json: parsed.has("json"))
    case "bestmove":
      parsed = try Arguments(rest, syntax: Syntax.command(name))
      command = .bestMove(
        position: try position(parsed, command: name), k: try lineLength(parsed),
        difficulty: try difficulty(parsed), seed: try seed(parsed), seconds: try seconds(parsed),
        json: parsed.has("json"))
    case "solve", "count":
      parsed = try Arguments(rest, syntax: Syntax.command(name))
      try parsed.requirePositionals(atMost: 0, command: name)
      let shape = try shape(parsed)
      command =
        name == "solve"
        ? .solve(shape, json: parsed.has("json"), valueOnly: parsed.has("value"))
        : .count(shape, json: parsed.has("json"))
    case "gtp":
      parsed = try Arguments(rest, syntax: Syntax.command(name))
      try parsed.requirePositionals(atMost: 0, command: name)
      command = .gtp(
        k: try lineLength(parsed), difficulty: try difficulty(parsed),
        seconds: try seconds(parsed))
    case "pbrain":
      (command, parsed) = try pbrain(rest)
    case "account", "login", "stats", "history", "replay":
      (command, parsed) = try parseRecords(name, rest)
    case "serve", "games":
      (command, parsed) = try parseOnline(name, rest)
    default:
      // `tictactoe --database PATH stats` would be a game of play with a stray word.
      if let word = (try? Arguments(rest, syntax: Syntax.play))?.positionals.first,
        names.contains(word)
      {
        throw UsageError(
          "The command \(word) comes first and its options after it, as in tictactoe \(word) "
            + "--help.")
      }
      let options: PlayOptions
      (parsed, options) = try play(rest)
      command = .play(options)
    }
    return (
      command,
      CommonOptions(
        database: parsed.value("database"), noColor: parsed.has("no-color"),
        server: try server(parsed, for: command), serverFingerprint: try serverFingerprint(parsed))
    )
  }

  private static func position(_ parsed: Arguments, command: String) throws(UsageError) -> String {
    try parsed.requirePositionals(atMost: 1, command: command)
    guard let position = parsed.positionals.first else {
      throw UsageError(
        "The \(command) command needs a position such as x.o/.x./..o; see tictactoe \(command) --help."
      )
    }
    return position
  }

  private static func difficulty(_ parsed: Arguments) throws(UsageError) -> Difficulty {
    guard let text = parsed.value("difficulty") else { return .unbeatable }
    guard let difficulty = Difficulty(text) else {
      throw UsageError(
        "The difficulty must be easy, medium, hard, unbeatable (or strongest) or a number from 0 "
          + "to 1, not \"\(text.quotable)\"."
      )
    }
    return difficulty
  }

  private static func seed(_ parsed: Arguments) throws(UsageError) -> UInt64? {
    guard let text = parsed.value("seed") else { return nil }
    guard let seed = UInt64(text) else {
      throw UsageError(
        "The seed must be a whole number from 0 to 18446744073709551615, not \"\(text.quotable)\".")
    }
    return seed
  }

  private static func seconds(_ parsed: Arguments) throws(UsageError) -> Double? {
    guard let text = parsed.value("time") else { return nil }
    guard let seconds = Double(decimal: text), seconds > 0, seconds <= 3_600 else {
      throw UsageError(
        "The time must be a decimal number of seconds above 0 and up to 3600, such as 0.5, not "
          + "\"\(text.quotable)\".")
    }
    return seconds
  }

  /// `--k`, in the range any board allows; the board itself checks it further.
  private static func lineLength(_ parsed: Arguments) throws(UsageError) -> Int? {
    try parsed.integer("k", in: Board.minimumK...Board.maximumSide)
  }

  private static func shape(_ parsed: Arguments) throws(UsageError) -> BoardShape {
    let side = Board.minimumSide...Board.maximumSide
    let size = try parsed.integer("size", in: side)
    let rows = try parsed.integer("rows", in: side)
    let columns = try parsed.integer("columns", in: side)
    let dimensions: (rows: Int, columns: Int)
    switch (size, rows, columns) {
    case (let size?, nil, nil): dimensions = (size, size)
    case (nil, let rows?, let columns?): dimensions = (rows, columns)
    case (nil, nil, nil): dimensions = (3, 3)
    case (_?, _, _): throw UsageError("Give either --size or --rows and --columns, not both.")
    case (nil, _, _):
      throw UsageError("Give both --rows and --columns, or --size for a square board.")
    }
    let k =
      try lineLength(parsed) ?? Board.defaultK(rows: dimensions.rows, columns: dimensions.columns)
    do {
      try Board.validate(rows: dimensions.rows, columns: dimensions.columns, k: k)
    } catch {
      throw UsageError(error.description)
    }
    return BoardShape(rows: dimensions.rows, columns: dimensions.columns, k: k)
  }

  /// The sides the computer plays, by the word `--computer` takes, in the order help and the
  /// completions list them.
  static let computerSides: [(word: String, mode: GameMode, mark: Mark?)] = [
    ("x", .versusComputer, .x), ("o", .versusComputer, .o),
    ("both", .computerVersusComputer, nil), ("none", .hotSeat, nil),
  ]

  /// The starting rules, by the word `--first` takes, in the order help lists them.
  static let startingRules: [(word: String, rule: StartingRule)] = [
    ("x", .x), ("o", .o), ("alternate", .alternate), ("random", .random),
  ]

  private static func playOptions(_ parsed: Arguments) throws(UsageError) -> PlayOptions {
    var options = PlayOptions()
    options.plain = parsed.has("plain")
    let shape = try shape(parsed)
    options.request.rows = shape.rows
    options.request.columns = shape.columns
    options.request.k = shape.k
    options.request.xName = try name(parsed, "x")
    options.request.oName = try name(parsed, "o")
    if let text = parsed.value("computer") {
      guard let side = computerSides.first(where: { $0.word == text.lowercased() }) else {
        throw UsageError("The computer plays x, o, both or none, not \"\(text.quotable)\".")
      }
      options.request.mode = side.mode
      options.request.computerMark = side.mark
    }
    options.request.difficulty = try difficulty(parsed)
    if let text = parsed.value("first") {
      guard let rule = startingRules.first(where: { $0.word == text.lowercased() })?.rule else {
        throw UsageError(
          "The first player is x, o, alternate or random, not \"\(text.quotable)\".")
      }
      options.request.startingRule = rule
    }
    options.seconds = try seconds(parsed)
    let gameOptions: Set<String> = [
      "size", "rows", "columns", "k", "x", "o", "computer", "difficulty", "first", "time", "user",
    ]
    options.startsGame = !gameOptions.isDisjoint(with: parsed.values.keys)
    options.user = parsed.value("user")
    options.passwordFromStandardInput = parsed.has("password-stdin")
    options.code = try code(parsed)
    guard options.user != nil || (options.code == nil && !options.passwordFromStandardInput) else {
      throw UsageError("The options --password-stdin and --code go with --user.")
    }
    try checkNames(options.request, user: options.user)
    return options
  }

  /// Refuses one name for two people, whose records could not be told apart, and names that
  /// leave the user signed in with --user no side of their own: the game would be counted as
  /// theirs.
  private static func checkNames(_ request: GameRequest, user: String?) throws(UsageError) {
    // The sides people play, as the game will be set up.
    let settings = request.settings(for: nil)
    if request.xName != nil || request.oName != nil,
      let problem = NewGame.sharedNameProblem(settings)
    {
      throw UsageError(problem)
    }
    guard let user else { return }
    let people: [(option: String, name: String?)] = Mark.allCases
      .filter { !settings.isComputer($0) }
      .map { $0 == .x ? ("x", request.xName) : ("o", request.oName) }
    guard !people.isEmpty,
      people.allSatisfy({ $0.name.map { UserName.key($0) != UserName.key(user) } ?? false })
    else { return }
    let options = people.map { "--\($0.option)" }.joined(separator: " and ")
    throw UsageError(
      "The player signed in with --user plays under that name; leave out \(options), or give "
        + "\(people.count == 1 ? "it" : "one of them") the name \"\(user.quotable)\".")
  }

  private static func name(_ parsed: Arguments, _ option: String) throws(UsageError) -> String? {
    guard let text = parsed.value(option) else { return nil }
    do {
      return try Name.validated(text)
    } catch {
      throw UsageError("--\(option): \(error)")
    }
  }
}
