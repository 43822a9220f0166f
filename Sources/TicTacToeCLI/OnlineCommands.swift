import AppLive
import AuthenticationClient
import Console
import DatabaseClient
import DatabaseClientLive
import Foundation
import GameCore
import GameProtocol
import GameRules
import NetworkIO
import NewGameCore
import OnlineClient
import OnlineClientLive
import OnlineCore
import ServerLive

extension CLI {
  // MARK: - serve

  static func serve(_ options: ServeOptions) async -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    do {
      let algorithm = try PasswordCost.algorithm(environment[PasswordCost.variable])
      return await GameServerProcess.run(
        options, environment: environment, passwordAlgorithm: algorithm)
    } catch {
      printError(error.message)
      return error.status
    }
  }

  // MARK: - Reaching a server

  /// The accounts `--server` names, or this computer's.
  static func accounts(_ common: CommonOptions, _ clients: LiveClients) throws(CommandFailure)
    -> AuthenticationClient
  {
    guard common.server != nil else { return clients.authentication }
    return .remote(try remoteSession(common, clients))
  }

  /// A session with the server of `--server`, pinning its fingerprint in this computer's
  /// database.
  static func remoteSession(
    _ common: CommonOptions, _ clients: LiveClients,
    announce: @escaping @Sendable (String) -> Void =
      { Console.error($0 + "\n") }
  ) throws(CommandFailure) -> RemoteSession {
    guard let server = common.server else { preconditionFailure("no --server was given") }
    let loop: EventLoop
    do throws(OnlineFailure) {
      loop = try ClientLoop.shared()
    } catch {
      throw .failure(error.message)
    }
    return RemoteSession(
      address: server, trust: trustStore(common, clients, announce: announce), loop: loop)
  }

  static func trustStore(
    _ common: CommonOptions, _ clients: LiveClients,
    announce: @escaping @Sendable (String) -> Void
  ) -> TrustStore {
    TrustStore(
      database: clients.localDatabase, explicitFingerprint: common.serverFingerprint,
      announce: announce, now: { clients.clock.now() })
  }

  /// The answer to a request, with a refusal or a lost connection as a ``CommandFailure``.
  static func ask(_ session: RemoteSession, _ message: ClientMessage) async throws(CommandFailure)
    -> ServerMessage
  {
    let answer: ServerMessage
    do throws(OnlineFailure) {
      answer = try await session.request(message)
    } catch {
      throw .failure(error.message)
    }
    if case .refused(let refusal) = answer {
      throw .failure(
        OnlineRecords.violation(refusal, to: message, server: session.address)
          ?? OnlineGame.sentence(for: refusal, code: nil))
    }
    return answer
  }

  // MARK: - games

  static func games(json: Bool, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common)
      let session = try remoteSession(common, clients)
      guard case .games(let listings) = try await ask(session, .listGames) else {
        throw .failure("The server answered with something else than a list of games.")
      }
      await session.close()
      if let violation = listings.violation(server: session.address) {
        throw .failure(violation)
      }
      if json {
        Console.line(OnlineFormatting.gamesJSON(listings))
      } else if listings.isEmpty {
        Console.line(
          "No games on \(session.address); start one with tictactoe play --server "
            + "\(session.address) --user NAME --new.")
      } else {
        for listing in listings { Console.line(OnlineFormatting.listingText(listing)) }
      }
    }
  }

  // MARK: - stats --server

  static func onlineStats(_ options: StatsOptions, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      guard let user = options.user else {
        throw .usage("Online stats belong to an account: tictactoe stats NAME --server HOST.")
      }
      guard !options.reset else {
        throw .usage("Online records cannot be reset; --reset works on this computer's stats.")
      }
      let clients = try LiveClients(common)
      let session = try remoteSession(common, clients)
      let answer: ServerMessage
      do throws(OnlineFailure) {
        answer = try await session.request(.requestStats(userName: user))
      } catch {
        throw .failure(error.message)
      }
      await session.close()
      if case .refused(let refusal) = answer,
        let violation = OnlineRecords.violation(
          refusal, to: .requestStats(userName: user), server: session.address)
      {
        throw .failure(violation)
      }
      switch answer {
      case .stats(let stats):
        if let violation = OnlineRecords.violation(stats, of: user, server: session.address) {
          throw .failure(violation)
        }
        Console.line(
          options.json
            ? OnlineFormatting.statsJSON(stats, server: session.address)
            : OnlineFormatting.statsText(stats, server: session.address))
      case .refused(let refusal) where refusal.code == .noSuchUser:
        throw .failure(
          "There is no account named \(user.escapingControlCharacters) on "
            + "\(session.address).")
      case .refused(let refusal):
        throw .failure(OnlineGame.sentence(for: refusal, code: nil))
      default:
        throw .failure("The server answered with something else than stats.")
      }
    }
  }
}

