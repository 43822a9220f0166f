import AppCore
import TicTacToeCLI

/// What the command line asks of the window: a launch of the app, or a text to print.
enum Invocation {
  /// Open the window: at Sign in (the user name filled in when `--user` gave one), or straight
  /// into the game the options describe, with the computer's time budget.
  case open(Launch, timeBudget: Duration, database: String?)
  /// Print a text and exit.
  case print(String)

  private static let signIn = Invocation.open(
    .signIn(userName: ""), timeBudget: .seconds(1), database: nil)

  /// Reads the arguments after the program's name.
  ///
  /// - Throws: ``UsageError`` for anything `tictactoe play` would refuse, or another subcommand.
  init(_ arguments: [String]) throws(UsageError) {
    guard let first = arguments.first else {
      self = Self.signIn
      return
    }
    guard first == "play" || first.hasPrefix("-") else {
      throw UsageError(
        "tictactoe-gtk takes only play and its options; run tictactoe-gtk --help.")
    }
    let rest = first == "play" ? Array(arguments.dropFirst()) : arguments
    if let request = InfoRequest(rest) {
      self = .print(request == .help ? Self.help : "tictactoe-gtk 0.1.0")
      return
    }
    // A refusal names tictactoe-gtk and its --help, not a play the user may not have typed.
    let (options, database) = try Command.parsePlayOptions(rest, for: "tictactoe-gtk")
    guard !options.passwordFromStandardInput, options.code == nil else {
      throw UsageError(
        "tictactoe-gtk asks for the password and code in its window; "
          + "leave out --password-stdin and --code.")
    }
    let timeBudget =
      options.seconds.map { Duration.milliseconds(Int64($0 * 1_000)) } ?? .seconds(1)
    // The password is typed in the window: open Sign in with the name filled in. With only a
    // database given, it opens at Sign in too, unless play was asked for.
    let launch: Launch =
      if let user = options.user {
        .signIn(userName: user)
      } else if first != "play", !options.startsGame {
        .signIn(userName: "")
      } else {
        .game(options.request, session: nil, isStandalone: false)
      }
    self = .open(launch, timeBudget: timeBudget, database: database)
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

    The options are those of tictactoe play but the terminal's (--plain, --no-color) and the
    online ones: the window plays online from Sign in and New game. --user opens Sign in with
    that name. Keys: arrows move on the board, Enter plays, Ctrl+Z undo, Ctrl+Shift+Z redo,
    Ctrl+N play again (a new game, asked first, during one), F1 help.
    """
}
