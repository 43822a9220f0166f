import GameProtocol
import GameRules
import Testing

/// One example of every client message, with awkward values where they matter.
let everyClientMessage: [ClientMessage] = [
  .hello(versions: 1...1),
  .hello(versions: 0...UInt16.max),
  .createAccount(userName: "ann", password: "correct horse"),
  .signIn(userName: "Zoë", password: ""),
  .submitCode("123456"),
  .resumeSession(token: String(repeating: "ab", count: 32)),
  .changePassword(userName: "ann", oldPassword: "a", newPassword: "b", code: nil),
  .changePassword(userName: "ann", oldPassword: "a", newPassword: "b", code: "654321"),
  .deleteAccount(userName: "ann", password: "p", code: nil),
  .deleteAccount(userName: "ann", password: "p", code: "abcde-fghij"),
  .beginTwoFactor(userName: "ann", password: "p"),
  .confirmTwoFactor(userName: "ann", code: "000000"),
  .disableTwoFactor(userName: "ann", password: "p", code: "111111"),
  .countRecoveryCodes,
  .regenerateRecoveryCodes,
  .createGame(GameOptions(rows: 3, columns: 3, k: 3, first: .x)),
  .createGame(GameOptions(rows: 15, columns: 7, k: 5, first: .random)),
  .joinGame(code: "ABC234"),
  .watchGame(code: "abc234"),
  .listGames,
  .move(code: "ABC234", ply: 0, cell: Cell(row: 1, column: 1)),
  .move(code: "ABC234", ply: 224, cell: Cell(row: 14, column: 14)),
  .resign(code: "ABC234"),
  .cancelGame(code: "abc-234"),
  .cancelGame(code: ""),
  .requestStats(userName: "ann"),
  .requestHistory(userName: "Zoë"),
  .requestHistory(userName: "ann", before: HistoryCursor(endedAt: .min, id: .max)),
  .requestFinishedGame(id: .max),
  .ping(.max),
]

/// One example of every server message.
let everyServerMessage: [ServerMessage] = [
  .welcome(version: 1),
  .refused(Refusal(.notYourTurn, request: 0x14)),
  .refused(Refusal(.unsupportedVersion, request: 0x01, detail: 1 << 16 | 1)),
  .refused(Refusal(.tooManyGames, request: 0x10, detail: 10)),
  .signedIn(accountID: 42, userName: "ann", token: "00ff"),
  .codeRequired,
  .accepted(request: 0x06),
  .twoFactorSecret(secret: "JBSWY3DPEHPK3PXP", uri: "otpauth://totp/TicTacToe:ann?secret=JBSW"),
  .recoveryCodes(["abcde-fghij", "klmno-pqrst"]),
  .recoveryCodes([]),
  .recoveryCodesLeft(nil),
  .recoveryCodesLeft(7),
  .game(
    GameSnapshot(
      code: "ABC234", rows: 3, columns: 3, k: 3, firstMover: .x,
      x: SeatedPlayer(name: "ann", rating: 1200), o: nil, moves: [], status: .waiting, role: .x)),
  .game(
    GameSnapshot(
      code: "ABC234", rows: 15, columns: 15, k: 5, firstMover: .o,
      x: SeatedPlayer(name: "ann", rating: 1216, awaySeconds: 41),
      o: SeatedPlayer(name: "bob", rating: 1184),
      moves: [Cell(row: 7, column: 7), Cell(row: 0, column: 14)],
      status: .finished(GameEnd(winner: .o, reason: .forfeit, xRating: 1190, oRating: 1210)),
      role: nil)),
  .game(
    GameSnapshot(
      code: "ABC234", rows: 3, columns: 4, k: 3, firstMover: .x, x: nil, o: nil, moves: [],
      status: .playing, role: .o)),
  .playerJoined(code: "ABC234", mark: .o, player: SeatedPlayer(name: "bob", rating: 1200)),
  .moved(code: "ABC234", ply: 3, cell: Cell(row: 2, column: 0)),
  .playerAway(code: "ABC234", mark: .x, seconds: 60),
  .playerBack(code: "ABC234", mark: .x),
  .ended(code: "ABC234", GameEnd(winner: nil, reason: .completed, xRating: 1200, oRating: 1200)),
  .ended(code: "ABC234", GameEnd(winner: .x, reason: .resigned, xRating: 1216, oRating: 1184)),
  .cancelled(code: "ABC234"),
  .games([
    GameListing(
      code: "ABC234", isOpen: true, xName: "ann", oName: nil, rows: 3, columns: 3, k: 3,
      moveCount: 0)
  ]),
  .games([]),
  .stats(
    PlayerStats(
      userName: "ann", rating: 1216, wins: 3, losses: 1, draws: 2, currentStreak: 1,
      bestStreak: 2)),
  .pong(7),
  .history([]),
  .history([
    FinishedGame(
      id: 9, xName: "ann", oName: "bob", rows: 15, columns: 15, k: 5, firstMover: .o,
      moves: [Cell(row: 7, column: 7), Cell(row: 14, column: 0)], winner: nil,
      startedAt: 1_764_590_400_000, endedAt: .max),
    FinishedGame(
      id: 10, xName: "bob", oName: "ann", rows: 3, columns: 3, k: 3, firstMover: .x, moves: [],
      winner: .o, startedAt: 0, endedAt: 0),
  ]),
]

