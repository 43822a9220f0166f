public import GameRules

/// Whose records to read: a signed-in account, or the guest (games with no account).
public enum RecordOwner: Hashable, Sendable {
  /// The account with this id.
  case account(Int64)
  /// Everyone who played without signing in.
  case guest
}

/// What the stats group games by: a person or the computer at one difficulty.
public enum OpponentKind: Hashable, Sendable {
  /// Another person at the same keyboard.
  case person
  /// The computer at a difficulty. The top level counts apart on the boards where it is named
  /// Strongest (`isStrongest`), so that a game won there is never said to be won against
  /// Unbeatable.
  case computer(Difficulty, isStrongest: Bool = false)

  /// The computer at `difficulty` on a board of this shape.
  public static func computer(_ difficulty: Difficulty, rows: Int, columns: Int, k: Int) -> Self {
    .computer(difficulty, isStrongest: difficulty.isStrongest(rows: rows, columns: columns, k: k))
  }

  /// The computer's level as New game named it (`Hard`, `Unbeatable`, `Strongest`), or `nil`
  /// for a person.
  public var levelName: String? {
    guard case .computer(let difficulty, let isStrongest) = self else { return nil }
    return isStrongest ? Difficulty.strongestName : difficulty.displayName
  }
}

/// Wins, losses and draws against one kind of opponent.
public struct Tally: Equatable, Sendable {
  /// The kind of opponent.
  public var opponent: OpponentKind
  /// Games won.
  public var wins: Int
  /// Games lost.
  public var losses: Int
  /// Games drawn.
  public var draws: Int

  /// Creates a tally.
  public init(opponent: OpponentKind, wins: Int = 0, losses: Int = 0, draws: Int = 0) {
    self.opponent = opponent
    self.wins = wins
    self.losses = losses
    self.draws = draws
  }

  /// All games counted.
  public var games: Int { wins + losses + draws }
}

/// A player's record, derived from their finished games.
///
/// Games are counted from the owner's side: a game where the owner played X counts X's result;
/// a game between two people of the same owner (hot seat as guest) counts from X's side.
public struct Stats: Equatable, Sendable {
  /// One tally per opponent kind, people first, then the computer by difficulty.
  public var tallies: [Tally]
  /// The length of the run of wins ending with the latest game (0 after a loss or draw).
  public var currentStreak: Int
  /// The longest run of wins ever.
  public var bestStreak: Int
  /// The latest finished games, newest first.
  public var recentGames: [GameRecord]

  /// Creates stats.
  public init(
    tallies: [Tally] = [], currentStreak: Int = 0, bestStreak: Int = 0,
    recentGames: [GameRecord] = []
  ) {
    self.tallies = tallies
    self.currentStreak = currentStreak
    self.bestStreak = bestStreak
    self.recentGames = recentGames
  }

  /// Games won in all.
  public var wins: Int { tallies.reduce(0) { $0 + $1.wins } }
  /// Games lost in all.
  public var losses: Int { tallies.reduce(0) { $0 + $1.losses } }
  /// Games drawn in all.
  public var draws: Int { tallies.reduce(0) { $0 + $1.draws } }
  /// Games finished in all.
  public var games: Int { wins + losses + draws }
  /// Wins over games, or `nil` before the first game.
  public var winRate: Double? { games == 0 ? nil : Double(wins) / Double(games) }

  /// The win rate as a whole percentage, rounded half up, or `nil` before the first game.
  public var winPercentage: Int? {
    // Integer arithmetic rounds the same everywhere, without the C maths library.
    games == 0 ? nil : (wins * 200 + games) / (2 * games)
  }
}

/// Why the records could not be read or written, in one sentence for the player.
///
/// A write that throws did not happen: nothing of it is stored.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, for callers that act on the kind of failure.
  public enum Kind: Equatable, Sendable {
    /// The disk (or the file system holding the database) is full.
    case full
    /// The disk reported an input or output error.
    case ioError
    /// Another program holds a lock on the database for longer than the wait allows.
    case busy
    /// The database cannot be written: a read-only file, folder or file system.
    case readOnly
    /// The file is damaged, or is not a database of this program.
    case corrupt
    /// The file or its folder cannot be opened.
    case cannotOpen
    /// The file was deleted or replaced while in use: nothing written to it since is kept.
    case gone
    /// The database was written by a newer version of the program.
    case tooNew
    /// The request itself was refused, such as a finished game without a result.
    case invalidRequest
    /// Any other failure.
    case other
  }

  /// The kind of failure.
  public var kind: Kind

  /// The sentence.
  public var message: String

  /// Creates an error with a sentence.
  public init(_ message: String, kind: Kind = .other) {
    self.message = message
    self.kind = kind
  }

  public var description: String { message }

  /// The error as is, or one with `sentence` for an unexpected one.
  public init(_ error: any Error, or sentence: String) {
    self = error as? DatabaseError ?? DatabaseError(sentence)
  }

  /// Another program holds the owner's games: it is signed in as the account, or on New game
  /// or in a game as the guest, whether or not it plays just now.
  public static let heldByAnotherProgram = DatabaseError(
    "Another Tic-Tac-Toe holds this player's games just now (signed in as them, or playing as "
      + "the guest); sign out of it or close it first.",
    kind: .busy)
}

