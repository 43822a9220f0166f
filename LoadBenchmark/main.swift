// The online load benchmark: starts a game server on loopback in a process of its own, then
// plays many simultaneous games with scripted TLS clients and reports what the server held.
//
//   swift run -c release tictactoe-load [--games 1000] [--seconds 20] [--think 500]

import Crypto
import Foundation
import GameProtocol
import NetworkIO
import SQLite
import ServerLive
import TLS

// MARK: - Options

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--serve" {
  // The server half: this same executable, started by the benchmark below.
  let status = await GameServerProcess.run(
    ServeOptions(listen: ServerAddress(host: "127.0.0.1", port: 0), database: arguments[1]),
    environment: ProcessInfo.processInfo.environment,
    passwordAlgorithm: .scrypt(logN: 10, r: 8, p: 1))
  exit(status)
}

func option(_ name: String, default value: Int) -> Int {
  guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count,
    let number = Int(arguments[index + 1]), number >= 0
  else { return value }
  return number
}

let gameCount = option("games", default: 1_000)
let seconds = option("seconds", default: 20)
let think = Int64(option("think", default: 500))
let saturationSeconds = option("saturate", default: 10)

func say(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

// MARK: - The server process

let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
  "tictactoe-load-\(getpid())")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let databasePath = folder.appendingPathComponent("server.sqlite").path
let server = Process()
server.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
server.arguments = ["--serve", databasePath]
let serverOutput = Pipe()
server.standardOutput = serverOutput
server.standardError = FileHandle.nullDevice
try server.run()
var port: UInt16 = 0
var announced = ""
while port == 0 {
  let data = serverOutput.fileHandleForReading.availableData
  guard !data.isEmpty else {
    say("The server did not start.")
    exit(1)
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

// MARK: - The clients

EventLoop.raiseDescriptorLimit()
let loop = try EventLoop()
loop.start(name: "load clients")
let tally = Tally()
let context = try TLSContext.client()
let target = try SocketAddress.resolve(host: "127.0.0.1", port: port)

/// Runs `body` on the client loop and waits for its result.
@discardableResult
func onLoop<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
  let result = LockedBox<Value>()
  let done = DispatchSemaphore(value: 0)
  loop.execute {
    result.value = body()
    done.signal()
  }
  done.wait()
  guard let value = result.value else { preconditionFailure("the loop returned nothing") }
  return value
}

/// Waits until `condition` (checked on the loop) holds, or `limit` seconds pass.
func wait(upTo limit: Double, _ condition: @escaping @Sendable () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(limit)
  while Date() < deadline {
    if onLoop(condition) { return true }
    usleep(20_000)
  }
  return false
}

final class LockedBox<Value>: @unchecked Sendable {
  var value: Value?
}

let players = (0..<(2 * gameCount)).map { Player(index: $0, tally: tally, loop: loop) }
let pairs = stride(from: 0, to: players.count, by: 2).map { index in
  let pair = Pair(host: players[index], guest: players[index + 1])
  players[index].pair = pair
  players[index + 1].pair = pair
  return pair
}

say(
  "Load benchmark: \(gameCount) games, \(players.count) TLS connections to a server on "
    + "127.0.0.1:\(port); \(ProcessInfo.processInfo.activeProcessorCount) cores.")

// Clients come from many loopback addresses, as many players would, so the per-address
// sign-in limit applies to each the way it does in real use.
var start = Date()
for player in players {
  let source = try SocketAddress.resolve(
    host: "127.0.\(1 + player.index / 250 % 250).\(1 + player.index % 250)", port: 0)
  onLoop {
    switch loop.connect(
      to: target, context: context, serverName: nil, handler: player, from: source.first)
    {
    case .success(let connection): player.connection = connection
    case .failure: tally.closedUnexpectedly += 1
    }
    return true
  }
}
let allConnected = wait(upTo: 120) { tally.connected + tally.closedUnexpectedly >= players.count }
say(
  String(
    format: "Connected %d of %d in %.1f s (TLS handshake and hello).",
    onLoop { tally.connected }, players.count, Date().timeIntervalSince(start)))
start = Date()
_ = wait(upTo: 300) { tally.signedIn + tally.errorCount >= players.count }
say(
  String(
    format: "Created and signed in %d accounts in %.1f s (scrypt at test cost, one at a time).",
    onLoop { tally.signedIn }, Date().timeIntervalSince(start)))

// MARK: - Playing

func measure(_ label: String, seconds: Int, think: Int64) {
  onLoop {
    for player in players { player.thinkMilliseconds = think }
    tally.latencies = []
    tally.measuredMoves = 0
    tally.isMeasuring = true
    return true
  }
  let began = Date()
  let gamesBefore = onLoop { tally.gamesFinished }
  Thread.sleep(forTimeInterval: Double(seconds))
  let (latencies, moves, games) = onLoop {
    tally.isMeasuring = false
    return (tally.latencies, tally.measuredMoves, tally.gamesFinished)
  }
  let elapsed = Date().timeIntervalSince(began)
  let sorted = latencies.sorted()
  func percentile(_ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1_000
  }
  let memory = serverMemory()
  say(
    String(
      format:
        "%@: %.0f moves/s, %d games finished; relay latency p50 %.2f ms, p99 %.2f ms, "
        + "max %.2f ms; server memory %.0f MiB (peak %.0f MiB).",
      label, Double(moves) / elapsed, games - gamesBefore, percentile(0.5), percentile(0.99),
      Double(sorted.last ?? 0) / 1_000, memory.current, memory.peak))
}

onLoop {
  for pair in pairs { pair.host.startGame() }
  return true
}
_ = wait(upTo: 60) { tally.gamesStarted >= gameCount }
say("\(onLoop { tally.gamesStarted }) games under way at once.")
measure("Players who think \(think) ms", seconds: seconds, think: think)
if saturationSeconds > 0 {
  measure("Players who answer at once", seconds: saturationSeconds, think: 0)
}

// MARK: - Stopping and counting

onLoop {
  for player in players { player.keepsPlaying = false }
  return true
}
// The games under way finish; nothing new starts.
_ = wait(upTo: 30) { tally.movesSent == tally.movesAcknowledged }
let (sent, acknowledged, relayed, errors, refusals, closed) = onLoop {
  (
    tally.movesSent, tally.movesAcknowledged, tally.movesRelayed, tally.errorCount,
    tally.refusals, tally.closedUnexpectedly
  )
}
onLoop {
  for player in players { player.close() }
  return true
}
server.interrupt()
server.waitUntilExit()
let stored: Int =
  (try? Database(path: databasePath, mode: .readOnly).query("SELECT count(*) FROM online_moves")
    .first?.get(0)) ?? -1
say(
  "Moves sent \(sent), acknowledged \(acknowledged), relayed \(relayed), stored \(stored); "
    + "errors \(errors) (refusals \(refusals), unexpected closes \(closed)); "
    + (acknowledged == stored && relayed == acknowledged ? "no move lost." : "MOVES LOST."))
loop.stop()
try? FileManager.default.removeItem(at: folder)
exit(allConnected && errors == 0 && stored == acknowledged && relayed == acknowledged ? 0 : 1)