struct MessageTests {
  @Test func everyClientMessageRoundTrips() throws {
    var types = Set<UInt8>()
    for message in everyClientMessage {
      let payload = message.encoded()
      #expect(payload.first == message.type)
      #expect(try ClientMessage(decoding: payload) == message, "\(message)")
      types.insert(message.type)
    }
    #expect(types.count == 23, "a client message kind has no example")
    // Version 4's cancellation has the type after the finished game's.
    #expect(ClientMessage.cancelGame(code: "ABC234").type == 0x1A)
  }

  @Test func everyServerMessageRoundTrips() throws {
    var types = Set<UInt8>()
    for message in everyServerMessage {
      let payload = message.encoded()
      #expect(payload.first == message.type)
      #expect(try ServerMessage(decoding: payload) == message, "\(message)")
      types.insert(message.type)
    }
    #expect(types.count == 19, "a server message kind has no example")
    #expect(ServerMessage.cancelled(code: "ABC234").type == 0x9A)
  }

  @Test func everyTruncationIsRefused() {
    for message in everyClientMessage {
      let payload = message.encoded()
      for length in 0..<payload.count {
        #expect(throws: ProtocolError.self, "\(message) cut to \(length)") {
          try ClientMessage(decoding: Array(payload[..<length]))
        }
      }
    }
    for message in everyServerMessage {
      let payload = message.encoded()
      for length in 0..<payload.count {
        #expect(throws: ProtocolError.self, "\(message) cut to \(length)") {
          try ServerMessage(decoding: Array(payload[..<length]))
        }
      }
    }
  }

  @Test func trailingBytesAreRefused() {
    for message in everyClientMessage {
      #expect(throws: ProtocolError.trailingBytes(1)) {
        try ClientMessage(decoding: message.encoded() + [0])
      }
    }
    for message in everyServerMessage {
      #expect(throws: ProtocolError.trailingBytes(1)) {
        try ServerMessage(decoding: message.encoded() + [0])
      }
    }
  }

  @Test func everyOtherTypeByteIsUnknown() {
    let clientTypes = Set(everyClientMessage.map(\.type))
    let serverTypes = Set(everyServerMessage.map(\.type))
    for type in UInt8.min...UInt8.max {
      if !clientTypes.contains(type) {
        #expect(throws: ProtocolError.unknownMessage(type)) {
          try ClientMessage(decoding: [type] + Array(repeating: 0, count: 8))
        }
      }
      if !serverTypes.contains(type) {
        #expect(throws: ProtocolError.unknownMessage(type)) {
          try ServerMessage(decoding: [type] + Array(repeating: 0, count: 8))
        }
      }
    }
    #expect(clientTypes.isDisjoint(with: serverTypes))
  }

  @Test func invalidFieldsAreRefused() {
    // A string that is not UTF-8.
    #expect(throws: ProtocolError.invalidField("a string is not valid UTF-8")) {
      try ClientMessage(decoding: [0x04, 0, 2, 0xff, 0xfe])
    }
    // A string longer than the limit, even when the bytes are there.
    let long = ProtocolLimits.maximumStringLength + 1
    #expect(throws: ProtocolError.self) {
      try ClientMessage(
        decoding: [0x04, UInt8(long >> 8), UInt8(long & 0xff)] + Array(repeating: 65, count: long))
    }
    // A flag that is neither 0 nor 1.
    #expect(throws: ProtocolError.invalidField("a flag holds 2, not 0 or 1")) {
      try ClientMessage(decoding: [0x07, 0, 1, 97, 0, 1, 98, 2])
    }
    // A cell outside every board.
    #expect(throws: ProtocolError.self) {
      try ClientMessage(decoding: [0x14, 0, 1, 65, 0, 0, 15, 0])
    }
    // Versions the wrong way round.
    #expect(throws: ProtocolError.self) { try ClientMessage(decoding: [0x01, 0, 2, 0, 1]) }
    // A first mover that does not exist.
    #expect(throws: ProtocolError.self) { try ClientMessage(decoding: [0x10, 3, 3, 3, 3]) }
    // An error code that does not exist.
    #expect(throws: ProtocolError.self) {
      try ServerMessage(decoding: [0x82, 0, 0, 0, 0, 0, 0, 0])
    }
    // A list longer than the limit.
    #expect(throws: ProtocolError.self) { try ServerMessage(decoding: [0x87, 0xff, 0xff]) }
    // A forfeit without a winner.
    #expect(throws: ProtocolError.self) {
      try ServerMessage(decoding: [0x95, 0, 1, 65, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    }
  }

  @Test func errorCodesAreNumberedOnceEach() {
    let values = ErrorCode.allCases.map(\.rawValue)
    #expect(Set(values).count == values.count)
    #expect(values == Array(1...UInt16(values.count)))
    // Numbers are the protocol's: a code added in a version keeps the number it came with.
    #expect(ErrorCode.codeRequired.rawValue == 32)
    #expect(ErrorCode.tooManyGames.rawValue == 33)
    #expect(ErrorCode.unfinishedGame.rawValue == 34)
  }

  @Test func everyErrorCodeRoundTripsAndNoOtherIsRead() throws {
    for code in ErrorCode.allCases {
      for (request, detail) in [(UInt8(0), UInt32(0)), (0x10, 10), (0xff, .max)] {
        let message = ServerMessage.refused(Refusal(code, request: request, detail: detail))
        #expect(try ServerMessage(decoding: message.encoded()) == message, "\(code)")
      }
    }
    let unknown = UInt16(ErrorCode.allCases.count + 1)
    for raw in [0, unknown, .max] {
      #expect(throws: ProtocolError.self, "error code \(raw)") {
        try ServerMessage(decoding: [0x82, UInt8(raw >> 8), UInt8(raw & 0xff), 0, 0, 0, 0, 0])
      }
    }
  }

  @Test func longStringsAreCutAtACharacterBoundary() throws {
    let text = String(repeating: "é", count: ProtocolLimits.maximumStringLength)
    let payload = ClientMessage.submitCode(text).encoded()
    guard case .submitCode(let decoded) = try ClientMessage(decoding: payload) else {
      Issue.record("decoded another message")
      return
    }
    #expect(decoded.utf8.count <= ProtocolLimits.maximumStringLength)
    #expect(decoded.allSatisfy { $0 == "é" })
  }
}

