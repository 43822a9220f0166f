public import GameProtocol
public import NetworkIO
public import OnlineClient
import Synchronization

extension ServerLink {
  /// A link to a real server over TLS, checking its fingerprint with `trust` on every connection.
  ///
  /// - Parameters:
  ///   - address: The server.
  ///   - trust: The pinned fingerprints.
  ///   - loop: The client's event loop.
  /// - Returns: The link.
  public static func live(address: ServerAddress, trust: TrustStore, loop: EventLoop)
    -> ServerLink
  {
    let current = Current()
    return ServerLink(
      open: {
        // Read as the consumer asks, so that a server sending faster than the game takes its
        // messages waits in the connection's buffers rather than in memory.
        let reader = LinkReader(address: address, trust: trust, loop: loop, current: current)
        return AsyncStream(unfolding: { await reader.next() }, onCancel: { reader.cancel() })
      },
      send: { message in current.connection.withLock { $0 }?.send(message) },
      close: {
        current.connection.withLock { $0 }?.close()
      }
    )
  }
}

/// One opening of a link: the connection it made, read one event at a time.
private final class LinkReader: Sendable {
  private enum Phase {
    case unopened
    case open(ServerConnection)
    case ended
  }

  private let address: ServerAddress
  private let trust: TrustStore
  private let loop: EventLoop
  private let current: Current
  private let phase = Mutex(Phase.unopened)
  private let isCancelled = Mutex(false)

  init(address: ServerAddress, trust: TrustStore, loop: EventLoop, current: Current) {
    self.address = address
    self.trust = trust
    self.loop = loop
    self.current = current
  }

  /// `opened`, then the messages, then why the connection closed; then `nil`.
  func next() async -> LinkEvent? {
    switch phase.withLock({ $0 }) {
    case .ended:
      return nil
    case .unopened:
      current.connection.withLock { $0 }?.close()
      do throws(OnlineFailure) {
        let connection = try await ServerConnection.open(address, loop: loop, trusting: trust)
        current.connection.withLock { $0 = connection }
        phase.withLock { $0 = .open(connection) }
        // Cancelled while it was being opened: it closes, and reading it ends.
        if isCancelled.withLock({ $0 }) { connection.close() }
        return .opened
      } catch {
        phase.withLock { $0 = .ended }
        return .closed(reason: error.message, isPermanent: error.isPermanent)
      }
    case .open(let connection):
      if let message = await connection.next() { return .message(message) }
      phase.withLock { $0 = .ended }
      if let failure = connection.failure {
        return .closed(reason: failure.message, isPermanent: failure.isPermanent)
      }
      return .closed(reason: connection.reason ?? "closed", isPermanent: false)
    }
  }

  /// Closes the connection made, so that a read waiting on it ends.
  func cancel() {
    isCancelled.withLock { $0 = true }
    if case .open(let connection) = phase.withLock({ $0 }) { connection.close() }
  }
}

/// The link's open connection.
private final class Current: Sendable {
  let connection = Mutex<ServerConnection?>(nil)
}
