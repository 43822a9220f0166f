import AuthenticationClient
import DatabaseClient
import GameRules

// The JSON of `stats`, `history` and `account list`: one Encodable type an object, keys in the
// order the documented outputs list them.

/// `stats --json`.
struct StatsOutput: Encodable {
  @Null var user: String?
  let games: Int
  let wins: Int
  let losses: Int
  let draws: Int
  @Null var winRate: Double?
  let currentStreak: Int
  let bestStreak: Int
  let opponents: [TallyOutput]
  let recentGames: [GameOutput]

  init(_ stats: Stats, user: String?) {
    self.user = user
    games = stats.games
    wins = stats.wins
    losses = stats.losses
    draws = stats.draws
    winRate = stats.winRate
    currentStreak = stats.currentStreak
    bestStreak = stats.bestStreak
    opponents = stats.tallies.map(TallyOutput.init)
    recentGames = stats.recentGames.map(GameOutput.init)
  }
}

/// One opponent's tally: `person`, or `computer` with its difficulty.
struct TallyOutput: Encodable {
  let opponent: String
  let difficulty: String?
  let games: Int
  let wins: Int
  let losses: Int
  let draws: Int

  init(_ tally: Tally) {
    switch tally.opponent {
    case .person:
      opponent = "person"
      difficulty = nil
    case .computer(let level):
      opponent = "computer"
      difficulty = level.name
    }
    games = tally.games
    wins = tally.wins
    losses = tally.losses
    draws = tally.draws
  }
}

/// `history --json`.
struct HistoryOutput: Encodable {
  @Null var user: String?
  let games: [GameOutput]
}

/// One recorded game.
struct GameOutput: Encodable {
  @Null var id: Int64?
  let date: String
  let startedAt: Int64
  @Null var endedAt: Int64?
  let x: PlayerOutput
  let o: PlayerOutput
  let rows: Int
  let columns: Int
  let k: Int
  let firstMover: String
  let moves: [String]
  @Null var board: String?
  @Null var result: String?

  init(_ record: GameRecord) {
    id = record.id
    date = RecordFormatting.date(record.endedAt ?? record.startedAt, utc: true)
    startedAt = record.startedAt
    endedAt = record.endedAt
    x = PlayerOutput(record.x)
    o = PlayerOutput(record.o)
    rows = record.rows
    columns = record.columns
    k = record.k
    firstMover = record.firstMover.rawValue
    moves = record.moves.map(\.name)
    board = try? record.game().board.notation
    result = record.result?.rawValue
  }
}

/// One side of a recorded game.
struct PlayerOutput: Encodable {
  let name: String
  @Null var accountID: Int64?
  @Null var computer: String?

  init(_ player: PlayerRecord) {
    name = player.name
    accountID = player.accountID
    computer = player.computer?.name
  }
}

/// `account list --json`.
struct AccountListOutput: Encodable {
  let accounts: [Account]

  struct Account: Encodable {
    let id: Int64
    let userName: String
    let twoFactor: Bool
  }

  init(_ accounts: [AccountSummary]) {
    self.accounts = accounts.map {
      Account(id: $0.id, userName: $0.userName, twoFactor: $0.hasTwoFactor)
    }
  }
}
