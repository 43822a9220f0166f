public import AuthenticationClient
public import GameProtocol
import GameRules
public import NetworkIO
public import OnlineClient
import OnlineCore

/// Requests to one server over one connection, opened on first use and kept, so a sign-in and
/// its two-factor code travel together.
public actor RemoteSession {
  /// The server.
  public nonisolated let address: ServerAddress
  private let trust: TrustStore
  private let loop: EventLoop?
  private var connection: ServerConnection?
  /// The token of the last sign-in on this session.
  public private(set) var token: String?

  /// Creates a session that connects when first asked, on `loop` or the process's own.
  public init(address: ServerAddress, trust: TrustStore, loop: EventLoop?) {
    self.address = address
    self.trust = trust
    self.loop = loop
  }

  /// Sends a request and returns the answer.
  ///
  /// - Throws: ``OnlineFailure`` when the server cannot be reached or hangs up.
  public func request(_ message: ClientMessage) async throws(OnlineFailure) -> ServerMessage {
    let connection = try await connected()
    let answer = try await connection.request(message)
    if case .signedIn(_, _, let token) = answer { self.token = token }
    return answer
  }

  /// Closes the connection.
  public func close() {
    connection?.close()
    connection = nil
  }

  private func connected() async throws(OnlineFailure) -> ServerConnection {
    if let connection, connection.reason == nil { return connection }
    let address = self.address
    let trust = self.trust
    let loop: EventLoop
    if let own = self.loop { loop = own } else { loop = try ClientLoop.shared() }
    let opened = try await ServerConnection.open(address, loop: loop, trusting: trust)
    connection = opened
    // A dropped connection signs in again with the token, so that requests of a signed-in
    // player (recovery codes) still work; a token the server no longer knows is forgotten.
    if let token {
      switch try await opened.request(.resumeSession(token: token)) {
      case .signedIn(_, _, let renewed): self.token = renewed
      default: self.token = nil
      }
    }
    return opened
  }
}

extension AuthenticationClient {
  /// The accounts of a game server, reached over `session`.
  ///
  /// The server checks everything (scrypt, TOTP, lockout); its refusals come back as the same
  /// ``AuthenticationError`` sentences as on one computer.
  ///
  /// - Parameter session: The connection to the server.
  /// - Returns: The client.
  public static func remote(_ session: RemoteSession) -> AuthenticationClient {
    AuthenticationClient(
      login: { userName, password in
        switch try await answer(session, .signIn(userName: userName, password: password)) {
        case .signedIn(let id, let name, let token):
          // The server's token lets a game's own connection sign in as this player.
          return .signedIn(
            try signedIn(
              session, asked: userName, Session(accountID: id, userName: name, token: token)))
        case .codeRequired:
          return .twoFactorRequired(TwoFactorChallenge(userName: userName, token: "server"))
        default: throw unexpected(session)
        }
      },
      verifyTwoFactor: { challenge, code in
        guard
          case .signedIn(let id, let name, let token) = try await answer(
            session, .submitCode(code))
        else { throw unexpected(session) }
        return try signedIn(
          session, asked: challenge.userName, Session(accountID: id, userName: name, token: token))
      },
      createAccount: { userName, password in
        guard
          case .signedIn(let id, let name, let token) = try await answer(
            session, .createAccount(userName: userName, password: password))
        else { throw unexpected(session) }
        return try signedIn(
          session, asked: userName, Session(accountID: id, userName: name, token: token))
      },
      changePassword: { credentials, new in
        try await accepted(
          session,
          .changePassword(
            userName: credentials.userName, oldPassword: credentials.password, newPassword: new,
            code: credentials.code))
      },
      deleteAccount: { credentials in
        try await accepted(
          session,
          .deleteAccount(
            userName: credentials.userName, password: credentials.password,
            code: credentials.code))
      },
      listAccounts: {
        throw AuthenticationError.storage(
          "A server does not list its accounts; tictactoe account list shows this computer's.")
      },
      beginTwoFactor: { userName, password in
        guard
          case .twoFactorSecret(let secret, let uri) = try await answer(
            session, .beginTwoFactor(userName: userName, password: password))
        else { throw unexpected(session) }
        let enrolment = TwoFactorEnrolment(secret: secret, uri: uri)
        guard enrolment.isUsable else {
          throw AuthenticationError.storage(
            "The server at \(session.address) sent a two-factor secret no authenticator app "
              + "could take, so it is not shown; two-factor stays off.")
        }
        return enrolment
      },
      confirmTwoFactor: { userName, code in
        guard
          case .recoveryCodes(let codes) = try await answer(
            session, .confirmTwoFactor(userName: userName, code: code))
        else { throw unexpected(session) }
        return try recoveryCodes(codes, session)
      },
      disableTwoFactor: { credentials in
        try await accepted(
          session,
          .disableTwoFactor(
            userName: credentials.userName, password: credentials.password,
            code: credentials.code))
      },
      remainingRecoveryCodes: { signedIn in
        guard case .recoveryCodesLeft(let count) = try await answer(session, .countRecoveryCodes)
        else { throw unexpected(session) }
        if let count, count > CodeForm.mostRecoveryCodes {
          throw AuthenticationError.storage(
            "The server at \(session.address) said \(signedIn.userName.escapingControlCharacters) "
              + "has \(count) recovery codes left, more than an account ever holds.")
        }
        return count
      },
      regenerateRecoveryCodes: { _ in
        guard case .recoveryCodes(let codes) = try await answer(session, .regenerateRecoveryCodes)
        else { throw unexpected(session) }
        return try recoveryCodes(codes, session)
      },
      checkSession: { _ in
        // Any request for a signed-in player is refused notSignedIn once the server has ended
        // the connection's session; this one changes nothing.
        guard case .recoveryCodesLeft = try await answer(session, .countRecoveryCodes)
        else { throw unexpected(session) }
      }
    )
  }
}

