public import GameProtocol

/// What happens on a connection to the game server.
public enum LinkEvent: Equatable, Sendable {
  /// Connected, TLS checked against the pinned fingerprint, versions agreed.
  case opened
  /// The server sent a message.
  case message(ServerMessage)
  /// The connection closed or could not be made; `isPermanent` when trying again cannot help
  /// (a changed fingerprint, a version the server does not speak).
  case closed(reason: String, isPermanent: Bool)
}

/// A connection to the game server: open it, send on it, close it.
///
/// The live value speaks TLS to a real server; tests script the events.
public struct ServerLink: Sendable {
  /// Opens a new connection (closing any previous one) and streams its events; the stream ends
  /// after ``LinkEvent/closed(reason:isPermanent:)``.
  public var open: @Sendable () -> AsyncStream<LinkEvent>
  /// Sends a message on the open connection; dropped when none is open.
  public var send: @Sendable (_ message: ClientMessage) async -> Void
  /// Closes the open connection.
  public var close: @Sendable () async -> Void

  /// Creates a link from its endpoints.
  public init(
    open: @escaping @Sendable () -> AsyncStream<LinkEvent>,
    send: @escaping @Sendable (_ message: ClientMessage) async -> Void,
    close: @escaping @Sendable () async -> Void
  ) {
    self.open = open
    self.send = send
    self.close = close
  }
}
