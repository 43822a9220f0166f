public import Architecture
public import AuthenticationClient
public import GameProtocol
import GameRules

/// The game server's logic: connections, accounts, games, spectators and the reconnect grace.
///
/// It never trusts a client: every move is checked with `GameRules` against the server's own
/// board, and a move reaches the opponent and the spectators only after the database has it.
/// What to send is collected in ``State/outbox`` in order, and the runtime writes it after every
/// action; database and account work are effects. Time comes in with ``Action/tick(now:)``.
public struct GameServer: Reducer {
  /// The most finished games a history answer holds: twenty 15×15 games fit one frame.
  public static let historyLimit = ProtocolLimits.historyPageSize

  /// Everything the server holds in memory.
  public struct State: Equatable, Sendable {
    /// The time of the last tick, in milliseconds since 1970.
    public var now: Int64
    /// How long a disconnected player's seat is held, in seconds.
    public var reconnectGraceSeconds: Int
    /// The connections, by id.
    public var clients: [ClientID: Client] = [:]
    /// The games in memory, by invite code.
    public var matches: [String: Match] = [:]
    /// The sign-in attempts left to each address.
    public var allowances: [String: Allowance] = [:]
    /// What to send (or close), in order; the runtime takes it after every action.
    public var outbox: [Outgoing] = []
    /// Whether the server is stopping: every request is refused.
    public var isShuttingDown = false

    /// Creates an empty server.
    public init(
      now: Int64, reconnectGraceSeconds: Int = ProtocolLimits.defaultReconnectGraceSeconds
    ) {
      self.now = now
      self.reconnectGraceSeconds = reconnectGraceSeconds
    }
  }

  /// A connection.
  public struct Client: Equatable, Sendable {
    /// Whether the connection has said `hello`.
    public enum Phase: Equatable, Sendable {
      /// Only `hello` is allowed.
      case greeting
      /// Greeted: every request is allowed.
      case ready
      /// Closed for breaking the protocol, which the log has said.
      case turnedAway
    }

    /// The peer's address, which sign-in limits count by.
    public var address: String
    /// Where the connection stands.
    public var phase: Phase = .greeting
    /// The signed-in account.
    public var account: SignedInAccount?
    /// A sign-in waiting for its two-factor code.
    public var challenge: TwoFactorChallenge?
    /// The type of the account request being answered, if any.
    public var pendingRequest: UInt8?
    /// Whether a read of the records (stats, history, a finished game) is being answered:
    /// one at a time, so that a connection that asks without waiting (no sign-in is needed)
    /// cannot queue reads ahead of everyone's moves.
    public var isReading = false
    /// The games this connection sits in or watches, so that its leaving touches only them.
    public var games: Set<String> = []

    /// Creates a connection that has not said `hello`.
    public init(address: String) { self.address = address }
  }

  /// One thing for the runtime to do on a connection.
  public struct Outgoing: Equatable, Sendable {
    /// What to do.
    public enum Event: Equatable, Sendable {
      /// Send a message.
      case message(ServerMessage)
      /// Close the connection after sending what is queued.
      case close
    }

    /// The connection.
    public var client: ClientID
    /// What to do on it.
    public var event: Event

    /// Creates an entry.
    public init(_ client: ClientID, _ event: Event) {
      self.client = client
      self.event = event
    }
  }

  /// What an answered sign-in leads to.
  public enum SignInStep: Equatable, Sendable {
    /// Signed in.
    case signedIn(SignedInAccount)
    /// A two-factor code is needed.
    case codeRequired(TwoFactorChallenge)
  }

  /// What an answered account request leads to.
  public enum AccountReply: Equatable, Sendable {
    /// Done.
    case accepted
    /// The password of the account with this id (if found) was changed, or its two-factor
    /// turned off, and its sessions ended.
    case sessionsEnded(accountID: Int64?)
    /// The account with this id (if found) was deleted.
    case deleted(accountID: Int64?)
    /// Two-factor set-up began.
    case secret(TwoFactorEnrolment)
    /// Two-factor is on, or its recovery codes were replaced.
    case recoveryCodes([String])
    /// Two-factor was turned on for the account with this id (if found), with these recovery
    /// codes, and its sessions ended.
    case twoFactorOn(accountID: Int64?, recoveryCodes: [String])
    /// The number of unused recovery codes, `nil` when two-factor is off.
    case recoveryCodesLeft(Int?)
  }

