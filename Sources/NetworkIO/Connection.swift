import CLinux
public import GameProtocol
import TLS

/// A connection's number, unique within the process.
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The number.
  public let rawValue: UInt64

  /// Creates an id.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// Why a connection closed.
public enum CloseReason: Equatable, Sendable, CustomStringConvertible {
  /// This side closed it.
  case closedLocally
  /// The peer closed it.
  case peerClosed
  /// The connection could not be made.
  case connectFailed(String)
  /// The TLS handshake failed (the peer may not speak TLS).
  case handshakeFailed(String)
  /// Reading or writing failed.
  case failed(String)
  /// The peer did not read what was sent to it fast enough.
  case outputOverflow
  /// The handshake, the greeting or the peer's silence took too long.
  case timedOut
  /// The event loop stopped.
  case loopStopped

  /// The peer closed the connection in the middle of the TLS handshake: a client that gave
  /// up, or a server that is full or does not speak TLS.
  public static let closedDuringHandshake = CloseReason.handshakeFailed(
    "the peer closed the connection")

  public var description: String {
    switch self {
    case .closedLocally: "closed"
    case .peerClosed: "closed by the peer"
    case .connectFailed(let reason): "could not connect (\(reason))"
    case .handshakeFailed(let reason): "TLS handshake failed (\(reason))"
    case .failed(let reason): "failed (\(reason))"
    case .outputOverflow: "the peer stopped reading"
    case .timedOut: "timed out"
    case .loopStopped: "the event loop stopped"
    }
  }
}

/// What a connection reports, always on its loop's thread.
public protocol ConnectionHandler: AnyObject {
  /// The TLS handshake completed.
  func connectionEstablished(_ connection: Connection)
  /// A complete frame arrived.
  func connection(_ connection: Connection, received payload: [UInt8])
  /// The byte stream broke the framing rules; nothing more will be read from it.
  func connection(_ connection: Connection, broke error: ProtocolError)
  /// The connection closed; it reports nothing after this.
  func connectionClosed(_ connection: Connection, reason: CloseReason)
}

/// A framed TLS connection over a non-blocking socket, driven by its event loop.
///
/// ``send(_:)`` and ``close(flushing:)`` may be called from any thread: off the loop they are
/// handed to it, in order. Everything else is the loop's.
public final class Connection: Selectable, @unchecked Sendable {
  /// The connection's number.
  public let id: ConnectionID
  /// The other end.
  public let peer: SocketAddress
  /// The loop that drives the connection.
  public let loop: EventLoop

  private enum Phase {
    case connecting
    case handshaking
    case open
    case closed
  }

  private let descriptor: Int32
  private let session: TLSSession
  private var phase: Phase
  private var decoder = FrameDecoder()
  private var isDecoderBroken = false
  private var output: [UInt8] = []
  private var outputStart = 0
  private var closesAfterFlush = false
  private var readWaitsForWritable = false
  private var handler: (any ConnectionHandler)?
  private let maximumPendingOutput: Int
  /// Bytes written from the front of the output buffer past which they are dropped from it.
  private static let compactionThreshold = 64 * 1_024

  /// When the socket was accepted or connected, on the monotonic clock in milliseconds.
  public let openedAt: Int64
  /// When bytes last arrived, on the monotonic clock in milliseconds.
  public private(set) var lastReadAt: Int64
  /// The peer certificate's SHA-256 fingerprint, once the handshake is done.
  public private(set) var peerFingerprint: [UInt8]?
  /// Whether the owner has accepted the peer's greeting; until then the handshake deadline runs.
  public var isGreeted = false
  /// Whether reading waits (``pauseReading()``) until the owner has caught up.
  public private(set) var isReadingPaused = false

  /// Whether the handshake is done and the connection is not closed.
  public var isOpen: Bool { phase == .open }
  /// Whether the connection has closed.
  public var isClosed: Bool { phase == .closed }
  /// Bytes waiting to be written.
  public var pendingOutputCount: Int { output.count - outputStart }
  /// Bytes written already and still held at the front of the output buffer.
  package var writtenOutputHeld: Int { outputStart }

