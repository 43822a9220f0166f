/// The texts of `--help` and `--version`, examples first.
enum Help {
  static let version = "tictactoe 0.1.0"

  static func text(for command: String?) -> String {
    switch command {
    case "analyze": analyze
    case "bestmove": bestMove
    case "solve": solve
    case "count": count
    case "play": play
    case "gtp": gtp
    case "account": account
    case "login": login
    case "stats": stats
    case "history": history
    case "replay": replay
    case "serve": serve
    case "games": games
    default: overview
    }
  }

  static let overview = """
    Tic-tac-toe in the terminal, with a perfect engine to play, analyse and script.

    Examples:
      tictactoe                                  play (full screen on a terminal)
      tictactoe play --computer o --difficulty hard
      tictactoe analyze x.o/.x./..o              every move's value for the side to move
      tictactoe bestmove x.o/.x./... --difficulty easy --seed 7
      tictactoe solve --size 4                   prove the value of the empty 4×4 board
      tictactoe count --rows 3 --columns 4 --json
      tictactoe account create alice             prompts for a password twice
      tictactoe stats alice --json

    Commands:
      play       play a game (the default)
      analyze    the value of a position and of every legal move
      bestmove   the engine's move for a position
      solve      the value of an empty board under perfect play
      count      reachable positions and complete games of a board
      gtp        the engine over the Go Text Protocol, for other programs
      account    create, list and change accounts; turn two-factor on or off
      login      check a user name, password and two-factor code
      stats      wins, losses, draws and streaks of an account or the guest
      history    finished games with ids, dates, players, boards and results
      replay     a finished game move by move
      serve      a game server for players on other machines (over TLS)
      games      the open games and games being played on a server

    Positions: rows top to bottom separated by /, cells x, o or . (x.o/.x./..o).
    Cells: column letter then row number, a1 top left.
    Common options: --database PATH, --no-color, --help, --version.
    Online: account, login, stats and play take --server HOST[:PORT] to use a game server's
    accounts, records and games (see tictactoe serve --help and tictactoe play --help).
    Exit codes: 0 success, 1 failure, 2 bad usage or input.
    Run tictactoe COMMAND --help for a command's options.
    """

  static let play = """
    Play a game in the terminal.

    Examples:
      tictactoe                                  open at Sign in
      tictactoe play --computer o                play X against the computer
      tictactoe play --plain < moves.txt         plain text, moves from a file
      tictactoe play --size 7 --k 5 --computer both --difficulty medium
      tictactoe play --plain --user alice --password-stdin < password-then-moves.txt

    Usage: tictactoe [play] [--plain] [--size N | --rows R --columns C] [--k K]
                     [--x NAME] [--o NAME] [--computer x|o|both|none]
                     [--difficulty easy|medium|hard|unbeatable|SKILL]
                     [--first x|o|alternate|random] [--time SECONDS]
                     [--user USER [--password-stdin] [--code CODE]]

      --plain        line by line text (automatic when not on a terminal)
      --size N       an N×N board, 3 to 15 (default 3)
      --rows, --columns  a rectangular board
      --k K          marks in a row to win (default: the shorter side, at most 5)
      --x, --o       the players' names
      --computer     which side the computer plays (default o when a game option is given)
      --difficulty   the computer's strength (default unbeatable)
      --first        who starts each game (default x)
      --time         the computer's thinking budget per move on large boards (default 1)
      --user         sign in first, so the game counts in USER's stats; the password (and a
                     two-factor code) are asked for, or read as the first input lines with
                     --password-stdin, before the moves
    \(playOnline)
    """

  static let analyze = """
    Print the value of a position for the side to move and of every legal move.

    Examples:
      tictactoe analyze x.o/.x./..o
      tictactoe analyze x.o/.x./..o --json
      tictactoe analyze - < positions.txt        one position a line in, one result a line out

    Usage: tictactoe analyze POSITION|- [--k K] [--json]

    Values are win, draw or loss for the side to move under perfect play, with the number of
    plies (single moves) to the end: the winner wins as fast as it can and the loser loses as
    slowly as it can. "best" lists every move with the best value.
    """

  static let bestMove = """
    Print the engine's move for a position, such as b2.

    Examples:
      tictactoe bestmove x.o/.x./...
      tictactoe bestmove x.o/.x./... --difficulty easy --seed 42
      tictactoe bestmove ...../...../..x../...../..... --k 4 --time 0.5 --json

    Usage: tictactoe bestmove POSITION [--k K] [--difficulty LEVEL] [--seed N] [--time SECONDS]
                              [--json]

    LEVEL is easy, medium, hard, unbeatable (default) or a number from 0 to 1. With --seed the
    lower levels choose reproducibly.
    """

  static let solve = """
    Solve the empty board: its value under perfect play, the best first moves, nodes searched
    and time taken. Long solves report progress on stderr; Ctrl-C stops them.

    Examples:
      tictactoe solve
      tictactoe solve --size 4
      tictactoe solve --rows 3 --columns 4 --k 3 --json

    Usage: tictactoe solve [--size N | --rows R --columns C] [--k K] [--json]
    """

  static let gtp = """
    Speak the Go Text Protocol (version 2) on standard input and output, so other programs and
    boards can play the engine.

    Examples:
      printf 'boardsize 3\\ngenmove x\\nshowboard\\nquit\\n' | tictactoe gtp
      tictactoe gtp --k 5 --time 0.5

    Usage: tictactoe gtp [--k K] [--difficulty LEVEL] [--time SECONDS]

    Commands: protocol_version, name, version, known_command, list_commands, boardsize N
    (square boards, 3 to 15), clear_board, play x|o VERTEX, genmove x|o, undo, showboard, quit.
    Vertices are a column letter (A, B, … skipping I) and a row counted from the bottom: A1 is
    the bottom-left corner. Errors answer "? message". The first board is 3×3, or 15×15 when
    --k is above 3.
    """

  static let count = """
    Count a board's reachable positions, terminal positions and complete games.

    Examples:
      tictactoe count
      tictactoe count --rows 3 --columns 4 --json

    Usage: tictactoe count [--size N | --rows R --columns C] [--k K] [--json]

    JSON keys: positions, terminalPositions, xWinPositions, oWinPositions, drawPositions,
    games, xWinGames, oWinGames, drawGames.
    """
}