/// The most finished games `history --server` lists, as many as `history` does on this computer.
private let historyPageLimit = 100_000

extension CLI {
  // MARK: - history and replay --server

  static func onlineHistory(user: String?, json: Bool, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      guard let user else {
        throw .usage("Online games belong to an account: tictactoe history NAME --server HOST.")
      }
      let (games, server) = try await wholeHistory(of: user, common)
      // A result the moves contradict is the server's fault, not a record to list, and so is
      // a game the account did not play.
      if let violation = OnlineRecords.violation(games, of: user, server: server) {
        throw .failure(violation)
      }
      let records = games.map(GameRecord.init)
      if json {
        Console.line(RecordFormatting.historyJSON(records, user: user))
      } else if records.isEmpty {
        Console.line(
          "No finished online games yet for \(user.escapingControlCharacters) on \(server).")
      } else {
        for record in records { Console.line(RecordFormatting.summary(record)) }
      }
    }
  }

  static func onlineReplay(gameID: Int64, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      let (games, server) = try await finishedGames(.requestFinishedGame(id: gameID), common) {
        refusal, server in
        refusal.code == .noSuchGame
          ? "There is no finished game with id \(gameID) on \(server); tictactoe history NAME "
            + "--server \(server) lists them." : nil
      }
      guard games.count == 1, let game = games.first, game.id == gameID else {
        throw .failure(
          "The server at \(server) answered the request for game \(gameID) with other games.")
      }
      if let violation = OnlineRecords.violation(games, server: server) {
        throw .failure(violation)
      }
      guard let text = RecordFormatting.replayText(GameRecord(game)) else {
        throw .failure(
          "The server at \(server) sent game \(gameID) with moves that cannot be played.")
      }
      Console.line(text)
    }
  }

  /// Every finished game of `user` on the server, newest first, asked for a page at a time on
  /// one connection.
  private static func wholeHistory(of user: String, _ common: CommonOptions)
    async throws(CommandFailure) -> ([FinishedGame], ServerAddress)
  {
    let clients = try LiveClients(common)
    let session = try remoteSession(common, clients)
    var games: [FinishedGame] = []
    var cursor: HistoryCursor?
    while true {
      let page = try await finishedGames(
        .requestHistory(userName: user, before: cursor), session
      ) { [hasGames = !games.isEmpty] refusal, server in
        guard refusal.code == .noSuchUser else { return nil }
        // An account whose games came on the pages before cannot be unknown.
        return hasGames
          ? "The server at \(server) said there is no account named "
            + "\(user.escapingControlCharacters) after sending games of theirs."
          : "There is no account named \(user.escapingControlCharacters) on \(server)."
      }
      // Each page must start after the last one ended, or a lying server could keep the
      // command asking forever.
      if let cursor, let first = page.first,
        (first.endedAt, first.id) >= (cursor.endedAt, cursor.id)
      {
        await session.close()
        throw .failure("The server at \(session.address) sent a history out of order.")
      }
      games += page
      guard page.count >= ProtocolLimits.historyPageSize, let last = page.last,
        games.count < historyPageLimit
      else { break }
      cursor = HistoryCursor(after: last)
    }
    await session.close()
    return (games, session.address)
  }

  /// Asks the server for finished games; `refusal` words the refusals the caller expects.
  private static func finishedGames(
    _ request: ClientMessage, _ common: CommonOptions,
    refusal sentence: (Refusal, ServerAddress) -> String?
  ) async throws(CommandFailure) -> ([FinishedGame], ServerAddress) {
    let clients = try LiveClients(common)
    let session = try remoteSession(common, clients)
    let games = try await finishedGames(request, session, refusal: sentence)
    await session.close()
    return (games, session.address)
  }

  /// Asks the server of `session` for finished games, leaving the session open.
  private static func finishedGames(
    _ request: ClientMessage, _ session: RemoteSession,
    refusal sentence: (Refusal, ServerAddress) -> String?
  ) async throws(CommandFailure) -> [FinishedGame] {
    let answer: ServerMessage
    do throws(OnlineFailure) {
      answer = try await session.request(request)
    } catch {
      await session.close()
      throw .failure(error.message)
    }
    switch answer {
    case .history(let games):
      return games
    case .refused(let refusal):
      await session.close()
      throw .failure(
        OnlineRecords.violation(refusal, to: request, server: session.address)
          ?? sentence(refusal, session.address) ?? OnlineGame.sentence(for: refusal, code: nil))
    default:
      await session.close()
      throw .failure("The server answered with something else than finished games.")
    }
  }
}

