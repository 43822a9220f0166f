public import GameRules

/// What the server sends to a client, one message a frame.
public enum ServerMessage: Equatable, Sendable {
  /// The answer to `hello`: the version the connection speaks from now on.
  case welcome(version: UInt16)
  /// A request was refused; nothing changed.
  case refused(Refusal)
  /// Signed in (after a password, a code, a resumed session or a new account).
  case signedIn(accountID: Int64, userName: String, token: String)
  /// The password was right and the account has two-factor on: send the code.
  case codeRequired
  /// An account request (password change, deletion, two-factor off) was carried out.
  case accepted(request: UInt8)
  /// Two-factor set-up began: the secret for an authenticator app.
  case twoFactorSecret(secret: String, uri: String)
  /// Two-factor is on (or its codes were replaced): the one-time recovery codes.
  case recoveryCodes([String])
  /// How many unused recovery codes the account has, or `nil` when two-factor is off.
  case recoveryCodesLeft(Int?)
  /// A game as it stands, after create, join, watch or rejoin.
  case game(GameSnapshot)
  /// A player took the free seat.
  case playerJoined(code: String, mark: Mark, player: SeatedPlayer)
  /// A move was committed to the server's database.
  case moved(code: String, ply: Int, cell: Cell)
  /// A player's connection dropped: the seat is held for `seconds`.
  case playerAway(code: String, mark: Mark, seconds: UInt32)
  /// A player who was away is back.
  case playerBack(code: String, mark: Mark)
  /// The game ended.
  case ended(code: String, GameEnd)
  /// The game's creator cancelled it before anyone joined: it is gone. Since version 4.
  case cancelled(code: String)
  /// The open games and the games being played.
  case games([GameListing])
  /// An account's online record.
  case stats(PlayerStats)
  /// Finished games, newest first: an account's history, or the one game asked for.
  case history([FinishedGame])
  /// The answer to a ping.
  case pong(UInt64)

  /// The message's type byte on the wire.
  public var type: UInt8 {
    switch self {
    case .welcome: 0x81
    case .refused: 0x82
    case .signedIn: 0x83
    case .codeRequired: 0x84
    case .accepted: 0x85
    case .twoFactorSecret: 0x86
    case .recoveryCodes: 0x87
    case .recoveryCodesLeft: 0x88
    case .game: 0x90
    case .playerJoined: 0x91
    case .moved: 0x92
    case .playerAway: 0x93
    case .playerBack: 0x94
    case .ended: 0x95
    case .cancelled: 0x9A
    case .games: 0x96
    case .stats: 0x97
    case .history: 0x99
    case .pong: 0x98
    }
  }

  /// The message's payload: its type byte and fields.
  public func encoded() -> [UInt8] {
    var writer = ByteWriter(type: type)
    switch self {
    case .welcome(let version):
      writer.write(version)
    case .refused(let refusal):
      writer.write(refusal.code.rawValue)
      writer.write(refusal.request)
      writer.write(refusal.detail)
    case .signedIn(let accountID, let userName, let token):
      writer.write(accountID)
      writer.write(userName)
      writer.write(token)
    case .codeRequired:
      break
    case .accepted(let request):
      writer.write(request)
    case .twoFactorSecret(let secret, let uri):
      writer.write(secret)
      writer.write(uri)
    case .recoveryCodes(let codes):
      writer.write(list: codes) { $0.write($1) }
    case .recoveryCodesLeft(let count):
      writer.write(optional: count) { $0.write(UInt16(clamping: $1)) }
    case .game(let snapshot):
      writer.write(snapshot)
    case .playerJoined(let code, let mark, let player):
      writer.write(code)
      writer.write(mark)
      writer.write(player)
    case .moved(let code, let ply, let cell):
      writer.write(code)
      writer.write(UInt16(clamping: ply))
      writer.write(cell)
    case .playerAway(let code, let mark, let seconds):
      writer.write(code)
      writer.write(mark)
      writer.write(seconds)
    case .playerBack(let code, let mark):
      writer.write(code)
      writer.write(mark)
    case .ended(let code, let end):
      writer.write(code)
      writer.write(end)
    case .cancelled(let code):
      writer.write(code)
    case .games(let listings):
      writer.write(list: listings) { $0.write($1) }
    case .stats(let stats):
      writer.write(stats.userName)
      for number in [
        stats.rating, stats.wins, stats.losses, stats.draws, stats.currentStreak, stats.bestStreak,
      ] {
        writer.write(UInt32(clamping: number))
      }
    case .pong(let nonce):
      writer.write(nonce)
    case .history(let games):
      writer.write(list: games) { $0.write($1) }
    }
    return writer.bytes
  }

