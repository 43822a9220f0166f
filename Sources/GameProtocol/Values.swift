public import GameRules

/// Who makes the first move of an online game.
public enum FirstMover: UInt8, CaseIterable, Sendable {
  case x = 0
  case o = 1
  /// A coin toss on the server when the game is created.
  case random = 2
}

/// The settings of a game to create: the board and who starts.
public struct GameOptions: Equatable, Sendable {
  /// Rows, 3 to 15.
  public var rows: Int
  /// Columns, 3 to 15.
  public var columns: Int
  /// Marks in a row to win, 3 to the longer side.
  public var k: Int
  /// Who starts.
  public var first: FirstMover

  /// Creates options; the server validates them.
  public init(rows: Int = 3, columns: Int = 3, k: Int = 3, first: FirstMover = .x) {
    self.rows = rows
    self.columns = columns
    self.k = k
    self.first = first
  }
}

/// A seated player as others see them.
public struct SeatedPlayer: Equatable, Sendable {
  /// The account's user name.
  public var name: String
  /// The Elo rating before this game.
  public var rating: Int
  /// Seconds left of the reconnect grace while the player is away; `nil` while connected.
  public var awaySeconds: UInt32?

  /// Creates a player.
  public init(name: String, rating: Int, awaySeconds: UInt32? = nil) {
    self.name = name
    self.rating = rating
    self.awaySeconds = awaySeconds
  }
}

/// How a game ended.
public enum EndReason: UInt8, CaseIterable, Sendable {
  /// A line or a full board.
  case completed = 0
  /// A player stayed away longer than the reconnect grace.
  case forfeit = 1
  /// A player resigned.
  case resigned = 2
}

/// The end of a game: the winner (none for a draw), why, and the ratings after it.
public struct GameEnd: Equatable, Sendable {
  /// The winner, or `nil` for a draw.
  public var winner: Mark?
  /// Why the game ended.
  public var reason: EndReason
  /// X's rating after the game.
  public var xRating: Int
  /// O's rating after the game.
  public var oRating: Int

  /// Creates an end.
  public init(winner: Mark?, reason: EndReason, xRating: Int, oRating: Int) {
    self.winner = winner
    self.reason = reason
    self.xRating = xRating
    self.oRating = oRating
  }
}

/// Where a game stands.
public enum GameStatus: Equatable, Sendable {
  /// Created, waiting for an opponent to join with the code.
  case waiting
  /// Both seats taken; moves are being played.
  case playing
  /// Over.
  case finished(GameEnd)
}

/// Everything a client needs to show a game: sent on create, join, watch and rejoin.
public struct GameSnapshot: Equatable, Sendable {
  /// The invite code, which names the game.
  public var code: String
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// Marks in a row to win.
  public var k: Int
  /// Who moved (or moves) first.
  public var firstMover: Mark
  /// X's player, once seated.
  public var x: SeatedPlayer?
  /// O's player, once seated.
  public var o: SeatedPlayer?
  /// Every committed move, in order.
  public var moves: [Cell]
  /// Where the game stands.
  public var status: GameStatus
  /// The receiver's side, or `nil` for a spectator.
  public var role: Mark?

  /// Creates a snapshot.
  public init(
    code: String, rows: Int, columns: Int, k: Int, firstMover: Mark, x: SeatedPlayer?,
    o: SeatedPlayer?, moves: [Cell], status: GameStatus, role: Mark?
  ) {
    self.code = code
    self.rows = rows
    self.columns = columns
    self.k = k
    self.firstMover = firstMover
    self.x = x
    self.o = o
    self.moves = moves
    self.status = status
    self.role = role
  }

  /// The player of `mark`, if seated.
  public func player(_ mark: Mark) -> SeatedPlayer? { mark == .x ? x : o }
}

/// A game as `games` lists it.
public struct GameListing: Equatable, Sendable {
  /// The invite code.
  public var code: String
  /// Whether it waits for an opponent (`true`) or is being played.
  public var isOpen: Bool
  /// X's name, once seated.
  public var xName: String?
  /// O's name, once seated.
  public var oName: String?
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// Marks in a row to win.
  public var k: Int
  /// Moves played so far.
  public var moveCount: Int

  /// Creates a listing.
  public init(
    code: String, isOpen: Bool, xName: String?, oName: String?, rows: Int, columns: Int, k: Int,
    moveCount: Int
  ) {
    self.code = code
    self.isOpen = isOpen
    self.xName = xName
    self.oName = oName
    self.rows = rows
    self.columns = columns
    self.k = k
    self.moveCount = moveCount
  }
}