/// The game records: finished games, the game in progress, stats and history.
///
/// Every endpoint throws ``DatabaseError``.
public struct DatabaseClient: Sendable {
  /// Saves a finished game and returns its id.
  public var saveFinishedGame: @Sendable (_ record: GameRecord) async throws -> Int64
  /// Saves the owner's game in progress as finished and forgets it as a game in progress, in one
  /// transaction, so that a crash leaves one or the other; returns the finished game's id.
  public var finishGameInProgress:
    @Sendable (_ record: GameRecord, _ owner: RecordOwner) async throws -> Int64
  /// Saves (replacing) the owner's game in progress.
  public var saveGameInProgress:
    @Sendable (_ record: GameRecord, _ owner: RecordOwner) async throws
      -> Void
  /// Loads the owner's game in progress, if there is one.
  public var loadGameInProgress: @Sendable (_ owner: RecordOwner) async throws -> GameRecord?
  /// Forgets the owner's game in progress.
  public var clearGameInProgress: @Sendable (_ owner: RecordOwner) async throws -> Void
  /// Takes the owner's game in progress for this client (one session), so that no other
  /// session loads, saves or forgets it meanwhile; writes to it take it too.
  ///
  /// Throws ``DatabaseError`` with ``DatabaseError/Kind/busy`` when another session plays it.
  public var claimGameInProgress: @Sendable (_ owner: RecordOwner) async throws -> Void
  /// Lets another session have the owner's game in progress, as signing out does.
  public var releaseGameInProgress: @Sendable (_ owner: RecordOwner) async -> Void
  /// The owner's stats with up to ten recent games.
  public var stats: @Sendable (_ owner: RecordOwner) async throws -> Stats
  /// The owner's finished games, newest first, at most `limit`.
  public var history: @Sendable (_ owner: RecordOwner, _ limit: Int) async throws -> [GameRecord]
  /// One finished game by id.
  public var game: @Sendable (_ id: Int64) async throws -> GameRecord?
  /// Deletes the owner's finished games.
  public var resetStats: @Sendable (_ owner: RecordOwner) async throws -> Void

  /// Creates a client from its endpoints.
  public init(
    saveFinishedGame: @escaping @Sendable (_ record: GameRecord) async throws -> Int64,
    finishGameInProgress:
      @escaping @Sendable (_ record: GameRecord, _ owner: RecordOwner) async throws -> Int64,
    saveGameInProgress:
      @escaping @Sendable (_ record: GameRecord, _ owner: RecordOwner)
      async throws -> Void,
    loadGameInProgress: @escaping @Sendable (_ owner: RecordOwner) async throws -> GameRecord?,
    clearGameInProgress: @escaping @Sendable (_ owner: RecordOwner) async throws -> Void,
    claimGameInProgress: @escaping @Sendable (_ owner: RecordOwner) async throws -> Void,
    releaseGameInProgress: @escaping @Sendable (_ owner: RecordOwner) async -> Void,
    stats: @escaping @Sendable (_ owner: RecordOwner) async throws -> Stats,
    history: @escaping @Sendable (_ owner: RecordOwner, _ limit: Int) async throws -> [GameRecord],
    game: @escaping @Sendable (_ id: Int64) async throws -> GameRecord?,
    resetStats: @escaping @Sendable (_ owner: RecordOwner) async throws -> Void
  ) {
    self.saveFinishedGame = saveFinishedGame
    self.finishGameInProgress = finishGameInProgress
    self.saveGameInProgress = saveGameInProgress
    self.loadGameInProgress = loadGameInProgress
    self.clearGameInProgress = clearGameInProgress
    self.claimGameInProgress = claimGameInProgress
    self.releaseGameInProgress = releaseGameInProgress
    self.stats = stats
    self.history = history
    self.game = game
    self.resetStats = resetStats
  }
}
