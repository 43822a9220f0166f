public import GameProtocol
import GameRules
public import NetworkIO
public import OnlineClient
import OnlineCore
import Synchronization
import TLS

/// The event loop of a client process, started on first use.
public enum ClientLoop {
  private static let loop = Mutex<EventLoop?>(nil)

  /// The process's loop.
  ///
  /// - Throws: ``OnlineFailure`` when epoll cannot be set up.
  public static func shared() throws(OnlineFailure) -> EventLoop {
    try loop.withLock { (loop: inout EventLoop?) throws(OnlineFailure) -> EventLoop in
      if let loop { return loop }
      do throws(SystemError) {
        let started = try EventLoop()
        started.start(name: "tictactoe client")
        loop = started
        return started
      } catch {
        throw OnlineFailure("The network could not be set up: \(error.description).")
      }
    }
  }
}

/// A TLS connection to a game server that has checked the server's fingerprint and agreed on a
/// protocol version: send messages, and read them in order.
public final class ServerConnection: ConnectionHandler, @unchecked Sendable {
  /// The server.
  public let address: ServerAddress
  /// The server certificate's fingerprint.
  public private(set) var fingerprint: [UInt8] = []

  private let loop: EventLoop
  private let connection = Mutex<Connection?>(nil)
  private let continuation = Mailbox()
  private let closeReason = Mutex<String?>(nil)
  private let pinger = Mutex<Int?>(nil)
  /// Why this client closed the connection because of the server, once it has.
  private let fault = Mutex<OnlineFailure?>(nil)
  /// Whether a frame came since the last ping was sent.
  private let heardSincePing = Mutex(true)
  /// The deadline of the player's move sent last, until the server answers it.
  private let moveDeadline = Mutex<Int?>(nil)

  /// How long a request may wait for its answer.
  public static let deadlineMilliseconds: Int64 = 30_000

  private init(address: ServerAddress, loop: EventLoop) {
    self.address = address
    self.loop = loop
  }

  /// Connects, checks the certificate with `verify`, and says hello.
  ///
  /// - Parameters:
  ///   - address: The server.
  ///   - loop: The client's event loop.
  ///   - timeoutMilliseconds: How long connecting and greeting may take.
  ///   - trust: The pinned fingerprints: the server's is checked against them in the
  ///     handshake, and pinned there once the server has greeted as a tictactoe server; `nil`
  ///     accepts any server (to show its fingerprint to the player, who decides).
  /// - Returns: The connection, ready for requests.
  /// - Throws: ``OnlineFailure`` with one sentence.
  public static func open(
    _ address: ServerAddress, loop: EventLoop, timeoutMilliseconds: Int64 = 10_000,
    trusting trust: TrustStore?
  ) async throws(OnlineFailure) -> ServerConnection {
    let addresses: [SocketAddress]
    do {
      addresses = try SocketAddress.resolve(host: address.host, port: address.port)
    } catch {
      throw OnlineFailure("The server \(address) cannot be found (\(error.reason)).")
    }
    let context: TLSContext
    do {
      context = try TLSContext.client()
    } catch {
      throw OnlineFailure(error.description)
    }
    let server = ServerConnection(address: address, loop: loop)
    let serverName = address.isNumeric ? nil : address.host
    loop.execute {
      switch loop.connect(
        to: addresses, context: context, serverName: serverName, handler: server)
      {
      case .success(let connection): server.connection.withLock { $0 = connection }
      case .failure(let error): server.continuation.yield(.closed(error.reason))
      }
    }
    let timer = server.deadline(timeoutMilliseconds)
    defer { loop.cancel(timer: timer) }
    switch await server.nextEvent() {
    case .established(let fingerprint):
      server.fingerprint = fingerprint
      do {
        try trust?.check(address, presented: fingerprint)
      } catch {
        server.close()
        throw error
      }
    case .closed(let reason):
      throw server.fault.withLock { $0 }
        ?? OnlineFailure("Cannot reach the server at \(address): \(reason).")
    case .message, nil:
      throw OnlineFailure("The server at \(address) did not complete the TLS handshake.")
    }
    server.send(.hello(versions: ProtocolVersion.supported))
    switch await server.nextEvent() {
    case .message(.welcome(let version)) where ProtocolVersion.supported.contains(version):
      break
    case .message(.welcome(let version)):
      server.close()
      throw OnlineFailure(
        "The server at \(address) chose protocol version \(version), which this tictactoe did not "
          + "offer (it speaks \(ProtocolVersion.spoken)).", isPermanent: true)
    case .message(.refused(let refusal)) where refusal.code == .unsupportedVersion:
      server.close()
      throw OnlineFailure(
        "The server at \(address) \(ProtocolVersion.mismatch(refusal)).", isPermanent: true)
    case .message(.refused(let refusal))
    where [.shuttingDown, .serverError].contains(refusal.code)
      && [0, ClientMessage.hello(versions: ProtocolVersion.supported).type].contains(
        refusal.request):
      // A server stopping, or that cannot read its records, may answer anything so: the
      // attempt fails, and may be tried again.
      server.close()
      throw OnlineFailure(
        refusal.code == .shuttingDown
          ? "The server at \(address) is shutting down."
          : "The server at \(address) could not answer just now (serverError).")
    case .closed(let reason):
      throw server.fault.withLock { $0 }
        ?? OnlineFailure("The server at \(address) closed the connection: \(reason).")
    default:
      server.close()
      throw OnlineFailure(
        "The server at \(address) does not speak the tictactoe protocol.", isPermanent: true)
    }
    do {
      try trust?.confirm(address, presented: server.fingerprint)
    } catch {
      server.close()
      throw error
    }
    server.startPinging()
    return server
  }

