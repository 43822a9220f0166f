import GameProtocol
import Glibc
import Synchronization
import TLS
import Testing

@testable import NetworkIO

private let identity: TLSIdentity = {
  guard let identity = try? TLSIdentity.generate() else {
    preconditionFailure("OpenSSL could not make a key")
  }
  return identity
}()

/// What a connection reported.
enum Event: Equatable, Sendable {
  case established
  case payload([UInt8])
  case broke(ProtocolError)
  case closed(CloseReason)
}

/// Records a connection's reports and, if asked, echoes frames back.
final class Recorder: ConnectionHandler, @unchecked Sendable {
  let echoes: Bool
  let events: AsyncStream<Event>
  private let continuation: AsyncStream<Event>.Continuation
  let connection = Mutex<Connection?>(nil)

  init(echoes: Bool = false) {
    self.echoes = echoes
    (events, continuation) = AsyncStream.makeStream(of: Event.self)
  }

  func connectionEstablished(_ connection: Connection) {
    self.connection.withLock { $0 = connection }
    continuation.yield(.established)
  }

  func connection(_ connection: Connection, received payload: [UInt8]) {
    if echoes { connection.send(payload) }
    continuation.yield(.payload(payload))
  }

  func connection(_ connection: Connection, broke error: ProtocolError) {
    continuation.yield(.broke(error))
    connection.close()
  }

  func connectionClosed(_ connection: Connection, reason: CloseReason) {
    continuation.yield(.closed(reason))
    continuation.finish()
  }
}

/// Keeps what a connection delivered, to be looked at when a test chooses.
final class Collector: ConnectionHandler, @unchecked Sendable {
  let payloads = Mutex<[[UInt8]]>([])
  let connection = Mutex<Connection?>(nil)

  func connectionEstablished(_ connection: Connection) {
    self.connection.withLock { $0 = connection }
  }

  func connection(_ connection: Connection, received payload: [UInt8]) {
    payloads.withLock { $0.append(payload) }
  }

  func connection(_ connection: Connection, broke error: ProtocolError) {}

  func connectionClosed(_ connection: Connection, reason: CloseReason) {}

  /// Waits up to ten seconds for `count` payloads.
  func waitFor(count: Int) async throws {
    for _ in 0..<10_000 where payloads.withLock({ $0.count }) < count {
      try await Task.sleep(for: .milliseconds(1))
    }
    try #require(payloads.withLock { $0.count } >= count)
  }
}

