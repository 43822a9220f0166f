public import AuthenticationClient
import AuthenticationClientLive
import Crypto
import DatabaseClient
public import DatabaseClientLive
public import GameProtocol
public import GameRules
import SQLite
public import ServerCore

/// Why the server's records could not be read or written.
public struct ServerRecordsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// One sentence for the log.
  public var message: String

  init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// The server's tables in its SQLite database: sessions, ratings, online games and moves.
///
/// Every method runs one transaction on the shared connection and returns after it committed,
/// so what the server announces afterwards survives a crash.
public final class ServerRecords: Sendable {
  /// How long an unused session token stays valid, in milliseconds.
  public static let sessionLifetime: Int64 = 30 * 24 * 3_600_000

  private let writer: GroupCommit
  private let statements = StatementCache()
  private let now: @Sendable () -> Int64

  /// Wraps an opened, migrated database.
  ///
  /// - Parameters:
  ///   - database: The server's database.
  ///   - now: The clock in milliseconds since 1970.
  public init(database: LocalDatabase, now: @escaping @Sendable () -> Int64) {
    writer = GroupCommit(database: database)
    self.now = now
  }

  // MARK: - Sessions

  /// Opens a session and returns its token (only its hash is stored) with the rating.
  public func openSession(_ session: Session) async throws(ServerRecordsError) -> SignedInAccount {
    let token: [UInt8]
    do {
      token = try SecureRandom.bytes(count: 32)
    } catch {
      throw ServerRecordsError("No random token could be made: \(error).")
    }
    let time = now()
    return try await write { [self] database throws(SQLiteError) in
      try statements.run(
        database,
        "INSERT INTO sessions (token_hash, account_id, created_at, used_at) VALUES (?, ?, ?, ?)",
        .blob(SHA256.hash(token)), SQLiteValue(session.accountID), SQLiteValue(time),
        SQLiteValue(time))
      return SignedInAccount(
        accountID: session.accountID, userName: session.userName,
        rating: Elo.shown(try rating(of: session.accountID, in: database)),
        token: hexString(token), accountsSession: session)
    }
  }

  /// The account of a session token, refreshing its last use; `nil` when unknown or expired.
  public func resumeSession(_ token: String) async throws(ServerRecordsError) -> SignedInAccount? {
    guard let bytes = Self.bytes(ofHex: token), bytes.count == 32 else { return nil }
    let hash = SHA256.hash(bytes)
    let time = now()
    return try await write { [self] database throws(SQLiteError) in
      guard
        let row = try statements.query(
          database,
          """
          SELECT accounts.id, accounts.user_name, sessions.used_at
          FROM sessions JOIN accounts ON accounts.id = sessions.account_id
          WHERE sessions.token_hash = ?
          """, .blob(hash)
        ).first
      else { return nil }
      let accountID: Int64 = try row.get(0)
      let usedAt: Int64 = try row.get(2)
      guard usedAt + Self.sessionLifetime > time else {
        try statements.run(database, "DELETE FROM sessions WHERE token_hash = ?", .blob(hash))
        return nil
      }
      try statements.run(
        database,
        "UPDATE sessions SET used_at = ? WHERE token_hash = ?", SQLiteValue(time), .blob(hash))
      return SignedInAccount(
        accountID: accountID, userName: try row.get(1),
        rating: Elo.shown(try rating(of: accountID, in: database)), token: token)
    }
  }

  /// Ends every session of the account with this user name.
  ///
  /// - Returns: The account's id, or `nil` when no account has the name.
  @discardableResult
  public func endSessions(_ userName: String) async throws(ServerRecordsError) -> Int64? {
    try await write { [self] database throws(SQLiteError) -> Int64? in
      guard
        let row = try statements.query(
          database, "SELECT id FROM accounts WHERE user_key = ?", .text(Self.key(userName))
        ).first
      else { return nil }
      let id: Int64 = try row.get(0)
      try statements.run(database, "DELETE FROM sessions WHERE account_id = ?", SQLiteValue(id))
      return id
    }
  }

