/// The schema, one migration step per released version.
///
/// Never edit a released step: append a new one.
package enum Schema {
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
    // Version 4: deleting an account keeps the other players' games. Its games against another
    // account stay theirs, with this side's account NULL (the name stays as it was stored);
    // its other games are deleted with it (see `Accounts.delete`). SQLite cannot alter a
    // foreign key, so the four game tables are rebuilt with every row and index. The new
    // tables are filled before the old ones are dropped, children first, so that dropping
    // cascades to nothing; renaming a parent renames its children's references with it.
    """
    CREATE TABLE games_v4 (
      id INTEGER PRIMARY KEY,
      x_name TEXT NOT NULL,
      x_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
      x_computer REAL,
      o_name TEXT NOT NULL,
      o_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
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
    INSERT INTO games_v4 (id, x_name, x_account, x_computer, o_name, o_account, o_computer,
      board_rows, board_columns, k, first_mover, result, started_at, ended_at, saved_for)
    SELECT id, x_name, x_account, x_computer, o_name, o_account, o_computer,
      board_rows, board_columns, k, first_mover, result, started_at, ended_at, saved_for
    FROM games;
    CREATE TABLE moves_v4 (
      game_id INTEGER NOT NULL REFERENCES games_v4(id) ON DELETE CASCADE,
      ply INTEGER NOT NULL,
      cell_row INTEGER NOT NULL,
      cell_column INTEGER NOT NULL,
      PRIMARY KEY (game_id, ply)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO moves_v4 (game_id, ply, cell_row, cell_column)
    SELECT game_id, ply, cell_row, cell_column FROM moves;
    CREATE TABLE online_games_v4 (
      id INTEGER PRIMARY KEY,
      code TEXT NOT NULL UNIQUE,
      board_rows INTEGER NOT NULL,
      board_columns INTEGER NOT NULL,
      k INTEGER NOT NULL,
      first_mover TEXT NOT NULL CHECK (first_mover IN ('x', 'o')),
      x_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
      x_rating INTEGER NOT NULL,
      o_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
      o_rating INTEGER,
      created_at INTEGER NOT NULL,
      result TEXT CHECK (result IN ('xWins', 'oWins', 'draw')),
      end_reason TEXT CHECK (end_reason IN ('completed', 'forfeit', 'resigned')),
      ended_at INTEGER,
      game_id INTEGER REFERENCES games_v4(id) ON DELETE SET NULL,
      CHECK ((result IS NULL) = (ended_at IS NULL))
    ) STRICT;
    INSERT INTO online_games_v4 (id, code, board_rows, board_columns, k, first_mover, x_account,
      x_rating, o_account, o_rating, created_at, result, end_reason, ended_at, game_id)
    SELECT id, code, board_rows, board_columns, k, first_mover, x_account,
      x_rating, o_account, o_rating, created_at, result, end_reason, ended_at, game_id
    FROM online_games;
    CREATE TABLE online_moves_v4 (
      online_game INTEGER NOT NULL REFERENCES online_games_v4(id) ON DELETE CASCADE,
      ply INTEGER NOT NULL,
      cell_row INTEGER NOT NULL,
      cell_column INTEGER NOT NULL,
      PRIMARY KEY (online_game, ply)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO online_moves_v4 (online_game, ply, cell_row, cell_column)
    SELECT online_game, ply, cell_row, cell_column FROM online_moves;
    DROP TABLE online_moves;
    DROP TABLE online_games;
    DROP TABLE moves;
    DROP TABLE games;
    ALTER TABLE games_v4 RENAME TO games;
    ALTER TABLE moves_v4 RENAME TO moves;
    ALTER TABLE online_games_v4 RENAME TO online_games;
    ALTER TABLE online_moves_v4 RENAME TO online_moves;
    CREATE INDEX games_by_x_account ON games(x_account, ended_at);
    CREATE INDEX games_by_o_account ON games(o_account, ended_at);
    CREATE INDEX online_games_in_progress ON online_games(ended_at) WHERE ended_at IS NULL;
    """,
    // Version 5: the forms each account's name shares with names that look like it, so that a
    // new name is checked against every account in one look-up. The accounts made before are
    // given theirs by the next account made, which works them out in code.
    """
    CREATE TABLE account_name_forms (
      form TEXT NOT NULL,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      PRIMARY KEY (form, account_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX account_name_forms_by_account ON account_name_forms(account_id);
    """,
    // Version 6: Cyrillic and Greek capitals drawn like Latin ones (К, Ν) count in the forms,
    // so the forms kept are dropped; the next account made works them out again.
    """
    DELETE FROM account_name_forms;
    """,
    // Version 7: a finished game's id is never given to another game, so that `replay 5` noted
    // before a stats reset never shows a later game. SQLite gives a new row the highest id plus
    // one, which reuses the ids of the latest games once they are deleted; the highest id a
    // finished game ever had is kept here (by a trigger on every deletion, cascades included),
    // and new games are numbered above it (`Schema.nextGameID`).
    """
    CREATE TABLE finished_game_ids (highest INTEGER NOT NULL) STRICT;
    INSERT INTO finished_game_ids (highest) SELECT coalesce(max(id), 0) FROM games;
    CREATE TRIGGER finished_game_ids_kept AFTER DELETE ON games WHEN old.saved_for IS NULL
    BEGIN
      UPDATE finished_game_ids SET highest = max(highest, old.id);
    END;
    """,
    // Version 8: sign-in attempts in flight, so that attempts started at once by several
    // programs are held to the failures left before the lock (`Accounts.attempt`).
    """
    CREATE TABLE sign_in_attempts (
      id INTEGER PRIMARY KEY,
      user_key TEXT NOT NULL,
      started_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX sign_in_attempts_by_key ON sign_in_attempts(user_key);
    """,
  ]

  /// The id of the next game stored: above every game's, and above every finished game's
  /// that was ever stored (version 7), for `INSERT INTO games (id, …) VALUES (\(nextGameID), …)`.
  package static let nextGameID = """
    (SELECT max(coalesce((SELECT max(id) FROM games), 0), \
    coalesce((SELECT highest FROM finished_game_ids), 0)) + 1)
    """
}
