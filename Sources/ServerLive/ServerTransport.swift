import Dispatch
import GameProtocol
import GameRules
import NetworkIO
import ServerCore

/// The server's side of the event loop: it decodes what connections send, hands it to the main
/// actor in order, and writes the runtime's outbox back to the connections.
///
/// Everything but ``deliver(_:)`` runs on the loop's thread.
final class ServerTransport: ConnectionHandler, @unchecked Sendable {
  private let loop: EventLoop
  private let events: @Sendable ([GameServer.Action]) -> Void
  // Loop thread only: what happened since the last hand-over, in order.
  private var batch: [GameServer.Action] = []
  // Loop thread only: every accepted connection, handshaking or open.
  private var connections: [ConnectionID: Connection] = [:]
  // Loop thread only: the connections reported to the runtime.
  private var established: Set<ConnectionID> = []
  private let handshakeLimit = Int64(ProtocolLimits.handshakeSeconds) * 1_000
  private let idleLimit = Int64(ProtocolLimits.idleSeconds) * 1_000
  /// The most connections at once; more are closed as soon as they are accepted.
  let maximumConnections: Int
  /// The most connections one address (an IPv6 /64) may hold at once, so that one machine
  /// cannot fill the server; this machine's own loopback address (the operator's programs,
  /// the load benchmark) is not limited.
  static let maximumPerAddress = 64
  // Loop thread only: the connections each address holds, and each connection's address.
  private var perAddress: [String: Int] = [:]
  private var addresses: [ConnectionID: String] = [:]
  /// The operator's lines about connections turned away or that never got through TLS, and
  /// those about connections that broke the protocol, at most 10 of a kind every 10 seconds.
  let throttle: LogThrottle
  /// The most requests of one connection handed to the runtime and not yet dealt with; past
  /// it, the connection is not read until the runtime has caught up to half of them.
  static let maximumRequestsInFlight = 32
  // Loop thread only: each connection's requests handed over and not yet dealt with.
  private var inFlight: [ConnectionID: Int] = [:]

  /// Creates a transport that reports to `events` (called on the loop thread, once a turn of
  /// the loop with everything that happened in it).
  init(
    loop: EventLoop, maximumConnections: Int, throttle: LogThrottle = LogThrottle(),
    events: @escaping @Sendable ([GameServer.Action]) -> Void
  ) {
    self.loop = loop
    self.throttle = throttle
    self.maximumConnections = maximumConnections
    self.events = events
    loop.repeating(everyMilliseconds: 1_000) { [self] in sweep() }
  }

  /// The handler for a newly accepted connection, or `nil` when the server is full.
  func accept(_ connection: Connection) -> (any ConnectionHandler)? {
    let host = connection.peer.host
    guard connections.count < maximumConnections else {
      throttle.line(
        "Turned away a connection from \(host.escapingControlCharacters): the server is full "
          + "with \(connections.count) connections (ulimit -n).", kind: .full)
      return nil
    }
    let address = Network.key(of: host)
    if !Self.isLocal(host), perAddress[address, default: 0] >= Self.maximumPerAddress {
      let holder =
        address == host ? "which holds" : "whose network \(address.escapingControlCharacters) holds"
      throttle.line(
        "Turned away a connection from \(host.escapingControlCharacters), \(holder) "
          + "\(Self.maximumPerAddress) already, the most one address may.", kind: .crowded)
      return nil
    }
    perAddress[address, default: 0] += 1
    addresses[connection.id] = address
    connections[connection.id] = connection
    return self
  }

  /// Whether `host` is this machine's own loopback address.
  static func isLocal(_ host: String) -> Bool {
    ["127.0.0.1", "::1", "::ffff:127.0.0.1"].contains(host)
  }

  /// How many connections are open or handshaking.
  var connectionCount: Int { connections.count }

  /// Queues an action for the runtime; the queue is handed over once the loop has dealt with
  /// everything ready now, so one hop to the main actor carries many actions.
  private func events(_ action: GameServer.Action) {
    if batch.isEmpty {
      loop.execute { [self] in
        let actions = batch
        batch.removeAll(keepingCapacity: true)
        events(actions)
      }
    }
    batch.append(action)
  }