  /// What can happen to the server.
  public enum Action: Equatable, Sendable {
    /// A connection completed its TLS handshake.
    case connected(ClientID, address: String)
    /// A connection sent a message.
    case received(ClientID, ClientMessage)
    /// A connection sent bytes that are not a message.
    case broke(ClientID, ProtocolError)
    /// A connection closed.
    case disconnected(ClientID)
    /// The clock moved on: graces run out, limits refill, old games are dropped.
    case tick(now: Int64)
    /// The games in progress, read from the database at start.
    case restored([OnlineGameRecord])
    /// The server is asked to stop.
    case shutdownRequested
    /// A sign-in (password, code, session token or new account) was answered.
    case signInResponse(ClientID, request: UInt8, Result<SignInStep, Refusal>)
    /// An account request was answered.
    case accountResponse(ClientID, request: UInt8, Result<AccountReply, Refusal>)
    /// An account's record was read.
    case statsResponse(ClientID, Result<PlayerStats, Refusal>)
    /// Finished games were read for a client, or not.
    case historyResponse(ClientID, Result<[FinishedGame], Refusal>)
    /// A new game was stored, or not.
    case gameStored(code: String, succeeded: Bool)
    /// A joining opponent was stored, or not.
    case opponentStored(code: String, succeeded: Bool)
    /// A move was stored (with the ratings when it ended the game), or not.
    case moveStored(code: String, ply: Int, Result<Ratings?, Refusal>)
    /// A forfeit or resignation was stored with the new ratings, or not: one `client` resigned,
    /// or (`nil`) a player forfeited.
    case endStored(code: String, by: ClientID?, Result<Ratings, Refusal>)
    /// A game's cancellation was stored, or not: one `client` asked for, or (`nil`) the drop
    /// of an open game whose creator stayed away past the grace.
    case cancellationStored(code: String, by: ClientID?, succeeded: Bool)
  }

  /// How long a finished game stays in memory for late spectators, in milliseconds.
  public static let finishedGameLifetime: Int64 = 10 * 60_000

  /// How long a game waits, in milliseconds past both players' grace, when neither came back:
  /// then the player to move forfeits, so that no game stays open for ever.
  public static let abandonedGameLifetime: Int64 = 60 * 60_000

  /// The accounts: the same checks as on one computer (scrypt, TOTP, lockout).
  public var authentication: AuthenticationClient
  /// The server's database.
  public var storage: ServerStorageClient
  /// A random integer below the bound, for invite codes and coin tosses.
  public var random: @Sendable (_ upperBound: Int) -> Int
  /// The operator's log: what happened to accounts and games, and problems the players do
  /// not see.
  public var log: @Sendable (_ line: String) -> Void