/// The next event, or `nil` after ten seconds.
func next(_ events: AsyncStream<Event>) async -> Event? {
  await withTaskGroup(of: Event?.self) { group in
    group.addTask {
      var iterator = events.makeAsyncIterator()
      return await iterator.next()
    }
    group.addTask {
      try? await Task.sleep(for: .seconds(10))
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
}

/// A loop with a listener on a free loopback port whose connections get fresh handlers.
final class Fixture: @unchecked Sendable {
  let loop: EventLoop
  let listener: Listener
  let accepted = Accepted()

  final class Accepted: Sendable {
    let recorders = Mutex<[Recorder]>([])
  }

  init(echoes: Bool = false, maximumPendingOutput: Int? = nil) throws {
    loop = try EventLoop()
    loop.start(name: "test loop")
    let address = try #require(SocketAddress.resolve(host: "127.0.0.1", port: 0).first)
    let accepted = self.accepted
    listener = try Listener(address: address, loop: loop, context: .server(identity)) { _ in
      let recorder = Recorder(echoes: echoes)
      accepted.recorders.withLock { $0.append(recorder) }
      return recorder
    }
    if let maximumPendingOutput { listener.maximumPendingOutput = maximumPendingOutput }
  }

  deinit { loop.stop() }

  var port: UInt16 { listener.address.port }

  func connectClient(_ recorder: Recorder) throws -> Connection {
    let address = try #require(SocketAddress.resolve(host: "127.0.0.1", port: port).first)
    let result = Mutex<Result<Connection, SystemError>?>(nil)
    let context = try TLSContext.client()
    let done = Mutex(false)
    loop.execute {
      let connection = self.loop.connect(
        to: [address], context: context, serverName: nil, handler: recorder)
      result.withLock { $0 = connection }
      done.withLock { $0 = true }
    }
    while !done.withLock({ $0 }) { usleep(100) }
    return try #require(result.withLock { $0 }).get()
  }

  /// A plain socket whose TLS handshake the test finished by hand, its session, and the
  /// server's side of it, established; the caller closes the socket.
  func handshakenByHand() async throws -> (socket: Int32, session: TLSSession, server: Connection) {
    let socket = try plainSocket(port: port)
    let session = try TLSSession(context: .client(), fileDescriptor: socket)
    for _ in 0..<100 where !session.isEstablished { _ = session.handshake() }
    try #require(session.isEstablished)
    let server = try #require(await firstAccepted())
    #expect(await next(server.events) == .established)
    return (socket, session, try #require(server.connection.withLock { $0 }))
  }

  /// The handler of the first accepted connection, once there is one.
  func firstAccepted() async -> Recorder? {
    for _ in 0..<10_000 {
      if let first = accepted.recorders.withLock({ $0.first }) { return first }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return nil
  }
}

/// A blocking plain TCP socket connected to the loopback port.
func plainSocket(port: UInt16) throws -> Int32 {
  let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let status = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  try #require(status == 0)
  var timeout = timeval(tv_sec: 10, tv_usec: 0)
  setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  return socket
}

@Suite(.serialized)
struct ConnectionTests {
  @Test func framesGoBothWaysInOrderOverTLS() async throws {
    let fixture = try Fixture(echoes: true)
    let client = Recorder()
    let connection = try fixture.connectClient(client)
    let payloads = (0..<200).map { index in ClientMessage.ping(UInt64(index)).encoded() }
    connection.send(frames: payloads)
    #expect(await next(client.events) == .established)
    #expect(connection.peerFingerprint == identity.fingerprint)
    for payload in payloads {
      #expect(await next(client.events) == .payload(payload))
    }
    let large = Array(repeating: UInt8(7), count: ProtocolLimits.maximumFrameLength)
    connection.send(large)
    #expect(await next(client.events) == .payload(large))
    connection.close()
    #expect(await next(client.events) == .closed(.closedLocally))
    let server = try #require(await fixture.firstAccepted())
    #expect(await next(server.events) == .established)
    for payload in payloads { #expect(await next(server.events) == .payload(payload)) }
    #expect(await next(server.events) == .payload(large))
    #expect(await next(server.events) == .closed(.peerClosed))
  }

  @Test func aPlainTextClientIsClosedAfterAFailedHandshake() async throws {
    let fixture = try Fixture()
    let socket = try plainSocket(port: fixture.port)
    defer { close(socket) }
    let request = Array("GET / HTTP/1.0\r\n\r\n".utf8)
    #expect(write(socket, request, request.count) == request.count)
    let server = try #require(await fixture.firstAccepted())
    guard case .closed(.handshakeFailed)? = await next(server.events) else {
      Issue.record("the plain client was not refused")
      return
    }
    // The server hung up: the client reads the end of the stream (after any TLS alert), or a
    // reset when the server closed with the request still unread.
    var buffer = [UInt8](repeating: 0, count: 256)
    var total = 0
    while true {
      let count = read(socket, &buffer, buffer.count)
      if count <= 0 {
        #expect(count == 0 || errno == ECONNRESET)
        break
      }
      total += count
      try #require(total < 4_096)
    }
  }

  @Test func anOversizedFrameBreaksTheConnection() async throws {
    let fixture = try Fixture()
    let client = Recorder()
    let connection = try fixture.connectClient(client)
    #expect(await next(client.events) == .established)
    // The raw length prefix of a frame far above the limit, then nothing.
    let server = try #require(await fixture.firstAccepted())
    #expect(await next(server.events) == .established)
    connection.sendRaw([0x7f, 0xff, 0xff, 0xff])
    #expect(await next(server.events) == .broke(.frameTooLarge(0x7fff_ffff)))
    #expect(await next(server.events) == .closed(.closedLocally))
    #expect(await next(client.events) == .closed(.peerClosed))
  }

  @Test func aRefusedConnectionIsReported() async throws {
    let fixture = try Fixture()
    let port = fixture.port
    fixture.listener.close()
    try await Task.sleep(for: .milliseconds(50))
    let client = Recorder()
    let address = try #require(SocketAddress.resolve(host: "127.0.0.1", port: port).first)
    let context = try TLSContext.client()
    fixture.loop.execute {
      _ = fixture.loop.connect(to: [address], context: context, serverName: nil, handler: client)
    }
    guard case .closed(.connectFailed)? = await next(client.events) else {
      Issue.record("a refused connection was not reported")
      return
    }
  }

  /// A connection held back delivers nothing of what arrives until it reads again, then
  /// everything in order: frames decoded already and bytes still in TLS as well.
  @Test func aConnectionHeldBackDeliversNothingUntilItReadsAgain() async throws {
    let loop = try EventLoop()
    loop.start(name: "test loop")
    defer { loop.stop() }
    let collector = Collector()
    let address = try #require(SocketAddress.resolve(host: "127.0.0.1", port: 0).first)
    let listener = try Listener(address: address, loop: loop, context: .server(identity)) { _ in
      collector
    }
    let client = Recorder()
    let fixtureAddress = try #require(
      SocketAddress.resolve(host: "127.0.0.1", port: listener.address.port).first)
    let context = try TLSContext.client()
    let connection = Mutex<Connection?>(nil)
    loop.execute {
      let made = loop.connect(
        to: [fixtureAddress], context: context, serverName: nil, handler: client)
      connection.withLock { $0 = try? made.get() }
    }
    #expect(await next(client.events) == .established)
    let sender = try #require(connection.withLock { $0 })
    let frames = (0..<300).map { ClientMessage.ping(UInt64($0)).encoded() }
    // The first frame arrives, and the server's side is held back at once.
    sender.send(frames[0])
    try await collector.waitFor(count: 1)
    loop.execute { collector.connection.withLock { $0 }?.pauseReading() }
    sender.send(frames: Array(frames[1...]))
    try await Task.sleep(for: .milliseconds(300))
    #expect(collector.payloads.withLock { $0.count } == 1)
    loop.execute { collector.connection.withLock { $0 }?.resumeReading() }
    try await collector.waitFor(count: frames.count)
    #expect(collector.payloads.withLock { $0 } == frames)
  }

  /// A peer that reads just behind what is sent keeps the output buffer from ever draining:
  /// what was written is still dropped from its front, so that the buffer holds what is
  /// pending and little more, not everything the connection ever sent.
  @Test func whatWasWrittenLeavesTheBufferOfAPeerThatReadsBehind() async throws {
    let fixture = try Fixture(maximumPendingOutput: 64 * 1_024 * 1_024)
    let (socket, session, connection) = try await fixture.handshakenByHand()
    defer { close(socket) }
    let frame = Array(repeating: UInt8(1), count: 8 * 1_024)
    let held = Mutex<[Int]>([])
    func sendAndLook(_ count: Int) async {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        fixture.loop.execute {
          connection.send(frames: Array(repeating: frame, count: count))
          held.withLock { $0.append(connection.writtenOutputHeld) }
          done.resume()
        }
      }
    }
    // A backlog the socket buffers cannot take (16 MB), then reading one frame's worth for
    // each frame sent.
    await sendAndLook(2_000)
    var buffer = [UInt8](repeating: 0, count: frame.count + 4)
    for _ in 0..<1_000 {
      var read = 0
      while read < buffer.count {
        let result = buffer.withUnsafeMutableBytes { bytes in
          session.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[read...]))
        }
        guard case .success(let count) = result else { break }
        read += count
      }
      await sendAndLook(1)
    }
    #expect(!connection.isClosed)
    #expect(connection.pendingOutputCount > 0)
    // Past the start, what is held stays within 64 KiB and what one write took; kept, it would
    // grow by a frame a round, past 8 MB.
    let late = held.withLock { Array($0.dropFirst(50)) }
    #expect((late.max() ?? 0) <= 1_024 * 1_024, "\(late.suffix(5))")
  }

  @Test func aPeerThatDoesNotReadIsDropped() async throws {
    let fixture = try Fixture(maximumPendingOutput: 64 * 1_024)
    // Finish a TLS handshake by hand, then never read again.
    let (socket, _, connection) = try await fixture.handshakenByHand()
    defer { close(socket) }
    let server = try #require(await fixture.firstAccepted())
    let frame = Array(repeating: UInt8(1), count: ProtocolLimits.maximumFrameLength)
    for _ in 0..<2_000 where !connection.isClosed {
      connection.send(frame)
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(await next(server.events) == .closed(.outputOverflow))
  }
}

struct TimerHeapTests {
  @Test func timersComeDueInDeadlineOrderAndCancelledOnesNever() {
    var heap = TimerHeap()
    var fired: [Int] = []
    let deadlines: [Int64] = [50, 10, 40, 10, 30, 20, 60, 0]
    for (id, deadline) in deadlines.enumerated() {
      heap.insert(Timer(id: id, deadline: deadline, interval: nil, body: {}))
    }
    heap.cancel(2)
    heap.cancel(99)
    #expect(heap.nextDeadline == 0)
    #expect(heap.popDue(now: -1) == nil)
    while let timer = heap.popDue(now: 45) { fired.append(timer.id) }
    // Deadlines 0, 10, 10, 20, 30 are due by 45; 40 was cancelled.
    #expect(fired.count == 5)
    #expect(fired.first == 7)
    #expect(Set(fired.dropFirst(1).prefix(2)) == [1, 3])
    #expect(Array(fired.suffix(2)) == [5, 4])
    #expect(heap.nextDeadline == 50)
    while let timer = heap.popDue(now: 100) { fired.append(timer.id) }
    #expect(fired.suffix(2) == [0, 6])
    #expect(heap.nextDeadline == nil)
  }
}