  init(
    id: ConnectionID, descriptor: Int32, peer: SocketAddress, loop: EventLoop,
    session: TLSSession, connecting: Bool, maximumPendingOutput: Int
  ) {
    self.id = id
    self.descriptor = descriptor
    self.peer = peer
    self.loop = loop
    self.session = session
    self.maximumPendingOutput = maximumPendingOutput
    phase = connecting ? .connecting : .handshaking
    openedAt = System.monotonicMilliseconds()
    lastReadAt = openedAt
  }

  /// Registers with the loop and starts; the handler hears everything from now on.
  func activate(handler: any ConnectionHandler) throws(SystemError) {
    self.handler = handler
    let events = phase == .connecting ? EPOLLOUT.rawValue : EPOLLIN.rawValue
    try loop.register(descriptor, self, events: events | EPOLLRDHUP.rawValue)
  }

  // MARK: - Sending and closing (any thread)

  /// Sends a frame with `payload`; frames sent before the handshake completes wait for it.
  public func send(_ payload: [UInt8]) {
    send(frames: [payload])
  }

  /// Sends several frames in order.
  public func send(frames payloads: [[UInt8]]) {
    guard loop.inEventLoop else {
      loop.execute { self.send(frames: payloads) }
      return
    }
    guard phase != .closed, !closesAfterFlush else { return }
    // What was written already goes before more is added, so that a peer reading just fast
    // enough to stay under the limit never leaves the buffer to grow with all it ever took.
    if outputStart >= Self.compactionThreshold {
      output.removeSubrange(..<outputStart)
      outputStart = 0
    }
    for payload in payloads { output += Frame.encode(payload) }
    if pendingOutputCount > maximumPendingOutput {
      finish(.outputOverflow)
      return
    }
    if phase == .open { flush() }
  }

  /// Sends bytes as they are, outside the framing, for tests that play a hostile peer.
  package func sendRaw(_ bytes: [UInt8]) {
    guard loop.inEventLoop else {
      loop.execute { self.sendRaw(bytes) }
      return
    }
    guard phase != .closed else { return }
    output += bytes
    if phase == .open { flush() }
  }

  /// Closes the connection, after writing what is pending when `flushing`.
  public func close(flushing: Bool = true) {
    guard loop.inEventLoop else {
      loop.execute { self.close(flushing: flushing) }
      return
    }
    guard phase != .closed else { return }
    if flushing, phase == .open, pendingOutputCount > 0 {
      closesAfterFlush = true
      flush()
    } else {
      finish(.closedLocally)
    }
  }

  /// Closes at once for `reason`, as a timeout does.
  public func abort(_ reason: CloseReason) {
    guard loop.inEventLoop else {
      loop.execute { self.abort(reason) }
      return
    }
    finish(reason)
  }

  // MARK: - Holding reading back (loop thread)

  /// Stops reading until ``resumeReading()``, for an owner that has not caught up with the
  /// frames it was given.
  ///
  /// A peer that sends faster than its requests are dealt with then waits in its own socket
  /// buffers: it neither grows the process's memory nor keeps the loop from other
  /// connections. A peer whose connection breaks meanwhile (a reset) is closed at once; one
  /// that only ends its side is noticed once reading resumes.
  public func pauseReading() {
    guard !isReadingPaused, phase == .open else { return }
    isReadingPaused = true
    updateInterest(wantsWrite: pendingOutputCount > 0)
  }

  /// Reads again after ``pauseReading()``.
  public func resumeReading() {
    guard isReadingPaused else { return }
    isReadingPaused = false
    guard phase == .open else { return }
    // Frames decoded already, and bytes TLS holds, wake no readiness event.
    deliverFrames()
    readAvailable()
  }

  // MARK: - Readiness (loop thread)