  /// Creates the server's logic with its clients.
  public init(
    authentication: AuthenticationClient, storage: ServerStorageClient,
    random: @escaping @Sendable (_ upperBound: Int) -> Int,
    log: @escaping @Sendable (_ line: String) -> Void
  ) {
    self.authentication = authentication
    self.storage = storage
    self.random = random
    self.log = log
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .connected(let id, let address):
      state.clients[id] = Client(address: address)
      if state.isShuttingDown {
        state.refuse(.shuttingDown, to: id)
        state.close(id)
      }
      return .none

    case .received(let id, let message):
      guard state.clients[id] != nil else { return .none }
      return receive(message, from: id, state: &state)

    case .broke(let id, let error):
      guard let client = state.clients[id] else { return .none }
      // The operator's only trace of a client that sends what is not the protocol.
      turnAway(
        id, from: client.address, Refusal(error.code),
        that: "broke the protocol: " + error.description.escapingControlCharacters,
        state: &state)
      return .none

    case .disconnected(let id):
      disconnect(id, state: &state)
      return .none

    case .tick(let now):
      state.now = max(state.now, now)
      return tick(state: &state)

    case .restored(let records):
      return restore(records, state: &state)

    case .shutdownRequested:
      state.isShuttingDown = true
      for id in state.clients.keys.sorted() {
        state.refuse(.shuttingDown, to: id)
        state.close(id)
      }
      return .none

    case .signInResponse(let id, let request, let result):
      return signInAnswered(id, request: request, result, state: &state)

    case .accountResponse(let id, let request, let result):
      accountAnswered(id, request: request, result, state: &state)
      return .none

    case .statsResponse(let id, let result):
      guard state.clients[id] != nil else { return .none }
      state.clients[id]?.isReading = false
      switch result {
      case .success(let stats): state.send(.stats(stats), to: id)
      case .failure(let refusal): state.send(.refused(refusal), to: id)
      }
      return .none

    case .historyResponse(let id, let result):
      guard state.clients[id] != nil else { return .none }
      state.clients[id]?.isReading = false
      switch result {
      case .success(let games): state.send(.history(games), to: id)
      case .failure(let refusal): state.send(.refused(refusal), to: id)
      }
      return .none

    case .gameStored(let code, let succeeded):
      gameStored(code, succeeded: succeeded, state: &state)
      return .none

    case .opponentStored(let code, let succeeded):
      opponentStored(code, succeeded: succeeded, state: &state)
      return .none

    case .moveStored(let code, let ply, let result):
      moveStored(code, ply: ply, result, state: &state)
      return .none

    case .endStored(let code, let client, let result):
      endStored(code, by: client, result, state: &state)
      return .none

    case .cancellationStored(let code, let id, let succeeded):
      cancellationStored(code, by: id, succeeded: succeeded, state: &state)
      return .none
    }
  }

  // MARK: - Requests

  private func receive(
    _ message: ClientMessage, from id: ClientID, state: inout State
  ) -> Effect<Action> {
    let request = message.type
    if state.isShuttingDown {
      state.refuse(.shuttingDown, request: request, to: id)
      return .none
    }
    guard state.clients[id]?.phase == .ready else {
      guard state.clients[id]?.phase == .greeting else { return .none }
      let address = state.clients[id]?.address ?? ""
      guard case .hello(let versions) = message else {
        turnAway(
          id, from: address, Refusal(.helloExpected, request: request),
          that: "sent a request before hello.", state: &state)
        return .none
      }
      guard let version = ProtocolVersion.negotiated(with: versions) else {
        let range = ProtocolVersion.supported
        turnAway(
          id, from: address,
          Refusal(
            .unsupportedVersion, request: request,
            detail: UInt32(range.lowerBound) << 16 | UInt32(range.upperBound)),
          that: "speaks none of this server's protocol versions (\(range.lowerBound) to "
            + "\(range.upperBound)).", state: &state)
        return .none
      }
      state.clients[id]?.phase = .ready
      state.send(.welcome(version: version), to: id)
      return .none
    }
    switch message {
    case .hello:
      state.refuse(.helloExpected, request: request, to: id)
      return .none
    case .ping(let nonce):
      state.send(.pong(nonce), to: id)
      return .none
    case .listGames:
      state.send(.games(state.listings), to: id)
      return .none
    case .watchGame(let text):
      watch(text, from: id, state: &state)
      return .none
    case .requestStats, .requestHistory, .requestFinishedGame:
      guard state.clients[id]?.isReading == false else {
        state.refuse(.busy, request: request, to: id)
        return .none
      }
      state.clients[id]?.isReading = true
      return read(message, from: id)
    case .createAccount, .signIn, .submitCode, .resumeSession, .changePassword, .deleteAccount,
      .beginTwoFactor, .confirmTwoFactor, .disableTwoFactor, .countRecoveryCodes,
      .regenerateRecoveryCodes:
      return accountRequest(message, from: id, state: &state)
    case .createGame(let options):
      return create(options, from: id, state: &state)
    case .joinGame(let text):
      return join(text, from: id, state: &state)
    case .move(let text, let ply, let cell):
      return move(text, ply: ply, cell: cell, from: id, state: &state)
    case .resign(let text):
      return resign(text, from: id, state: &state)
    case .cancelGame(let text):
      return cancel(text, from: id, state: &state)
    }
  }

  /// Reads the records a request asks for: stats, a page of history or a finished game.
  private func read(_ message: ClientMessage, from id: ClientID) -> Effect<Action> {
    let request = message.type
    switch message {
    case .requestStats(let userName):
      return .run { [storage, log] send in
        do {
          if let stats = try await storage.stats(userName) {
            await send(.statsResponse(id, .success(stats)))
          } else {
            await send(.statsResponse(id, .failure(Refusal(.noSuchUser, request: request))))
          }
        } catch {
          log("Reading the stats of a player failed: \(error)")
          await send(.statsResponse(id, .failure(Refusal(.serverError, request: request))))
        }
      }
    case .requestHistory(let userName, let before):
      return .run { [storage, log] send in
        do {
          if let games = try await storage.history(userName, before, Self.historyLimit) {
            await send(.historyResponse(id, .success(games)))
          } else {
            await send(.historyResponse(id, .failure(Refusal(.noSuchUser, request: request))))
          }
        } catch {
          log("Reading the history of a player failed: \(error)")
          await send(.historyResponse(id, .failure(Refusal(.serverError, request: request))))
        }
      }
    case .requestFinishedGame(let gameID):
      return .run { [storage, log] send in
        do {
          if let game = try await storage.finishedGame(gameID) {
            await send(.historyResponse(id, .success([game])))
          } else {
            await send(.historyResponse(id, .failure(Refusal(.noSuchGame, request: request))))
          }
        } catch {
          log("Reading a finished game failed: \(error)")
          await send(.historyResponse(id, .failure(Refusal(.serverError, request: request))))
        }
      }
    default:
      return .none
    }
  }

  private func watch(_ text: String, from id: ClientID, state: inout State) {
    guard let code = InviteCode.normalized(text), var match = state.matches[code],
      match.isFindable
    else {
      state.refuse(.noSuchGame, request: ClientMessage.watchGame(code: text).type, to: id)
      return
    }
    match.spectators.insert(id)
    state.clients[id]?.games.insert(code)
    state.matches[code] = match
    state.send(.game(match.snapshot(for: nil, now: state.now)), to: id)
  }

  private func create(
    _ options: GameOptions, from id: ClientID, state: inout State
  ) -> Effect<Action> {
    let request = ClientMessage.createGame(options).type
    guard let account = state.clients[id]?.account else {
      state.refuse(.notSignedIn, request: request, to: id)
      return .none
    }
    guard !state.isAtGameLimit(account.accountID) else {
      state.refuseTooManyGames(request: request, to: id)
      return .none
    }
    let firstMover: Mark =
      switch options.first {
      case .x: .x
      case .o: .o
      case .random: random(2) == 0 ? .x : .o
      }
    guard
      let start = try? Board(
        rows: options.rows, columns: options.columns, k: options.k, firstMover: firstMover)
    else {
      state.refuse(.invalidSettings, request: request, to: id)
      return .none
    }
    var fresh = InviteCode.make(random)
    while state.matches[fresh] != nil { fresh = InviteCode.make(random) }
    let code = fresh
    let seat = Match.Seat(
      accountID: account.accountID, name: account.userName, rating: account.rating, client: id)
    state.matches[code] = Match(code: code, start: start, creator: seat, createdAt: state.now)
    state.clients[id]?.games.insert(code)
    let record = OnlineGameRecord(
      code: code, rows: start.rows, columns: start.columns, k: start.k, firstMover: firstMover,
      x: SeatRecord(accountID: account.accountID, name: account.userName, rating: account.rating),
      createdAt: state.now)
    return .run { [storage, log] send in
      do {
        try await storage.createGame(record)
        await send(.gameStored(code: code, succeeded: true))
      } catch {
        log("Storing the new game \(code) failed: \(error)")
        await send(.gameStored(code: code, succeeded: false))
      }
    }
  }

  /// The sender's account and the game `text` names, for a request about that game: `nil`
  /// after refusing a sender who is not signed in (`notSignedIn`), or a code that names no
  /// game `found` accepts (`noSuchGame`).
  private func signedInGame(
    _ text: String, request: UInt8, from id: ClientID, state: inout State,
    found: (Match) -> Bool = { _ in true }
  ) -> (account: SignedInAccount, code: String, match: Match)? {
    guard let account = state.clients[id]?.account else {
      state.refuse(.notSignedIn, request: request, to: id)
      return nil
    }
    guard let code = InviteCode.normalized(text), let match = state.matches[code], found(match)
    else {
      state.refuse(.noSuchGame, request: request, to: id)
      return nil
    }
    return (account, code, match)
  }

  private func join(_ text: String, from id: ClientID, state: inout State) -> Effect<Action> {
    let request = ClientMessage.joinGame(code: text).type
    guard
      case (let account, let code, var match)? = signedInGame(
        text, request: request, from: id, state: &state, found: \.isFindable)
    else { return .none }
    if let mark = match.mark(ofAccount: account.accountID) {
      reseat(mark, in: &match, client: id, state: &state)
      state.matches[code] = match
      return .none
    }
    switch match.phase {
    case .waiting:
      // Coming back to one's own seat is answered above; a new seat counts towards the limit.
      guard !state.isAtGameLimit(account.accountID) else {
        state.refuseTooManyGames(request: request, to: id)
        return .none
      }
      let seat = Match.Seat(
        accountID: account.accountID, name: account.userName, rating: account.rating, client: id)
      match.phase = .seating(seat)
      match.spectators.remove(id)
      state.clients[id]?.games.insert(code)
      state.matches[code] = match
      let record = SeatRecord(
        accountID: account.accountID, name: account.userName, rating: account.rating)
      return .run { [storage, log] send in
        do {
          try await storage.seatOpponent(code, record)
          await send(.opponentStored(code: code, succeeded: true))
        } catch {
          log("Storing the opponent of game \(code) failed: \(error)")
          await send(.opponentStored(code: code, succeeded: false))
        }
      }
    case .finishing, .finished:
      state.refuse(.gameOver, request: request, to: id)
    case .creating, .cancelling, .seating, .playing, .committing:
      state.refuse(.gameFull, request: request, to: id)
    }
    return .none
  }

  /// Puts a returning player's connection back in their seat and tells everyone.
  private func reseat(_ mark: Mark, in match: inout Match, client id: ClientID, state: inout State)
  {
    var seat: Match.Seat
    if mark == .x {
      seat = match.x
    } else if let o = match.o {
      seat = o
    } else {
      return
    }
    if let previous = seat.client, previous != id {
      state.refuse(.seatTakenOver, to: previous)
    }
    let wasAway = seat.client == nil
    seat.client = id
    seat.awayUntil = nil
    state.clients[id]?.games.insert(match.code)
    if mark == .x { match.x = seat } else { match.o = seat }
    match.spectators.remove(id)
    if wasAway, !match.isOver {
      log(ServerLog.back(seat.name, code: match.code))
      state.send(.playerBack(code: match.code, mark: mark), to: match.audience.filter { $0 != id })
    }
    state.send(.game(match.snapshot(for: mark, now: state.now)), to: id)
  }

  private func move(
    _ text: String, ply: Int, cell: Cell, from id: ClientID, state: inout State
  ) -> Effect<Action> {
    let request = ClientMessage.move(code: text, ply: ply, cell: cell).type
    guard
      case (let account, let code, var match)? = signedInGame(
        text, request: request, from: id, state: &state)
    else { return .none }
    let mark = match.mark(of: id, signedInAs: account.accountID)
    if let refusal = match.refusal(ofMoveBy: mark, ply: ply, cell: cell) {
      let detail = refusal == .staleMove ? UInt32(match.game.moves.count) : 0
      state.refuse(refusal, request: request, detail: detail, to: id)
      return .none
    }
    match.phase = .committing(ply: ply, cell: cell)
    state.matches[code] = match
    var after = match
    after.commit(cell)
    let ending = after.boardEnding
    return .run { [storage, log] send in
      do {
        let ratings = try await storage.commitMove(code, ply, cell, ending)
        await send(.moveStored(code: code, ply: ply, .success(ratings)))
      } catch {
        log("Storing move \(ply) of game \(code) failed: \(error)")
        await send(
          .moveStored(code: code, ply: ply, .failure(Refusal(.serverError, request: request))))
      }
    }
  }

  private func resign(_ text: String, from id: ClientID, state: inout State) -> Effect<Action> {
    let request = ClientMessage.resign(code: text).type
    guard
      case (let account, let code, var match)? = signedInGame(
        text, request: request, from: id, state: &state)
    else { return .none }
    guard let mark = match.mark(of: id, signedInAs: account.accountID) else {
      state.refuse(.notAPlayer, request: request, to: id)
      return .none
    }
    switch match.phase {
    case .creating, .waiting, .cancelling, .seating:
      state.refuse(.gameNotStarted, request: request, to: id)
      return .none
    case .finishing, .finished:
      state.refuse(.gameOver, request: request, to: id)
      return .none
    case .committing:
      state.refuse(.busy, request: request, to: id)
      return .none
    case .playing:
      let ending = Ending(winner: mark.opponent, reason: .resigned)
      match.phase = .finishing(ending)
      state.matches[code] = match
      return finish(code, ending, resignedBy: id)
    }
  }

  /// Cancels a game its creator asked to cancel, once the database has forgotten it.
  private func cancel(_ text: String, from id: ClientID, state: inout State) -> Effect<Action> {
    let request = ClientMessage.cancelGame(code: text).type
    guard
      case (let account, let code, var match)? = signedInGame(
        text, request: request, from: id, state: &state, found: { $0.phase != .creating })
    else { return .none }
    if let refusal = match.refusal(ofCancelBy: account.accountID) {
      state.refuse(refusal, request: request, to: id)
      return .none
    }
    // Nobody joins or watches it meanwhile; it is announced gone only once it is.
    match.phase = .cancelling
    state.matches[code] = match
    return storeCancellation(code, by: id)
  }

  /// Makes the database forget a cancelled game: one `client` asked to cancel, or (`nil`) one
  /// dropped because its creator stayed away past the grace.
  private func storeCancellation(_ code: String, by client: ClientID?) -> Effect<Action> {
    .run { [storage, log] send in
      do {
        try await storage.cancelGame(code)
        await send(.cancellationStored(code: code, by: client, succeeded: true))
      } catch {
        log(
          client == nil
            ? "Dropping the abandoned game \(code) failed: \(error)"
            : "Storing the cancellation of game \(code) failed: \(error)")
        await send(.cancellationStored(code: code, by: client, succeeded: false))
      }
    }
  }

  /// Stores a forfeit, or the resignation of the `resignedBy` client.
  private func finish(_ code: String, _ ending: Ending, resignedBy client: ClientID? = nil)
    -> Effect<Action>
  {
    .run { [storage, log] send in
      do {
        let ratings = try await storage.finishGame(code, ending)
        await send(.endStored(code: code, by: client, .success(ratings)))
      } catch {
        log("Storing the end of game \(code) failed: \(error)")
        let request = client == nil ? 0 : ClientMessage.resign(code: code).type
        await send(
          .endStored(code: code, by: client, .failure(Refusal(.serverError, request: request))))
      }
    }
  }

  // MARK: - Storage answers

  private func cancellationStored(
    _ code: String, by id: ClientID?, succeeded: Bool, state: inout State
  ) {
    guard let match = state.matches[code], match.phase == .cancelling else { return }
    guard succeeded else {
      // The database still has it: the game waits on, as it was (a dropped one is dropped
      // again at the next tick).
      state.matches[code]?.phase = .waiting
      if let id, state.clients[id] != nil {
        state.refuse(.serverError, request: ClientMessage.cancelGame(code: code).type, to: id)
      }
      return
    }
    state.matches[code] = nil
    log(ServerLog.cancelled(match, byCreator: id != nil))
    var told = Set(match.audience)
    if let id, state.clients[id] != nil { told.insert(id) }
    for client in told.sorted() {
      state.clients[client]?.games.remove(code)
      state.send(.cancelled(code: code), to: client)
    }
  }

  private func gameStored(_ code: String, succeeded: Bool, state: inout State) {
    guard var match = state.matches[code], match.phase == .creating else { return }
    guard succeeded else {
      state.matches[code] = nil
      if let creator = match.x.client {
        state.refuse(
          .serverError, request: ClientMessage.createGame(GameOptions()).type, to: creator)
      }
      return
    }
    match.phase = .waiting
    state.matches[code] = match
    log(ServerLog.opened(match))
    if let creator = match.x.client {
      state.send(.game(match.snapshot(for: .x, now: state.now)), to: creator)
    }
  }

  private func opponentStored(_ code: String, succeeded: Bool, state: inout State) {
    guard var match = state.matches[code], case .seating(let seat) = match.phase else { return }
    guard succeeded else {
      match.phase = .waiting
      state.matches[code] = match
      if let joiner = seat.client {
        state.refuse(.serverError, request: ClientMessage.joinGame(code: code).type, to: joiner)
      }
      return
    }
    match.o = seat
    match.phase = .playing
    state.matches[code] = match
    log(ServerLog.joined(match))
    let joined = SeatedPlayer(
      name: seat.name, rating: seat.rating,
      awaySeconds: seat.awayUntil.map { UInt32(clamping: max(0, ($0 - state.now + 999) / 1_000)) })
    state.send(
      .playerJoined(code: code, mark: .o, player: joined),
      to: match.audience.filter { $0 != seat.client })
    if let joiner = seat.client {
      state.send(.game(match.snapshot(for: .o, now: state.now)), to: joiner)
    } else if seat.awayUntil != nil {
      // The joiner left while the seat was being stored.
      log(ServerLog.away(seat.name, code: code, seconds: state.reconnectGraceSeconds))
      state.send(
        .playerAway(code: code, mark: .o, seconds: UInt32(state.reconnectGraceSeconds)),
        to: match.audience)
    }
  }

  private func moveStored(
    _ code: String, ply: Int, _ result: Result<Ratings?, Refusal>, state: inout State
  ) {
    guard var match = state.matches[code], case .committing(ply, let cell) = match.phase else {
      return
    }
    let mover = match.seat(match.board.toMove)?.client
    switch result {
    case .failure(let refusal):
      match.phase = .playing
      state.matches[code] = match
      if let mover { state.send(.refused(refusal), to: mover) }
    case .success(let ratings):
      match.commit(cell)
      match.phase = .playing
      state.send(.moved(code: code, ply: ply, cell: cell), to: match.audience)
      if let ending = match.boardEnding {
        end(
          &match, ending, ratings: ratings ?? Ratings(x: match.x.rating, o: match.o?.rating ?? 0),
          state: &state)
      }
      state.matches[code] = match
    }
  }

  private func endStored(
    _ code: String, by client: ClientID?, _ result: Result<Ratings, Refusal>, state: inout State
  ) {
    guard var match = state.matches[code], case .finishing(let ending) = match.phase else { return }
    switch result {
    case .failure(let refusal):
      // Nothing was stored: the game goes on, and the next tick tries again if it must; a
      // player who resigned is told the resignation was not made.
      match.phase = .playing
      if let client, state.clients[client] != nil {
        state.refuse(refusal.code, request: refusal.request, to: client)
      }
    case .success(let ratings):
      end(&match, ending, ratings: ratings, state: &state)
    }
    state.matches[code] = match
  }

  /// Marks a match finished, updates the ratings everywhere and tells its audience.
  private func end(_ match: inout Match, _ ending: Ending, ratings: Ratings, state: inout State) {
    let end = GameEnd(
      winner: ending.winner, reason: ending.reason, xRating: ratings.x, oRating: ratings.o)
    match.phase = .finished(end)
    match.endedAt = state.now
    match.x.rating = ratings.x
    match.x.awayUntil = nil
    match.o?.rating = ratings.o
    match.o?.awayUntil = nil
    // The seated connections carry the new ratings into their next game.
    if let id = match.x.client, state.clients[id]?.account?.accountID == match.x.accountID {
      state.clients[id]?.account?.rating = ratings.x
    }
    if let id = match.o?.client, state.clients[id]?.account?.accountID == match.o?.accountID {
      state.clients[id]?.account?.rating = ratings.o
    }
    log(ServerLog.ended(match, ending))
    state.send(.ended(code: match.code, end), to: match.audience)
  }

  // MARK: - Connections and time

  /// Closes a connection that broke the protocol, refused with `refusal` first, and leaves the
  /// operator its line (`reason` finishes `Closed a connection from ADDRESS that …`).
  private func turnAway(
    _ id: ClientID, from address: String, _ refusal: Refusal, that reason: String,
    state: inout State
  ) {
    log(ServerLog.closed(from: address, that: reason))
    state.refuse(refusal.code, request: refusal.request, detail: refusal.detail, to: id)
    state.clients[id]?.phase = .turnedAway
    state.close(id)
  }

  private func disconnect(_ id: ClientID, state: inout State) {
    guard let client = state.clients.removeValue(forKey: id) else { return }
    if client.phase == .greeting {
      // Through TLS, then closed, or silent until the greeting's time ran out.
      log(ServerLog.closed(from: client.address, that: "never said hello."))
    }
    let deadline = state.now + Int64(state.reconnectGraceSeconds) * 1_000
    for code in client.games.sorted() {
      guard var match = state.matches[code] else { continue }
      match.spectators.remove(id)
      if case .seating(var seat) = match.phase, seat.client == id {
        seat.client = nil
        seat.awayUntil = deadline
        match.phase = .seating(seat)
      }
      for mark in [Mark.x, .o] where match.seat(mark)?.client == id {
        // Said of a game the database holds: one being created is not one yet.
        if !match.isOver, match.phase != .creating, let name = match.seat(mark)?.name {
          log(ServerLog.away(name, code: code, seconds: state.reconnectGraceSeconds))
        }
        if mark == .x {
          match.x.client = nil
          if !match.isOver { match.x.awayUntil = deadline }
        } else {
          match.o?.client = nil
          if !match.isOver { match.o?.awayUntil = deadline }
        }
        if match.isUnderWay {
          state.send(
            .playerAway(code: code, mark: mark, seconds: UInt32(state.reconnectGraceSeconds)),
            to: match.audience)
        }
      }
      state.matches[code] = match
    }
  }

  private func tick(state: inout State) -> Effect<Action> {
    let now = state.now
    var effects: [Effect<Action>] = []
    for code in state.matches.keys.sorted() {
      guard var match = state.matches[code] else { continue }
      switch match.phase {
      case .waiting:
        if match.x.client == nil, let deadline = match.x.awayUntil, deadline <= now {
          // An open game whose creator never came back is dropped as a cancellation is: nobody
          // joins or watches it meanwhile, and its spectators are told once it is stored.
          match.phase = .cancelling
          effects.append(storeCancellation(code, by: nil))
        }
      case .playing:
        // A player away past the grace forfeits, but only to an opponent who is there.
        for mark in [Mark.x, .o] {
          guard let seat = match.seat(mark), seat.client == nil,
            let deadline = seat.awayUntil, deadline <= now,
            match.seat(mark.opponent)?.client != nil
          else { continue }
          let ending = Ending(winner: mark.opponent, reason: .forfeit)
          match.phase = .finishing(ending)
          effects.append(finish(code, ending))
          break
        }
        // Both away (a restart gives both a new grace): the player to move forfeits once
        // neither has come back for an hour past the later grace.
        if case .playing = match.phase, let x = match.x.awayUntil, match.x.client == nil,
          let o = match.o?.awayUntil, match.o?.client == nil,
          max(x, o) + Self.abandonedGameLifetime <= now
        {
          let ending = Ending(winner: match.board.toMove.opponent, reason: .forfeit)
          match.phase = .finishing(ending)
          effects.append(finish(code, ending))
        }
      case .finished:
        if let endedAt = match.endedAt, endedAt + Self.finishedGameLifetime <= now {
          state.matches[code] = nil
          continue
        }
      case .creating, .cancelling, .seating, .committing, .finishing:
        break
      }
      state.matches[code] = match
    }
    for address in state.allowances.keys.sorted() {
      state.allowances[address]?.refill(now: now)
      if state.allowances[address]?.isFull == true { state.allowances[address] = nil }
    }
    return .merge(effects)
  }

  private func restore(_ records: [OnlineGameRecord], state: inout State) -> Effect<Action> {
    let deadline = state.now + Int64(state.reconnectGraceSeconds) * 1_000
    var effects: [Effect<Action>] = []
    for record in records {
      guard var match = try? Match(restoring: record, awayUntil: deadline) else {
        log("The stored game \(record.code) cannot be replayed; it is left as it is.")
        continue
      }
      if let ending = match.boardEnding {
        match.phase = .finishing(ending)
        effects.append(finish(record.code, ending))
      }
      state.matches[record.code] = match
    }
    return .merge(effects)
  }
}