  /// Decodes a frame's payload.
  ///
  /// - Parameter payload: The bytes of one frame.
  /// - Throws: ``ProtocolError`` for an unknown type, a short or long payload, or a bad field.
  /// - Complexity: O(*n*) in the payload's length.
  public init(decoding payload: [UInt8]) throws(ProtocolError) {
    guard let type = payload.first else { throw .truncated }
    var reader = ByteReader(payload)
    switch type {
    case 0x81: self = .welcome(version: try reader.readUInt16())
    case 0x82:
      let raw = try reader.readUInt16()
      guard let code = ErrorCode(rawValue: raw) else {
        throw .invalidField("error code \(raw) is not part of the protocol")
      }
      self = .refused(
        Refusal(code, request: try reader.readUInt8(), detail: try reader.readUInt32()))
    case 0x83:
      self = .signedIn(
        accountID: try reader.readInt64(), userName: try reader.readString(),
        token: try reader.readString())
    case 0x84: self = .codeRequired
    case 0x85: self = .accepted(request: try reader.readUInt8())
    case 0x86:
      self = .twoFactorSecret(secret: try reader.readString(), uri: try reader.readString())
    case 0x87:
      self = .recoveryCodes(
        try reader.readList { (r: inout ByteReader) throws(ProtocolError) in try r.readString() })
    case 0x88:
      self = .recoveryCodesLeft(
        try reader.readOptional { (r: inout ByteReader) throws(ProtocolError) in
          Int(try r.readUInt16())
        })
    case 0x90: self = .game(try reader.readSnapshot())
    case 0x91:
      self = .playerJoined(
        code: try reader.readString(), mark: try reader.readMark(),
        player: try reader.readPlayer())
    case 0x92:
      self = .moved(
        code: try reader.readString(), ply: Int(try reader.readUInt16()),
        cell: try reader.readCell())
    case 0x93:
      self = .playerAway(
        code: try reader.readString(), mark: try reader.readMark(),
        seconds: try reader.readUInt32())
    case 0x94: self = .playerBack(code: try reader.readString(), mark: try reader.readMark())
    case 0x95: self = .ended(code: try reader.readString(), try reader.readEnd())
    case 0x9A: self = .cancelled(code: try reader.readString())
    case 0x96:
      self = .games(
        try reader.readList { (r: inout ByteReader) throws(ProtocolError) in try r.readListing() })
    case 0x97:
      let userName = try reader.readString()
      var numbers: [Int] = []
      for _ in 0..<6 { numbers.append(Int(try reader.readUInt32())) }
      self = .stats(
        PlayerStats(
          userName: userName, rating: numbers[0], wins: numbers[1], losses: numbers[2],
          draws: numbers[3], currentStreak: numbers[4], bestStreak: numbers[5]))
    case 0x98: self = .pong(try reader.readUInt64())
    case 0x99:
      self = .history(
        try reader.readList { (r: inout ByteReader) throws(ProtocolError) in
          try r.readFinishedGame()
        })
    default: throw .unknownMessage(type)
    }
    try reader.finish()
  }
}

// MARK: - Compound fields

extension ByteWriter {
  mutating func write(_ player: SeatedPlayer) {
    write(player.name)
    write(UInt32(clamping: player.rating))
    write(optional: player.awaySeconds) { $0.write($1) }
  }

  mutating func write(_ end: GameEnd) {
    write(optional: end.winner) { $0.write($1) }
    write(end.reason.rawValue)
    write(UInt32(clamping: end.xRating))
    write(UInt32(clamping: end.oRating))
  }

