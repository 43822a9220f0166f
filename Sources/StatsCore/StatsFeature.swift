public import Architecture
public import DatabaseClient

/// The Stats screen: wins, losses and draws by opponent, streaks, recent games and their replay,
/// and Reset stats (confirmed).
public struct StatsFeature: Reducer {
  /// The stats shown and what is in progress.
  public struct State: Equatable, Sendable {
    /// Whose stats these are.
    public var owner: RecordOwner
    /// The stats, once loaded.
    public var stats: Stats?
    /// When each of the stats' recent games ended (started, for one left unfinished), on the
    /// player's clock, in the same order.
    public var recentGameTimes: [LocalTime] = []
    /// Whether the stats are being read (or reset).
    public var isLoading = false
    /// Whether the player is being asked to confirm resetting the stats.
    public var isConfirmingReset = false
    /// Why the stats could not be read or reset.
    public var errorMessage: String?
    /// The recent game being replayed and how many of its moves are shown.
    public var replay: Replay?
    /// The game server account whose record this is, or `nil` for this computer's records.
    public var serverAccount: ServerAccount?
    /// The account's rating on its server, once loaded.
    public var rating: Int?

    /// Creates the screen for an owner; the stats load when it starts.
    public init(owner: RecordOwner) {
      self.owner = owner
    }

    /// Creates the screen for an account on a game server: its record there, which this
    /// computer cannot reset.
    public init(serverAccount: ServerAccount) {
      self.owner = .guest
      self.serverAccount = serverAccount
    }
  }

  /// An account on a game server, whose record the server keeps.
  public struct ServerAccount: Equatable, Sendable {
    /// The server as the player typed it, such as `example.org:7457`.
    public var server: String
    /// The account's user name.
    public var userName: String

    /// Creates an account.
    public init(server: String, userName: String) {
      self.server = server
      self.userName = userName
    }
  }

  /// What a game server keeps of an account: the results, the rating and the latest games.
  public struct ServerRecord: Equatable, Sendable {
    /// The results, with the latest games.
    public var stats: Stats
    /// The rating.
    public var rating: Int

    /// Creates a record.
    public init(stats: Stats, rating: Int) {
      self.stats = stats
      self.rating = rating
    }
  }

  /// Why a server's record could not be read, in one sentence.
  public struct ServerFailure: Error, Equatable, Sendable {
    /// The sentence.
    public var message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }
  }

  /// A finished game shown move by move.
  public struct Replay: Equatable, Sendable {
    /// The game.
    public var record: GameRecord
    /// How many moves are shown, from 0 to all of them.
    public var step: Int

    /// Creates a replay at its first position.
    public init(record: GameRecord, step: Int = 0) {
      self.record = record
      self.step = step
    }
  }

  /// What can happen on the Stats screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The screen appeared: load the stats.
    case started
    /// The stats were read.
    case statsResponse(Result<Stats, DatabaseError>)
    /// A server account's record was read.
    case serverRecordResponse(Result<ServerRecord, ServerFailure>)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// Reset the stats (asks first).
      case resetTapped
      /// Yes, delete every finished game.
      case resetConfirmed
      /// No, keep them.
      case resetCancelled
      /// Replay a recent game, by its position in the list.
      case recentGameTapped(Int)
      /// Show one more move of the replay.
      case replayForwardTapped
      /// Show one move fewer.
      case replayBackTapped
      /// Stop replaying.
      case replayClosed
      /// Leave the screen.
      case closeTapped
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// Close the Stats screen.
      case didClose
    }
  }

  private enum CancelID: Hashable, Sendable {
    case load
  }

  /// Where the stats come from.
  public var database: DatabaseClient
  /// Where a server account's record comes from; throws a failure with one sentence.
  public var serverRecord: @Sendable (_ account: ServerAccount) async throws -> ServerRecord
  /// A time as the player's wall clock showed it then.
  public var localTime: @Sendable (_ timestamp: Timestamp) -> LocalTime

  /// Creates the feature with its clients.
  public init(
    database: DatabaseClient,
    localTime: @escaping @Sendable (_ timestamp: Timestamp) -> LocalTime,
    serverRecord: @escaping @Sendable (_ account: ServerAccount) async throws -> ServerRecord = {
      _ in throw ServerFailure("Stats on a game server are not available in this program.")
    }
  ) {
    self.database = database
    self.localTime = localTime
    self.serverRecord = serverRecord
  }

  /// Reduces an action of the Stats screen.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      state.isLoading = true
      state.errorMessage = nil
      if let account = state.serverAccount { return loadServerRecord(account) }
      return load(state.owner, reset: false)

    case .serverRecordResponse(.success(let record)):
      state.isLoading = false
      show(record.stats, in: &state)
      state.rating = record.rating
      return .none

    case .serverRecordResponse(.failure(let failure)):
      state.isLoading = false
      state.errorMessage = failure.message
      return .none

    case .statsResponse(.success(let stats)):
      state.isLoading = false
      show(stats, in: &state)
      return .none

    case .statsResponse(.failure(let error)):
      state.isLoading = false
      state.errorMessage = error.message
      return .none

    case .view(.resetTapped):
      // A server's record is the server's: nothing on this computer resets it.
      guard !state.isLoading, state.serverAccount == nil else { return .none }
      state.isConfirmingReset = true
      return .none

    case .view(.resetConfirmed):
      guard state.isConfirmingReset else { return .none }
      state.isConfirmingReset = false
      state.isLoading = true
      state.replay = nil
      state.errorMessage = nil
      return load(state.owner, reset: true)

    case .view(.resetCancelled):
      state.isConfirmingReset = false
      return .none

    case .view(.recentGameTapped(let index)):
      guard let games = state.stats?.recentGames, games.indices.contains(index) else {
        return .none
      }
      state.replay = Replay(record: games[index])
      return .none

    case .view(.replayForwardTapped):
      guard let replay = state.replay, replay.step < replay.record.moves.count else {
        return .none
      }
      state.replay?.step += 1
      return .none

    case .view(.replayBackTapped):
      guard let replay = state.replay, replay.step > 0 else { return .none }
      state.replay?.step -= 1
      return .none

    case .view(.replayClosed):
      state.replay = nil
      return .none

    case .view(.closeTapped):
      return .merge(.cancel(id: CancelID.load), .send(.delegate(.didClose)))

    case .delegate:
      return .none
    }
  }

  private func show(_ stats: Stats, in state: inout State) {
    state.stats = stats
    state.recentGameTimes = stats.recentGames.map { localTime($0.endedAt ?? $0.startedAt) }
  }

  private func loadServerRecord(_ account: ServerAccount) -> Effect<Action> {
    .run { [serverRecord] send in
      do {
        await send(.serverRecordResponse(.success(try await serverRecord(account))))
      } catch let failure as ServerFailure {
        await send(.serverRecordResponse(.failure(failure)))
      } catch {
        await send(
          .serverRecordResponse(
            .failure(ServerFailure("The stats on \(account.server) could not be read."))))
      }
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }

  private func load(_ owner: RecordOwner, reset: Bool) -> Effect<Action> {
    .result(
      Action.statsResponse, failure: { DatabaseError($0, or: "The stats could not be read.") }
    ) {
      [database] in
      if reset { try await database.resetStats(owner) }
      return try await database.stats(owner)
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }
}
