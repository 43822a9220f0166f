public import GameProtocol
public import GameRules

/// One online game on the server: its seats, spectators, committed moves and phase.
///
/// The phase makes illegal mixes unrepresentable: a game commits at most one move at a time,
/// and nothing is announced until the database has it.
public struct Match: Equatable, Sendable {
  /// Where the game stands on the server.
  public enum Phase: Equatable, Sendable {
    /// Being stored; nobody can join yet.
    case creating
    /// Stored, waiting for an opponent.
    case waiting
    /// Its creator cancels it, or it is dropped with its creator away past the grace: the
    /// cancellation is being stored; nobody can join or watch.
    case cancelling
    /// An opponent's seat is being stored.
    case seating(Seat)
    /// Both seats taken; the side to move may play.
    case playing
    /// A move is being stored.
    case committing(ply: Int, cell: Cell)
    /// The end (forfeit or resignation) is being stored.
    case finishing(Ending)
    /// Over.
    case finished(GameEnd)
  }

  /// A player's seat.
  public struct Seat: Equatable, Sendable {
    /// The account's id.
    public var accountID: Int64
    /// The user name.
    public var name: String
    /// The rating when the game began (after it, once over).
    public var rating: Int
    /// The connection in the seat, or `nil` while the player is away.
    public var client: ClientID?
    /// When an away player forfeits (or an open game is dropped), in milliseconds since 1970.
    public var awayUntil: Int64?

    /// Creates a seat.
    public init(
      accountID: Int64, name: String, rating: Int, client: ClientID?, awayUntil: Int64? = nil
    ) {
      self.accountID = accountID
      self.name = name
      self.rating = rating
      self.client = client
      self.awayUntil = awayUntil
    }
  }

  /// The invite code.
  public let code: String
  /// The committed moves on their board.
  public private(set) var game: Game
  /// X's seat: the creator's.
  public var x: Seat
  /// O's seat, once someone joined.
  public var o: Seat?
  /// The connections watching.
  public var spectators: Set<ClientID> = []
  /// Where the game stands.
  public var phase: Phase
  /// When the game was created, in milliseconds since 1970.
  public let createdAt: Int64
  /// When the game ended, in milliseconds since 1970.
  public var endedAt: Int64?

  /// Creates a game that is being stored.
  public init(code: String, start: Board, creator: Seat, createdAt: Int64) {
    self.code = code
    game = Game(start: start)
    x = creator
    phase = .creating
    self.createdAt = createdAt
  }

  /// Rebuilds a stored game after a restart: every player is away until `awayUntil`.
  ///
  /// - Throws: ``BoardError`` or ``MoveError`` when the record is inconsistent.
  public init(restoring record: OnlineGameRecord, awayUntil: Int64) throws {
    code = record.code
    let start = try Board(
      rows: record.rows, columns: record.columns, k: record.k, firstMover: record.firstMover)
    game = try Game(start: start, moves: record.moves)
    createdAt = record.createdAt
    x = Seat(
      accountID: record.x.accountID, name: record.x.name, rating: record.x.rating, client: nil,
      awayUntil: awayUntil)
    o = record.o.map {
      Seat(
        accountID: $0.accountID, name: $0.name, rating: $0.rating, client: nil, awayUntil: awayUntil
      )
    }
    phase = o == nil ? .waiting : .playing
  }

  /// The board as committed.
  public var board: Board { game.board }

  /// The seat of `mark`.
  public func seat(_ mark: Mark) -> Seat? { mark == .x ? x : o }

  /// The mark whose seat `client` sits in.
  public func mark(of client: ClientID) -> Mark? {
    if x.client == client { return .x }
    if o?.client == client { return .o }
    return nil
  }

  /// The mark whose seat `client` sits in while signed in as the seat's account: a connection
  /// signed out (the account's password changed) and signed in as another plays no more there.
  public func mark(of client: ClientID, signedInAs accountID: Int64) -> Mark? {
    mark(of: client).flatMap { seat($0)?.accountID == accountID ? $0 : nil }
  }

  /// The mark whose seat belongs to `accountID`.
  public func mark(ofAccount accountID: Int64) -> Mark? {
    if x.accountID == accountID { return .x }
    if o?.accountID == accountID { return .o }
    return nil
  }

  /// Whether the game is unfinished and `accountID` created it, sits in it or is being seated
  /// in it: what counts towards ``ProtocolLimits/maximumUnfinishedGames``.
  ///
  /// A game being stored or being ended counts too, so that requests on several connections of
  /// one account can never get past the limit together.
  public func holdsUnfinishedSeat(ofAccount accountID: Int64) -> Bool {
    if case .finished = phase { return false }
    if mark(ofAccount: accountID) != nil { return true }
    if case .seating(let joiner) = phase { return joiner.accountID == accountID }
    return false
  }