  mutating func write(_ snapshot: GameSnapshot) {
    write(snapshot.code)
    write(UInt8(clamping: snapshot.rows))
    write(UInt8(clamping: snapshot.columns))
    write(UInt8(clamping: snapshot.k))
    write(snapshot.firstMover)
    write(optional: snapshot.x) { $0.write($1) }
    write(optional: snapshot.o) { $0.write($1) }
    write(list: snapshot.moves) { $0.write($1) }
    switch snapshot.status {
    case .waiting: write(UInt8(0))
    case .playing: write(UInt8(1))
    case .finished(let end):
      write(UInt8(2))
      write(end)
    }
    write(optional: snapshot.role) { $0.write($1) }
  }

  mutating func write(_ game: FinishedGame) {
    write(game.id)
    write(game.xName)
    write(game.oName)
    write(UInt8(clamping: game.rows))
    write(UInt8(clamping: game.columns))
    write(UInt8(clamping: game.k))
    write(game.firstMover)
    write(list: game.moves) { $0.write($1) }
    write(optional: game.winner) { $0.write($1) }
    write(game.startedAt)
    write(game.endedAt)
  }

  mutating func write(_ listing: GameListing) {
    write(listing.code)
    write(listing.isOpen)
    write(optional: listing.xName) { $0.write($1) }
    write(optional: listing.oName) { $0.write($1) }
    write(UInt8(clamping: listing.rows))
    write(UInt8(clamping: listing.columns))
    write(UInt8(clamping: listing.k))
    write(UInt16(clamping: listing.moveCount))
  }
}

extension ByteReader {
  mutating func readPlayer() throws(ProtocolError) -> SeatedPlayer {
    SeatedPlayer(
      name: try readString(), rating: Int(try readUInt32()),
      awaySeconds: try readOptional { (r: inout ByteReader) throws(ProtocolError) in
        try r.readUInt32()
      })
  }

  mutating func readEnd() throws(ProtocolError) -> GameEnd {
    let winner = try readOptional { (r: inout ByteReader) throws(ProtocolError) in try r.readMark()
    }
    let reasonByte = try readUInt8()
    guard let reason = EndReason(rawValue: reasonByte) else {
      throw .invalidField("the end reason holds \(reasonByte)")
    }
    guard winner != nil || reason == .completed else {
      throw .invalidField("a forfeit or resignation without a winner")
    }
    return GameEnd(
      winner: winner, reason: reason, xRating: Int(try readUInt32()),
      oRating: Int(try readUInt32()))
  }

  mutating func readSnapshot() throws(ProtocolError) -> GameSnapshot {
    let code = try readString()
    let rows = Int(try readUInt8())
    let columns = Int(try readUInt8())
    let k = Int(try readUInt8())
    let firstMover = try readMark()
    let x = try readOptional { (r: inout ByteReader) throws(ProtocolError) in try r.readPlayer() }
    let o = try readOptional { (r: inout ByteReader) throws(ProtocolError) in try r.readPlayer() }
    let moves = try readList { (r: inout ByteReader) throws(ProtocolError) in try r.readCell() }
    let status: GameStatus
    switch try readUInt8() {
    case 0: status = .waiting
    case 1: status = .playing
    case 2: status = .finished(try readEnd())
    case let other: throw .invalidField("the game status holds \(other)")
    }
    let role = try readOptional { (r: inout ByteReader) throws(ProtocolError) in try r.readMark() }
    return GameSnapshot(
      code: code, rows: rows, columns: columns, k: k, firstMover: firstMover, x: x, o: o,
      moves: moves, status: status, role: role)
  }

  mutating func readFinishedGame() throws(ProtocolError) -> FinishedGame {
    FinishedGame(
      id: try readInt64(), xName: try readString(), oName: try readString(),
      rows: Int(try readUInt8()), columns: Int(try readUInt8()), k: Int(try readUInt8()),
      firstMover: try readMark(),
      moves: try readList { (r: inout ByteReader) throws(ProtocolError) in try r.readCell() },
      winner: try readOptional { (r: inout ByteReader) throws(ProtocolError) in
        try r.readMark()
      },
      startedAt: try readInt64(), endedAt: try readInt64())
  }

  mutating func readListing() throws(ProtocolError) -> GameListing {
    GameListing(
      code: try readString(), isOpen: try readBool(), xName: try readOptionalString(),
      oName: try readOptionalString(), rows: Int(try readUInt8()),
      columns: Int(try readUInt8()), k: Int(try readUInt8()),
      moveCount: Int(try readUInt16()))
  }
}
