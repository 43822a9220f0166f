import GameProtocol
import GameRules
import Glibc
import NetworkIO
import TLS

/// A drawn 3×3 game, played move by move by every pair: nine moves, no early line.
let drawnGame: [Cell] = [
  Cell(row: 0, column: 0), Cell(row: 0, column: 1), Cell(row: 0, column: 2),
  Cell(row: 1, column: 0), Cell(row: 1, column: 1), Cell(row: 2, column: 0),
  Cell(row: 1, column: 2), Cell(row: 2, column: 2), Cell(row: 2, column: 1),
]

/// What the benchmark counts; touched on the client loop's thread only.
final class Tally: @unchecked Sendable {
  var connected = 0
  var signedIn = 0
  var closedUnexpectedly = 0
  var refusals: [ErrorCode: Int] = [:]
  var gamesStarted = 0
  var gamesFinished = 0
  var movesSent = 0
  var movesAcknowledged = 0
  var movesRelayed = 0
  /// Relay latencies in microseconds: from the mover sending to the opponent hearing.
  var latencies: [Int64] = []
  var isMeasuring = false
  var measuredMoves = 0

  var errorCount: Int { closedUnexpectedly + refusals.values.reduce(0, +) }
}

/// The two players of a game and the times their moves were sent.
final class Pair: @unchecked Sendable {
  let host: Player
  let guest: Player
  var code = ""
  var sentAt: [Int: Int64] = [:]

  init(host: Player, guest: Player) {
    self.host = host
    self.guest = guest
  }
}

/// Microseconds on the monotonic clock.
func microseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
}

/// One scripted client, living on the client loop's thread.
///
/// It connects, says hello, creates its account, then plays its side of its pair's games for as
/// long as the benchmark runs.
final class Player: ConnectionHandler, @unchecked Sendable {
  let index: Int
  let tally: Tally
  let loop: EventLoop
  weak var pair: Pair?
  var connection: Connection?
  private(set) var isSignedIn = false
  var keepsPlaying = true
  /// Milliseconds between hearing the opponent's move and answering it.
  var thinkMilliseconds: Int64 = 0
  private var isClosing = false
  private var mark: Mark = .x

  init(index: Int, tally: Tally, loop: EventLoop) {
    self.index = index
    self.tally = tally
    self.loop = loop
  }

  var isHost: Bool { pair?.host === self }

  var opponent: Player? { isHost ? pair?.guest : pair?.host }

  func send(_ message: ClientMessage) { connection?.send(message.encoded()) }

  func close() {
    isClosing = true
    connection?.close(flushing: true)
  }

  /// Starts a game: the host creates it, and the guest joins when the code comes.
  func startGame() {
    guard isHost, keepsPlaying else { return }
    send(.createGame(GameOptions()))
  }

  private func playNext(after ply: Int) {
    let next = ply + 1
    guard next < drawnGame.count, let pair else { return }
    let moverIsX = next.isMultiple(of: 2)
    guard (mark == .x) == moverIsX else { return }
    let move: @Sendable () -> Void = { [self] in
      pair.sentAt[next] = microseconds()
      tally.movesSent += 1
      send(.move(code: pair.code, ply: next, cell: drawnGame[next]))
    }
    if thinkMilliseconds == 0 {
      move()
    } else {
      // A little jitter, so the games do not move in lockstep.
      let delay = thinkMilliseconds / 2 + Int64.random(in: 0...thinkMilliseconds)
      loop.after(milliseconds: delay, move)
    }
  }

  // MARK: - Connection

  func connectionEstablished(_ connection: Connection) {
    tally.connected += 1
    send(.hello(versions: ProtocolVersion.supported))
  }

  func connection(_ connection: Connection, received payload: [UInt8]) {
    guard let message = try? ServerMessage(decoding: payload) else {
      tally.closedUnexpectedly += 1
      connection.abort(.closedLocally)
      return
    }
    switch message {
    case .welcome:
      send(.createAccount(userName: "player\(index)", password: "benchmark password"))
    case .signedIn:
      isSignedIn = true
      tally.signedIn += 1
    case .game(let snapshot):
      guard let pair else { return }
      mark = snapshot.role ?? .x
      if isHost {
        pair.code = snapshot.code
        pair.sentAt = [:]
        pair.guest.send(.joinGame(code: snapshot.code))
      }
    case .playerJoined:
      tally.gamesStarted += 1
      // X moves first, and the host plays X.
      playNext(after: -1)
    case .moved(_, let ply, _):
      let moverIsX = ply.isMultiple(of: 2)
      if (mark == .x) == moverIsX {
        tally.movesAcknowledged += 1
      } else {
        tally.movesRelayed += 1
        if let sent = pair?.sentAt[ply], tally.isMeasuring {
          tally.latencies.append(microseconds() - sent)
          tally.measuredMoves += 1
        }
        playNext(after: ply)
      }
    case .ended:
      if isHost {
        tally.gamesFinished += 1
        startGame()
      }
    case .refused(let refusal):
      tally.refusals[refusal.code, default: 0] += 1
    default:
      break
    }
  }

  func connection(_ connection: Connection, broke error: ProtocolError) {
    tally.closedUnexpectedly += 1
  }

  func connectionClosed(_ connection: Connection, reason: CloseReason) {
    if !isClosing { tally.closedUnexpectedly += 1 }
    self.connection = nil
  }
}
