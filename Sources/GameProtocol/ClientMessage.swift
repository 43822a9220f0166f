public import GameRules

/// What a client sends to the server, one message a frame.
public enum ClientMessage: Equatable, Sendable {
  /// The first message: the versions the client speaks.
  case hello(versions: ClosedRange<UInt16>)
  /// Creates an account and signs it in.
  case createAccount(userName: String, password: String)
  /// Signs in with a password; a two-factor account then needs ``submitCode(_:)``.
  case signIn(userName: String, password: String)
  /// The two-factor or recovery code for the sign-in waiting on this connection.
  case submitCode(String)
  /// Signs in again with the token of an earlier sign-in, as after a dropped connection.
  case resumeSession(token: String)
  /// Changes a password; `code` is needed on two-factor accounts.
  case changePassword(userName: String, oldPassword: String, newPassword: String, code: String?)
  /// Deletes an account; `code` is needed on two-factor accounts.
  case deleteAccount(userName: String, password: String, code: String?)
  /// Starts enabling two-factor.
  case beginTwoFactor(userName: String, password: String)
  /// Confirms two-factor with one code from the app.
  case confirmTwoFactor(userName: String, code: String)
  /// Turns two-factor off; `code` is the current code or a recovery code.
  case disableTwoFactor(userName: String, password: String, code: String?)
  /// Asks how many unused recovery codes the account signed in on this connection has.
  case countRecoveryCodes
  /// Replaces the recovery codes of the account signed in on this connection.
  case regenerateRecoveryCodes
  /// Creates a game and takes its X seat.
  case createGame(GameOptions)
  /// Takes the free seat of a game, or the sender's own seat again after a drop.
  case joinGame(code: String)
  /// Watches a game without playing; needs no account.
  case watchGame(code: String)
  /// Asks for the open games and the games being played.
  case listGames
  /// Plays `cell` as move number `ply` (counting from 0) of a game.
  case move(code: String, ply: Int, cell: Cell)
  /// Gives the game up.
  case resign(code: String)
  /// Cancels a game the sender created and nobody joined: it is gone at once. Since version 4.
  case cancelGame(code: String)
  /// Asks for an account's online record.
  case requestStats(userName: String)
  /// Ask for an account's finished games, newest first, a page at a time (no sign-in needed):
  /// the latest ones, or those that come after `before` in that order.
  case requestHistory(userName: String, before: HistoryCursor? = nil)
  /// Ask for one finished game by the id its history gives (no sign-in needed).
  case requestFinishedGame(id: Int64)
  /// Keeps an idle connection open; the server answers with ``ServerMessage/pong(_:)``.
  case ping(UInt64)

  /// The message's type byte on the wire.
  public var type: UInt8 {
    switch self {
    case .hello: 0x01
    case .createAccount: 0x02
    case .signIn: 0x03
    case .submitCode: 0x04
    case .resumeSession: 0x05
    case .changePassword: 0x06
    case .deleteAccount: 0x07
    case .beginTwoFactor: 0x08
    case .confirmTwoFactor: 0x09
    case .disableTwoFactor: 0x0A
    case .countRecoveryCodes: 0x0B
    case .regenerateRecoveryCodes: 0x0C
    case .createGame: 0x10
    case .joinGame: 0x11
    case .watchGame: 0x12
    case .listGames: 0x13
    case .move: 0x14
    case .resign: 0x15
    case .requestStats: 0x16
    case .requestHistory: 0x18
    case .requestFinishedGame: 0x19
    case .cancelGame: 0x1A
    case .ping: 0x17
    }
  }