  func connectionEstablished(_ connection: Connection) {
    established.insert(connection.id)
    events(.connected(ClientID(connection.id.rawValue), address: connection.peer.host))
  }

  func connection(_ connection: Connection, received payload: [UInt8]) {
    let id = ClientID(connection.id.rawValue)
    do {
      events(.received(id, try ClientMessage(decoding: payload)))
    } catch {
      events(.broke(id, error))
      return
    }
    let count = inFlight[connection.id, default: 0] + 1
    inFlight[connection.id] = count
    if count >= Self.maximumRequestsInFlight { connection.pauseReading() }
  }

  /// Tells the transport that the runtime has dealt with `actions` (callable from any thread):
  /// connections held back for the requests among them are read again.
  func dealtWith(_ actions: [GameServer.Action]) {
    var counts: [ConnectionID: Int] = [:]
    for case .received(let client, _) in actions {
      counts[ConnectionID(client.rawValue), default: 0] += 1
    }
    guard !counts.isEmpty else { return }
    loop.execute { [self, counts] in
      for (id, count) in counts {
        guard let before = inFlight[id] else { continue }
        let left = before - count
        inFlight[id] = left > 0 ? left : nil
        if left <= Self.maximumRequestsInFlight / 2 { connections[id]?.resumeReading() }
      }
    }
  }

  func connection(_ connection: Connection, broke error: ProtocolError) {
    events(.broke(ClientID(connection.id.rawValue), error))
  }

  func connectionClosed(_ connection: Connection, reason: CloseReason) {
    connections[connection.id] = nil
    inFlight[connection.id] = nil
    if let address = addresses.removeValue(forKey: connection.id) {
      perAddress[address, default: 1] -= 1
      if perAddress[address] == 0 { perAddress[address] = nil }
    }
    // Only connections that were reported as connected are reported as gone.
    if established.remove(connection.id) != nil {
      events(.disconnected(ClientID(connection.id.rawValue)))
      return
    }
    // One that never got through TLS (a port scan, plain text, a client that gave up) leaves
    // the operator a line.
    let peer = connection.peer.host.escapingControlCharacters
    switch reason {
    case .handshakeFailed:
      throttle.line(
        "Closed a connection from \(peer): \(reason.description.escapingControlCharacters).",
        kind: .handshake)
    case .timedOut:
      throttle.line(
        "Closed a connection from \(peer) that did not finish its TLS handshake in time.",
        kind: .handshake)
    default:
      break
    }
  }

  /// Writes the outbox of one action, in order; callable from any thread.
  func deliver(_ outbox: [GameServer.Outgoing]) {
    guard !outbox.isEmpty else { return }
    loop.execute { [self] in
      var batch: [ConnectionID: [[UInt8]]] = [:]
      var order: [ConnectionID] = []
      func flush(_ id: ConnectionID) {
        guard let frames = batch.removeValue(forKey: id), let connection = connections[id] else {
          return
        }
        connection.send(frames: frames)
      }
      for entry in outbox {
        let id = ConnectionID(entry.client.rawValue)
        switch entry.event {
        case .message(let message):
          if case .welcome = message { connections[id]?.isGreeted = true }
          if batch[id] == nil { order.append(id) }
          batch[id, default: []].append(message.encoded())
        case .close:
          flush(id)
          connections[id]?.close(flushing: true)
        }
      }
      for id in order { flush(id) }
    }
  }

  /// Closes connections whose handshake or greeting takes too long, and silent ones.
  private func sweep() {
    let now = EventLoop.monotonicMilliseconds()
    throttle.roll(now: now)
    for connection in Array(connections.values) {
      if !connection.isGreeted {
        if now - connection.openedAt > handshakeLimit { connection.abort(.timedOut) }
      } else if now - connection.lastReadAt > idleLimit {
        connection.abort(.timedOut)
      }
    }
  }

  /// Closes every connection, flushing what is queued.
  func closeAll() {
    loop.execute { [self] in
      for connection in Array(connections.values) { connection.close(flushing: true) }
    }
  }
}
