import AuthenticationClient
public import DatabaseClientLive
import GameProtocol
import GameRules
import NetworkIO
public import OnlineClient
import OnlineCore
import Synchronization

extension OnlineClient {
  /// The game servers over TLS, with fingerprints pinned in this computer's database.
  ///
  /// A server is reached only once its fingerprint is pinned: ``checkServer`` tells the front
  /// end what the server presented, and ``trustServer`` pins it when the player agrees. The
  /// event loop starts on first use.
  ///
  /// - Parameters:
  ///   - database: This computer's database, which keeps the pinned fingerprints.
  ///   - now: The clock in milliseconds since 1970, for the time a server was trusted.
  /// - Returns: The client.
  public static func live(database: LocalDatabase, now: @escaping @Sendable () -> Int64)
    -> OnlineClient
  {
    let trust = TrustStore(
      database: database, explicitFingerprint: nil, firstUse: .refuse, now: now)
    let sessions = RemoteSessions(trust: trust)
    return OnlineClient(
      checkServer: { address in
        let connection = try await ServerConnection.open(
          address, loop: try ClientLoop.shared(), trusting: nil)
        connection.close()
        return try trust.status(of: address, presented: connection.fingerprint)
      },
      trustServer: { address, fingerprint in try trust.pin(address, fingerprint) },
      accounts: { address in .remote(sessions.session(for: address)) },
      listGames: { address in
        let connection = try await ServerConnection.open(
          address, loop: try ClientLoop.shared(), trusting: trust)
        defer { connection.close() }
        switch try await connection.request(.listGames) {
        case .games(let listings):
          if let violation = listings.violation(server: address) {
            throw OnlineFailure(violation)
          }
          return listings
        case .refused(let refusal):
          throw OnlineFailure(OnlineGame.sentence(for: refusal, code: nil))
        default:
          throw OnlineFailure("The server at \(address) answered with something else than games.")
        }
      },
      link: { address in sessions.link(for: address) },
      signOut: { address in await sessions.remove(address)?.close() },
      playerRecord: { address, userName in
        let connection = try await ServerConnection.open(
          address, loop: try ClientLoop.shared(), trusting: trust)
        defer { connection.close() }
        func refused(_ refusal: Refusal, to request: ClientMessage) -> OnlineFailure {
          if let violation = OnlineRecords.violation(refusal, to: request, server: address) {
            return OnlineFailure(violation)
          }
          return refusal.code == .noSuchUser
            ? OnlineFailure(
              "There is no account named \(userName.escapingControlCharacters) on \(address).")
            : OnlineFailure(OnlineGame.sentence(for: refusal, code: nil))
        }
        let stats: PlayerStats
        let statsRequest = ClientMessage.requestStats(userName: userName)
        switch try await connection.request(statsRequest) {
        case .stats(let answer):
          if let violation = OnlineRecords.violation(answer, of: userName, server: address) {
            throw OnlineFailure(violation)
          }
          stats = answer
        case .refused(let refusal): throw refused(refusal, to: statsRequest)
        default:
          throw OnlineFailure("The server at \(address) answered with something else than stats.")
        }
        let historyRequest = ClientMessage.requestHistory(userName: userName)
        switch try await connection.request(historyRequest) {
        case .history(let games):
          if let violation = OnlineRecords.violation(games, of: userName, server: address) {
            throw OnlineFailure(violation)
          }
          return (stats, games)
        case .refused(let refusal): throw refused(refusal, to: historyRequest)
        default:
          throw OnlineFailure(
            "The server at \(address) answered with something else than finished games.")
        }
      })
  }
}

extension ServerLink {
  /// A link whose every connection fails at once with `failure`.
  static func failing(_ failure: OnlineFailure) -> ServerLink {
    ServerLink(
      open: {
        AsyncStream { continuation in
          continuation.yield(.closed(reason: failure.message, isPermanent: true))
          continuation.finish()
        }
      },
      send: { _ in }, close: {})
  }
}

/// One account session and one game link for each server, so that a sign-in and its two-factor
/// code travel on the same connection, a signed-in player's requests find it again, and a game's
/// moves go on the connection its link opened.
private final class RemoteSessions: Sendable {
  private let trust: TrustStore
  private let sessions = Mutex<[String: RemoteSession]>([:])
  private let links = Mutex<[String: ServerLink]>([:])

  func link(for address: ServerAddress) -> ServerLink {
    links.withLock { links in
      let key = address.description.lowercased()
      if let link = links[key] { return link }
      let link: ServerLink
      do throws(OnlineFailure) {
        link = .live(address: address, trust: trust, loop: try ClientLoop.shared())
      } catch {
        return .failing(error)
      }
      links[key] = link
      return link
    }
  }

  init(trust: TrustStore) { self.trust = trust }

  func session(for address: ServerAddress) -> RemoteSession {
    sessions.withLock { sessions in
      let key = address.description.lowercased()
      if let session = sessions[key] { return session }
      let session = RemoteSession(address: address, trust: trust, loop: nil)
      sessions[key] = session
      return session
    }
  }

  func remove(_ address: ServerAddress) -> RemoteSession? {
    sessions.withLock { $0.removeValue(forKey: address.description.lowercased()) }
  }
}