/// Text and JSON for what servers answer.
enum OnlineFormatting {
  static func listingText(_ listing: GameListing) -> String {
    let x = listing.xName.map { "\($0.escapingControlCharacters) (X)" } ?? "(X free)"
    let o = listing.oName.map { "\($0.escapingControlCharacters) (O)" } ?? "(O free)"
    let status = listing.isOpen ? "open   " : "playing"
    // Every field comes from the server, the code as much as the names.
    return "\(listing.code.escapingControlCharacters)  \(status)  \(x) vs \(o)  "
      + "\(listing.rows)×\(listing.columns), "
      + "\(listing.k) in a row, \(RecordFormatting.count(listing.moveCount, "move"))"
  }

  static func gamesJSON(_ listings: [GameListing]) -> String {
    JSON.line(GamesOutput(listings: listings))
  }

  static func statsText(_ stats: PlayerStats, server: ServerAddress) -> String {
    let name = stats.userName.escapingControlCharacters
    guard stats.games > 0 else {
      return "No finished online games yet for \(name) on \(server); rating \(stats.rating)."
    }
    // Worded as this computer's records are, from the Stats screen's reading of a server's.
    let record = Stats(stats, recentGames: [])
    return [
      RecordFormatting.recordLine(record, owner: "\(name) on \(server)"),
      "Rating: \(stats.rating).",
      RecordFormatting.streakLine(record),
    ].joined(separator: "\n")
  }

  static func statsJSON(_ stats: PlayerStats, server: ServerAddress) -> String {
    JSON.line(OnlineStatsOutput(stats: stats, server: server))
  }
}

/// `games --json`.
struct GamesOutput: JSONObject {
  let listings: [GameListing]

  var fields: [(key: String, value: (any Encodable)?)] {
    [("games", listings.map(GameListingOutput.init))]
  }
}

/// One game a server lists.
struct GameListingOutput: JSONObject {
  let listing: GameListing

  var fields: [(key: String, value: (any Encodable)?)] {
    [
      ("code", listing.code), ("status", listing.isOpen ? "open" : "playing"),
      ("x", listing.xName), ("o", listing.oName), ("rows", listing.rows),
      ("columns", listing.columns), ("k", listing.k), ("moves", listing.moveCount),
    ]
  }
}

/// `stats USER --server HOST --json`.
struct OnlineStatsOutput: JSONObject {
  let stats: PlayerStats
  let server: ServerAddress

  var fields: [(key: String, value: (any Encodable)?)] {
    [
      ("user", stats.userName), ("server", server.description), ("rating", stats.rating),
      ("games", stats.games), ("wins", stats.wins), ("losses", stats.losses),
      ("draws", stats.draws), ("currentStreak", stats.currentStreak),
      ("bestStreak", stats.bestStreak),
    ]
  }
}