  /// The message's payload: its type byte and fields.
  public func encoded() -> [UInt8] {
    var writer = ByteWriter(type: type)
    switch self {
    case .hello(let versions):
      writer.write(versions.lowerBound)
      writer.write(versions.upperBound)
    case .createAccount(let userName, let password), .signIn(let userName, let password),
      .beginTwoFactor(let userName, let password):
      writer.write(userName)
      writer.write(password)
    case .submitCode(let text), .resumeSession(let text), .joinGame(let text),
      .watchGame(let text), .resign(let text), .cancelGame(let text), .requestStats(let text):
      writer.write(text)
    case .requestHistory(let userName, let before):
      writer.write(userName)
      writer.write(optional: before) { writer, cursor in
        writer.write(cursor.endedAt)
        writer.write(cursor.id)
      }
    case .requestFinishedGame(let id):
      writer.write(id)
    case .changePassword(let userName, let old, let new, let code):
      writer.write(userName)
      writer.write(old)
      writer.write(new)
      writer.write(optional: code) { $0.write($1) }
    case .deleteAccount(let userName, let password, let code),
      .disableTwoFactor(let userName, let password, let code):
      writer.write(userName)
      writer.write(password)
      writer.write(optional: code) { $0.write($1) }
    case .confirmTwoFactor(let userName, let code):
      writer.write(userName)
      writer.write(code)
    case .createGame(let options):
      writer.write(UInt8(clamping: options.rows))
      writer.write(UInt8(clamping: options.columns))
      writer.write(UInt8(clamping: options.k))
      writer.write(options.first.rawValue)
    case .listGames, .countRecoveryCodes, .regenerateRecoveryCodes:
      break
    case .move(let code, let ply, let cell):
      writer.write(code)
      writer.write(UInt16(clamping: ply))
      writer.write(cell)
    case .ping(let nonce):
      writer.write(nonce)
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
    case 0x01:
      let low = try reader.readUInt16()
      let high = try reader.readUInt16()
      guard low <= high else { throw .invalidField("the lowest version is above the highest") }
      self = .hello(versions: low...high)
    case 0x02:
      self = .createAccount(userName: try reader.readString(), password: try reader.readString())
    case 0x03: self = .signIn(userName: try reader.readString(), password: try reader.readString())
    case 0x04: self = .submitCode(try reader.readString())
    case 0x05: self = .resumeSession(token: try reader.readString())
    case 0x06:
      self = .changePassword(
        userName: try reader.readString(), oldPassword: try reader.readString(),
        newPassword: try reader.readString(), code: try reader.readOptionalString())
    case 0x07:
      self = .deleteAccount(
        userName: try reader.readString(), password: try reader.readString(),
        code: try reader.readOptionalString())
    case 0x08:
      self = .beginTwoFactor(userName: try reader.readString(), password: try reader.readString())
    case 0x09:
      self = .confirmTwoFactor(userName: try reader.readString(), code: try reader.readString())
    case 0x0A:
      self = .disableTwoFactor(
        userName: try reader.readString(), password: try reader.readString(),
        code: try reader.readOptionalString())
    case 0x0B: self = .countRecoveryCodes
    case 0x0C: self = .regenerateRecoveryCodes
    case 0x10:
      let rows = Int(try reader.readUInt8())
      let columns = Int(try reader.readUInt8())
      let k = Int(try reader.readUInt8())
      let firstByte = try reader.readUInt8()
      guard let first = FirstMover(rawValue: firstByte) else {
        throw .invalidField("the first mover holds \(firstByte)")
      }
      self = .createGame(GameOptions(rows: rows, columns: columns, k: k, first: first))
    case 0x11: self = .joinGame(code: try reader.readString())
    case 0x12: self = .watchGame(code: try reader.readString())
    case 0x13: self = .listGames
    case 0x14:
      self = .move(
        code: try reader.readString(), ply: Int(try reader.readUInt16()),
        cell: try reader.readCell())
    case 0x15: self = .resign(code: try reader.readString())
    case 0x16: self = .requestStats(userName: try reader.readString())
    case 0x17: self = .ping(try reader.readUInt64())
    case 0x18:
      self = .requestHistory(
        userName: try reader.readString(),
        before: try reader.readOptional { (r: inout ByteReader) throws(ProtocolError) in
          HistoryCursor(endedAt: try r.readInt64(), id: try r.readInt64())
        })
    case 0x19: self = .requestFinishedGame(id: try reader.readInt64())
    case 0x1A: self = .cancelGame(code: try reader.readString())
    default: throw .unknownMessage(type)
    }
    try reader.finish()
  }
}
