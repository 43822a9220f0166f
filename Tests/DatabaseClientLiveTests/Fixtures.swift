import DatabaseClient
import DatabaseClientLive
import GameRules
import SQLite

/// Builders for scripted records.
enum Fixture {
  static let ann = PlayerRecord(name: "Ann", accountID: 1)
  static let guest = PlayerRecord(name: "Guest")
  static func computer(_ difficulty: Difficulty) -> PlayerRecord {
    PlayerRecord(name: "Computer", computer: difficulty)
  }

  /// A finished 3×3 game ending at `time`, with moves that fit the result.
  static func game(
    x: PlayerRecord, o: PlayerRecord, result: GameResult, at time: Timestamp
  ) -> GameRecord {
    let moves: [String] =
      switch result {
      case .xWins: ["a1", "b1", "a2", "b2", "a3"]
      case .oWins: ["c3", "a1", "b3", "a2", "c1", "a3"]
      case .draw: ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]
      }
    return GameRecord(
      x: x, o: o, moves: moves.compactMap { Cell(name: $0) }, result: result,
      startedAt: time - 60_000, endedAt: time)
  }

  /// A game Ann plays as X against `opponent`, with her outcome.
  static func annAsX(against opponent: PlayerRecord, _ outcome: Outcome, at time: Timestamp)
    -> GameRecord
  {
    game(x: ann, o: opponent, result: outcome.asX, at: time)
  }

  /// A game Ann plays as O against `opponent`, with her outcome.
  static func annAsO(against opponent: PlayerRecord, _ outcome: Outcome, at time: Timestamp)
    -> GameRecord
  {
    game(x: opponent, o: ann, result: outcome.asO, at: time)
  }

  enum Outcome {
    case win, loss, draw

    var asX: GameResult {
      switch self {
      case .win: .xWins
      case .loss: .oWins
      case .draw: .draw
      }
    }

    var asO: GameResult {
      switch self {
      case .win: .oWins
      case .loss: .xWins
      case .draw: .draw
      }
    }
  }
}

extension LocalDatabase {
  /// Adds Ann's account (id 1), which records refer to.
  func addingAnn() throws -> LocalDatabase {
    try withConnection { database throws(SQLiteError) in
      try database.run(
        """
        INSERT INTO accounts (id, user_name, user_key, password_hash, created_at)
        VALUES (1, 'Ann', 'ann', '$scrypt$ln=4,r=1,p=1$00$00', 0)
        """)
    }
    return self
  }
}
