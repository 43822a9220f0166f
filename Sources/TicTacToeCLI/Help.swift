/// The texts of `--help` and `--version`, examples first.
enum Help {
  static let version = "tictactoe \(versionNumber)"
  /// The version of the package, which every program of it shares.
  static let versionNumber = "0.1.0"

  static func text(for command: String?) -> String {
    switch command {
    case "analyze": analyze
    case "bestmove": bestMove
    case "solve": solve
    case "count": count
    case "play": play
    case "gtp": gtp
    case "pbrain": pbrain
    case "account": account
    case "login": login
    case "stats": stats
    case "history": history
    case "replay": replay
    case "serve": serve
    case "games": games
    case "completions": completions
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
      pbrain     the engine as a Gomocup brain (Piskvork protocol), for tournament managers
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

  static let completions = """
    Print the shell completion script of tictactoe and tictactoe-gtk.

    Examples:
      source <(tictactoe completions bash)        in ~/.bashrc
      source <(tictactoe completions zsh)         in ~/.zshrc, after compinit
      tictactoe completions zsh > DIR/_tictactoe  DIR in $fpath, before compinit
      tictactoe completions fish | source         in ~/.config/fish/config.fish

    Usage: tictactoe completions bash|zsh|fish
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
      --difficulty   the computer's strength (default unbeatable, also named strongest)
      --first        who starts each game (default x)
      --time         the computer's thinking budget per move on large boards (default 1)
      --user         sign in first, so the game counts in USER's stats; the password (and a
                     two-factor code) are asked for, or read as the first input lines with
                     --password-stdin, before the moves. USER plays under that name: --x
                     and --o may not name every person's side otherwise
    \(playOnline)\(online)

    \(strongestNote)
    """

  static let analyze = """
    Print the value of a position for the side to move and of every legal move.

    Examples:
      tictactoe analyze x.o/.x./..o
      tictactoe analyze x.o/.x./..o --json
      tictactoe analyze - < positions.txt        one position a line in, one result a line out

    Usage: tictactoe analyze POSITION|- [--k K] [--json]

    With -, a line that is not a position is reported on stderr with its number (blank lines
    are skipped); with --json it also gets a result line of its own, {"line":N,"error":"…"},
    so that results and positions match one to one. The exit status is then 2.

    Values are win, draw or loss for the side to move under perfect play, with the number of
    plies (single moves) to the end: the winner wins as fast as it can and the loser loses as
    slowly as it can. "best" lists every move with the best value, the strongest first;
    where the values are estimates, only the moves the engine rates highest among them.

    Each value the engine proves is given as it is: on 3×3 and on boards of up to 16 empty
    cells by an exact search, elsewhere by proof searches and, on boards over 64 cells, where
    the search proves a forced win or loss. A proof may find a forced line without showing
    that none is faster: its length is then the most the game lasts, "win in at most 7"
    ("fastest": false in JSON). What the engine cannot prove within its time is its estimate:
    marked "(estimate)", with no length ("exact": false in JSON, with the empty cells as
    "plies").
    """

  static let bestMove = """
    Print the engine's move for a position, such as b2.

    Examples:
      tictactoe bestmove x.o/.x./...
      tictactoe bestmove x.o/.x./... --difficulty easy --seed 42
      tictactoe bestmove ...../...../..x../...../..... --k 4 --time 0.5 --json

    Usage: tictactoe bestmove POSITION [--k K] [--difficulty LEVEL] [--seed N] [--time SECONDS]
                              [--json]

    LEVEL is easy, medium, hard, unbeatable (default; strongest names it too) or a number from
    0 to 1. With --seed the lower levels choose reproducibly.

    \(strongestNote)
    """

  static let solve = """
    Solve the empty board: its value under perfect play, the best first moves, nodes searched
    and time taken. Long solves report progress on stderr; Ctrl-C stops them.

    Examples:
      tictactoe solve
      tictactoe solve --size 4
      tictactoe solve --rows 3 --columns 4 --k 3 --json
      tictactoe solve --rows 4 --columns 9 --k 4 --value

    With --value, only the value: whether the first player can force a line, proved by a
    proof-number search, without settling each first move and its length. Where the first
    player cannot, the board is a draw (the second player cannot win either: an extra mark
    never hurts, so the first player could use the second's strategy). Boards of up to 64
    cells. Progress comes as the search reports it (every million positions or so, and as
    each first move is settled); when stderr is not a terminal, at most a line every 10
    seconds.

    Boards of up to 64 cells are solved to the end, with the length of perfect play; larger
    ones get the analysis of a move's time, where a win found is "in at most" so many plies
    (a shorter one may exist), a value not proven is marked as an estimate, and nodes are not
    counted ("nodes":null in JSON).

    Usage: tictactoe solve [--size N | --rows R --columns C] [--k K] [--value] [--json]
    """

  static let gtp = """
    Speak the Go Text Protocol (version 2) on standard input and output, so other programs and
    boards can play the engine.

    Examples:
      printf 'boardsize 3\\ngenmove x\\nshowboard\\nquit\\n' | tictactoe gtp
      tictactoe gtp --k 5 --time 0.5

    Usage: tictactoe gtp [--k K] [--difficulty LEVEL] [--time SECONDS]

    Commands: protocol_version, name, version, known_command, list_commands, boardsize N
    (square boards, from the line length or 3 up to 15), clear_board, komi (taken and
    ignored: k in a row has none), play x|o VERTEX|pass (either colour, in any order, as GTP
    allows; a pass places nothing), genmove x|o (pass once a line is made or the board is
    full; refused while the stones do not alternate, a colour two ahead), undo (the last
    stone, whichever colour), showboard, quit. Vertices are a column letter (A, B, … skipping
    I) and a row counted from the bottom: A1 is the bottom-left corner. Errors answer
    "? message". The first board is 3×3, or 15×15 when --k is above 3. Without --k, a board
    takes its side in a row to win, up to five (boardsize 4: four, boardsize 7: five).

    \(strongestNote)
    """

  static let pbrain = """
    Speak the Gomocup (Piskvork) protocol on standard input and output as a brain, so that
    tournament managers and Gomoku interfaces can play the engine. The executable
    pbrain-tictactoe does the same, under the name managers require.

    Examples:
      printf 'START 15\\nBEGIN\\n' | tictactoe pbrain
      pbrain-tictactoe --time 0.5

    Usage: tictactoe pbrain [--k K] [--difficulty LEVEL] [--time SECONDS]
           pbrain-tictactoe [--k K] [--difficulty LEVEL] [--time SECONDS]

      --k K          marks in a row to win (default 5)
      --difficulty   the brain's strength (default unbeatable, which is the strongest)
      --time         seconds a move when the manager sets no timeout_turn (default 1)

    Commands: START N and RECTSTART W,H (5 to 15 a side), RESTART, BEGIN, TURN X,Y,
    BOARD with X,Y,FIELD lines (1 own, 2 opponent) then DONE, TAKEBACK X,Y, INFO KEY VALUE
    (timeout_turn, timeout_match and time_left in milliseconds, max_memory in bytes, rule),
    ABOUT and END. X is the column and Y the row, from 0 at the top left. Only freestyle is
    played (rule 0: five or more in a row win); another rule is answered with ERROR and the
    reason. A move is ready within timeout_turn and a fair share of time_left; a DEBUG line
    before it gives the budget used. END ends the brain at once, even in the middle of a move;
    the end of input ends it after the commands already sent.
    """

  /// What unbeatable promises, and why it is called Strongest where it does not.
  static let strongestNote = """
    unbeatable never loses a game that can be held on the boards whose positions the engine
    proves within its time: 3×3; four in a row on 4×4 to 4×7, on 5×5 and with a side of 3;
    five in a row on up to 49 cells (7×7) or with a side of 3 or 4; six or more in a row on up
    to 64 cells. Elsewhere the same level is called Strongest: there the first player wins
    with perfect play (three in a row beyond 3×3, four in a row from 5×6, five in a row on
    15×15), so the second player cannot hold, or the engine cannot prove every position in
    time. To keep the promise on boards of up to 64 cells, unbeatable's proof that its move
    holds may run for up to 1 second even when --time is shorter; the pbrain brain alone
    keeps to every budget, as tournaments require.
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
