// The online load benchmark: starts a game server on loopback in a process of its own, then
// plays many simultaneous games with scripted TLS clients and reports what the server held.
// `tictactoe-load --help` lists the options.

import BenchmarkOptions
import Console
import Crypto
import Foundation
import GameProtocol
import NetworkIO
import SQLite
import ServerLive
import TLS

// MARK: - Options

let commandLine = BenchmarkCommandLine(
  program: "tictactoe-load",
  introduction: """
    The game server under load: starts a server on loopback in a process of its own, plays
    many games at once over TLS from the benchmark's own clients, and reports moves a second,
    relay latency, connections held and the server's memory.

    Usage: tictactoe-load [--games N] [--seconds N] [--think MS] [--saturate N]

    Exit codes: 0 no error and no move lost, 1 otherwise, 2 bad usage.
    """,
  options: [
    BenchmarkOption(
      "--games", .number(atLeast: 0, placeholder: "N"),
      summary: "games played at once, two connections each (default 1000)"),
    BenchmarkOption(
      "--seconds", .number(atLeast: 0, placeholder: "N"),
      summary: "seconds measured with players who think (default 20)"),
    BenchmarkOption(
      "--think", .number(atLeast: 0, placeholder: "MS"),
      summary: "the players' average thinking time a move, in ms (default 500)"),
    BenchmarkOption(
      "--saturate", .number(atLeast: 0, placeholder: "N"),
      summary: "seconds measured with players who answer at once; 0 skips them (default 10)"),
  ])

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--serve" {
  // The server half: this same executable, started by the benchmark below with the database's
  // path and the benchmark's process id.
  guard arguments.count == 3, !arguments[1].isEmpty, let parent = pid_t(arguments[2]) else {
    commandLine.stop(
      "--serve DATABASE PID is how the benchmark starts its server; run tictactoe-load without it.")
  }
  ServerChild.endWithParent(parent)
  let status = await GameServerProcess.run(
    ServeOptions(listen: ServerAddress(host: "127.0.0.1", port: 0), database: arguments[1]),
    environment: ProcessInfo.processInfo.environment,
    passwordAlgorithm: .scrypt(logN: 10, r: 8, p: 1))
  exit(status)
}

let options = commandLine.options(from: arguments)

let gameCount = options.number("--games") ?? 1_000
let seconds = options.number("--seconds") ?? 20
let think = Int64(options.number("--think") ?? 500)
let saturationSeconds = options.number("--saturate") ?? 10

func say(_ text: String) { Console.line(text) }

// Each game holds two connections in the clients' process and two in the server's, and each
// process needs a few more files of its own.
let descriptorsNeeded = 2 * gameCount + 64
let descriptorLimit = EventLoop.raiseDescriptorLimit()
guard descriptorLimit >= descriptorsNeeded else {
  commandLine.stop(
    "\(gameCount) games need \(descriptorsNeeded) open files in each of the benchmark's two "
      + "processes, and the limit here is \(descriptorLimit) (ulimit -n); ask for fewer with --games.",
    status: 1)
}

// MARK: - The server process

let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
  "tictactoe-load-\(getpid())")
// Caught before the folder exists, so that SIGTERM or Ctrl-C never leaves it behind, nor the
// server running.
let stopSources = ServerChild.stopOnSignals(removing: folder)
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let databasePath = folder.appendingPathComponent("server.sqlite").path
let server = Process()
// This same executable, wherever it was found (on the PATH, by a relative path).
server.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
server.arguments = ["--serve", databasePath, String(getpid())]
let serverOutput = Pipe()
server.standardOutput = serverOutput
server.standardError = FileHandle.nullDevice
do {
  try server.run()
} catch {
  try? FileManager.default.removeItem(at: folder)
  let failure = error as NSError
  let reason =
    failure.domain == NSPOSIXErrorDomain
    ? String(cString: strerror(Int32(failure.code))) : failure.localizedDescription
  commandLine.stop("The server could not be started (\(reason)).", status: 1)
}
ServerChild.started(server)

/// Ends the benchmark after a failure once its server runs: the server is stopped and the
/// temporary folder removed first.
func abandon(_ sentence: String) -> Never {
  if server.isRunning { kill(server.processIdentifier, SIGKILL) }
  server.waitUntilExit()
  try? FileManager.default.removeItem(at: folder)
  ServerChild.letStopFinish()
  commandLine.stop(sentence, status: 1)
}
var port: UInt16 = 0
var announced = ""
while port == 0 {
  let data = serverOutput.fileHandleForReading.availableData
  guard !data.isEmpty else {
    try? FileManager.default.removeItem(at: folder)
    // Its end may be the work of SIGTERM or SIGINT, which then end the benchmark.
    ServerChild.letStopFinish()
    commandLine.stop("The server did not start.", status: 1)
  }
  announced += String(decoding: data, as: UTF8.self)
  if let line = announced.split(separator: "\n").first(where: { $0.hasPrefix("Listening on ") }),
    let number = line.split(separator: ":").last.flatMap({ UInt16($0) })
  {
    port = number
  }
}

