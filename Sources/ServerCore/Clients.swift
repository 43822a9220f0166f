public import AuthenticationClient
public import GameProtocol
public import GameRules

/// A connection as the server's logic knows it: a number the transport gave it.
public struct ClientID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The transport's number for the connection.
  public let rawValue: UInt64

  /// Creates an id.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// A signed-in account on a connection: who, their rating and the session's token.
public struct SignedInAccount: Equatable, Sendable {
  /// The account's id.
  public var accountID: Int64
  /// The user name as the account spells it.
  public var userName: String
  /// The rating, rounded.
  public var rating: Int
  /// The token that resumes the session after a dropped connection.
  public var token: String
  /// The accounts' own session, after a sign-in with a password on this connection (not after
  /// a resumed session): what recovery-code requests need.
  public var accountsSession: Session?

  /// Creates an account.
  public init(
    accountID: Int64, userName: String, rating: Int, token: String,
    accountsSession: Session? = nil
  ) {
    self.accountID = accountID
    self.userName = userName
    self.rating = rating
    self.token = token
    self.accountsSession = accountsSession
  }
}

/// A seat of a stored game: the account and the rating it had when it sat down.
public struct SeatRecord: Equatable, Sendable {
  /// The account's id.
  public var accountID: Int64
  /// The user name.
  public var name: String
  /// The rating, rounded.
  public var rating: Int

  /// Creates a seat record.
  public init(accountID: Int64, name: String, rating: Int) {
    self.accountID = accountID
    self.name = name
    self.rating = rating
  }
}

/// An online game as the server's database keeps it.
public struct OnlineGameRecord: Equatable, Sendable {
  /// The invite code.
  public var code: String
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// Marks in a row to win.
  public var k: Int
  /// Who moves first.
  public var firstMover: Mark
  /// The creator, who plays X.
  public var x: SeatRecord
  /// The opponent, once joined.
  public var o: SeatRecord?
  /// The committed moves.
  public var moves: [Cell]
  /// When the game was created, in milliseconds since 1970.
  public var createdAt: Int64

  /// Creates a record.
  public init(
    code: String, rows: Int, columns: Int, k: Int, firstMover: Mark, x: SeatRecord,
    o: SeatRecord? = nil, moves: [Cell] = [], createdAt: Int64
  ) {
    self.code = code
    self.rows = rows
    self.columns = columns
    self.k = k
    self.firstMover = firstMover
    self.x = x
    self.o = o
    self.moves = moves
    self.createdAt = createdAt
  }
}

/// How a stored game ends.
public struct Ending: Equatable, Sendable {
  /// The winner, or `nil` for a draw.
  public var winner: Mark?
  /// Why.
  public var reason: EndReason

  /// Creates an ending.
  public init(winner: Mark?, reason: EndReason) {
    self.winner = winner
    self.reason = reason
  }
}

/// Ratings after a game, rounded.
public struct Ratings: Equatable, Sendable {
  /// X's rating.
  public var x: Int
  /// O's rating.
  public var o: Int

  /// Creates ratings.
  public init(x: Int, o: Int) {
    self.x = x
    self.o = o
  }
}

/// The server's database: sessions, online games and their moves, results and ratings.
///
/// Every write is committed before it returns, so whatever the server announces survives a
/// crash. Every endpoint throws when the database fails.
public struct ServerStorageClient: Sendable {
  /// Opens a session for a signed-in account and returns it with its token and rating.
  public var openSession: @Sendable (_ session: Session) async throws -> SignedInAccount
  /// The account of a session token, or `nil` when the token is unknown or expired.
  public var resumeSession: @Sendable (_ token: String) async throws -> SignedInAccount?
  /// Ends every session of an account (after a password change); returns the account's id, or
  /// `nil` when no account has the name.
  public var endSessions: @Sendable (_ userName: String) async throws -> Int64?
  /// The id of the account a user name names, as the accounts find it, or `nil`.
  public var accountID: @Sendable (_ userName: String) async throws -> Int64?
  /// Stores a new game.
  public var createGame: @Sendable (_ game: OnlineGameRecord) async throws -> Void
  /// Stores the opponent who joined a game.
  public var seatOpponent: @Sendable (_ code: String, _ seat: SeatRecord) async throws -> Void
  /// Stores a move; when `ending` is given, the game's end and the new ratings in the same
  /// transaction, returning the ratings.
  public var commitMove:
    @Sendable (_ code: String, _ ply: Int, _ cell: Cell, _ ending: Ending?) async throws
      -> Ratings?
  /// Stores the end of a game without a move (forfeit, resignation) and the new ratings.
  public var finishGame: @Sendable (_ code: String, _ ending: Ending) async throws -> Ratings
  /// Forgets a game that never started; throws when it is not stored as open (nobody joined,
  /// not ended), so that nothing is announced gone that the database still holds.
  public var cancelGame: @Sendable (_ code: String) async throws -> Void
  /// An account's online record, or `nil` when no account has the name.
  public var stats: @Sendable (_ userName: String) async throws -> PlayerStats?
  /// An account's finished games, newest first, at most `limit`: the latest ones, or those after
  /// `before` in that order; `nil` when no account has the name.
  public var history:
    @Sendable (_ userName: String, _ before: HistoryCursor?, _ limit: Int) async throws
      -> [FinishedGame]?
  /// A finished game by its id, or `nil` when there is none.
  public var finishedGame: @Sendable (_ id: Int64) async throws -> FinishedGame?

  /// Creates a client from its endpoints.
  public init(
    openSession: @escaping @Sendable (_ session: Session) async throws -> SignedInAccount,
    resumeSession: @escaping @Sendable (_ token: String) async throws -> SignedInAccount?,
    endSessions: @escaping @Sendable (_ userName: String) async throws -> Int64?,
    accountID: @escaping @Sendable (_ userName: String) async throws -> Int64? = { _ in nil },
    createGame: @escaping @Sendable (_ game: OnlineGameRecord) async throws -> Void,
    seatOpponent: @escaping @Sendable (_ code: String, _ seat: SeatRecord) async throws -> Void,
    commitMove:
      @escaping @Sendable (_ code: String, _ ply: Int, _ cell: Cell, _ ending: Ending?)
      async throws -> Ratings?,
    finishGame: @escaping @Sendable (_ code: String, _ ending: Ending) async throws -> Ratings,
    cancelGame: @escaping @Sendable (_ code: String) async throws -> Void,
    stats: @escaping @Sendable (_ userName: String) async throws -> PlayerStats?,
    history:
      @escaping @Sendable (_ userName: String, _ before: HistoryCursor?, _ limit: Int)
      async throws -> [FinishedGame]? = { _, _, _ in nil },
    finishedGame: @escaping @Sendable (_ id: Int64) async throws -> FinishedGame? = { _ in nil }
  ) {
    self.openSession = openSession
    self.resumeSession = resumeSession
    self.endSessions = endSessions
    self.accountID = accountID
    self.createGame = createGame
    self.seatOpponent = seatOpponent
    self.commitMove = commitMove
    self.finishGame = finishGame
    self.cancelGame = cancelGame
    self.stats = stats
    self.history = history
    self.finishedGame = finishedGame
  }
}
