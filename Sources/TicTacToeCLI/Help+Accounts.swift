extension Help {
  private static let database = """
    The database is --database PATH, else $TICTACTOE_DATABASE, else
    $XDG_DATA_HOME/tictactoe/tictactoe.sqlite (~/.local/share/tictactoe/tictactoe.sqlite).
    Every command checks the database before using it: a damaged, locked or unreadable
    database is reported in one sentence and left untouched (exit 1). A read-only database
    can still be read by stats, history, replay and account list.
    """

  static let account = """
    Create, list, change and delete local accounts, turn two-factor sign-in on or off, and
    make new recovery codes.

    Examples:
      tictactoe account create alice                     prompts for a password twice
      printf '%s\\n' "$PASSWORD" | tictactoe account create alice --password-stdin
      tictactoe account list --json
      printf '%s\\n%s\\n' "$OLD" "$NEW" | tictactoe account passwd alice --password-stdin
      tictactoe account 2fa-enable alice                 shows the secret, asks for a code
      tictactoe account 2fa-disable alice --code 123456
      tictactoe account recovery-codes alice             8 new codes; the old ones stop working
      tictactoe account delete alice

    Usage: tictactoe account create|2fa-enable USER [--password-stdin]
           tictactoe account passwd|delete|2fa-disable|recovery-codes USER [--password-stdin]
                                                                        [--code CODE]
           tictactoe account list [--json]

      create          a new account: a user name of 1 to 24 printable characters and a
                      password of 8 to 256 characters, without control characters
      passwd          change the password (the old one, then the new one)
      delete          delete the account (asks for the password): its games against the
                      computer or the guest go with it; its games against other accounts
                      stay in their records, under the name it had. Refused while the
                      account has an online game waiting for an opponent or being played
                      (in this database, or on the server with --server): finish, resign
                      or cancel it first
      list            the user names, and whether two-factor is on
      2fa-enable      show a TOTP secret and otpauth:// URI for an authenticator app, turn
                      two-factor on after one valid code, and print 8 one-time recovery codes
      2fa-disable     turn two-factor off
      recovery-codes  sign in and replace the recovery codes with 8 new ones

    On an account with two-factor on, passwd, delete, 2fa-disable and recovery-codes need a
    current code (or a recovery code) as well as the password: --code CODE, or the code on
    the line after the password(s), or at the prompt.

      --password-stdin  read each answer as one line of standard input instead of prompting:
                        create and delete and 2fa-disable and recovery-codes: the password;
                        passwd: the old password, then the new one; 2fa-enable: the password,
                        then (after the secret is printed) the code; then the two-factor code
                        when the account needs one and --code is not given
      --code CODE       the 6-digit code from the authenticator app, or a recovery code
      --json            account list as {"accounts":[{"id":1,"userName":"alice",
                        "twoFactor":false}]}

    On a terminal passwords are read without echo and new ones are asked for twice. A line
    with a NUL or other control character, bytes that are not UTF-8, or more than 4096 bytes
    is refused (exit 2).

    \(database)

    Environment: TICTACTOE_PASSWORD_COST=test hashes new passwords with cheap scrypt
    parameters (N = 2^10) for test suites; never use it for real accounts. Unset or
    production means scrypt with N = 2^17, r = 8, p = 1.
    \(online)
    """

  static let login = """
    Check a user name and password, and the two-factor code when the account has two-factor
    on; then say how many recovery codes are left. Exit 0 when they are right, 1 when not;
    neither the message nor the time taken says whether the user exists. After 5 failures
    the user name waits, longer after each further failure.

    Examples:
      tictactoe login alice                              prompts for the password and code
      printf '%s\\n' "$PASSWORD" | tictactoe login alice --password-stdin --code 123456
      printf '%s\\n%s\\n' "$PASSWORD" "$CODE" | tictactoe login alice --password-stdin

    Usage: tictactoe login USER [--password-stdin] [--code CODE]

      --password-stdin  read the password from the first line of standard input and, when
                        two-factor is on and --code is not given, the code from the next
      --code CODE       the 6-digit code from the authenticator app, or a one-time recovery
                        code (such as abcde-fghij)

    \(database)
    \(online)
    """

  static let stats = """
    Show wins, losses and draws by opponent (people, or the computer by difficulty), the
    win rate, the current and best winning streaks, and the recent games.

    Examples:
      tictactoe stats                                    the guest's stats
      tictactoe stats alice --json
      tictactoe stats alice --reset                      asks to confirm, then signs in
      printf '%s\\n' "$PASSWORD" | tictactoe stats alice --reset --yes --password-stdin

    Usage: tictactoe stats [USER] [--json] [--reset [--yes] [--password-stdin] [--code CODE]]

      USER      an account; without it, the games played as guest. A name without an
                account shows no games, just as an account without games does
      --json    {"user","games","wins","losses","draws","winRate","currentStreak",
                "bestStreak","opponents":[{"opponent","difficulty","level","games",
                "wins","losses","draws"}],"recentGames":[…as in tictactoe history
                --json…]}; level is the computer's level as New game names it, so
                unbeatable counts apart as Strongest on the boards where it is named so;
                with --server, {"user","server","rating","games","wins","losses","draws",
                "currentStreak","bestStreak"}; tictactoe history NAME --server lists the
                games
      --reset   delete the finished games counted here. An account's reset needs its
                sign-in: the password and, with two-factor on, a code (--code, or the next
                line with --password-stdin); the guest's does not. On a terminal it asks
                you to type yes, before the sign-in, so a reset declined spends no
                recovery code; elsewhere it needs --yes and refuses otherwise (exit 2)
      --yes     confirm --reset without asking
      --password-stdin, --code CODE   as for tictactoe login

    \(database)
    \(online)
    """

  static let history = """
    List finished games, newest first: id, date, players, board size, final position and
    result. Pass an id to tictactoe replay to watch one again.

    Examples:
      tictactoe history                                  games played as guest
      tictactoe history alice
      tictactoe history alice --json
      tictactoe history ann --server example.org         every game of ann's there

    Usage: tictactoe history [USER] [--json] [--server HOST[:PORT]]

      --json    {"user":"alice","games":[{"id":1,"date":"2026-01-31T18:05:00Z",
                "startedAt":MS,"endedAt":MS,"x":{"name","accountID","computer"},"o":{…},
                "rows":3,"columns":3,"k":3,"firstMover":"x","moves":["b2",…],
                "board":"xo./.x./..x","result":"xWins"}]}
                (times in milliseconds since 1970; result xWins, oWins or draw)

    \(database)
    \(online)
    """

  static let replay = """
    Replay a finished game: the board after every move, with sentences like "X plays b2."

    Examples:
      tictactoe replay 12
      tictactoe history alice                            find the ids first
      tictactoe replay 5 --server example.org            a game played on a server

    Usage: tictactoe replay GAME-ID [--server HOST[:PORT]]

    \(database)
    \(online)
    """
}