  func ready(_ events: UInt32) {
    switch phase {
    case .closed:
      return
    case .connecting:
      let error = System.pendingError(descriptor)
      guard error == 0 else {
        finish(.connectFailed(SystemError("connect", code: error).reason))
        return
      }
      phase = .handshaking
      advanceHandshake()
    case .handshaking:
      advanceHandshake()
    case .open where isReadingPaused:
      if events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
        finish(.peerClosed)
      } else if events & EPOLLOUT.rawValue != 0 {
        flush()
      }
    case .open:
      if events & EPOLLIN.rawValue != 0 || readWaitsForWritable
        || events & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue | EPOLLERR.rawValue) != 0
      {
        readAvailable()
      }
      if phase == .open, events & EPOLLOUT.rawValue != 0 { flush() }
    }
  }

  func loopStopped() {
    finish(.loopStopped)
  }

  private func advanceHandshake() {
    switch session.handshake() {
    case nil:
      phase = .open
      peerFingerprint = session.peerFingerprint
      lastReadAt = System.monotonicMilliseconds()
      handler?.connectionEstablished(self)
      guard phase == .open else { return }
      flush()
      // Data may have arrived with the handshake's last flight.
      readAvailable()
    case .wantRead:
      updateInterest(wantsWrite: false)
    case .wantWrite:
      updateInterest(wantsWrite: true)
    case .closed:
      finish(.closedDuringHandshake)
    case .failed(let reason):
      finish(.handshakeFailed(reason))
    }
  }

  private func readAvailable() {
    readWaitsForWritable = false
    while phase == .open, !isDecoderBroken, !isReadingPaused {
      switch session.read(into: loop.readBuffer) {
      case .success(let count):
        lastReadAt = System.monotonicMilliseconds()
        decoder.append(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]))
        deliverFrames()
      case .failure(let error):
        switch error.status {
        case .wantRead:
          updateInterest(wantsWrite: pendingOutputCount > 0)
          return
        case .wantWrite:
          readWaitsForWritable = true
          updateInterest(wantsWrite: true)
          return
        case .closed:
          finish(.peerClosed)
        case .failed(let reason):
          finish(.failed(reason))
        }
      }
    }
  }

  private func deliverFrames() {
    while phase == .open, !isDecoderBroken, !isReadingPaused {
      do {
        guard let payload = try decoder.nextFrame() else { return }
        handler?.connection(self, received: payload)
      } catch {
        isDecoderBroken = true
        handler?.connection(self, broke: error)
      }
    }
  }

  private func flush() {
    while phase == .open, pendingOutputCount > 0 {
      let result = output.withUnsafeBytes { bytes in
        session.write(UnsafeRawBufferPointer(rebasing: bytes[outputStart...]))
      }
      switch result {
      case .success(let count):
        outputStart += count
      case .failure(let error):
        switch error.status {
        case .wantWrite:
          updateInterest(wantsWrite: true)
          return
        case .wantRead:
          updateInterest(wantsWrite: false)
          return
        case .closed:
          finish(.peerClosed)
          return
        case .failed(let reason):
          finish(.failed(reason))
          return
        }
      }
    }
    guard phase == .open else { return }
    output.removeAll(keepingCapacity: output.capacity <= 64 * 1_024)
    outputStart = 0
    updateInterest(wantsWrite: false)
    if closesAfterFlush { finish(.closedLocally) }
  }

  private func updateInterest(wantsWrite: Bool) {
    var events = isReadingPaused ? 0 : EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    if wantsWrite { events |= EPOLLOUT.rawValue }
    loop.setInterest(descriptor, events: events)
  }

  private func finish(_ reason: CloseReason) {
    guard phase != .closed else { return }
    let wasOpen = phase == .open
    phase = .closed
    loop.unregister(descriptor)
    if wasOpen { session.shutdown() }
    System.close(descriptor)
    output = []
    outputStart = 0
    let handler = self.handler
    self.handler = nil
    handler?.connectionClosed(self, reason: reason)
  }
}
