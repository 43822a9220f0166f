import CLinux
import Glibc
import Synchronization
public import TLS

private let connectionCounter = Atomic<UInt64>(0)

/// A fresh connection number.
func nextConnectionID() -> ConnectionID {
  ConnectionID(connectionCounter.add(1, ordering: .relaxed).newValue)
}

/// A listening TCP socket that accepts TLS connections on its loop.
public final class Listener: Selectable, @unchecked Sendable {
  /// The address the socket is bound to, with the port the system chose for port 0.
  public let address: SocketAddress
  private let descriptor: Int32
  private let loop: EventLoop
  private let context: TLSContext
  private let handlerForConnection: (Connection) -> (any ConnectionHandler)?
  private var isPaused = false
  private var isClosed = false

  /// Binds and listens on `address`, then accepts on `loop`.
  ///
  /// - Parameters:
  ///   - address: Where to listen.
  ///   - loop: The loop that accepts and drives the connections.
  ///   - context: The server's TLS context.
  ///   - handler: Given each accepted connection on the loop; returns its handler, or `nil` to
  ///     refuse it (it is closed at once).
  /// - Throws: ``SystemError`` when the address cannot be bound.
  public convenience init(
    address: SocketAddress, loop: EventLoop, context: TLSContext,
    handler: @escaping (Connection) -> (any ConnectionHandler)?
  ) throws(SystemError) {
    self.init(
      socket: try ListeningSocket(address: address), loop: loop, context: context, handler: handler)
  }

  /// Accepts on `loop` the connections of a socket already listening.
  ///
  /// - Parameters:
  ///   - socket: The listening socket; the listener owns it from now on.
  ///   - loop: The loop that accepts and drives the connections.
  ///   - context: The server's TLS context.
  ///   - handler: Given each accepted connection on the loop; returns its handler, or `nil` to
  ///     refuse it (it is closed at once).
  public init(
    socket: ListeningSocket, loop: EventLoop, context: TLSContext,
    handler: @escaping (Connection) -> (any ConnectionHandler)?
  ) {
    let descriptor = socket.take()
    self.address = socket.address
    self.descriptor = descriptor
    self.loop = loop
    self.context = context
    self.handlerForConnection = handler
    loop.execute { [self] in
      do {
        try loop.register(descriptor, self, events: EPOLLIN.rawValue)
      } catch {
        closeNow()
      }
    }
  }

  /// Stops accepting; connections already accepted stay open.
  public func close() {
    loop.execute { [self] in closeNow() }
  }

  func ready(_ events: UInt32) {
    while !isClosed, !isPaused {
      let accepted: (Int32, SocketAddress)?
      do {
        accepted = try System.accept(descriptor)
      } catch {
        // Out of descriptors: stop accepting for a moment instead of spinning on the socket.
        if error.code == EMFILE || error.code == ENFILE || error.code == ENOBUFS
          || error.code == ENOMEM
        {
          pause()
        }
        return
      }
      guard let (socket, peer) = accepted else { return }
      System.setNoDelay(socket)
      let session: TLSSession
      do {
        session = try TLSSession(context: context, fileDescriptor: socket)
      } catch {
        System.close(socket)
        continue
      }
      let connection = Connection(
        id: nextConnectionID(), descriptor: socket, peer: peer, loop: loop, session: session,
        connecting: false, maximumPendingOutput: maximumPendingOutput)
      guard let handler = handlerForConnection(connection),
        (try? connection.activate(handler: handler)) != nil
      else {
        System.close(socket)
        continue
      }
    }
  }

  /// The output buffered for a slow reader before it is dropped.
  public var maximumPendingOutput = 1 << 20

  func loopStopped() {
    closeNow()
  }

  private func pause() {
    isPaused = true
    loop.setInterest(descriptor, events: 0)
    loop.schedule(afterMilliseconds: 100) { [self] in
      guard !isClosed else { return }
      isPaused = false
      loop.setInterest(descriptor, events: EPOLLIN.rawValue)
    }
  }

