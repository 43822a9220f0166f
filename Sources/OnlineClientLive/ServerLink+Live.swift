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
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        let task = Task {
          current.connection.withLock { $0 }?.close()
          do throws(OnlineFailure) {
            let connection = try await ServerConnection.open(address, loop: loop, trusting: trust)
            current.connection.withLock { $0 = connection }
            continuation.yield(.opened)
            while let message = await connection.next() {
              continuation.yield(.message(message))
            }
            if let failure = connection.failure {
              continuation.yield(.closed(reason: failure.message, isPermanent: failure.isPermanent))
            } else {
              continuation.yield(
                .closed(reason: connection.reason ?? "closed", isPermanent: false))
            }
          } catch {
            continuation.yield(.closed(reason: error.message, isPermanent: error.isPermanent))
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
      },
      send: { message in current.connection.withLock { $0 }?.send(message) },
      close: {
        current.connection.withLock { $0 }?.close()
      }
    )
  }
}

/// The link's open connection.
private final class Current: Sendable {
  let connection = Mutex<ServerConnection?>(nil)
}