/// Where a page of an account's history ends: the next page holds the games that ended before
/// this one (or at the same moment with a smaller id), newest first.
public struct HistoryCursor: Hashable, Sendable {
  /// When the last game of the page ended, in milliseconds since 1970.
  public var endedAt: Int64
  /// The last game's id.
  public var id: Int64

  /// Creates a cursor.
  public init(endedAt: Int64, id: Int64) {
    self.endedAt = endedAt
    self.id = id
  }

  /// The cursor after `game`, the last one of a page.
  public init(after game: FinishedGame) {
    self.init(endedAt: game.endedAt, id: game.id)
  }
}

/// A finished game as the server keeps it, for `history --server` and `replay --server`.
public struct FinishedGame: Equatable, Sendable {
  /// The server's id of the game, for `replay --server`.
  public var id: Int64
  /// X's account name.
  public var xName: String
  /// O's account name.
  public var oName: String
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// Marks in a row that win.
  public var k: Int
  /// Who moved first.
  public var firstMover: Mark
  /// Every move, in order.
  public var moves: [Cell]
  /// The winner, or `nil` for a draw.
  public var winner: Mark?
  /// When the game was created, in milliseconds since 1970.
  public var startedAt: Int64
  /// When it ended, in milliseconds since 1970.
  public var endedAt: Int64

  /// Creates a finished game.
  public init(
    id: Int64, xName: String, oName: String, rows: Int, columns: Int, k: Int, firstMover: Mark,
    moves: [Cell], winner: Mark?, startedAt: Int64, endedAt: Int64
  ) {
    self.id = id
    self.xName = xName
    self.oName = oName
    self.rows = rows
    self.columns = columns
    self.k = k
    self.firstMover = firstMover
    self.moves = moves
    self.winner = winner
    self.startedAt = startedAt
    self.endedAt = endedAt
  }
}

/// An account's online record.
public struct PlayerStats: Equatable, Sendable {
  /// The user name as the account spells it.
  public var userName: String
  /// The Elo rating.
  public var rating: Int
  /// Online games won.
  public var wins: Int
  /// Online games lost.
  public var losses: Int
  /// Online games drawn.
  public var draws: Int
  /// The run of wins ending with the latest game.
  public var currentStreak: Int
  /// The longest run of wins.
  public var bestStreak: Int

  /// Creates stats.
  public init(
    userName: String, rating: Int, wins: Int, losses: Int, draws: Int, currentStreak: Int,
    bestStreak: Int
  ) {
    self.userName = userName
    self.rating = rating
    self.wins = wins
    self.losses = losses
    self.draws = draws
    self.currentStreak = currentStreak
    self.bestStreak = bestStreak
  }

  /// Games finished.
  public var games: Int { wins + losses + draws }
}

/// Invite codes: six or more characters from an alphabet without look-alikes, read in any case.
public enum InviteCode {
  /// The characters of a code: digits and capitals without 0, 1, I, L and O.
  public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")

  /// The length of the codes the server makes.
  public static let length = 6

  /// The code in its canonical form (capitals, without spaces and hyphens), if it is one.
  ///
  /// - Parameter text: A code as typed.
  /// - Returns: The code, or `nil` when it has characters outside the alphabet or is too short
  ///   or too long (over 16).
  public static func normalized(_ text: String) -> String? {
    let characters = text.uppercased().filter { $0 != " " && $0 != "-" }
    guard (length...16).contains(characters.count),
      characters.allSatisfy({ alphabet.contains($0) })
    else { return nil }
    return String(characters)
  }

  /// A code from `length` random draws below the alphabet's size.
  ///
  /// - Parameter draw: Returns a random integer in `0..<upperBound`.
  /// - Returns: The code.
  public static func make(_ draw: (_ upperBound: Int) -> Int) -> String {
    String((0..<length).map { _ in alphabet[draw(alphabet.count)] })
  }
}

extension FinishedGame {
  /// Whether the winner follows from the moves: a line gives it, and a game ended before a
  /// line or a full board (a resignation, a forfeit) has a winner all the same.
  public var resultFollowsFromItsMoves: Bool {
    guard let start = try? Board(rows: rows, columns: columns, k: k, firstMover: firstMover),
      let game = try? Game(start: start, moves: moves)
    else { return false }
    switch game.board.outcome {
    case .win(let mark, _): return winner == mark
    case .draw: return winner == nil
    case .inProgress: return winner != nil
    }
  }
}