/// The server's answer, with a refusal thrown as the matching ``AuthenticationError``.
private func answer(_ session: RemoteSession, _ message: ClientMessage) async throws
  -> ServerMessage
{
  let reply: ServerMessage
  do {
    reply = try await session.request(message)
  } catch {
    throw AuthenticationError.storage(error.message)
  }
  if case .refused(let refusal) = reply { throw authenticationError(for: refusal, session.address) }
  return reply
}

private func accepted(_ session: RemoteSession, _ message: ClientMessage) async throws {
  guard case .accepted = try await answer(session, message) else { throw unexpected(session) }
}

/// `signed`, when it is the account asked for (names are the same in any case); a server that
/// signs in another account is not followed.
private func signedIn(_ session: RemoteSession, asked: String, _ signed: Session)
  throws(AuthenticationError) -> Session
{
  guard signed.userName.lowercased() == asked.lowercased() else {
    throw .storage(
      "The server at \(session.address) signed in an account other than \(asked.escapingControlCharacters)."
    )
  }
  return signed
}

/// `codes`, when they can be recovery codes; ones that cannot are not shown.
private func recoveryCodes(_ codes: [String], _ session: RemoteSession)
  throws(AuthenticationError) -> [String]
{
  guard CodeForm.areRecoveryCodes(codes) else {
    throw .storage(
      "The server at \(session.address) sent recovery codes that cannot be real ones, so none "
        + "is shown.")
  }
  return codes
}

private func unexpected(_ session: RemoteSession) -> AuthenticationError {
  .storage("The server at \(session.address) answered with something else than expected.")
}

/// The sentence a player sees for a server's refusal of an account request.
func authenticationError(for refusal: Refusal, _ address: ServerAddress) -> AuthenticationError {
  switch refusal.code {
  case .invalidCredentials: return .invalidCredentials
  case .invalidCode, .noChallenge: return .invalidCode
  case .lockedOut: return .lockedOut(retryAfterSeconds: Int(refusal.detail))
  case .userNameTaken: return .userNameTaken
  case .invalidUserName: return .invalidUserName
  case .invalidPassword:
    switch refusal.detail {
    case 1: return .passwordTooLong
    case 2: return .passwordNotText
    default: return .passwordTooShort
    }
  case .codeRequired: return .codeRequired
  case .notSignedIn: return .notSignedIn
  case .unfinishedGame: return .unfinishedOnlineGame
  case .twoFactorState:
    // The request refused says which state two-factor was not in.
    switch refusal.request {
    case ClientMessage.beginTwoFactor(userName: "", password: "").type:
      return .twoFactorState("Two-factor is already on for this account on the server.")
    case ClientMessage.disableTwoFactor(userName: "", password: "", code: nil).type:
      return .twoFactorState("Two-factor is not on for this account on the server.")
    case ClientMessage.confirmTwoFactor(userName: "", code: "").type:
      return .twoFactorState(
        "No two-factor set-up is waiting for this account on the server; start it again.")
    default:
      return .twoFactorState("Two-factor on the server is not in the state this request needs.")
    }
  case .serverError:
    return .storage("The server at \(address) could not complete the request; nothing changed.")
  default:
    return .storage(OnlineGame.sentence(for: refusal, code: nil))
  }
}