  /// Every connection that hears about the game: both seats and the spectators.
  public var audience: [ClientID] {
    var clients = spectators
    if let client = x.client { clients.insert(client) }
    if let client = o?.client { clients.insert(client) }
    return clients.sorted()
  }

  /// Whether the game is over or being ended.
  public var isOver: Bool {
    switch phase {
    case .finished, .finishing: true
    case .creating, .waiting, .cancelling, .seating, .playing, .committing: false
    }
  }

  /// Whether moves are being played (a move may be in flight).
  public var isUnderWay: Bool {
    switch phase {
    case .playing, .committing: true
    case .creating, .waiting, .cancelling, .seating, .finishing, .finished: false
    }
  }

  /// Whether others can find the game by its code: not while it is being stored, nor while
  /// its cancellation is.
  public var isFindable: Bool {
    switch phase {
    case .creating, .cancelling: false
    case .waiting, .seating, .playing, .committing, .finishing, .finished: true
    }
  }

  /// Why `accountID`'s request to cancel the game must be refused, checked in the order
  /// `docs/protocol.md` gives after `notSignedIn` and `noSuchGame`, or `nil` when it may be
  /// cancelled: only its creator may, and only while nobody has taken or is taking the other
  /// seat.
  public func refusal(ofCancelBy accountID: Int64) -> ErrorCode? {
    guard mark(ofAccount: accountID) != nil else { return .notAPlayer }
    switch phase {
    case .creating: return .noSuchGame
    case .waiting: return nil
    case .cancelling: return .busy
    case .seating, .playing, .committing: return .gameFull
    case .finishing, .finished: return .gameOver
    }
  }

  /// Why a move from `mark` (or from a connection in no seat) as number `ply` in `cell` must be
  /// refused, checked in the order `docs/protocol.md` gives, or `nil` when it may be stored.
  public func refusal(ofMoveBy mark: Mark?, ply: Int, cell: Cell) -> ErrorCode? {
    guard let mark else { return .notAPlayer }
    switch phase {
    case .creating, .waiting, .cancelling, .seating: return .gameNotStarted
    case .finishing, .finished: return .gameOver
    case .playing, .committing: break
    }
    guard ply == game.moves.count else { return .staleMove }
    guard mark == board.toMove else { return .notYourTurn }
    if case .committing = phase { return .busy }
    do {
      _ = try board.playing(at: cell)
    } catch {
      switch error {
      case .occupied: return .cellTaken
      case .outOfBounds: return .cellOutOfBounds
      case .gameOver: return .gameOver
      }
    }
    return nil
  }

  /// Plays a stored move.
  ///
  /// - Precondition: ``refusal(ofMoveBy:ply:cell:)`` allowed it.
  public mutating func commit(_ cell: Cell) {
    guard (try? game.play(at: cell)) != nil else {
      preconditionFailure("a move the checks allowed was illegal")
    }
  }

  /// The snapshot `role`'s connection (or a spectator's, for `nil`) receives.
  ///
  /// - Parameters:
  ///   - role: The receiver's side, or `nil` for a spectator.
  ///   - now: The time, for the seconds left of an away player's grace.
  /// - Returns: The snapshot.
  public func snapshot(for role: Mark?, now: Int64) -> GameSnapshot {
    func player(_ seat: Seat?) -> SeatedPlayer? {
      seat.map { seat in
        SeatedPlayer(
          name: seat.name, rating: seat.rating,
          awaySeconds: seat.awayUntil.map { UInt32(clamping: max(0, ($0 - now + 999) / 1_000)) })
      }
    }
    let status: GameStatus
    switch phase {
    case .creating, .waiting, .cancelling, .seating: status = .waiting
    case .playing, .committing, .finishing: status = .playing
    case .finished(let end): status = .finished(end)
    }
    return GameSnapshot(
      code: code, rows: game.start.rows, columns: game.start.columns, k: game.start.k,
      firstMover: game.start.firstMover, x: player(x), o: player(o), moves: game.moves,
      status: status, role: role)
  }

  /// How the game lists in `games`.
  public var listing: GameListing {
    GameListing(
      code: code, isOpen: !isUnderWay, xName: x.name, oName: o?.name, rows: game.start.rows,
      columns: game.start.columns, k: game.start.k, moveCount: game.moves.count)
  }

  /// The ending a committed board implies, if it is over.
  public var boardEnding: Ending? {
    switch board.outcome {
    case .inProgress: nil
    case .win(let mark, _): Ending(winner: mark, reason: .completed)
    case .draw: Ending(winner: nil, reason: .completed)
    }
  }
}
