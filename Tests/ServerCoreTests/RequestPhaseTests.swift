import AuthenticationClient
import GameProtocol
import GameRules
import ServerCore
import Synchronization
import TestSupport
import Testing

/// One of every client message, aimed at the test game where a game is named.
let everyRequest: [ClientMessage] = [
  .hello(versions: ProtocolVersion.supported),
  .createAccount(userName: "eve", password: "long enough"),
  .signIn(userName: "ann", password: "password"),
  .submitCode("123456"),
  .resumeSession(token: "token-ann"),
  .changePassword(userName: "ann", oldPassword: "password", newPassword: "another one", code: nil),
  .deleteAccount(userName: "ann", password: "password", code: nil),
  .beginTwoFactor(userName: "ann", password: "password"),
  .confirmTwoFactor(userName: "ann", code: "123456"),
  .disableTwoFactor(userName: "ann", password: "password", code: nil),
  .createGame(GameOptions()),
  .joinGame(code: code),
  .watchGame(code: code),
  .listGames,
  .move(code: code, ply: 0, cell: Cell(row: 1, column: 1)),
  .resign(code: code),
  .cancelGame(code: code),
  .requestStats(userName: "ann"),
  .requestHistory(userName: "ann"),
  .requestFinishedGame(id: 1),
  .ping(42),
]

/// Requests that go to the accounts and are limited per address.
let accountRequests: Set<UInt8> = [0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A]

struct RequestPhaseTests {
  @Test func everyRequestKindHasAnExample() {
    #expect(Set(everyRequest.map(\.type)).count == 21)
  }

  @Test func beforeHelloOnlyHelloIsAnswered() throws {
    var state = serverState(try playingMatch())
    let id = ClientID(9)
    state.clients[id] = GameServer.Client(address: "10.0.0.9")
    for message in everyRequest {
      let (after, hasEffect) = reduced(state, .received(id, message))
      var expected = state
      if case .hello = message {
        expected.clients[id]?.phase = .ready
        expected.outbox = [.init(id, .message(.welcome(version: ProtocolVersion.current)))]
      } else {
        expected.clients[id]?.phase = .turnedAway
        expected.outbox = [
          .init(id, .message(.refused(Refusal(.helloExpected, request: message.type)))),
          .init(id, .close),
        ]
      }
      #expect(after == expected, "\(message)")
      #expect(!hasEffect)
    }
  }

