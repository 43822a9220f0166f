import GameProtocol

extension Help {
  static let serve = """
    Run a game server: accounts, games, spectators and ratings for players on other machines,
    over TLS. It prints where it listens and its certificate's fingerprint, then logs to
    standard error until SIGTERM, SIGHUP or Ctrl-C stops it: it finishes what is being stored,
    says so and exits 0.

    Examples:
      tictactoe serve                                    every interface, port 7457
      tictactoe serve --listen 127.0.0.1:0               a free loopback port
      tictactoe serve --database /srv/ttt/server.sqlite --reconnect-grace 120

    Usage: tictactoe serve [--listen HOST:PORT] [--database PATH] [--reconnect-grace SECONDS]

      --listen           where to listen (default every interface, port 7457; port 0 picks one)
      --database         the server's database (default server.sqlite in the data folder); its
                         certificate is kept beside it as PATH.tls.pem, mode 0600
      --reconnect-grace  how long a player whose connection dropped keeps the seat before
                         forfeiting (default 60)

    Each account may have at most \(ProtocolLimits.maximumUnfinishedGames) unfinished games \
    (waiting for an opponent or being
    played); creating or joining another is refused until one of them ends, or one still
    waiting is cancelled by its creator leaving it.

    Output: Listening on HOST:PORT, then Fingerprint: SHA256: and 64 hex digits, which
    players can give their clients to trust this server from the first connection. The
    protocol is in docs/protocol.md.

    Log (standard error), one line for each event once it is stored: sign-ins and refused
    sign-ins with the address, account changes, games opened, joined and ended, players who
    lose the connection and come back, broken connections and storage failures.
    """

  static let games = """
    List the open games of a server and the games being played, newest first.

    Examples:
      tictactoe games --server example.org
      tictactoe games --server 127.0.0.1:7457 --json

    Usage: tictactoe games --server HOST[:PORT] [--json] [--server-fingerprint SHA256:HEX]

      --json    {"games":[{"code","status":"open"|"playing","x","o","rows","columns","k",
                "moves"}]}
    \(online)
    """

  /// What every command that reaches a server says about it.
  static let online = """

      --server HOST[:PORT]  the game server (port 7457 unless given)
      --server-fingerprint SHA256:HEX  the fingerprint the server printed at start (hex,
                colons optional, any case); without it, the first connection trusts the
                server and says so, and a later change is refused
    """

  static let playOnline = """

    Online (plain mode), with an account on a server started with tictactoe serve:
      tictactoe play --server HOST[:PORT] --user USER [--password-stdin] [--code CODE] --new
                     [--size N | --rows R --columns C] [--k K] [--first x|o|random]
      tictactoe play --server HOST[:PORT] --user USER [--password-stdin] --join CODE
      tictactoe play --server HOST[:PORT] --watch CODE

      --new          create a game and print its invite code; you play X
      --join CODE    take the free seat of a game, or your own seat again after a drop
      --watch CODE   watch a game without an account; spectators cannot move
    Moves are typed as on one computer; resign (or quit) gives the game up. A dropped
    connection comes back by itself; the server holds the seat for a while (60 seconds unless
    it says otherwise).
    """
}
