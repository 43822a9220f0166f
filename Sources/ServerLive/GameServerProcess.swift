import AuthenticationClient
import AuthenticationClientLive
import Console
public import Crypto
import DatabaseClient
import DatabaseClientLive
import Dispatch
import Foundation
public import GameProtocol
import NetworkIO
import ServerCore
import TLS

/// What `tictactoe serve` was asked for.
public struct ServeOptions: Equatable, Sendable {
  /// Where to listen: every interface on port 7457 unless given.
  public var listen: ServerAddress?
  /// The database file, or the default server database when `nil`.
  public var database: String?
  /// How long a disconnected player's seat is held, in seconds.
  public var reconnectGraceSeconds: Int

  /// Creates options.
  public init(
    listen: ServerAddress? = nil, database: String? = nil,
    reconnectGraceSeconds: Int = ProtocolLimits.defaultReconnectGraceSeconds
  ) {
    self.listen = listen
    self.database = database
    self.reconnectGraceSeconds = reconnectGraceSeconds
  }
}

/// `tictactoe serve`: the game server as a process.
public enum GameServerProcess {
  /// The server database's file name in the default folder.
  public static let defaultFileName = "server.sqlite"

  /// Runs the server until SIGTERM, SIGINT or SIGHUP.
  ///
  /// Prints `Listening on HOST:PORT` and `Fingerprint: SHA256:…` on standard output, flushed;
  /// logs go to standard error.
  ///
  /// - Parameters:
  ///   - options: The command line's options.
  ///   - environment: The process environment, for the default database folder.
  ///   - passwordAlgorithm: How new passwords are hashed.
  /// - Returns: The exit code: 0 after a clean stop, 1 when the server could not start.
  @MainActor
  public static func run(
    _ options: ServeOptions, environment: [String: String],
    passwordAlgorithm: PasswordHash.Algorithm
  ) async -> Int32 {
    do {
      let server = try await start(
        options, environment: environment, algorithm: passwordAlgorithm)
      await server.runUntilStopped()
      return 0
    } catch {
      logLine(error.message)
      return 1
    }
  }

  @MainActor
  private static func start(
    _ options: ServeOptions, environment: [String: String], algorithm: PasswordHash.Algorithm
  ) async throws(ServeFailure) -> RunningServer {
    let descriptorLimit = EventLoop.raiseDescriptorLimit()
    guard descriptorLimit >= minimumOpenFiles else {
      throw ServeFailure(
        "The server needs at least \(minimumOpenFiles) open files, and the limit here is "
          + "\(descriptorLimit) (ulimit -n).")
    }
    // The address first: one in use is found before a database or certificate is made.
    let socket = try listen(options.listen)
    let path = try databasePath(options.database, environment: environment)
    let database: LocalDatabase
    do {
      // Opening is safe beside another server: each migration is one transaction.
      database = try LocalDatabase(path: path)
    } catch {
      throw ServeFailure(error.message)
    }
    // Locked once the file exists, before anything of its games is read.
    if path != ":memory:" { try ServerIdentity.lockExclusively(path) }
    let (identity, created) =
      path == ":memory:"
      ? (try makeIdentity(), true)
      : try ServerIdentity.loadOrCreate(at: ServerIdentity.path(forDatabase: path))
    if created, path != ":memory:" {
      logLine("Made a new certificate in \(ServerIdentity.path(forDatabase: path)).")
    }
    let context: TLSContext
    do {
      context = try TLSContext.server(identity)
    } catch {
      throw ServeFailure(error.description)
    }
    let loop: EventLoop
    do {
      loop = try EventLoop()
    } catch {
      throw ServeFailure("The event loop could not start: \(error.description).")
    }
    let records = ServerRecords(database: database, now: systemMilliseconds)
    let checkpointer = Checkpointer(path: path, database: database)
    let games: [OnlineGameRecord]
    do {
      games = try await records.activeGames()
    } catch {
      throw ServeFailure("The games in progress could not be read: \(error.message)")
    }
    let throttle = LogThrottle()
    let reducer = GameServer(
      authentication: AuthenticationClient.live(database: database, passwordAlgorithm: algorithm)
        .oneAtATime(),
      storage: .live(records: records, database: .live(database: database)),
      random: { Int.random(in: 0..<$0) },
      log: { line in
        // A connection that breaks the protocol costs a client as little as one that never
        // finishes TLS: its lines are counted the same way.
        if line.hasPrefix(ServerLog.brokeProtocolPrefix) {
          throttle.line(line, kind: .brokeProtocol)
        } else {
          logLine(line)
        }
      })
    let relay = Relay()
    let transport = ServerTransport(
      loop: loop, maximumConnections: max(64, descriptorLimit - 64), throttle: throttle
    ) { actions in relay.post(actions) }
    let runtime = ServerRuntime(
      state: GameServer.State(
        now: systemMilliseconds(), reconnectGraceSeconds: options.reconnectGraceSeconds),
      reducer: reducer, deliver: { transport.deliver($0) })
    relay.runtime = runtime
    relay.transport = transport
    runtime.send(.restored(games))
    if !games.isEmpty {
      let waiting = games.count { $0.o == nil }
      let playing = games.count - waiting
      let parts = [
        playing > 0 ? "\(playing) game\(playing == 1 ? "" : "s") in progress" : nil,
        waiting > 0 ? "\(waiting) waiting for an opponent" : nil,
      ]
      logLine("Resumed \(parts.compactMap { $0 }.joined(separator: " and ")).")
    }

    let listener = Listener(socket: socket, loop: loop, context: context) { connection in
      transport.accept(connection)
    }
    loop.start(name: "tictactoe server")
    return RunningServer(
      loop: loop, listener: listener, transport: transport, runtime: runtime,
      checkpointer: checkpointer,
      announcement: "Listening on \(listener.address)\nFingerprint: \(identity.fingerprintText)\n")
  }