  // MARK: - Games

  /// Stores a new game.
  public func createGame(_ game: OnlineGameRecord) async throws(ServerRecordsError) {
    try await write { [self] database throws(SQLiteError) in
      try statements.run(
        database,
        """
        INSERT INTO online_games (code, board_rows, board_columns, k, first_mover, x_account,
          x_rating, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """, .text(game.code), .integer(game.rows), .integer(game.columns), .integer(game.k),
        .text(game.firstMover.rawValue), SQLiteValue(game.x.accountID), .integer(game.x.rating),
        SQLiteValue(game.createdAt))
    }
  }

  /// Stores the opponent of an open game.
  public func seatOpponent(_ code: String, _ seat: SeatRecord) async throws(ServerRecordsError) {
    try await write { [self] database throws(SQLiteError) in
      try statements.run(
        database,
        """
        UPDATE online_games SET o_account = ?, o_rating = ?
        WHERE code = ? AND o_account IS NULL AND ended_at IS NULL
        """, SQLiteValue(seat.accountID), .integer(seat.rating), .text(code))
      guard database.changes == 1 else {
        throw SQLiteError(kind: .constraint, message: "game \(code) is not open")
      }
    }
  }

  /// Stores move number `ply`, and the end of the game with it when given.
  ///
  /// - Returns: The ratings after the game when it ended.
  public func commitMove(
    _ code: String, ply: Int, cell: Cell, ending: Ending?
  ) async throws(ServerRecordsError) -> Ratings? {
    try await write { [self] database throws(SQLiteError) in
      guard
        let game = try statements.query(
          database,
          "SELECT id, o_account IS NOT NULL AND ended_at IS NULL FROM online_games WHERE code = ?",
          .text(code)
        ).first,
        try game.get(1, as: Bool.self)
      else {
        throw SQLiteError(kind: .constraint, message: "game \(code) is not under way")
      }
      let count: Int =
        try statements.query(
          database, "SELECT count(*) FROM online_moves WHERE online_game = ?", game[0]
        ).first?.get(0) ?? 0
      guard count == ply else {
        throw SQLiteError(kind: .constraint, message: "move \(ply) of game \(code) is out of order")
      }
      try statements.run(
        database,
        "INSERT INTO online_moves (online_game, ply, cell_row, cell_column) VALUES (?, ?, ?, ?)",
        game[0], .integer(ply), .integer(cell.row), .integer(cell.column))
      guard let ending else { return nil }
      return try finish(code, ending, in: database)
    }
  }

  /// Stores the end of a game that ended without a move: a forfeit or a resignation.
  ///
  /// - Returns: The ratings after the game.
  public func finishGame(_ code: String, _ ending: Ending) async throws(ServerRecordsError)
    -> Ratings
  {
    try await write { [self] database throws(SQLiteError) in try finish(code, ending, in: database)
    }
  }

  /// Forgets an open game nobody joined.
  ///
  /// - Throws: ``ServerRecordsError`` when the database fails, or has no such open game (it has
  ///   none, or someone joined it, or it ended): nothing was forgotten then.
  public func cancelGame(_ code: String) async throws(ServerRecordsError) {
    try await write { [self] database throws(SQLiteError) in
      try statements.run(
        database,
        "DELETE FROM online_games WHERE code = ? AND o_account IS NULL AND ended_at IS NULL",
        .text(code))
      guard database.changes == 1 else {
        throw SQLiteError(kind: .constraint, message: "game \(code) is not open")
      }
    }
  }

