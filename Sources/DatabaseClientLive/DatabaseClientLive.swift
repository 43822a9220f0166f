public import DatabaseClient
import GameRules
import SQLite

extension DatabaseClient {
  /// The game records kept in a local SQLite database.
  ///
  /// - Parameter database: The opened, migrated database.
  /// - Returns: A client whose endpoints throw ``DatabaseError`` with one sentence.
  public static func live(database: LocalDatabase) -> DatabaseClient {
    let records = Records(database: database)
    // One client is one session: a game in progress it writes is its own until it lets go.
    let claims = GameInProgressClaims(databasePath: database.path)
    return DatabaseClient(
      saveFinishedGame: { record in try records.saveFinished(record) },
      finishGameInProgress: { record, owner in
        try claims.hold(owner)
        return try records.saveFinished(record, owner: owner)
      },
      saveGameInProgress: { record, owner in
        try claims.hold(owner)
        try records.saveInProgress(record, owner: owner)
      },
      loadGameInProgress: { owner in try records.loadInProgress(owner: owner) },
      clearGameInProgress: { owner in
        try claims.hold(owner)
        try records.clearInProgress(owner: owner)
      },
      claimGameInProgress: { owner in try claims.hold(owner) },
      releaseGameInProgress: { owner in claims.release(owner) },
      stats: { owner in try records.stats(owner: owner) },
      history: { owner, limit in try records.history(owner: owner, limit: limit) },
      game: { id in try records.game(id: id) },
      resetStats: { owner in try records.reset(owner: owner) }
    )
  }
}

/// The SQL behind the records client.
private struct Records: Sendable {
  let database: LocalDatabase

  private static let gameColumns = """
    id, x_name, x_account, x_computer, o_name, o_account, o_computer, board_rows, \
    board_columns, k, first_mover, result, started_at, ended_at
    """

  // The owner's finished games with the side the owner played. ?1 is the account id, or NULL
  // for the guest: games with no account. A guest hot-seat game counts from X's side, as does
  // an account playing itself. Games between two computers are listed but scored for no one.
  private static let owned = """
    WITH owned AS (
      SELECT id, ended_at, result, x_computer, o_computer, board_rows, board_columns, k,
        CASE
          WHEN ?1 IS NOT NULL AND x_account = ?1 THEN 'x'
          WHEN ?1 IS NULL AND x_computer IS NULL THEN 'x'
          ELSE 'o'
        END AS side
      FROM games
      WHERE saved_for IS NULL AND (
        (?1 IS NOT NULL AND (x_account = ?1 OR o_account = ?1))
        OR (?1 IS NULL AND x_account IS NULL AND o_account IS NULL))
    ),
    scored AS (
      SELECT id, ended_at,
        CASE
          WHEN result = 'draw' THEN 'draw'
          WHEN result = side || 'Wins' THEN 'win'
          ELSE 'loss'
        END AS outcome,
        CASE WHEN side = 'x' THEN o_computer ELSE x_computer END AS opponent_skill,
        board_rows, board_columns, k
      FROM owned
      WHERE x_computer IS NULL OR o_computer IS NULL
    ),
    runs AS (
      SELECT outcome,
        SUM(outcome <> 'win') OVER (ORDER BY ended_at, id ROWS UNBOUNDED PRECEDING) AS run
      FROM scored
    )
    """

  // MARK: - Writing

  /// Saves a finished game and, given its owner, forgets the owner's game in progress with it.
  func saveFinished(_ record: GameRecord, owner: RecordOwner? = nil) throws(DatabaseError) -> Int64
  {
    guard record.result != nil, record.endedAt != nil else {
      throw DatabaseError(
        "A game without a result and an end time cannot be saved as finished.",
        kind: .invalidRequest)
    }
    return try write { database throws(SQLiteError) in
      if let owner {
        try database.run("DELETE FROM games WHERE saved_for = ?", ownerKey(owner))
      }
      return try insert(record, savedFor: nil, into: database)
    }
  }

  func saveInProgress(_ record: GameRecord, owner: RecordOwner) throws(DatabaseError) {
    try write { database throws(SQLiteError) in
      // A save of an earlier move can land after the finished game was recorded and the game
      // in progress cleared; a game that has ended is never offered for resuming.
      let finished = try database.query(
        """
        SELECT 1 FROM games WHERE saved_for IS NULL AND result IS NOT NULL
          AND started_at = ? AND x_name = ? AND o_name = ?
        """, .integer(Int(record.startedAt)), .text(record.x.name), .text(record.o.name))
      guard finished.isEmpty else { return }
      try database.run("DELETE FROM games WHERE saved_for = ?", ownerKey(owner))
      _ = try insert(record, savedFor: ownerKey(owner), into: database)
    }
  }

