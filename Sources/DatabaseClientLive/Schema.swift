/// The schema, one migration step per released version.
///
/// Never edit a released step: append a new one.
enum Schema {
  static let migrations = [
    // Version 1: accounts and game records. A game in progress is a row with `saved_for` set
    // (0 for the guest, else the account id); finished games have `saved_for` NULL.
    """
    CREATE TABLE accounts (
      id INTEGER PRIMARY KEY,
      user_name TEXT NOT NULL,
      user_key TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE games (
      id INTEGER PRIMARY KEY,
      x_name TEXT NOT NULL,
      x_account INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
      x_computer REAL,
      o_name TEXT NOT NULL,
      o_account INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
      o_computer REAL,
      board_rows INTEGER NOT NULL,
      board_columns INTEGER NOT NULL,
      k INTEGER NOT NULL,
      first_mover TEXT NOT NULL CHECK (first_mover IN ('x', 'o')),
      result TEXT CHECK (result IN ('xWins', 'oWins', 'draw')),
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      saved_for INTEGER UNIQUE,
      CHECK (saved_for IS NOT NULL OR (result IS NOT NULL AND ended_at IS NOT NULL))
    ) STRICT;
    CREATE INDEX games_by_x_account ON games(x_account, ended_at);
    CREATE INDEX games_by_o_account ON games(o_account, ended_at);
    CREATE TABLE moves (
      game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
      ply INTEGER NOT NULL,
      cell_row INTEGER NOT NULL,
      cell_column INTEGER NOT NULL,
      PRIMARY KEY (game_id, ply)
    ) STRICT, WITHOUT ROWID;
    """,
    // Version 2: two-factor secrets (sealed with a key only the password unlocks), hashed
    // recovery codes and sign-in failure counters keyed by user name, known or not.
    """
    CREATE TABLE two_factor (
      account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      sealed_secret BLOB NOT NULL,
      last_counter INTEGER NOT NULL,
      enabled_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE recovery_codes (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      code_hash TEXT NOT NULL,
      used_at INTEGER
    ) STRICT;
    CREATE INDEX recovery_codes_by_account ON recovery_codes(account_id);
    CREATE TABLE sign_in_failures (
      user_key TEXT PRIMARY KEY,
      failures INTEGER NOT NULL,
      last_failure_at INTEGER NOT NULL
    ) STRICT;
    """,
    // Version 3: online play. A client keeps the fingerprint of each server it trusts; a server
    // keeps session tokens (hashed), ratings, and its games with their moves. A finished online
    // game is also copied into `games`, so stats work as for local games. Games are keyed by
    // an increasing id, so the moves of the games in progress share a few pages at the end.
    """
    CREATE TABLE known_servers (
      address TEXT PRIMARY KEY,
      fingerprint BLOB NOT NULL,
      trusted_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE sessions (
      token_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      used_at INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX sessions_by_account ON sessions(account_id);
    CREATE TABLE ratings (
      account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      rating REAL NOT NULL
    ) STRICT;
    CREATE TABLE online_games (
      id INTEGER PRIMARY KEY,
      code TEXT NOT NULL UNIQUE,
      board_rows INTEGER NOT NULL,
      board_columns INTEGER NOT NULL,
      k INTEGER NOT NULL,
      first_mover TEXT NOT NULL CHECK (first_mover IN ('x', 'o')),
      x_account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      x_rating INTEGER NOT NULL,
      o_account INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
      o_rating INTEGER,
      created_at INTEGER NOT NULL,
      result TEXT CHECK (result IN ('xWins', 'oWins', 'draw')),
      end_reason TEXT CHECK (end_reason IN ('completed', 'forfeit', 'resigned')),
      ended_at INTEGER,
      game_id INTEGER REFERENCES games(id) ON DELETE SET NULL,
      CHECK ((result IS NULL) = (ended_at IS NULL))
    ) STRICT;
    CREATE INDEX online_games_in_progress ON online_games(ended_at) WHERE ended_at IS NULL;
    CREATE TABLE online_moves (
      online_game INTEGER NOT NULL REFERENCES online_games(id) ON DELETE CASCADE,
      ply INTEGER NOT NULL,
      cell_row INTEGER NOT NULL,
      cell_column INTEGER NOT NULL,
      PRIMARY KEY (online_game, ply)
    ) STRICT, WITHOUT ROWID;
    """,
  ]
}