  /// A connection closed before its hello leaves the operator one line: turned away for a
  /// request before hello or for versions the server does not speak, or gone (closed, or
  /// silent past the greeting's time) before saying anything.
  @Test func aConnectionWithoutAHelloLeavesOneLine() throws {
    var state = serverState(try playingMatch())
    let id = ClientID(9)
    state.clients[id] = GameServer.Client(address: "10.0.0.9")
    let lines = Mutex<[String]>([])
    let logging = GameServer(
      authentication: .unimplemented, storage: .unimplemented, random: { _ in 0 },
      log: { line in lines.withLock { $0.append(line) } })
    let early = reduced(state, .received(id, .listGames), server: logging).state
    _ = reduced(early, .disconnected(id), server: logging)
    let old = reduced(state, .received(id, .hello(versions: 1...1)), server: logging).state
    _ = reduced(old, .disconnected(id), server: logging)
    _ = reduced(state, .disconnected(id), server: logging)
    #expect(
      lines.withLock { $0 } == [
        "Closed a connection from 10.0.0.9 that sent a request before hello.",
        "Closed a connection from 10.0.0.9 that speaks none of this server's protocol versions "
          + "(\(ProtocolVersion.supported.lowerBound) to "
          + "\(ProtocolVersion.supported.upperBound)).",
        "Closed a connection from 10.0.0.9 that never said hello.",
      ])
  }

  @Test func aGuestMayWatchListAndSignInButNotPlay() throws {
    let state = serverState(try playingMatch())
    for message in everyRequest {
      let (after, hasEffect) = reduced(state, .received(guestClient, message))
      var expected = state
      switch message {
      case .hello:
        expected.outbox = [
          .init(guestClient, .message(.refused(Refusal(.helloExpected, request: 0x01))))
        ]
      case .createGame, .joinGame, .move, .resign, .cancelGame:
        expected.outbox = [
          .init(guestClient, .message(.refused(Refusal(.notSignedIn, request: message.type))))
        ]
      case .submitCode:
        expected.outbox = [
          .init(guestClient, .message(.refused(Refusal(.noChallenge, request: message.type))))
        ]
      case .watchGame:
        expected.clients[guestClient]?.games = [code]
        expected.outbox = [
          .init(guestClient, .message(.game(state.matches[code]!.snapshot(for: nil, now: epoch))))
        ]
      case .listGames:
        expected.outbox = [
          .init(guestClient, .message(.games([state.matches[code]!.listing])))
        ]
      case .ping(let nonce):
        expected.outbox = [.init(guestClient, .message(.pong(nonce)))]
      case .requestStats, .requestHistory, .requestFinishedGame:
        // Records are public: asked of the database, with no sign-in, one at a time.
        expected.clients[guestClient]?.isReading = true
        #expect(hasEffect)
      default:
        #expect(accountRequests.contains(message.type))
        expected.clients[guestClient]?.pendingRequest = message.type
        if message.type != 0x05 { expected.allowances["127.0.0.1"] = .afterOneRequest }
        #expect(hasEffect, "\(message)")
      }
      #expect(after == expected, "\(message)")
    }
  }

  @Test func oneAccountRequestAtATime() throws {
    var state = serverState(try playingMatch())
    state.clients[guestClient]?.pendingRequest = 0x03
    state.clients[guestClient]?.challenge = .init(userName: "dee", token: "t")
    for message in everyRequest where accountRequests.contains(message.type) {
      let (after, hasEffect) = reduced(state, .received(guestClient, message))
      var expected = state
      expected.outbox = [
        .init(guestClient, .message(.refused(Refusal(.busy, request: message.type))))
      ]
      #expect(after == expected, "\(message)")
      #expect(!hasEffect)
    }
  }

  @Test func aSignedInConnectionCannotSignInAgain() throws {
    var state = serverState(try playingMatch())
    state.clients[annClient]?.challenge = .init(userName: "dee", token: "t")
    for message in everyRequest where [0x02, 0x03, 0x04, 0x05].contains(message.type) {
      let (after, hasEffect) = reduced(state, .received(annClient, message))
      var expected = state
      expected.outbox = [
        .init(annClient, .message(.refused(Refusal(.alreadySignedIn, request: message.type))))
      ]
      #expect(after == expected, "\(message)")
      #expect(!hasEffect)
    }
  }

  @Test func whileStoppingEverythingIsRefused() throws {
    var state = serverState(try playingMatch())
    state.isShuttingDown = true
    for client in [annClient, guestClient] {
      for message in everyRequest {
        let (after, hasEffect) = reduced(state, .received(client, message))
        var expected = state
        expected.outbox = [
          .init(client, .message(.refused(Refusal(.shuttingDown, request: message.type))))
        ]
        #expect(after == expected, "\(message)")
        #expect(!hasEffect)
      }
    }
  }

  @Test func aClosedConnectionIsForgotten() throws {
    let state = serverState(try playingMatch())
    let gone = ClientID(99)
    for message in everyRequest {
      let (after, hasEffect) = reduced(state, .received(gone, message))
      #expect(after == state)
      #expect(!hasEffect)
    }
    #expect(reduced(state, .broke(gone, .emptyFrame)).state == state)
    #expect(reduced(state, .disconnected(gone)).state == state)
  }

  @Test func bytesThatAreNotAMessageCloseTheConnection() throws {
    let state = serverState(try playingMatch())
    for error in [
      ProtocolError.emptyFrame, .frameTooLarge(1 << 30), .truncated, .unknownMessage(0),
    ] {
      let (after, hasEffect) = reduced(state, .broke(guestClient, error))
      var expected = state
      expected.clients[guestClient]?.phase = .turnedAway
      expected.outbox = [
        .init(guestClient, .message(.refused(Refusal(error.code)))), .init(guestClient, .close),
      ]
      #expect(after == expected)
      #expect(!hasEffect)
    }
    // The operator reads one line for each.
    let lines = Mutex<[String]>([])
    let logging = GameServer(
      authentication: .unimplemented, storage: .unimplemented, random: { _ in 0 },
      log: { line in lines.withLock { $0.append(line) } })
    _ = reduced(state, .broke(guestClient, .invalidField("a name \u{1B}[2J")), server: logging)
    _ = reduced(state, .broke(ClientID(99), .emptyFrame), server: logging)
    #expect(
      lines.withLock { $0 } == [
        "Closed a connection from \(state.clients[guestClient]?.address ?? "") that broke the "
          + "protocol: A message has an invalid field: a name \\u{1B}[2J."
      ])
  }

  @Test func joiningIsRefusedForEveryReason() throws {
    var state = serverState(try playingMatch())
    // Cat cannot take a seat in a game under way, nor in a finished one.
    var (after, _) = reduced(state, .received(catClient, .joinGame(code: code)))
    #expect(
      after.outbox == [.init(catClient, .message(.refused(Refusal(.gameFull, request: 0x11))))])
    state.matches[code]?.phase = .finished(
      GameEnd(winner: nil, reason: .completed, xRating: 1_200, oRating: 1_200))
    (after, _) = reduced(state, .received(catClient, .joinGame(code: code)))
    #expect(
      after.outbox == [.init(catClient, .message(.refused(Refusal(.gameOver, request: 0x11))))])
    (after, _) = reduced(state, .received(catClient, .joinGame(code: "QQQQQQ")))
    #expect(
      after.outbox == [.init(catClient, .message(.refused(Refusal(.noSuchGame, request: 0x11))))])
    // Settings outside the rules.
    for options in [
      GameOptions(rows: 2, columns: 3, k: 3), GameOptions(rows: 3, columns: 3, k: 4),
      GameOptions(rows: 16, columns: 16, k: 5), GameOptions(rows: 3, columns: 3, k: 0),
    ] {
      (after, _) = reduced(state, .received(catClient, .createGame(options)))
      var expected = state
      expected.outbox = [
        .init(catClient, .message(.refused(Refusal(.invalidSettings, request: 0x10))))
      ]
      #expect(after == expected)
    }
  }
}