/// The server's resident memory now and at its peak, in MiB, from /proc.
func serverMemory() -> (current: Double, peak: Double) {
  let status =
    (try? String(contentsOfFile: "/proc/\(server.processIdentifier)/status", encoding: .utf8))
    ?? ""
  func field(_ name: String) -> Double {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
      let kilobytes = line.split(separator: " ").compactMap({ Double($0) }).first
    else { return 0 }
    return kilobytes / 1_024
  }
  return (field("VmRSS"), field("VmHWM"))
}

/// The machine's load average over the last minute, from /proc.
func loadAverage() -> String {
  let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
  return text.split(separator: " ").first.map(String.init) ?? "unknown"
}

// MARK: - The clients

let context: TLSContext
let target: [SocketAddress]
do {
  context = try TLSContext.client()
  target = try SocketAddress.resolve(host: "127.0.0.1", port: port)
} catch {
  abandon("The clients could not be set up (\(error)).")
}

/// One client event loop with its share of the players and their counts.
final class Lane: @unchecked Sendable {
  let loop: EventLoop
  let tally = Tally()
  var players: [Player] = []

  init(name: String) throws {
    loop = try EventLoop()
    loop.start(name: name)
  }

  /// Runs `body` on this lane's loop and waits for its result.
  @discardableResult
  func run<Value: Sendable>(_ body: @escaping @Sendable (Lane) -> Value) -> Value {
    let result = LockedBox<Value>()
    let done = DispatchSemaphore(value: 0)
    loop.execute {
      result.value = body(self)
      done.signal()
    }
    done.wait()
    guard let value = result.value else { preconditionFailure("the loop returned nothing") }
    return value
  }
}

final class LockedBox<Value>: @unchecked Sendable {
  var value: Value?
}

// Two loops, so the clients can use both cores while the server waits for its disk. The clients
// and the server are separate processes, but they share the machine's cores.
let lanes: [Lane]
do {
  lanes = try (0..<2).map { try Lane(name: "load clients \($0)") }
} catch {
  abandon("The clients' event loops could not be started (\(error)).")
}

/// The sum of `value` over the lanes, each read on its own loop.
func total(_ value: @escaping @Sendable (Tally) -> Int) -> Int {
  lanes.map { lane in lane.run { value($0.tally) } }.reduce(0, +)
}

/// Waits until `condition` over the totals holds, or `limit` seconds pass.
func wait(upTo limit: Double, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(limit)
  while Date() < deadline {
    if condition() { return true }
    usleep(20_000)
  }
  return false
}

var pairs: [Pair] = []
for index in 0..<gameCount {
  let lane = lanes[index % lanes.count]
  let host = Player(index: 2 * index, tally: lane.tally, loop: lane.loop)
  let guest = Player(index: 2 * index + 1, tally: lane.tally, loop: lane.loop)
  let pair = Pair(host: host, guest: guest)
  host.pair = pair
  guest.pair = pair
  lane.players += [host, guest]
  pairs.append(pair)
}
let playerCount = 2 * gameCount

say(
  "Load benchmark: \(gameCount) games, \(playerCount) TLS connections to a server on "
    + "127.0.0.1:\(port); \(ProcessInfo.processInfo.activeProcessorCount) cores.")

// Clients come from many loopback addresses, as many players would, so the per-address
// sign-in limit applies to each the way it does in real use.
var start = Date()
for lane in lanes {
  for player in lane.players {
    let source: [SocketAddress]
    do {
      source = try SocketAddress.resolve(
        host: "127.0.\(1 + player.index / 250 % 250).\(1 + player.index % 250)", port: 0)
    } catch {
      abandon("A client's loopback address could not be made (\(error)).")
    }
    lane.run { lane in
      switch lane.loop.connect(
        to: target, context: context, serverName: nil, handler: player, from: source.first)
      {
      case .success(let connection): player.connection = connection
      case .failure: lane.tally.closedUnexpectedly += 1
      }
      return true
    }
  }
}
let allConnected = wait(upTo: 120) {
  total { $0.connected + $0.closedUnexpectedly } >= playerCount
}
say(
  String(
    format: "Connected %d of %d in %.1f s (TLS handshake and hello).",
    total(\.connected), playerCount, Date().timeIntervalSince(start)))