struct VersionTests {
  @Test func theHighestCommonVersionIsChosen() {
    #expect(ProtocolVersion.negotiated(with: 5...5) == 5)
    #expect(ProtocolVersion.negotiated(with: 1...5) == 5)
    #expect(ProtocolVersion.negotiated(with: 0...9) == ProtocolVersion.supported.upperBound)
    // Version 1's history request had no page, version 2 cannot read `tooManyGames`, version 3
    // cannot read `cancelled` and version 4 cannot read `unfinishedGame`: their clients are
    // told to update.
    #expect(ProtocolVersion.negotiated(with: 1...1) == nil)
    #expect(ProtocolVersion.negotiated(with: 2...2) == nil)
    #expect(ProtocolVersion.negotiated(with: 3...3) == nil)
    #expect(ProtocolVersion.negotiated(with: 1...3) == nil)
    #expect(ProtocolVersion.negotiated(with: 4...4) == nil)
    #expect(ProtocolVersion.negotiated(with: 6...7) == nil)
    #expect(ProtocolVersion.negotiated(with: 0...0) == nil)
  }

  @Test func thisBuildSpeaksItsCurrentVersionOnly() {
    #expect(ProtocolVersion.current == 5)
    #expect(ProtocolVersion.supported == ProtocolVersion.current...ProtocolVersion.current)
    #expect(ProtocolVersion.negotiated(with: ProtocolVersion.supported) == ProtocolVersion.current)
  }

  @Test func aServersVersionsAreSaidAsTheyCome() {
    func mismatch(_ low: UInt32, _ high: UInt32) -> String {
      ProtocolVersion.mismatch(Refusal(.unsupportedVersion, request: 1, detail: low << 16 | high))
    }
    #expect(ProtocolVersion.spoken == "version 5")
    #expect(
      mismatch(4, 4)
        == "speaks protocol version 4, and this tictactoe speaks version 5; update the older one")
    #expect(mismatch(4, 6).hasPrefix("speaks protocol versions 4 to 6, "))
    // A lying server's numbers are said, not trusted to make a range.
    #expect(mismatch(9, 1).hasPrefix("speaks protocol versions 9 to 1, "))
    #expect(mismatch(0xffff, 0xffff).hasPrefix("speaks protocol version 65535, "))
  }
}

struct InviteCodeTests {
  @Test func codesAreReadInAnyCaseWithoutLookAlikes() {
    #expect(InviteCode.normalized("abc-234") == "ABC234")
    #expect(InviteCode.normalized(" ab c2 34 ") == "ABC234")
    #expect(InviteCode.normalized("ABC23") == nil)
    #expect(InviteCode.normalized("ABCO23") == nil)
    #expect(InviteCode.normalized("ABC1I2") == nil)
    #expect(InviteCode.normalized(String(repeating: "A", count: 17)) == nil)
    #expect(!InviteCode.alphabet.contains { "01ILO".contains($0) })
  }

  @Test func madeCodesAreNormalised() {
    var counter = 0
    let code = InviteCode.make { bound in
      counter += 7
      return counter % bound
    }
    #expect(code.count == InviteCode.length)
    #expect(InviteCode.normalized(code) == code)
  }
}