/// The server keeps to the table of refusals clients believe (`Refusal.mayAnswer`): every
/// request, from each kind of connection, in each phase of a game, is refused only with a
/// refusal that can answer it.
struct RefusalTableTests {
  @Test func everyRefusalTheServerGivesIsOneTheTableAllows() throws {
    var states: [GameServer.State] = []
    for moves in [
      [], [Cell(row: 1, column: 1)],
      [
        Cell(row: 0, column: 0), Cell(row: 1, column: 0),
        Cell(row: 0, column: 1), Cell(row: 1, column: 1), Cell(row: 0, column: 2),
      ],
    ] {
      states.append(serverState(try playingMatch(moves: moves)))
    }
    var waiting = try playingMatch()
    waiting.o = nil
    waiting.phase = .waiting
    states.append(serverState(waiting))
    var committing = try playingMatch()
    committing.phase = .committing(ply: 0, cell: Cell(row: 1, column: 1))
    states.append(serverState(committing))
    states.append(serverState())
    var stopping = serverState(try playingMatch())
    stopping.isShuttingDown = true
    states.append(stopping)
    var busy = serverState(try playingMatch())
    for client in [annClient, guestClient] {
      busy.clients[client]?.pendingRequest = 0x03
      busy.clients[client]?.isReading = true
    }
    states.append(busy)
    var refusals = 0
    for state in states {
      var early = state
      early.clients[ClientID(9)] = GameServer.Client(address: "10.0.0.9")
      for client in [annClient, bobClient, guestClient, catClient, ClientID(9)] {
        for message in everyRequest {
          for sent in reduced(early, .received(client, message)).state.outbox {
            guard case .message(.refused(let refusal)) = sent.event else { continue }
            refusals += 1
            #expect(
              Refusal.mayAnswer(refusal.request, with: refusal.code),
              "\(message) refused with \(refusal.code)")
            #expect(refusal.request == message.type || refusal.request == 0, "\(message)")
          }
        }
      }
    }
    #expect(refusals > 100)
  }
}