  private func closeNow() {
    guard !isClosed else { return }
    isClosed = true
    loop.unregister(descriptor)
    System.close(descriptor)
  }
}

extension EventLoop {
  /// Connects to the first of `addresses` that answers and starts a TLS handshake.
  ///
  /// Must be called on the loop. The handler hears ``ConnectionHandler/connectionEstablished(_:)``
  /// or ``ConnectionHandler/connectionClosed(_:reason:)``; the caller checks the fingerprint.
  ///
  /// - Parameters:
  ///   - addresses: Where to connect, in order of preference.
  ///   - context: A client TLS context.
  ///   - serverName: The host name for SNI, or `nil` for an address.
  ///   - handler: The connection's handler.
  ///   - source: The local address to connect from, as a load test spreading its clients over
  ///     loopback addresses does; the system chooses when `nil`.
  /// - Returns: The connection, or the error of the last address tried.
  public func connect(
    to addresses: [SocketAddress], context: TLSContext, serverName: String?,
    handler: any ConnectionHandler, from source: SocketAddress? = nil
  ) -> Result<Connection, SystemError> {
    var lastError = SystemError("connect", code: EADDRNOTAVAIL)
    for address in addresses {
      do throws(SystemError) {
        let socket = try System.socket(family: address.family)
        let connected: Bool
        do {
          System.setNoDelay(socket)
          if let source { try System.bind(socket, to: source) }
          connected = try System.connect(socket, to: address)
        } catch {
          System.close(socket)
          throw error
        }
        let session: TLSSession
        do {
          session = try TLSSession(context: context, fileDescriptor: socket, serverName: serverName)
        } catch {
          System.close(socket)
          throw SystemError("SSL_new", code: ENOMEM)
        }
        let connection = Connection(
          id: nextConnectionID(), descriptor: socket, peer: address, loop: self,
          session: session, connecting: !connected, maximumPendingOutput: 1 << 24)
        do {
          try connection.activate(handler: handler)
        } catch {
          System.close(socket)
          throw error
        }
        if connected { connection.ready(EPOLLOUT.rawValue) }
        return .success(connection)
      } catch {
        lastError = error
      }
    }
    return .failure(lastError)
  }

  /// Raises the soft limit on open descriptors to the hard limit.
  ///
  /// - Returns: The limit now in force.
  @discardableResult
  public static func raiseDescriptorLimit() -> Int { System.raiseDescriptorLimit() }

  /// Milliseconds on the monotonic clock, the clock of ``Connection/openedAt``.
  public static func monotonicMilliseconds() -> Int64 { System.monotonicMilliseconds() }
}

/// A TCP socket bound and listening, before anything accepts on it: a server claims its address
/// first, so that an address in use is found before anything else is made.
///
/// Closed when released, unless a ``Listener`` took it.
public final class ListeningSocket: @unchecked Sendable {
  /// The address the socket is bound to, with the port the system chose for port 0.
  public let address: SocketAddress
  private let descriptor: Int32
  private var isTaken = false

  /// Binds and listens on `address`; connections wait in the backlog until a ``Listener``
  /// takes the socket.
  ///
  /// - Throws: ``SystemError`` when the address cannot be bound.
  public init(address: SocketAddress) throws(SystemError) {
    let descriptor = try System.socket(family: address.family)
    do {
      try System.setOption(descriptor, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
      if address.family == AF_INET6 {
        // Listening on :: takes IPv4 too, as "all interfaces" promises.
        try? System.setOption(descriptor, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 0)
      }
      try System.bind(descriptor, to: address)
      try System.listen(descriptor, backlog: 4_096)
      self.address = try System.localAddress(descriptor)
    } catch {
      System.close(descriptor)
      throw error
    }
    self.descriptor = descriptor
  }

  /// The descriptor, now the taker's to close.
  fileprivate func take() -> Int32 {
    precondition(!isTaken, "a listening socket was taken twice")
    isTaken = true
    return descriptor
  }

  deinit {
    if !isTaken { System.close(descriptor) }
  }
}
