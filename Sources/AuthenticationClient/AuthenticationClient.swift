import GameRules

/// A signed-in player.
public struct Session: Equatable, Sendable {
  /// The account's id in the records.
  public var accountID: Int64
  /// The account's user name.
  public var userName: String
  /// The proof of this sign-in that endpoints for signed-in players check; empty for a
  /// session the client did not issue (such as a test's).
  public var token: String

  /// Creates a session.
  public init(accountID: Int64, userName: String, token: String = "") {
    self.accountID = accountID
    self.userName = userName
    self.token = token
  }
}

/// What proves who is asking for a change to an account: its user name and password, and a
/// current two-factor code or a recovery code when the account has two-factor on.
public struct Credentials: Equatable, Sendable {
  /// The user name.
  public var userName: String
  /// The password.
  public var password: String
  /// The code from the authenticator app, or a recovery code; `nil` when none was given.
  public var code: String?

  /// Creates credentials.
  public init(userName: String, password: String, code: String? = nil) {
    self.userName = userName
    self.password = password
    self.code = code
  }
}

/// The rule for user names: the one name rule for every name (``Name/validated(_:)``).
///
/// New accounts follow it. Names that earlier versions allowed (1 to 32 ASCII letters, digits
/// and `. _ @ -`) still sign in, so no existing account is locked out.
public enum UserName {
  /// The user name trimmed of surrounding whitespace, if it can name an account that signs in.
  ///
  /// - Parameter text: The name as typed.
  /// - Returns: The trimmed name.
  /// - Throws: ``AuthenticationError/invalidUserName``.
  public static func validated(_ text: String) throws(AuthenticationError) -> String {
    if let name = try? Name.validated(text) { return name }
    guard isEarlier(text) else { throw .invalidUserName }
    return text
  }

  /// Whether a name follows the rule for user names before the name rule: 1 to 32 ASCII
  /// letters, digits or `. _ @ -`.
  public static func isEarlier(_ text: String) -> Bool {
    (1...32).contains(text.unicodeScalars.count)
      && text.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || ".@_-".unicodeScalars.contains(scalar))
      }
  }

  /// A user name as stored, with anything the rules do not allow escaped, and cut to the
  /// longest name allowed, for printing.
  public static func displayed(_ stored: String) -> String {
    if isEarlier(stored) { return stored }
    if let name = try? Name.validated(stored) { return name }
    return stored.trimmingWhitespace().escaped(cutTo: Name.maximumLength)
  }
}

/// The rule for passwords, checked by the client when one is set.
public enum PasswordRule {
  /// The fewest characters a new password has.
  public static let minimumLength = 8
  /// The most characters a new password has.
  public static let maximumLength = 256

  /// Whether a password is text a person can type: no NUL or other control character (a tab
  /// aside) and no U+FFFD, the mark that bytes which were not UTF-8 were replaced.
  public static func isText(_ password: String) -> Bool {
    password.unicodeScalars.allSatisfy { scalar in
      scalar == "\t"
        || !(scalar.properties.generalCategory == .control || scalar == "\u{FFFD}")
    }
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

  /// Whether an authenticator app could take it.
  ///
  /// That is a secret of 16 to 128 base32 characters (A–Z, 2–7), and an `otpauth://totp/` URI
  /// of printable ASCII that carries that secret. One that came from elsewhere (a server) is
  /// shown only if it is.
  public var isUsable: Bool {
    let base32 = secret.unicodeScalars.allSatisfy {
      ("A"..."Z").contains($0) || ("2"..."7").contains($0)
    }
    guard base32, (16...128).contains(secret.unicodeScalars.count),
      uri.hasPrefix("otpauth://totp/"),
      uri.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }),
      let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first
    else { return false }
    return query.split(separator: "&").contains { $0 == "secret=\(secret)" }
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
  /// The user name breaks the name rule: 1 to 24 printable characters.
  case invalidUserName
  /// The new password is shorter than ``PasswordRule/minimumLength`` characters.
  case passwordTooShort
  /// The new password is longer than ``PasswordRule/maximumLength`` characters.
  case passwordTooLong
  /// The password holds a NUL or other control character, or bytes that were not UTF-8 text.
  case passwordNotText
  /// The password was right, and the account has two-factor on: a code is needed as well.
  case codeRequired
  /// The request needs a signed-in player and the session is not one this client issued.
  case notSignedIn
  /// Two-factor is already on, or not on, for this request.
  case twoFactorState(String)
  /// The account cannot be deleted: it has an online game waiting for an opponent or being
  /// played, which would end with sentences that are not true.
  case unfinishedOnlineGame
  /// The records could not be read or written.
  case storage(String)