start = Date()
_ = wait(upTo: 300) { total { $0.signedIn + $0.errorCount } >= playerCount }
say(
  String(
    format: "Created and signed in %d accounts in %.1f s (scrypt at test cost, one at a time).",
    total(\.signedIn), Date().timeIntervalSince(start)))

// MARK: - Playing

func measure(_ label: String, seconds: Int, think: Int64) {
  for lane in lanes {
    lane.run { lane in
      for player in lane.players { player.thinkMilliseconds = think }
      lane.tally.latencies = []
      lane.tally.measuredMoves = 0
      lane.tally.isMeasuring = true
      return true
    }
  }
  let began = Date()
  let gamesBefore = total(\.gamesFinished)
  Thread.sleep(forTimeInterval: Double(seconds))
  var latencies: [Int64] = []
  var moves = 0
  for lane in lanes {
    let (laneLatencies, laneMoves) = lane.run { lane in
      lane.tally.isMeasuring = false
      return (lane.tally.latencies, lane.tally.measuredMoves)
    }
    latencies += laneLatencies
    moves += laneMoves
  }
  let games = total(\.gamesFinished)
  let elapsed = Date().timeIntervalSince(began)
  let sorted = latencies.sorted()
  func percentile(_ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1_000
  }
  let memory = serverMemory()
  let held = total { $0.connected - $0.closedUnexpectedly }
  say(
    String(
      format:
        "%@: %.0f moves/s, %d games finished, %d connections held; relay latency over %d moves "
        + "p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; server memory %.0f MiB "
        + "(peak %.0f MiB); load average %@.",
      label, Double(moves) / elapsed, games - gamesBefore, held, sorted.count, percentile(0.5),
      percentile(0.9), percentile(0.99), Double(sorted.last ?? 0) / 1_000, memory.current,
      memory.peak, loadAverage()))
}

// The players think from their first move on: a game that starts with players answering at once
// would leave a backlog that the first seconds of the measurement pay for.
for lane in lanes {
  lane.run { lane in
    for player in lane.players { player.thinkMilliseconds = think }
    return true
  }
}
for (index, pair) in pairs.enumerated() {
  lanes[index % lanes.count].run { _ in
    pair.host.startGame()
    return true
  }
}
_ = wait(upTo: 60) { total(\.gamesStarted) >= gameCount }
say("\(total(\.gamesStarted)) games under way at once.")
measure(
  "Players who think \(think / 2)–\(think / 2 + think) ms (\(think) on average) from the first move",
  seconds: seconds, think: think)
if saturationSeconds > 0 {
  measure("Players who answer at once", seconds: saturationSeconds, think: 0)
}

// MARK: - Stopping and counting

for lane in lanes {
  lane.run { lane in
    for player in lane.players { player.keepsPlaying = false }
    return true
  }
}
// The games under way finish; nothing new starts.
_ = wait(upTo: 60) {
  total(\.gamesFinished) >= total(\.gamesStarted)
    && total(\.movesSent) == total(\.movesAcknowledged)
}
let sent = total(\.movesSent)
let acknowledged = total(\.movesAcknowledged)
let relayed = total(\.movesRelayed)
let errors = total(\.errorCount)
let closed = total(\.closedUnexpectedly)
var refusals: [ErrorCode: Int] = [:]
for lane in lanes {
  for (code, count) in lane.run({ $0.tally.refusals }) { refusals[code, default: 0] += count }
}
for lane in lanes {
  lane.run { lane in
    for player in lane.players { player.close() }
    return true
  }
}
server.interrupt()
server.waitUntilExit()
let stored: Int =
  (try? Database(path: databasePath, mode: .readOnly).query("SELECT count(*) FROM online_moves")
    .first?.get(0)) ?? -1
say(
  "Moves sent \(sent), acknowledged \(acknowledged), relayed \(relayed), stored \(stored); "
    + "errors \(errors) (refusals \(refusals), unexpected closes \(closed)); "
    + (stored >= acknowledged && relayed == acknowledged ? "no move lost." : "MOVES LOST."))
for lane in lanes { lane.loop.stop() }
try? FileManager.default.removeItem(at: folder)
ServerChild.letStopFinish()
exit(
  Console.finished(
    allConnected && errors == 0 && stored >= acknowledged && relayed == acknowledged ? 0 : 1,
    program: "tictactoe-load"))