  /// The open files a server needs to start, serve a few players and stop cleanly: its
  /// database, certificate, event loop and threads take about 20 before any player comes.
  static let minimumOpenFiles = 64

  private static func listen(_ address: ServerAddress?) throws(ServeFailure) -> ListeningSocket {
    let requested = address ?? ServerAddress(host: "")
    let candidates: [SocketAddress]
    do {
      let resolved = try SocketAddress.resolve(
        host: requested.host, port: requested.port, passive: true)
      // Every interface: the IPv6 wildcard takes IPv4 too, where the system has IPv6.
      candidates =
        requested.host.isEmpty
        ? resolved.filter { $0.host == "::" } + resolved.filter { $0.host != "::" } : resolved
    } catch {
      throw ServeFailure("The address \(requested) to listen on is not valid: \(error.reason).")
    }
    var lastError: SystemError?
    for candidate in candidates {
      do {
        return try ListeningSocket(address: candidate)
      } catch {
        lastError = error
      }
    }
    throw ServeFailure(listenFailure(requested, lastError))
  }

  /// The sentence for an address the server could not listen on: the system's reason, with
  /// the hint of another server only when the address is in use.
  static func listenFailure(_ requested: ServerAddress, _ error: SystemError?) -> String {
    guard let error else { return "Cannot listen on \(requested): no address." }
    let hint = error.code == EADDRINUSE ? " (is another server running there?)" : ""
    return "Cannot listen on \(requested): \(error.reason)\(hint)."
  }

  private static func makeIdentity() throws(ServeFailure) -> TLSIdentity {
    do {
      return try TLSIdentity.generate()
    } catch {
      throw ServeFailure("No certificate could be made: \(error.description)")
    }
  }

  /// The database file: `--database`, or `server.sqlite` in the default data folder.
  private static func databasePath(_ explicit: String?, environment: [String: String])
    throws(ServeFailure) -> String
  {
    if let explicit, !explicit.isEmpty { return explicit }
    var environment = environment
    environment["TICTACTOE_DATABASE"] = nil
    do {
      let location = try DatabaseLocation(explicitPath: nil, environment: environment)
      try location.createFolder()
      return location.folder + "/" + defaultFileName
    } catch {
      throw ServeFailure(error.message)
    }
  }
}