  /// Sends a message; a move must be answered (played or refused) within
  /// ``deadlineMilliseconds``, or the connection is given up as lost, as a request's is.
  public func send(_ message: ClientMessage) {
    if case .move = message {
      let timer = deadline(Self.deadlineMilliseconds, answering: "the move")
      if let earlier = moveDeadline.withLock({ held in
        defer { held = timer }
        return held
      }) {
        loop.cancel(timer: earlier)
      }
    }
    connection.withLock { $0 }?.send(message.encoded())
  }

  /// Lets the move's deadline go once `message` answers the move.
  private func settleMove(_ message: ServerMessage) {
    switch message {
    case .moved, .game, .ended, .cancelled: break
    case .refused(let refusal) where refusal.request == OnlineGame.moveRequest:
      // Refused because the game ended meanwhile: the ending, which follows once stored,
      // answers the move; a server that never sends it counts as lost, and the game is
      // asked for again.
      guard refusal.code != .gameOver else { return }
    default: return
    }
    if let timer = moveDeadline.withLock({ $0.take() }) { loop.cancel(timer: timer) }
  }

  /// The next message, or `nil` once the connection has closed.
  public func next() async -> ServerMessage? {
    while true {
      switch await nextEvent() {
      case .message(.pong): continue
      case .message(let message): return message
      case .established: continue
      case .closed(let reason):
        closeReason.withLock { $0 = reason }
        return nil
      case nil: return nil
      }
    }
  }

  /// Sends a request and returns the answer.
  ///
  /// - Parameters:
  ///   - message: The request.
  ///   - deadlineMilliseconds: How long the answer may take; then the connection is closed.
  /// - Returns: The answer.
  /// - Throws: ``OnlineFailure`` when the connection closes first, the server sends something
  ///   that is not a message, or the deadline passes.
  public func request(
    _ message: ClientMessage, deadlineMilliseconds: Int64 = ServerConnection.deadlineMilliseconds
  ) async throws(OnlineFailure) -> ServerMessage {
    let timer = deadline(deadlineMilliseconds)
    defer { loop.cancel(timer: timer) }
    send(message)
    guard let answer = await next() else {
      throw failure
        ?? OnlineFailure(
          "The server at \(address) closed the connection (\(reason ?? "no reason given")).")
    }
    return answer
  }