  func clearInProgress(owner: RecordOwner) throws(DatabaseError) {
    try write { database throws(SQLiteError) in
      try database.run("DELETE FROM games WHERE saved_for = ?", ownerKey(owner))
    }
  }

  func reset(owner: RecordOwner) throws(DatabaseError) {
    try write { database throws(SQLiteError) in
      // Exactly the games the stats count: a game between two computers is nobody's, and
      // stays in the history.
      try database.run(
        Self.owned + "DELETE FROM games WHERE id IN (SELECT id FROM scored)", accountID(owner))
    }
  }

  private func insert(
    _ record: GameRecord, savedFor: SQLiteValue?, into database: Database
  ) throws(SQLiteError) -> Int64 {
    try database.run(
      """
      INSERT INTO games (id, x_name, x_account, x_computer, o_name, o_account, o_computer,
        board_rows, board_columns, k, first_mover, result, started_at, ended_at, saved_for)
      VALUES (\(Schema.nextGameID), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      .text(record.x.name), SQLiteValue(record.x.accountID), SQLiteValue(record.x.computer?.skill),
      .text(record.o.name), SQLiteValue(record.o.accountID), SQLiteValue(record.o.computer?.skill),
      .integer(record.rows), .integer(record.columns), .integer(record.k),
      .text(record.firstMover.rawValue), SQLiteValue(record.result?.rawValue),
      SQLiteValue(record.startedAt), SQLiteValue(record.endedAt), savedFor ?? .null)
    let id = database.lastInsertRowID
    let insertMove = try database.prepare(
      "INSERT INTO moves (game_id, ply, cell_row, cell_column) VALUES (?, ?, ?, ?)")
    for (ply, cell) in record.moves.enumerated() {
      try insertMove.bind([.integer(id), .integer(ply), .integer(cell.row), .integer(cell.column)])
      _ = try insertMove.step()
    }
    return Int64(id)
  }

  // MARK: - Reading

  func loadInProgress(owner: RecordOwner) throws(DatabaseError) -> GameRecord? {
    try read { database throws(SQLiteError) in
      try games(
        in: database, where: "saved_for = ?", bindings: [ownerKey(owner)]
      ).first
    }
  }

  func game(id: Int64) throws(DatabaseError) -> GameRecord? {
    try read { database throws(SQLiteError) in
      try games(in: database, where: "saved_for IS NULL AND id = ?", bindings: [SQLiteValue(id)])
        .first
    }
  }

  func history(owner: RecordOwner, limit: Int) throws(DatabaseError) -> [GameRecord] {
    try read { database throws(SQLiteError) in
      try history(owner: owner, limit: limit, in: database)
    }
  }

  private func history(
    owner: RecordOwner, limit: Int, in database: Database
  ) throws(SQLiteError) -> [GameRecord] {
    try games(
      in: database, with: Self.owned,
      where: "id IN (SELECT id FROM owned) ORDER BY ended_at DESC, id DESC LIMIT ?2",
      bindings: [accountID(owner), .integer(max(0, limit))])
  }

  func stats(owner: RecordOwner) throws(DatabaseError) -> Stats {
    // One read transaction, so a game saved meanwhile by another program counts in all three
    // queries or in none.
    try read { database throws(SQLiteError) in
      try database.transaction(.deferred) {
        () throws(SQLiteError) -> Stats in
        let account = accountID(owner)
        // Grouped by board too: the top level is named Strongest on some, Unbeatable on others.
        var tallies: [Tally] = []
        for row in try database.query(
          Self.owned
            + """
            SELECT opponent_skill, board_rows, board_columns, k, SUM(outcome = 'win'),
              SUM(outcome = 'loss'), SUM(outcome = 'draw')
            FROM scored
            GROUP BY opponent_skill, board_rows, board_columns, k
            """, account)
        {
          let skill: Double? = try row.get(0)
          let opponent = try skill.map { skill throws(SQLiteError) in
            OpponentKind.computer(
              Difficulty(skill: skill), rows: try row.get(1), columns: try row.get(2),
              k: try row.get(3))
          }
          let tally = Tally(
            opponent: opponent ?? .person, wins: try row.get(4), losses: try row.get(5),
            draws: try row.get(6))
          guard let index = tallies.firstIndex(where: { $0.opponent == tally.opponent }) else {
            tallies.append(tally)
            continue
          }
          tallies[index].wins += tally.wins
          tallies[index].losses += tally.losses
          tallies[index].draws += tally.draws
        }
        tallies.sort { Self.order(of: $0.opponent) < Self.order(of: $1.opponent) }
        // Each run number groups the wins that follow one non-win; the last run's wins are the
        // current streak.
        let streaks = try database.query(
          Self.owned
            + """
            SELECT
              COALESCE((SELECT MAX(length) FROM
                (SELECT COUNT(*) AS length FROM runs WHERE outcome = 'win' GROUP BY run)), 0),
              (SELECT COUNT(*) FROM runs
                WHERE outcome = 'win' AND run = (SELECT MAX(run) FROM runs))
            """, account)
        let recent = try history(owner: owner, limit: 10, in: database)
        return Stats(
          tallies: tallies, currentStreak: try streaks.first?.get(1) ?? 0,
          bestStreak: try streaks.first?.get(0) ?? 0, recentGames: recent)
      }
    }
  }

  /// Where a kind of opponent comes in the stats: people first, then the computer from the
  /// weakest level up, the top level where it is Unbeatable before where it is Strongest.
  private static func order(of opponent: OpponentKind) -> (Double, Int) {
    switch opponent {
    case .person: (-1, 0)
    case .computer(let difficulty, let isStrongest): (difficulty.skill, isStrongest ? 1 : 0)
    }
  }

  private func games(
    in database: Database, with prefix: String = "", where condition: String,
    bindings: [SQLiteValue]
  ) throws(SQLiteError) -> [GameRecord] {
    let rows = try database.query(
      prefix + "SELECT \(Self.gameColumns) FROM games WHERE " + condition, bindings: bindings)
    let movesQuery = try database.prepare(
      "SELECT cell_row, cell_column FROM moves WHERE game_id = ? ORDER BY ply")
    var records: [GameRecord] = []
    for row in rows {
      let id: Int = try row.get(0)
      try movesQuery.bind([.integer(id)])
      let moves = try movesQuery.allRows().map { move throws(SQLiteError) in
        Cell(row: try move.get(0), column: try move.get(1))
      }
      records.append(try record(from: row, moves: moves))
    }
    return records
  }

  private func record(from row: Row, moves: [Cell]) throws(SQLiteError) -> GameRecord {
    let firstMoverText: String = try row.get(10)
    let resultText: String? = try row.get(11)
    guard let firstMover = Mark(rawValue: firstMoverText) else {
      throw SQLiteError(
        kind: .notADatabase, message: "unknown first mover \(firstMoverText)",
        path: database.path)
    }
    let result = try resultText.map { text throws(SQLiteError) in
      guard let result = GameResult(rawValue: text) else {
        throw SQLiteError(
          kind: .notADatabase, message: "unknown result \(text)", path: database.path)
      }
      return result
    }
    return GameRecord(
      id: try row.get(0),
      x: PlayerRecord(
        name: storedName(try row.get(1)), accountID: try row.get(2),
        computer: (try row.get(3, as: Double?.self)).map(Difficulty.init(skill:))),
      o: PlayerRecord(
        name: storedName(try row.get(4)), accountID: try row.get(5),
        computer: (try row.get(6, as: Double?.self)).map(Difficulty.init(skill:))),
      rows: try row.get(7), columns: try row.get(8), k: try row.get(9), firstMover: firstMover,
      moves: moves, result: result, startedAt: try row.get(12), endedAt: try row.get(13))
  }

  /// A player's name as read: the name rule's form, or, for a name stored against the rule
  /// (by an earlier version or another program), the name with its control characters escaped
  /// and cut to the longest name allowed.
  private func storedName(_ stored: String) -> String {
    if let name = try? Name.validated(stored) { return name }
    return stored.trimmingWhitespace().escaped(cutTo: Name.maximumLength)
  }

  // MARK: - Owners and errors

  private func ownerKey(_ owner: RecordOwner) -> SQLiteValue {
    switch owner {
    case .account(let id): .integer(Int(id))
    case .guest: .integer(0)
    }
  }

  private func accountID(_ owner: RecordOwner) -> SQLiteValue {
    switch owner {
    case .account(let id): .integer(Int(id))
    case .guest: .null
    }
  }

  private func read<Result: Sendable>(
    _ body: (Database) throws(SQLiteError) -> Result
  ) throws(DatabaseError) -> Result {
    do {
      return try database.withConnection(body)
    } catch {
      throw DatabaseError(error)
    }
  }

  private func write<Result: Sendable>(
    _ body: (Database) throws(SQLiteError) -> Result
  ) throws(DatabaseError) -> Result {
    try read { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in try body(database) }
    }
  }
}