/// Hands actions from the loop thread to the runtime on the main actor, in order.
private final class Relay: @unchecked Sendable {
  // Set once on the main actor before the listener accepts anything.
  nonisolated(unsafe) var runtime: ServerRuntime?
  nonisolated(unsafe) var transport: ServerTransport?

  func post(_ actions: [GameServer.Action]) {
    DispatchQueue.main.async { [self] in
      MainActor.assumeIsolated { runtime?.send(contentsOf: actions) }
      transport?.dealtWith(actions)
    }
  }
}

/// A started server: waits for a signal, then stops cleanly.
@MainActor
private final class RunningServer {
  let loop: EventLoop
  let listener: Listener
  let transport: ServerTransport
  let runtime: ServerRuntime
  let checkpointer: Checkpointer?
  /// `Listening on HOST:PORT` and the fingerprint, printed once the server can be stopped.
  let announcement: String
  private var signals: [any DispatchSourceSignal] = []
  private var ticker: (any DispatchSourceTimer)?
  /// Whether SIGTERM, SIGINT or SIGHUP came.
  private var isStopRequested = false
  /// The wait for SIGTERM, SIGINT or SIGHUP, while it waits.
  private var stopWait: CheckedContinuation<Void, Never>?

  init(
    loop: EventLoop, listener: Listener, transport: ServerTransport, runtime: ServerRuntime,
    checkpointer: Checkpointer?, announcement: String
  ) {
    self.loop = loop
    self.listener = listener
    self.transport = transport
    self.runtime = runtime
    self.checkpointer = checkpointer
    self.announcement = announcement
  }

  func runUntilStopped() async {
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler { [runtime] in
      MainActor.assumeIsolated { runtime.send(.tick(now: systemMilliseconds())) }
    }
    timer.resume()
    ticker = timer
    // Said only once the stop signals are caught: a signal sent as soon as the server says it
    // listens is never lost.
    await catchStopSignals()
    writeOut(announcement)
    if let failure = Console.outputFailure {
      // The operator would otherwise learn only at the end that nobody read where it listens.
      logLine(
        "\(failure.dropLast()); it said: \(announcement.split(separator: "\n").joined(separator: "; "))."
      )
    }
    if !isStopRequested {
      await withCheckedContinuation { stopWait = $0 }
    }
    logLine("Stopping: finishing what is being stored.")
    listener.close()
    runtime.send(.shutdownRequested)
    // Whatever is being stored is stored before the process ends; nothing new starts.
    let deadline = ContinuousClock.now + .seconds(10)
    while runtime.runningEffectCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    transport.closeAll()
    try? await Task.sleep(for: .milliseconds(200))
    ticker?.cancel()
    checkpointer?.stop()
    loop.stop()
    // What the last window left out is counted too.
    transport.throttle.roll(force: true)
    logLine("Stopped.")
  }

  /// Catches SIGTERM, SIGINT and SIGHUP, returning once all are caught.
  ///
  /// A hang-up (the terminal that started the server closed) stops the server as cleanly as
  /// the other two, with the same log lines. Until then they keep their default action, which ends the process: ignoring them first
  /// would lose one that came before the catching begins. libdispatch catches a signal once
  /// its source is registered, on its own thread, shortly after the source is resumed.
  private func catchStopSignals() async {
    await withCheckedContinuation { (caught: CheckedContinuation<Void, Never>) in
      let stopSignals = [SIGTERM, SIGINT, SIGHUP]
      var waiting = stopSignals.count
      for number in stopSignals {
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler { [weak self] in
          MainActor.assumeIsolated { self?.stopRequested() }
        }
        source.setRegistrationHandler {
          MainActor.assumeIsolated {
            waiting -= 1
            if waiting == 0 { caught.resume() }
          }
        }
        source.resume()
        signals.append(source)
      }
    }
  }

  private func stopRequested() {
    isStopRequested = true
    stopWait?.resume()
    stopWait = nil
  }
}

/// Writes a log line to standard error.
func logLine(_ line: String) {
  Console.error("tictactoe serve: \(line)\n")
}

/// Writes to standard output at once, unbuffered.
private func writeOut(_ text: String) {
  Console.write(text)
}
