/// A signed-in player.
public struct Session: Equatable, Sendable {
  /// The account's id in the records.
  public var accountID: Int64
  /// The account's user name.
  public var userName: String

  /// Creates a session.
  public init(accountID: Int64, userName: String) {
    self.accountID = accountID
    self.userName = userName
  }
}

/// A sign-in that passed the password and now needs a two-factor code.
public struct TwoFactorChallenge: Equatable, Sendable {
  /// The user name that signed in.
  public var userName: String
  /// An opaque token tying the code to this sign-in.
  public var token: String

  /// Creates a challenge.
  public init(userName: String, token: String) {
    self.userName = userName
    self.token = token
  }
}

/// What a correct user name and password lead to.
public enum LoginResponse: Equatable, Sendable {
  /// Signed in.
  case signedIn(Session)
  /// The account has two-factor on: a code is needed.
  case twoFactorRequired(TwoFactorChallenge)
}

/// What enabling two-factor shows: the secret for an authenticator app.
public struct TwoFactorEnrolment: Equatable, Sendable {
  /// The secret in base32, as typed into an app.
  public var secret: String
  /// The `otpauth://totp/…` URI, as scanned into an app.
  public var uri: String

  /// Creates an enrolment.
  public init(secret: String, uri: String) {
    self.secret = secret
    self.uri = uri
  }
}

/// An account as listed.
public struct AccountSummary: Equatable, Sendable {
  /// The account's id.
  public var id: Int64
  /// The user name.
  public var userName: String
  /// Whether two-factor is on.
  public var hasTwoFactor: Bool

  /// Creates a summary.
  public init(id: Int64, userName: String, hasTwoFactor: Bool) {
    self.id = id
    self.userName = userName
    self.hasTwoFactor = hasTwoFactor
  }
}

/// Why an account request failed; ``message`` is the sentence players see.
///
/// Wrong user names and wrong passwords are the same error, so messages never reveal which
/// user names exist.
public enum AuthenticationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The user name or password is wrong.
  case invalidCredentials
  /// The two-factor or recovery code is wrong, expired or already used.
  case invalidCode
  /// Too many failures: try again after this many seconds.
  case lockedOut(retryAfterSeconds: Int)
  /// The user name is already taken.
  case userNameTaken
  /// The user name is empty, too long or has characters we do not allow.
  case invalidUserName
  /// The password is shorter than eight characters.
  case passwordTooShort
  /// Two-factor is already on, or not on, for this request.
  case twoFactorState(String)
  /// The records could not be read or written.
  case storage(String)

  /// The sentence shown to the player.
  public var message: String {
    switch self {
    case .invalidCredentials: "The user name or password is incorrect."
    case .invalidCode: "That code is not valid. Check your authenticator app and try again."
    case .lockedOut(let seconds):
      "Too many failed attempts. Try again in \(seconds) second\(seconds == 1 ? "" : "s")."
    case .userNameTaken: "That user name is taken. Choose another."
    case .invalidUserName:
      "A user name is 1 to 32 letters, digits or . _ @ - characters."
    case .passwordTooShort: "A password needs at least 8 characters."
    case .twoFactorState(let message): message
    case .storage(let message): message
    }
  }

  public var description: String { message }
}

/// Local accounts: sign in, two-factor, create, change password, delete, list.
///
/// Every endpoint throws ``AuthenticationError``.
public struct AuthenticationClient: Sendable {
  /// Checks a user name and password.
  public var login:
    @Sendable (_ userName: String, _ password: String) async throws
      -> LoginResponse
  /// Checks a two-factor or recovery code for a challenge from ``login``.
  public var verifyTwoFactor:
    @Sendable (_ challenge: TwoFactorChallenge, _ code: String)
      async throws -> Session
  /// Creates an account and signs it in.
  public var createAccount:
    @Sendable (_ userName: String, _ password: String) async throws
      -> Session
  /// Changes a password after checking the old one.
  public var changePassword:
    @Sendable (_ userName: String, _ old: String, _ new: String)
      async throws -> Void
  /// Deletes an account after checking its password.
  public var deleteAccount:
    @Sendable (_ userName: String, _ password: String) async throws
      -> Void
  /// Lists the accounts.
  public var listAccounts: @Sendable () async throws -> [AccountSummary]
  /// Starts enabling two-factor; it is on only after ``confirmTwoFactor``.
  public var beginTwoFactor:
    @Sendable (_ userName: String, _ password: String) async throws
      -> TwoFactorEnrolment
  /// Confirms two-factor with one valid code and returns the one-time recovery codes.
  public var confirmTwoFactor:
    @Sendable (_ userName: String, _ code: String) async throws
      -> [String]
  /// Turns two-factor off after checking the password.
  public var disableTwoFactor:
    @Sendable (_ userName: String, _ password: String) async throws
      -> Void

  /// Creates a client from its endpoints.
  public init(
    login:
      @escaping @Sendable (_ userName: String, _ password: String) async throws
      -> LoginResponse,
    verifyTwoFactor:
      @escaping @Sendable (_ challenge: TwoFactorChallenge, _ code: String)
      async throws -> Session,
    createAccount:
      @escaping @Sendable (_ userName: String, _ password: String) async throws
      -> Session,
    changePassword:
      @escaping @Sendable (_ userName: String, _ old: String, _ new: String)
      async throws -> Void,
    deleteAccount:
      @escaping @Sendable (_ userName: String, _ password: String) async throws
      -> Void,
    listAccounts: @escaping @Sendable () async throws -> [AccountSummary],
    beginTwoFactor:
      @escaping @Sendable (_ userName: String, _ password: String) async throws
      -> TwoFactorEnrolment,
    confirmTwoFactor:
      @escaping @Sendable (_ userName: String, _ code: String) async throws
      -> [String],
    disableTwoFactor:
      @escaping @Sendable (_ userName: String, _ password: String) async throws
      -> Void
  ) {
    self.login = login
    self.verifyTwoFactor = verifyTwoFactor
    self.createAccount = createAccount
    self.changePassword = changePassword
    self.deleteAccount = deleteAccount
    self.listAccounts = listAccounts
    self.beginTwoFactor = beginTwoFactor
    self.confirmTwoFactor = confirmTwoFactor
    self.disableTwoFactor = disableTwoFactor
  }
}
