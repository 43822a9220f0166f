public import AppCore
public import AuthenticationClient
import AuthenticationClientLive
public import Crypto
public import DatabaseClient
public import DatabaseClientLive
import Foundation
import GameAI
public import GameCore
public import OnlineClient
import OnlineClientLive

/// The clients that reach the real world: the database, the accounts, the engine and the clock.
public struct LiveClients: Sendable {
  /// Local accounts in the database.
  public var authentication: AuthenticationClient
  /// Game records in the database.
  public var database: DatabaseClient
  /// The engine with its time budget.
  public var engine: EngineClient
  /// The system clock.
  public var clock: ClockClient
  /// The system's random numbers.
  public var random: RandomClient
  /// The database every client above uses, for what has no client of its own (such as the
  /// fingerprints of trusted servers).
  public var localDatabase: LocalDatabase
  /// The game servers, with their fingerprints pinned in the database.
  public var online: OnlineClient

  /// Opens the database where PRODUCT.md §5 says and builds every live client over it.
  ///
  /// - Parameters:
  ///   - databasePath: A `--database` path, which wins over `TICTACTOE_DATABASE` and the default.
  ///   - environment: The environment to read; the process's own when `nil`.
  ///   - access: `.reading` when the caller only reads, so that a database that cannot be
  ///     written still opens (read-only); `.writing` refuses it.
  ///   - timeBudget: The engine's thinking time per move on boards it cannot solve at once.
  ///   - passwordAlgorithm: How new passwords are hashed: production scrypt unless a test
  ///     suite asks for cheap hashes.
  /// - Throws: ``DatabaseError`` with one sentence when the database cannot be used: missing
  ///   and impossible to create, damaged (checked before anything writes to it, and left
  ///   unchanged), newer than this program, locked, or read-only when writing was asked for.
  public init(
    databasePath: String?, environment: [String: String]? = nil,
    access: LocalDatabase.Access = .writing, timeBudget: Duration = .seconds(1),
    passwordAlgorithm: PasswordHash.Algorithm = .production
  ) throws(DatabaseError) {
    let local = try LocalDatabase.open(
      explicitPath: databasePath, environment: environment ?? ProcessInfo.processInfo.environment,
      access: access)
    localDatabase = local
    authentication = .live(database: local, passwordAlgorithm: passwordAlgorithm)
    database = .live(database: local)
    engine = .engine(Engine(timeBudget: timeBudget), seed: UInt64.random(in: .min ... .max))
    clock = .live
    random = .live
    online = .live(database: local, now: { ClockClient.live.now() })
  }

  /// The app's root reducer over these clients.
  ///
  /// - Parameter thinkingPause: How long the computer seems to think before it moves.
  /// - Returns: The root reducer.
  public func app(thinkingPause: Duration = GameFeature.naturalThinkingPause) -> TicTacToe {
    TicTacToe(
      authentication: authentication, database: database, engine: engine, clock: clock,
      random: random, online: online, thinkingPause: thinkingPause)
  }
}

extension ClockClient {
  /// The system clock: wall time in milliseconds, `Task.sleep`, and local time in the time
  /// zone the C library reads from `TZ` or `/etc/localtime`.
  public static let live = ClockClient(
    now: { Timestamp((Date().timeIntervalSince1970 * 1_000).rounded()) },
    sleep: { duration in try await Task.sleep(for: duration) },
    localTime: { timestamp in
      var seconds = time_t(LocalTime.seconds(of: timestamp))
      var parts = tm()
      guard localtime_r(&seconds, &parts) != nil else { return LocalTime(timestamp) }
      return LocalTime(timestamp, utcOffset: parts.tm_gmtoff)
    }
  )
}

extension RandomClient {
  /// The system's random number generator.
  public static let live = RandomClient(int: { range in Int.random(in: range) })
}
