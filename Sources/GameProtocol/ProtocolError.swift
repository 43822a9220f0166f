/// Why bytes from a peer could not be read as a message.
///
/// Every case is a protocol violation: the side that detects it answers with
/// ``ErrorCode/malformedMessage`` (or ``ErrorCode/frameTooLarge``) and closes the connection.
public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A length prefix of zero.
  case emptyFrame
  /// A length prefix above ``ProtocolLimits/maximumFrameLength``.
  case frameTooLarge(Int)
  /// The payload ended inside a field.
  case truncated
  /// Bytes were left after the message's last field.
  case trailingBytes(Int)
  /// The first byte names no message of this version.
  case unknownMessage(UInt8)
  /// A field holds a value it may not hold.
  case invalidField(String)

  /// The error code that tells the peer about this violation.
  public var code: ErrorCode {
    if case .frameTooLarge = self { return .frameTooLarge }
    return .malformedMessage
  }

  public var description: String {
    switch self {
    case .emptyFrame: "A frame has a length of zero."
    case .frameTooLarge(let length):
      "A frame of \(length) bytes is longer than the limit of \(ProtocolLimits.maximumFrameLength)."
    case .truncated: "A message ended inside a field."
    case .trailingBytes(let count):
      "A message has \(count) \(count == 1 ? "byte" : "bytes") after its last field."
    case .unknownMessage(let type): "Message type \(type) is not part of the protocol."
    case .invalidField(let reason): "A message has an invalid field: \(reason)."
    }
  }
}

/// Why the server refused a request, as numbered on the wire.
///
/// The numbers are part of the protocol: never renumber a case; add new ones at the end (and
/// raise the protocol version).
public enum ErrorCode: UInt16, CaseIterable, Sendable {
  /// The message could not be decoded; the connection is closed.
  case malformedMessage = 1
  /// The frame was longer than the limit; the connection is closed.
  case frameTooLarge = 2
  /// The client speaks no version the server speaks; `detail` holds the server's range.
  case unsupportedVersion = 3
  /// Any other request before `hello`, or a second `hello`.
  case helloExpected = 4
  /// The request needs a signed-in account.
  case notSignedIn = 5
  /// The user name or password is wrong (the same answer whether or not the user exists).
  case invalidCredentials = 6
  /// The two-factor or recovery code is wrong, expired or used.
  case invalidCode = 7
  /// Too many failures for this account; `detail` is the seconds to wait.
  case lockedOut = 8
  /// Too many sign-in attempts from this address; `detail` is the seconds to wait.
  case rateLimited = 9
  /// The user name is taken.
  case userNameTaken = 10
  /// The user name breaks the rules.
  case invalidUserName = 11
  /// The new password breaks the rule; `detail` says how: 0 too short, 1 too long, 2 not text.
  case invalidPassword = 12
  /// Two-factor is already on (or not on, or not being set up) for this request.
  case twoFactorState = 13
  /// No two-factor sign-in is waiting for a code on this connection.
  case noChallenge = 14
  /// The session token is unknown or expired: sign in again.
  case sessionExpired = 15
  /// No game has this invite code.
  case noSuchGame = 16
  /// The game already has two players.
  case gameFull = 17
  /// The game settings are not supported.
  case invalidSettings = 18
  /// The game has not started: it waits for an opponent.
  case gameNotStarted = 19
  /// The game is over.
  case gameOver = 20
  /// The sender watches the game and cannot move.
  case notAPlayer = 21
  /// It is the other player's turn.
  case notYourTurn = 22
  /// The move's number is not the next one: a duplicate or late move. `detail` is the next number.
  case staleMove = 23
  /// The cell is taken.
  case cellTaken = 24
  /// The cell is not on the board.
  case cellOutOfBounds = 25
  /// The seat was taken over by a newer connection of the same account.
  case seatTakenOver = 26
  /// The server could not store or read something; the request changed nothing.
  case serverError = 27
  /// The server is shutting down.
  case shuttingDown = 28
  /// The account has no record on this server.
  case noSuchUser = 29
  /// The request is not allowed while the previous one is still being answered.
  case busy = 30
  /// The connection is already signed in.
  case alreadySignedIn = 31
  /// The password was right and the account has two-factor on: the request needs a code too.
  case codeRequired = 32
  /// The account already has ``ProtocolLimits/maximumUnfinishedGames`` unfinished games (waiting
  /// for an opponent or being played): it cannot create or join another until one ends. `detail`
  /// is the limit. Since version 3.
  case tooManyGames = 33
  /// The account to delete has a game waiting for an opponent or being played on this server:
  /// it is not deleted until the game ends or is cancelled. Since version 5.
  case unfinishedGame = 34
}

/// A refusal: what went wrong, which request it answers, and a number some codes carry.
public struct Refusal: Error, Equatable, Sendable {
  /// Why.
  public var code: ErrorCode
  /// The message type of the refused request, or 0 when the refusal answers no request.
  public var request: UInt8
  /// A number whose meaning depends on the code (seconds to wait, the next move number, the
  /// server's versions as `low << 16 | high`, the limit of unfinished games); 0 otherwise.
  public var detail: UInt32

  /// Creates a refusal.
  public init(_ code: ErrorCode, request: UInt8 = 0, detail: UInt32 = 0) {
    self.code = code
    self.request = request
    self.detail = detail
  }
}