  /// Why the connection closed, once it has.
  public var reason: String? { closeReason.withLock { $0 } }

  /// Why this client closed the connection because of the server, once it has: a server that
  /// went silent (trying again may help), or one that broke the protocol (permanent).
  public var failure: OnlineFailure? { fault.withLock { $0 } }

  /// Closes the connection.
  public func close() {
    if let timer = pinger.withLock({ $0 }) { loop.cancel(timer: timer) }
    connection.withLock { $0 }?.close(flushing: true)
  }

  private func nextEvent() async -> Event? {
    await continuation.take { [self] in
      loop.execute { [self] in connection.withLock { $0 }?.resumeReading() }
    }
  }

  /// Pings the server every ``ProtocolLimits/pingSeconds``; a server from which nothing came
  /// since the previous ping, one interval ago, has gone silent, and the connection is given up
  /// as lost (after 30 to 60 seconds of silence).
  private func startPinging() {
    let interval = Int64(ProtocolLimits.pingSeconds) * 1_000
    let timer = loop.repeating(everyMilliseconds: interval) { [weak self, address] in
      guard let self else { return }
      guard heardSincePing.withLock({ $0 }) else {
        giveUp(
          OnlineFailure(
            "The server at \(address) did not answer a ping within \(seconds(interval))."))
        return
      }
      heardSincePing.withLock { $0 = false }
      send(.ping(0))
    }
    pinger.withLock { $0 = timer }
  }

  /// Gives the connection up unless the returned timer is cancelled within `milliseconds`.
  ///
  /// - Parameters:
  ///   - milliseconds: How long the answer may take.
  ///   - answering: What the answer is to, where the sentence names it.
  /// - Returns: The timer, to cancel once the answer comes.
  private func deadline(_ milliseconds: Int64, answering: String? = nil) -> Int {
    let what = answering.map { " \($0)" } ?? ""
    return loop.after(milliseconds: milliseconds) { [weak self, address] in
      self?.giveUp(
        OnlineFailure(
          "The server at \(address) did not answer\(what) within \(seconds(milliseconds))."))
    }
  }

  /// Closes the connection because of the server, keeping `failure` as the reason.
  private func giveUp(_ failure: OnlineFailure) {
    keep(failure)
    if let timer = pinger.withLock({ $0 }) { loop.cancel(timer: timer) }
    connection.withLock { $0 }?.abort(.timedOut)
    continuation.yield(.closed(failure.message))
  }

  // MARK: - Loop callbacks

  public func connectionEstablished(_ connection: Connection) {
    continuation.yield(.established(connection.peerFingerprint ?? []))
  }

  public func connection(_ connection: Connection, received payload: [UInt8]) {
    heardSincePing.withLock { $0 = true }
    do {
      let message = try ServerMessage(decoding: payload)
      settleMove(message)
      // A server that sends faster than this client reads waits in the socket's buffers.
      if continuation.yield(.message(message)) {
        connection.pauseReading()
      }
    } catch {
      violated(
        "sent something that is not a message (\(String(describing: error)))", on: connection)
    }
  }

  public func connection(_ connection: Connection, broke error: ProtocolError) {
    if case .frameTooLarge(let length) = error, let text = Self.text(ofLengthPrefix: length) {
      // Another kind of server (a web server, a mail server) answering in its own words.
      violated(
        "does not speak the tictactoe protocol: it answered with text (\"\(text)…\")",
        on: connection)
      return
    }
    violated("broke the framing (\(String(describing: error)))", on: connection)
  }