  /// Every game not yet finished, with its moves, for a restarted server.
  public func activeGames() async throws(ServerRecordsError) -> [OnlineGameRecord] {
    try await write { [self] database throws(SQLiteError) in
      let rows = try statements.query(
        database,
        """
        SELECT g.code, g.board_rows, g.board_columns, g.k, g.first_mover, g.x_account, x.user_name,
          g.x_rating, g.o_account, o.user_name, g.o_rating, g.created_at
        FROM online_games g
        JOIN accounts x ON x.id = g.x_account
        LEFT JOIN accounts o ON o.id = g.o_account
        WHERE g.ended_at IS NULL
        ORDER BY g.id
        """)
      let moveStatement = try database.prepare(
        """
        SELECT cell_row, cell_column FROM online_moves
        WHERE online_game = (SELECT id FROM online_games WHERE code = ?) ORDER BY ply
        """)
      return try rows.map { row throws(SQLiteError) in
        let code: String = try row.get(0)
        try moveStatement.bind([.text(code)])
        let moves = try moveStatement.allRows().map { move throws(SQLiteError) in
          Cell(row: try move.get(0), column: try move.get(1))
        }
        let firstMover: String = try row.get(4)
        let opponent: Int64? = try row.get(8)
        return OnlineGameRecord(
          code: code, rows: try row.get(1), columns: try row.get(2), k: try row.get(3),
          firstMover: firstMover == "o" ? .o : .x,
          x: SeatRecord(accountID: try row.get(5), name: try row.get(6), rating: try row.get(7)),
          o: try opponent.map { id throws(SQLiteError) in
            SeatRecord(accountID: id, name: try row.get(9), rating: try row.get(10))
          },
          moves: moves, createdAt: try row.get(11))
      }
    }
  }

  /// The ids of an account's finished games, newest first (by end, then by id), at most
  /// `limit`: the latest ones, or those after `before` in that order.
  public func finishedGameIDs(
    ofAccount accountID: Int64, before: HistoryCursor?, limit: Int
  ) async throws(ServerRecordsError) -> [Int64] {
    try await write { [self] database throws(SQLiteError) in
      try statements.query(
        database,
        """
        SELECT id FROM games
        WHERE saved_for IS NULL AND (x_account = ?1 OR o_account = ?1)
          AND (ended_at < ?2 OR (ended_at = ?2 AND id < ?3))
        ORDER BY ended_at DESC, id DESC LIMIT ?4
        """,
        .integer(Int(accountID)), .integer(Int(before?.endedAt ?? .max)),
        .integer(Int(before?.id ?? .max)), .integer(max(0, limit))
      ).map { row throws(SQLiteError) in try row.get(0) }
    }
  }

  /// The rating of an account, by user name, or `nil` when there is no such account.
  public func account(named userName: String) async throws(ServerRecordsError) -> (
    id: Int64, userName: String, rating: Int
  )? {
    try await write { [self] database throws(SQLiteError) in
      guard
        let row = try statements.query(
          database,
          "SELECT id, user_name FROM accounts WHERE user_key = ?", .text(Self.key(userName))
        ).first
      else { return nil }
      let id: Int64 = try row.get(0)
      return (id, try row.get(1), Elo.shown(try rating(of: id, in: database)))
    }
  }

  // MARK: - Ending a game