  /// The sentence shown to the player.
  public var message: String {
    switch self {
    case .invalidCredentials: "The user name or password is incorrect."
    case .invalidCode: "That code is not valid. Check your authenticator app and try again."
    case .lockedOut(let seconds):
      "Too many failed attempts. Try again in \(WaitText.phrase(seconds: seconds))."
    case .userNameTaken: "That user name is taken. Choose another."
    case .invalidUserName:
      "A user name is 1 to 24 printable characters, without control characters."
    case .passwordTooShort:
      "A password needs at least \(PasswordRule.minimumLength) characters."
    case .passwordTooLong:
      "A password has at most \(PasswordRule.maximumLength) characters."
    case .passwordNotText:
      "A password may not hold NUL or other control characters, or bytes that are not UTF-8."
    case .codeRequired:
      "This account has two-factor on: give a current code or a recovery code as well."
    case .notSignedIn: "That needs a signed-in player; sign in again."
    case .twoFactorState(let message): message
    case .unfinishedOnlineGame:
      "The account has an online game waiting for an opponent or being played; finish, resign "
        + "or cancel it, then delete the account."
    case .storage(let message): message
    }
  }

  /// Whether the accounts answered with a refusal, so that nothing was done; not for
  /// ``storage(_:)``, where the request may have been carried out before the failure (a
  /// server's connection lost after it was sent).
  public var isRefusal: Bool {
    if case .storage = self { false } else { true }
  }

  public var description: String { message }
}

/// Local accounts: sign in, two-factor, create, change password, delete, list, recovery codes.
///
/// Every endpoint throws ``AuthenticationError``. Wherever a credential is checked, an unknown
/// user name and a wrong password give the same error after the same work, so no answer
/// reveals which user names exist.
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
  /// Changes a password after checking the credentials (with a code on a two-factor account).
  public var changePassword:
    @Sendable (_ credentials: Credentials, _ newPassword: String) async throws -> Void
  /// Deletes an account after checking the credentials.
  ///
  /// Its games against other accounts stay theirs; its other games go with it. Throws
  /// ``AuthenticationError/unfinishedOnlineGame`` while it has an online game waiting for an
  /// opponent or being played.
  public var deleteAccount: @Sendable (_ credentials: Credentials) async throws -> Void
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
  /// Turns two-factor off after checking the credentials, code included.
  public var disableTwoFactor: @Sendable (_ credentials: Credentials) async throws -> Void
  /// How many unused recovery codes a signed-in player has, or `nil` when two-factor is off.
  public var remainingRecoveryCodes: @Sendable (_ session: Session) async throws -> Int?
  /// Replaces a signed-in player's recovery codes with new ones and returns them; the old
  /// ones stop working.
  public var regenerateRecoveryCodes: @Sendable (_ session: Session) async throws -> [String]
  /// Checks that a session still proves its sign-in: throws
  /// ``AuthenticationError/notSignedIn`` once it has expired, or the account's password or
  /// two-factor has been changed (by any program) or the account deleted.
  public var checkSession: @Sendable (_ session: Session) async throws -> Void

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
      @escaping @Sendable (_ credentials: Credentials, _ newPassword: String) async throws
      -> Void,
    deleteAccount: @escaping @Sendable (_ credentials: Credentials) async throws -> Void,
    listAccounts: @escaping @Sendable () async throws -> [AccountSummary],
    beginTwoFactor:
      @escaping @Sendable (_ userName: String, _ password: String) async throws
      -> TwoFactorEnrolment,
    confirmTwoFactor:
      @escaping @Sendable (_ userName: String, _ code: String) async throws
      -> [String],
    disableTwoFactor: @escaping @Sendable (_ credentials: Credentials) async throws -> Void,
    remainingRecoveryCodes: @escaping @Sendable (_ session: Session) async throws -> Int?,
    regenerateRecoveryCodes: @escaping @Sendable (_ session: Session) async throws -> [String],
    checkSession: @escaping @Sendable (_ session: Session) async throws -> Void
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
    self.remainingRecoveryCodes = remainingRecoveryCodes
    self.regenerateRecoveryCodes = regenerateRecoveryCodes
    self.checkSession = checkSession
  }
}

/// Who a request of the accounts is made for, where many share them (a game server's
/// clients): a gate that lets one request run at a time takes turns by address, so that a few
/// addresses that sign in without pause cannot keep everyone else waiting.
public enum AccountsRequester {
  /// The address of the client the current task asks for, or `nil` on one computer.
  @TaskLocal public static var address: String?
}
