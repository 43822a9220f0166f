import AuthenticationClient
import DatabaseClient
import GameRules

// The JSON of `stats`, `history` and `account list`: one output type an object, keys in the
// order the documented outputs list them.

/// `stats --json`.
struct StatsOutput: JSONObject {
  let stats: Stats
  let user: String?

  var fields: [(key: String, value: (any Encodable)?)] {
    [
      ("user", user), ("games", stats.games), ("wins", stats.wins), ("losses", stats.losses),
      ("draws", stats.draws), ("winRate", stats.winRate),
      ("currentStreak", stats.currentStreak), ("bestStreak", stats.bestStreak),
      ("opponents", stats.tallies.map(TallyOutput.init)),
      ("recentGames", stats.recentGames.map(GameOutput.init)),
    ]
  }
}

/// One opponent's tally: `person`, or `computer` with its difficulty and the level's name as
/// shown (`Strongest` for `unbeatable` on the boards where it cannot promise never to lose).
struct TallyOutput: JSONObject {
  let tally: Tally

  var fields: [(key: String, value: (any Encodable)?)] {
    let opponent: [(key: String, value: (any Encodable)?)] =
      switch tally.opponent {
      case .person: [("opponent", "person")]
      case .computer(let level, _):
        [("opponent", "computer"), ("difficulty", level.name), ("level", tally.opponent.levelName)]
      }
    return opponent + [
      ("games", tally.games), ("wins", tally.wins), ("losses", tally.losses),
      ("draws", tally.draws),
    ]
  }
}

/// `history --json`.
struct HistoryOutput: JSONObject {
  let user: String?
  let games: [GameRecord]

  var fields: [(key: String, value: (any Encodable)?)] {
    [("user", user), ("games", games.map(GameOutput.init))]
  }
}

/// One recorded game.
struct GameOutput: JSONObject {
  let record: GameRecord

  var fields: [(key: String, value: (any Encodable)?)] {
    [
      ("id", record.id),
      ("date", RecordFormatting.date(record.endedAt ?? record.startedAt, utc: true)),
      ("startedAt", record.startedAt), ("endedAt", record.endedAt),
      ("x", PlayerOutput(player: record.x)), ("o", PlayerOutput(player: record.o)),
      ("rows", record.rows), ("columns", record.columns), ("k", record.k),
      ("firstMover", record.firstMover.rawValue), ("moves", record.moves.map(\.name)),
      ("board", try? record.game().board.notation), ("result", record.result?.rawValue),
    ]
  }
}

/// One side of a recorded game.
struct PlayerOutput: JSONObject {
  let player: PlayerRecord

  var fields: [(key: String, value: (any Encodable)?)] {
    [
      ("name", player.name), ("accountID", player.accountID),
      ("computer", player.computer?.name),
    ]
  }
}

/// `account list --json`.
struct AccountListOutput: JSONObject {
  let accounts: [AccountSummary]

  var fields: [(key: String, value: (any Encodable)?)] {
    [("accounts", accounts.map(AccountOutput.init))]
  }
}

/// One account in `account list --json`.
struct AccountOutput: JSONObject {
  let account: AccountSummary

  var fields: [(key: String, value: (any Encodable)?)] {
    [("id", account.id), ("userName", account.userName), ("twoFactor", account.hasTwoFactor)]
  }
}
