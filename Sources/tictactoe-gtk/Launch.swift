import AppCore
import GameCore
import GameRules
import NewGameCore
import TicTacToeCLI

/// What the command line asks the window to open at.
enum Launch {
  /// Sign in, with the user name filled in when `--user` gave one.
  case signIn(userName: String = "")
  /// Straight into a game with these options.
  case play(PlayOptions)
  /// Print a text and exit.
  case print(String)

  /// Reads the arguments after the program's name.
  ///
  /// - Throws: ``UsageError`` for anything `tictactoe play` would refuse, or another subcommand.
  init(_ arguments: [String]) throws(UsageError) {
    guard let first = arguments.first else {
      self = .signIn()
      return
    }
    if first == "--help" || first == "-h" {
      self = .print(Launch.help)
      return
    }
    if first == "--version" {
      self = .print("tictactoe-gtk 0.1.0")
      return
    }
    guard first == "play" || first.hasPrefix("-") else {
      throw UsageError(
        "tictactoe-gtk takes only play and its options; run tictactoe-gtk --help.")
    }
    let rest = first == "play" ? Array(arguments.dropFirst()) : arguments
    if rest == ["--database"] || (rest.count == 2 && rest[0] == "--database")
      || (rest.count == 1 && rest[0].hasPrefix("--database="))
    {
      // Only a database: still open at Sign in, unless play was asked for.
      if first != "play" {
        self = .signIn()
        return
      }
    }
    switch try Command.parse(["play"] + rest) {
    case .play(let options):
      guard !options.passwordFromStandardInput, options.code == nil else {
        throw UsageError(
          "tictactoe-gtk asks for the password and code in its window; "
            + "leave out --password-stdin and --code.")
      }
      // The password is typed in the window: open Sign in with the name filled in.
      self = options.user.map { .signIn(userName: $0) } ?? .play(options)
    case .help:
      self = .print(Launch.help)
    case .version:
      self = .print("tictactoe-gtk 0.1.0")
    default:
      throw UsageError("tictactoe-gtk takes only play and its options.")
    }
  }

  /// The value of `--database` among `arguments`, if given.
  static func databasePath(in arguments: [String]) -> String? {
    for (index, argument) in arguments.enumerated() {
      if argument == "--database", index + 1 < arguments.count { return arguments[index + 1] }
      if argument.hasPrefix("--database=") { return String(argument.dropFirst(11)) }
    }
    return nil
  }

  static let help = """
    Tic-tac-toe on the desktop (GTK 4).

    Examples:
      tictactoe-gtk                              open at Sign in
      tictactoe-gtk play                         X against the computer (O), unbeatable
      tictactoe-gtk play --computer none --x Ann --o Bob
      tictactoe-gtk play --size 15 --computer both --difficulty hard

    Usage: tictactoe-gtk [play] [--size N | --rows R --columns C] [--k K]
                         [--x NAME] [--o NAME] [--computer x|o|both|none]
                         [--difficulty easy|medium|hard|unbeatable|SKILL]
                         [--first x|o|alternate|random] [--time SECONDS] [--user NAME]
                         [--database PATH]

    The options are those of tictactoe play; --user opens Sign in with that name. Keys: arrows move on the board, Enter plays,
    Ctrl+Z undo, Ctrl+N play again, F1 help.
    """
}

extension PlayOptions {
  /// The New game form these options describe, as a guest.
  var newGameState: NewGame.State {
    var state = NewGame.State()
    let computer = self.computer ?? .o
    state.mode =
      switch computer {
      case .none: .hotSeat
      case .both: .computerVersusComputer
      case .x, .o: .versusComputer
      }
    state.computerMark = computer == .x ? .x : .o
    state.difficulty = difficulty
    state.rows = shape.rows
    state.columns = shape.columns
    state.k = shape.k
    state.startingRule =
      switch first {
      case .x: .x
      case .o: .o
      case .alternate: .alternate
      case .random: .random
      }
    state.xName = name(of: .x, computer: computer)
    state.oName = name(of: .o, computer: computer)
    return state
  }

  private func name(of mark: Mark, computer: ComputerSide) -> String {
    if let given = mark == .x ? xName : oName { return given }
    let isComputer = computer == .both || computer.rawValue == mark.rawValue
    guard isComputer else { return "Player \(mark.symbol)" }
    return computer == .both ? "Computer \(mark.symbol)" : NewGame.computerName
  }
}
