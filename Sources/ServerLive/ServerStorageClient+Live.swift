public import AuthenticationClient
public import DatabaseClient
import DatabaseClientLive
import GameProtocol
import GameRules
public import ServerCore
import Synchronization

extension ServerStorageClient {
  /// The server's records in its SQLite database, written in group commits.
  ///
  /// - Parameters:
  ///   - records: The server's tables.
  ///   - database: The game records, for stats.
  /// - Returns: The client.
  public static func live(records: ServerRecords, database: DatabaseClient)
    -> ServerStorageClient
  {
    ServerStorageClient(
      openSession: { session in try await records.openSession(session) },
      resumeSession: { token in try await records.resumeSession(token) },
      endSessions: { userName in try await records.endSessions(userName) },
      accountID: { userName in try await records.account(named: userName)?.id },
      createGame: { game in try await records.createGame(game) },
      seatOpponent: { code, seat in try await records.seatOpponent(code, seat) },
      commitMove: { code, ply, cell, ending in
        try await records.commitMove(code, ply: ply, cell: cell, ending: ending)
      },
      finishGame: { code, ending in try await records.finishGame(code, ending) },
      cancelGame: { code in try await records.cancelGame(code) },
      stats: { userName in
        guard let account = try await records.account(named: userName) else { return nil }
        let stats = try await database.stats(.account(account.id))
        return PlayerStats(
          userName: account.userName, rating: account.rating, wins: stats.wins,
          losses: stats.losses, draws: stats.draws, currentStreak: stats.currentStreak,
          bestStreak: stats.bestStreak)
      },
      history: { userName, before, limit in
        guard let account = try await records.account(named: userName) else { return nil }
        var games: [FinishedGame] = []
        for id in try await records.finishedGameIDs(
          ofAccount: account.id, before: before, limit: limit)
        {
          if let game = try await database.game(id).flatMap(FinishedGame.init) {
            games.append(game)
          }
        }
        return games
      },
      finishedGame: { id in try await database.game(id).flatMap(FinishedGame.init) }
    )
  }
}

extension FinishedGame {
  /// The finished game of a record, or `nil` for one without an id or a result.
  init?(_ record: GameRecord) {
    guard let id = record.id, let result = record.result else { return nil }
    self.init(
      id: id, xName: record.x.name, oName: record.o.name, rows: record.rows,
      columns: record.columns, k: record.k, firstMover: record.firstMover, moves: record.moves,
      winner: result == .xWins ? .x : result == .oWins ? .o : nil, startedAt: record.startedAt,
      endedAt: record.endedAt ?? record.startedAt)
  }
}

extension AuthenticationClient {
  /// This client with its endpoints run one at a time: scrypt takes a lot of memory and blocks
  /// the thread it runs on, so sign-ins wait their turn and hold at most one of Swift's
  /// concurrency threads, leaving the others to the games.
  ///
  /// - Returns: The client.
  public func oneAtATime() -> AuthenticationClient {
    let client = self
    let gate = Gate()
    return AuthenticationClient(
      login: { userName, password in
        try await gate.run { try await client.login(userName, password) }
      },
      verifyTwoFactor: { challenge, code in
        try await gate.run { try await client.verifyTwoFactor(challenge, code) }
      },
      createAccount: { userName, password in
        try await gate.run { try await client.createAccount(userName, password) }
      },
      changePassword: { credentials, new in
        try await gate.run { try await client.changePassword(credentials, new) }
      },
      deleteAccount: { credentials in
        try await gate.run { try await client.deleteAccount(credentials) }
      },
      listAccounts: { try await gate.run { try await client.listAccounts() } },
      beginTwoFactor: { userName, password in
        try await gate.run { try await client.beginTwoFactor(userName, password) }
      },
      confirmTwoFactor: { userName, code in
        try await gate.run { try await client.confirmTwoFactor(userName, code) }
      },
      disableTwoFactor: { credentials in
        try await gate.run { try await client.disableTwoFactor(credentials) }
      },
      remainingRecoveryCodes: { session in
        try await gate.run { try await client.remainingRecoveryCodes(session) }
      },
      regenerateRecoveryCodes: { session in
        try await gate.run { try await client.regenerateRecoveryCodes(session) }
      },
      checkSession: { session in try await gate.run { try await client.checkSession(session) } }
    )
  }
}

/// Lets one operation run at a time, the others waiting their turn: addresses take turns
/// (``AccountsRequester/address``), and each address's operations run in order.
///
/// So a few addresses that send sign-ins without pause (each within its allowance) delay
/// another address's sign-in by one operation each, not by everything they queued. The gate is
/// a lock, not an actor: an operation that blocks its thread (scrypt does) must never hold what
/// the others wait on to queue for their turn.
final class Gate: Sendable {
  private struct State {
    var isBusy = false
    /// The operations waiting, by address, and the addresses in the order of their turns.
    var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    var turns: [String] = []
  }

  private let state = Mutex(State())

  /// How many operations wait, for tests.
  var waitingCount: Int { state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } } }
  /// Whether an operation runs, for tests.
  var isRunning: Bool { state.withLock { $0.isBusy } }

  /// Runs `operation` once its turn comes.
  @concurrent func run<Result: Sendable>(
    _ operation: @Sendable () async throws -> Result
  ) async throws -> Result {
    let address = AccountsRequester.address ?? ""
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let runsNow = state.withLock { state in
        if !state.isBusy {
          state.isBusy = true
          return true
        }
        if state.waiting[address] == nil { state.turns.append(address) }
        state.waiting[address, default: []].append(continuation)
        return false
      }
      if runsNow { continuation.resume() }
    }
    defer { next() }
    return try await operation()
  }

  /// Lets the first operation of the next address in turn run; that address, if it has more,
  /// waits for its next turn at the back.
  private func next() {
    let first = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.turns.isEmpty else {
        state.isBusy = false
        return nil
      }
      let address = state.turns.removeFirst()
      var queue = state.waiting[address] ?? []
      let first = queue.removeFirst()
      if queue.isEmpty {
        state.waiting[address] = nil
      } else {
        state.waiting[address] = queue
        state.turns.append(address)
      }
      return first
    }
    first?.resume()
  }
}