// MARK: - Sending

extension GameServer.State {
  mutating func send(_ message: ServerMessage, to client: ClientID) {
    outbox.append(GameServer.Outgoing(client, .message(message)))
  }

  mutating func send(_ message: ServerMessage, to clients: [ClientID]) {
    for client in clients { send(message, to: client) }
  }

  mutating func refuse(
    _ code: ErrorCode, request: UInt8 = 0, detail: UInt32 = 0, to client: ClientID
  ) {
    send(.refused(Refusal(code, request: request, detail: detail)), to: client)
  }

  mutating func close(_ client: ClientID) {
    outbox.append(GameServer.Outgoing(client, .close))
  }

  /// The unfinished games `accountID` created, sits in or is being seated in.
  ///
  /// The server holds every unfinished game in memory (a restarted one reads them all from its
  /// database before it listens). A game counts from the moment it is asked for until it has
  /// ended, so that requests on several connections cannot pass the limit together.
  ///
  /// - Complexity: O(*n*) in the games held.
  public func unfinishedGames(ofAccount accountID: Int64) -> Int {
    matches.values.count { $0.holdsUnfinishedSeat(ofAccount: accountID) }
  }

  /// Whether `accountID` has as many unfinished games as one account may have.
  func isAtGameLimit(_ accountID: Int64) -> Bool {
    unfinishedGames(ofAccount: accountID) >= ProtocolLimits.maximumUnfinishedGames
  }

  mutating func refuseTooManyGames(request: UInt8, to client: ClientID) {
    refuse(
      .tooManyGames, request: request, detail: UInt32(ProtocolLimits.maximumUnfinishedGames),
      to: client)
  }

  /// The open games and the games being played, newest first, at most the protocol's limit.
  var listings: [GameListing] {
    matches.values
      .filter { match in
        switch match.phase {
        case .waiting, .seating, .playing, .committing, .finishing: true
        case .creating, .cancelling, .finished: false
        }
      }
      .sorted { ($0.createdAt, $0.code) > ($1.createdAt, $1.code) }
      .prefix(ProtocolLimits.maximumListedGames)
      .map(\.listing)
  }
}
