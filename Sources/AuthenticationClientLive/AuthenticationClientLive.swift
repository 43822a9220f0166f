public import AuthenticationClient
public import Crypto
public import DatabaseClientLive
import Glibc

extension AuthenticationClient {
  /// Local accounts kept in the program's SQLite database.
  ///
  /// Passwords are stored as scrypt hashes of their NFC form. A two-factor secret is sealed
  /// with a key derived from the password alongside the hash, so it is never stored in clear
  /// and only a correct password unlocks it; recovery codes are stored hashed. Sessions are
  /// proven by a random token that lives in this client's memory only. Nothing here reads a
  /// terminal, so the same client serves a server.
  ///
  /// - Parameters:
  ///   - database: The opened, migrated database.
  ///   - passwordAlgorithm: How to hash new passwords; tests pass cheap parameters.
  ///   - now: The clock in milliseconds since 1970, for TOTP steps and lockout delays.
  /// - Returns: A client whose endpoints throw ``AuthenticationError``.
  public static func live(
    database: LocalDatabase,
    passwordAlgorithm: PasswordHash.Algorithm = .production,
    now: @escaping @Sendable () -> Int64 = systemMilliseconds
  ) -> AuthenticationClient {
    let accounts = Accounts(
      database: database, passwordAlgorithm: passwordAlgorithm, now: now)
    return AuthenticationClient(
      login: { userName, password in try accounts.login(userName, password) },
      verifyTwoFactor: { challenge, code in try accounts.verify(challenge, code: code) },
      createAccount: { userName, password in try accounts.create(userName, password) },
      changePassword: { credentials, new in
        try accounts.changePassword(credentials, new: new)
      },
      deleteAccount: { credentials in try accounts.delete(credentials) },
      listAccounts: { try accounts.list() },
      beginTwoFactor: { userName, password in
        try accounts.beginTwoFactor(userName, password)
      },
      confirmTwoFactor: { userName, code in try accounts.confirmTwoFactor(userName, code) },
      disableTwoFactor: { credentials in try accounts.disableTwoFactor(credentials) },
      remainingRecoveryCodes: { session in try accounts.remainingRecoveryCodes(session) },
      regenerateRecoveryCodes: { session in try accounts.regenerateRecoveryCodes(session) },
      checkSession: { session in try accounts.checkSession(session) }
    )
  }
}

/// The system clock in milliseconds since 1970-01-01 UTC.
///
/// - Returns: The current time.
@Sendable public func systemMilliseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_REALTIME, &time)
  return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
}