  /// The four bytes of a length prefix as text, where all four are printable ASCII letters,
  /// digits, spaces or punctuation, as the start of a text protocol's answer would be.
  static func text(ofLengthPrefix length: Int) -> String? {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * (3 - $0))) }
    guard bytes.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Closes the connection of a server that broke the protocol: trying again cannot help.
  private func violated(_ what: String, on connection: Connection) {
    let failure = OnlineFailure(
      "The server at \(address) \(what.escapingControlCharacters).", isPermanent: true)
    keep(failure)
    continuation.yield(.closed(failure.message))
    connection.abort(.closedLocally)
  }

  /// Keeps `failure` as the reason the connection was given up, unless one was kept already.
  private func keep(_ failure: OnlineFailure) {
    fault.withLock { fault in
      if fault == nil { fault = failure }
    }
  }

  public func connectionClosed(_ connection: Connection, reason: CloseReason) {
    if let timer = pinger.withLock({ $0 }) { loop.cancel(timer: timer) }
    if let timer = moveDeadline.withLock({ $0.take() }) { loop.cancel(timer: timer) }
    // A server that closes during the handshake is most often full (or not this program's).
    let said =
      reason == .closedDuringHandshake
      ? "it closed the connection before TLS was set up; it may be full, or not a Tic-Tac-Toe "
        + "server" : reason.description
    continuation.yield(.closed(said))
    continuation.finish()
  }
}

/// `milliseconds` in words, such as `30 seconds`.
private func seconds(_ milliseconds: Int64) -> String {
  let seconds = milliseconds / 1_000
  return seconds == 1 ? "1 second" : "\(seconds) seconds"
}

/// What a connection reported, waiting to be read.
private enum Event: Sendable {
  case established([UInt8])
  case message(ServerMessage)
  case closed(String)
}

/// Events in arrival order for one reader at a time.
///
/// It holds at most ``capacity`` events before it says it is full, so that the connection is
/// read no more until the reader has taken half of them.
private final class Mailbox: Sendable {
  /// The events kept unread before the mailbox is full.
  static let capacity = 64

  private struct Contents {
    var buffered: [Event] = []
    var waiter: CheckedContinuation<(Event?, Bool), Never>?
    var isFinished = false
    var isFull = false
  }

  private let contents = Mutex(Contents())

  /// Hands `event` to the reader.
  ///
  /// - Returns: Whether the mailbox has just become full: reading should wait until
  ///   ``take(whenRoom:)`` calls back.
  @discardableResult
  func yield(_ event: Event) -> Bool {
    let (waiter, isNowFull) = contents.withLock {
      contents -> (CheckedContinuation<(Event?, Bool), Never>?, Bool) in
      guard !contents.isFinished else { return (nil, false) }
      if let waiter = contents.waiter {
        contents.waiter = nil
        return (waiter, false)
      }
      contents.buffered.append(event)
      guard !contents.isFull, contents.buffered.count >= Self.capacity else { return (nil, false) }
      contents.isFull = true
      return (nil, true)
    }
    waiter?.resume(returning: (event, false))
    return isNowFull
  }

  func finish() {
    let waiter = contents.withLock { contents -> CheckedContinuation<(Event?, Bool), Never>? in
      contents.isFinished = true
      defer { contents.waiter = nil }
      return contents.waiter
    }
    waiter?.resume(returning: (nil, false))
  }

  /// The next event, or `nil` once finished; `whenRoom` is called when a full mailbox has
  /// room for half of its events again.
  func take(whenRoom: () -> Void) async -> Event? {
    let (event, hasRoom) = await withCheckedContinuation {
      (continuation: CheckedContinuation<(Event?, Bool), Never>) in
      let ready = contents.withLock { contents -> (Event?, Bool)? in
        if !contents.buffered.isEmpty {
          let event = contents.buffered.removeFirst()
          let hasRoom = contents.isFull && contents.buffered.count <= Self.capacity / 2
          if hasRoom { contents.isFull = false }
          return (event, hasRoom)
        }
        if contents.isFinished { return (nil, false) }
        contents.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
    if hasRoom { whenRoom() }
    return event
  }
}
