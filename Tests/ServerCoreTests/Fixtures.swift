import Architecture
import AuthenticationClient
import GameProtocol
import GameRules
import ServerCore
import Synchronization
import TestSupport
import Testing

let epoch: Int64 = 1_700_000_000_000
let code = "ABC234"

let ann = SignedInAccount(accountID: 1, userName: "ann", rating: 1_200, token: "token-ann")
let bob = SignedInAccount(accountID: 2, userName: "bob", rating: 1_200, token: "token-bob")
let cat = SignedInAccount(accountID: 3, userName: "cat", rating: 1_250, token: "token-cat")

/// Ann plays X, Bob plays O, a guest watches and Cat (signed in, not seated) looks on.
let annClient = ClientID(1)
let bobClient = ClientID(2)
let guestClient = ClientID(3)
let catClient = ClientID(4)

struct StorageFailure: Error {}

extension ServerStorageClient {
  /// A database whose every endpoint fails the test when called.
  static let unimplemented = ServerStorageClient(
    openSession: { _ in try fail("openSession") },
    resumeSession: { _ in try fail("resumeSession") },
    endSessions: { _ in try fail("endSessions") },
    createGame: { _ in try fail("createGame") },
    seatOpponent: { _, _ in try fail("seatOpponent") },
    commitMove: { _, _, _, _ in try fail("commitMove") },
    finishGame: { _, _ in try fail("finishGame") },
    cancelGame: { _ in try fail("cancelGame") },
    stats: { _ in try fail("stats") }
  )
}

private func fail<T>(_ endpoint: String) throws -> T {
  Issue.record(Comment(rawValue: "ServerStorageClient.\(endpoint) was called unexpectedly."))
  throw StorageFailure()
}

/// Records what a test's storage was asked to do.
final class StorageLog: Sendable {
  let calls = Mutex<[String]>([])

  func record(_ call: String) { calls.withLock { $0.append(call) } }

  var all: [String] { calls.withLock { $0 } }
}

extension GameServer {
  /// The server's logic with clients that fail the test when reached.
  static func pure(
    authentication: AuthenticationClient = .unimplemented,
    storage: ServerStorageClient = .unimplemented
  ) -> GameServer {
    GameServer(authentication: authentication, storage: storage, random: { _ in 0 }, log: { _ in })
  }
}

extension GameServer.Client {
  static func ready(_ account: SignedInAccount?, address: String = "127.0.0.1") -> Self {
    var client = GameServer.Client(address: address)
    client.phase = .ready
    client.account = account
    return client
  }
}

/// A match between Ann (X) and Bob (O) with the guest watching, after `moves`.
func playingMatch(moves: [Cell] = [], firstMover: Mark = .x, rows: Int = 3, columns: Int = 3)
  throws -> Match
{
  var match = Match(
    code: code,
    start: try Board(rows: rows, columns: columns, k: 3, firstMover: firstMover),
    creator: Match.Seat(accountID: 1, name: "ann", rating: 1_200, client: annClient),
    createdAt: epoch)
  match.o = Match.Seat(accountID: 2, name: "bob", rating: 1_200, client: bobClient)
  match.spectators = [guestClient]
  match.phase = .playing
  for move in moves { match.commit(move) }
  return match
}

/// The server with the four connections and, if given, the match.
func serverState(_ match: Match? = nil) -> GameServer.State {
  var state = GameServer.State(now: epoch)
  state.clients = [
    annClient: .ready(ann), bobClient: .ready(bob), guestClient: .ready(nil),
    catClient: .ready(cat),
  ]
  if let match {
    state.matches[match.code] = match
    for client in match.audience { state.clients[client]?.games = [match.code] }
  }
  return state
}

extension Effect {
  /// Whether the effect does nothing.
  var isNone: Bool { instructions.isEmpty }
}

/// Reduces one action on a copy and returns the new state and whether an effect was asked for.
func reduced(
  _ state: GameServer.State, _ action: GameServer.Action,
  server: GameServer = .pure()
) -> (state: GameServer.State, hasEffect: Bool) {
  var copy = state
  let effect = server.reduce(into: &copy, action: action)
  return (copy, !effect.isNone)
}

extension Allowance {
  /// An address's allowance after its first account request, at the test epoch.
  static var afterOneRequest: Allowance {
    var allowance = Allowance(now: epoch)
    _ = allowance.take(now: epoch)
    return allowance
  }
}