  private func finish(_ code: String, _ ending: Ending, in database: Database) throws(SQLiteError)
    -> Ratings
  {
    guard
      let game = try statements.query(
        database,
        """
        SELECT g.x_account, x.user_name, g.o_account, o.user_name, g.board_rows,
          g.board_columns, g.k, g.first_mover, g.created_at
        FROM online_games g
        JOIN accounts x ON x.id = g.x_account
        JOIN accounts o ON o.id = g.o_account
        WHERE g.code = ? AND g.ended_at IS NULL
        """, .text(code)
      ).first
    else { throw SQLiteError(kind: .constraint, message: "game \(code) is not under way") }
    let xAccount: Int64 = try game.get(0)
    let oAccount: Int64 = try game.get(2)
    let (x, o) = Elo.ratings(
      x: try rating(of: xAccount, in: database), o: try rating(of: oAccount, in: database),
      winner: ending.winner)
    for (account, value) in [(xAccount, x), (oAccount, o)] {
      try statements.run(
        database,
        """
        INSERT INTO ratings (account_id, rating) VALUES (?, ?)
        ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating
        """, SQLiteValue(account), .real(value))
    }
    let result: String =
      switch ending.winner {
      case .x: "xWins"
      case .o: "oWins"
      case nil: "draw"
      }
    let reason: String =
      switch ending.reason {
      case .completed: "completed"
      case .forfeit: "forfeit"
      case .resigned: "resigned"
      }
    let time = now()
    // The finished game joins the ordinary records, so stats count it like any other.
    try statements.run(
      database,
      """
      INSERT INTO games (id, x_name, x_account, o_name, o_account, board_rows, board_columns, k,
        first_mover, result, started_at, ended_at)
      VALUES (\(Schema.nextGameID), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, game[1], SQLiteValue(xAccount), game[3], SQLiteValue(oAccount), game[4], game[5],
      game[6], game[7], .text(result), game[8], SQLiteValue(time))
    let gameID = database.lastInsertRowID
    try statements.run(
      database,
      """
      INSERT INTO moves (game_id, ply, cell_row, cell_column)
      SELECT ?, ply, cell_row, cell_column FROM online_moves
      WHERE online_game = (SELECT id FROM online_games WHERE code = ?)
      """, .integer(gameID), .text(code))
    try statements.run(
      database,
      """
      UPDATE online_games SET result = ?, end_reason = ?, ended_at = ?, game_id = ?
      WHERE code = ?
      """, .text(result), .text(reason), SQLiteValue(time), .integer(gameID), .text(code))
    return Ratings(x: Elo.shown(x), o: Elo.shown(o))
  }

  private func rating(of accountID: Int64, in database: Database) throws(SQLiteError) -> Double {
    try statements.query(
      database, "SELECT rating FROM ratings WHERE account_id = ?", SQLiteValue(accountID)
    )
    .first?.get(0) ?? Elo.initialRating
  }

  // MARK: - Plumbing

  /// Runs a body in a transaction of its own within the next group commit.
  private func write<Value: Sendable>(
    _ body: @escaping @Sendable (Database) throws(SQLiteError) -> Value
  ) async throws(ServerRecordsError) -> Value {
    do {
      return try await writer.submit(body)
    } catch let error as SQLiteError {
      throw ServerRecordsError(error.description)
    } catch {
      throw ServerRecordsError("\(error)")
    }
  }

  /// The accounts' key for a user name, so that the records find the account the accounts do.
  static func key(_ userName: String) -> String { UserName.key(userName) }

  static func bytes(ofHex text: String) -> [UInt8]? {
    guard text.utf8.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }
}

/// Prepared statements kept for reuse, so that the writes of every move are parsed once.
///
/// Used only inside a group commit, which holds the connection.
private final class StatementCache: @unchecked Sendable {
  private var statements: [String: (ObjectIdentifier, Statement)] = [:]

  private func statement(_ database: Database, _ sql: String) throws(SQLiteError) -> Statement {
    if let (owner, statement) = statements[sql], owner == ObjectIdentifier(database) {
      return statement
    }
    let statement = try database.prepare(sql)
    statements[sql] = (ObjectIdentifier(database), statement)
    return statement
  }

  func run(_ database: Database, _ sql: String, _ bindings: SQLiteValue...) throws(SQLiteError) {
    let statement = try statement(database, sql)
    try statement.bind(bindings)
    while try statement.step() != nil {}
  }

  func query(_ database: Database, _ sql: String, _ bindings: SQLiteValue...) throws(SQLiteError)
    -> [Row]
  {
    let statement = try statement(database, sql)
    try statement.bind(bindings)
    return try statement.allRows()
  }
}
