public import Architecture
public import DatabaseClient
import GameRules

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
    /// The user name of the account whose records these are on this computer: its reset asks
    /// for its password (and, with two-factor on, a code) first.
    public var userName: String?
    /// What the player typed to prove the account is theirs, while its reset is confirmed.
    public var resetCredentials: ResetCredentials?
    /// How many credential checks the screen has asked for, which numbers each: only the
    /// latest one's answer counts, so an answer to one cancelled with Esc is not the next
    /// question's.
    public var checks = 0

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

  /// What proves an account's reset is its owner's: the password and, once the accounts ask
  /// for it, a two-factor or recovery code.
  public struct ResetCredentials: Equatable, Sendable {
    /// The password as typed.
    public var password = ""
    /// The code as typed.
    public var code = ""
    /// Whether the account has two-factor on, so that a code is asked for.
    public var needsCode = false
    /// Whether the accounts are checking them.
    public var isChecking = false

    /// Creates empty credentials.
    public init() {}
  }

  /// What the accounts said of the credentials for a reset.
  public enum CredentialCheck: Equatable, Sendable {
    /// They are right: the reset goes ahead.
    case accepted
    /// The password is right and the account has two-factor on: a code is needed.
    case codeNeeded
    /// They are wrong (or the account is locked), in one sentence.
    case refused(String)
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
    /// The accounts checked the credentials typed for a reset; `number` is the check's.
    case resetCredentialsChecked(number: Int, CredentialCheck)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// Reset the stats (asks first).
      case resetTapped
      /// The password typed for an account's reset changed.
      case resetPasswordChanged(String)
      /// The code typed for an account's reset changed.
      case resetCodeChanged(String)
      /// Yes, delete every finished game (after checking the credentials, for an account).
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
    case credentials
  }

  /// Where the stats come from.
  public var database: DatabaseClient
  /// Where a server account's record comes from; throws a failure with one sentence.
  public var serverRecord: @Sendable (_ account: ServerAccount) async throws -> ServerRecord
  /// A time as the player's wall clock showed it then.
  public var localTime: @Sendable (_ timestamp: Timestamp) -> LocalTime
  /// Checks an account's password and, when given, its code, as a sign-in does (failures
  /// count towards its lockout).
  public var checkCredentials:
    @Sendable (_ userName: String, _ password: String, _ code: String?) async -> CredentialCheck

  /// Creates the feature with its clients.
  public init(
    database: DatabaseClient,
    localTime: @escaping @Sendable (_ timestamp: Timestamp) -> LocalTime,
    serverRecord: @escaping @Sendable (_ account: ServerAccount) async throws -> ServerRecord = {
      _ in throw ServerFailure("Stats on a game server are not available in this program.")
    },
    checkCredentials:
      @escaping @Sendable (_ userName: String, _ password: String, _ code: String?) async ->
      CredentialCheck = { _, _, _ in
        .refused("The accounts are not available here, so an account's stats cannot be reset.")
      }
  ) {
    self.database = database
    self.localTime = localTime
    self.serverRecord = serverRecord
    self.checkCredentials = checkCredentials
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
      // An account's games go only with its sign-in: the password, and a code with two-factor.
      if case .account = state.owner { state.resetCredentials = ResetCredentials() }
      return .none

    case .view(.resetPasswordChanged(let password)):
      guard state.resetCredentials?.isChecking == false else { return .none }
      state.resetCredentials?.password = password
      return .none

    case .view(.resetCodeChanged(let code)):
      guard state.resetCredentials?.isChecking == false else { return .none }
      state.resetCredentials?.code = code
      return .none

    case .view(.resetConfirmed):
      guard state.isConfirmingReset else { return .none }
      guard let credentials = state.resetCredentials else { return reset(&state) }
      guard !credentials.isChecking else { return .none }
      guard let userName = state.userName else {
        state.errorMessage = "This account's name is not known here, so its stats cannot be reset."
        return .none
      }
      guard !credentials.password.isEmpty else {
        state.errorMessage = "Enter the account's password to reset its stats."
        return .none
      }
      guard !credentials.needsCode || !credentials.code.trimmingWhitespace().isEmpty else {
        state.errorMessage = Self.codeNeededMessage
        return .none
      }
      state.checks += 1
      let number = state.checks
      state.resetCredentials?.isChecking = true
      state.errorMessage = nil
      let code = credentials.needsCode ? credentials.code : nil
      return .run { [checkCredentials] send in
        await send(
          .resetCredentialsChecked(
            number: number, await checkCredentials(userName, credentials.password, code)))
      }
      .cancellable(id: CancelID.credentials, cancelInFlight: true)

    case .resetCredentialsChecked(let number, let check):
      // Only the answer to this question's latest check counts.
      guard state.isConfirmingReset, state.resetCredentials?.isChecking == true,
        number == state.checks
      else { return .none }
      state.resetCredentials?.isChecking = false
      switch check {
      case .accepted:
        return reset(&state)
      case .codeNeeded:
        state.resetCredentials?.needsCode = true
        state.errorMessage = Self.codeNeededMessage
      case .refused(let message):
        // With a code asked for, the password was right: only the code is typed again.
        if state.resetCredentials?.needsCode != true { state.resetCredentials?.password = "" }
        state.resetCredentials?.code = ""
        state.errorMessage = message
      }
      return .none

    case .view(.resetCancelled):
      state.isConfirmingReset = false
      state.resetCredentials = nil
      state.errorMessage = nil
      return .cancel(id: CancelID.credentials)

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

  static let codeNeededMessage =
    "This account has two-factor on: enter a code from the authenticator app, or a recovery code."

  /// Resets the stats, once confirmed (and, for an account, its credentials checked).
  private func reset(_ state: inout State) -> Effect<Action> {
    state.isConfirmingReset = false
    state.resetCredentials = nil
    state.isLoading = true
    state.replay = nil
    state.errorMessage = nil
    return load(state.owner, reset: true)
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
