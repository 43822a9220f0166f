import AuthenticationClient
import Crypto
import DatabaseClientLive
import SQLite
import Synchronization

/// The account logic behind the live authentication client.
final class Accounts: Sendable {
  /// How long a sign-in waits for its two-factor code, in milliseconds.
  static let challengeLifetime: Int64 = 5 * 60_000

  /// How long an enrolment waits for its confirming code, in milliseconds.
  static let enrolmentLifetime: Int64 = 10 * 60_000

  /// The number of one-time recovery codes.
  static let recoveryCodeCount = 8

  /// The characters in a recovery code, not counting the hyphen.
  static let recoveryCodeLength = 10

  /// The service name authenticator apps show.
  static let issuer = "TicTacToe"

  // Recovery codes carry 50 random bits, so a moderate PBKDF2 cost suffices and keeps checking
  // all eight quick.
  private static let recoveryCodeAlgorithm = PasswordHash.Algorithm.pbkdf2SHA256(iterations: 10_000)

  private let database: LocalDatabase
  private let passwordAlgorithm: PasswordHash.Algorithm
  private let now: @Sendable () -> Int64
  private let challenges = Mutex<[String: Challenge]>([:])
  private let enrolments = Mutex<[String: Enrolment]>([:])
  private let decoy = Mutex<PasswordHash?>(nil)

  init(
    database: LocalDatabase, passwordAlgorithm: PasswordHash.Algorithm,
    now: @escaping @Sendable () -> Int64
  ) {
    self.database = database
    self.passwordAlgorithm = passwordAlgorithm
    self.now = now
  }

  // MARK: - Endpoints

  func login(_ userName: String, _ password: String) throws(AuthenticationError) -> LoginResponse {
    let (account, secretKey) = try authenticate(userName, password)
    guard let sealedSecret = account.sealedSecret else {
      try clearFailures(Self.key(userName))
      return .signedIn(Session(accountID: account.id, userName: account.userName))
    }
    let secret = try crypto { () throws(CryptoError) in
      try SecretBox.open(sealedSecret, key: secretKey)
    }
    let token = hexString(
      try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 16) })
    let challenge = Challenge(
      accountID: account.id, userName: account.userName, secret: secret,
      expiresAt: now() + Self.challengeLifetime)
    let time = now()
    challenges.withLock { challenges in
      challenges = challenges.filter { $0.value.expiresAt > time }
      challenges[token] = challenge
    }
    return .twoFactorRequired(TwoFactorChallenge(userName: account.userName, token: token))
  }

  func verify(_ request: TwoFactorChallenge, code: String) throws(AuthenticationError) -> Session {
    let time = now()
    guard
      let challenge = challenges.withLock({ $0[request.token] }),
      challenge.expiresAt > time
    else { throw .invalidCode }
    let key = Self.key(challenge.userName)
    try checkLockout(key)
    let code = Self.normalized(code)
    let accepted: Bool
    if Self.isTOTPCode(code) {
      accepted = try storage { database throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) in
          guard
            let row = try database.query(
              "SELECT last_counter FROM two_factor WHERE account_id = ?",
              SQLiteValue(challenge.accountID)
            ).first,
            let counter = acceptedCounter(
              secret: challenge.secret, code: code, after: try row.get(0, as: Int64.self))
          else { return false }
          try database.run(
            "UPDATE two_factor SET last_counter = ? WHERE account_id = ?",
            .integer(Int(counter)), SQLiteValue(challenge.accountID))
          return true
        }
      }
    } else if code.count == Self.recoveryCodeLength {
      accepted = try useRecoveryCode(code, accountID: challenge.accountID)
    } else {
      accepted = false
    }
    guard accepted else {
      try recordFailure(key)
      throw .invalidCode
    }
    try clearFailures(key)
    challenges.withLock { _ = $0.removeValue(forKey: request.token) }
    return Session(accountID: challenge.accountID, userName: challenge.userName)
  }

  func create(_ userName: String, _ password: String) throws(AuthenticationError) -> Session {
    guard Self.isValidUserName(userName) else { throw .invalidUserName }
    guard password.count >= 8 else { throw .passwordTooShort }
    let key = Self.key(userName)
    guard try account(key: key) == nil else { throw .userNameTaken }
    let (hash, _) = try crypto { () throws(CryptoError) in
      try PasswordHash.hashWithSecretKey(password, algorithm: passwordAlgorithm)
    }
    let time = now()
    do {
      let id = try database.withConnection { database throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) in
          try database.run(
            """
            INSERT INTO accounts (user_name, user_key, password_hash, created_at)
            VALUES (?, ?, ?, ?)
            """, .text(userName), .text(key), .text(hash.encoded), SQLiteValue(time))
          try database.run("DELETE FROM sign_in_failures WHERE user_key = ?", .text(key))
          return Int64(database.lastInsertRowID)
        }
      }
      return Session(accountID: id, userName: userName)
    } catch {
      // Another process may have taken the name between the check and the insert.
      if error.kind == .constraint { throw .userNameTaken }
      throw .storage(error.description)
    }
  }

  func changePassword(
    _ userName: String, old: String, new: String
  ) throws(AuthenticationError) {
    guard new.count >= 8 else { throw .passwordTooShort }
    let (account, oldKey) = try authenticate(userName, old)
    let (hash, newKey) = try crypto { () throws(CryptoError) in
      try PasswordHash.hashWithSecretKey(new, algorithm: passwordAlgorithm)
    }
    // The two-factor secret is sealed with a key from the password, so it is resealed.
    let resealed = try account.sealedSecret.map { sealed throws(AuthenticationError) in
      try crypto { () throws(CryptoError) in
        try SecretBox.seal(SecretBox.open(sealed, key: oldKey), key: newKey)
      }
    }
    try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.run(
          "UPDATE accounts SET password_hash = ? WHERE id = ?", .text(hash.encoded),
          SQLiteValue(account.id))
        if let resealed {
          try database.run(
            "UPDATE two_factor SET sealed_secret = ? WHERE account_id = ?", .blob(resealed),
            SQLiteValue(account.id))
        }
      }
    }
    enrolments.withLock { _ = $0.removeValue(forKey: Self.key(userName)) }
    if account.sealedSecret == nil { try clearFailures(Self.key(userName)) }
  }

  func delete(_ userName: String, _ password: String) throws(AuthenticationError) {
    let (account, _) = try authenticate(userName, password)
    try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        // Games, the two-factor secret and recovery codes go with the account (ON DELETE
        // CASCADE); the game in progress is keyed by id alone.
        try database.run("DELETE FROM games WHERE saved_for = ?", SQLiteValue(account.id))
        try database.run("DELETE FROM accounts WHERE id = ?", SQLiteValue(account.id))
        try database.run(
          "DELETE FROM sign_in_failures WHERE user_key = ?", .text(Self.key(userName)))
      }
    }
    enrolments.withLock { _ = $0.removeValue(forKey: Self.key(userName)) }
    challenges.withLock { challenges in
      challenges = challenges.filter { $0.value.accountID != account.id }
    }
  }

  func list() throws(AuthenticationError) -> [AccountSummary] {
    try storage { database throws(SQLiteError) in
      try database.query(
        """
        SELECT id, user_name, EXISTS (SELECT 1 FROM two_factor WHERE account_id = accounts.id)
        FROM accounts ORDER BY user_key
        """
      ).map { row throws(SQLiteError) in
        AccountSummary(id: try row.get(0), userName: try row.get(1), hasTwoFactor: try row.get(2))
      }
    }
  }

  func beginTwoFactor(
    _ userName: String, _ password: String
  ) throws(AuthenticationError) -> TwoFactorEnrolment {
    let (account, secretKey) = try authenticate(userName, password)
    guard account.sealedSecret == nil else {
      throw .twoFactorState("Two-factor is already on for this account.")
    }
    // 160 bits, the length RFC 4226 recommends for HMAC-SHA1.
    let secret = try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 20) }
    let enrolment = Enrolment(
      accountID: account.id, secret: secret, secretKey: secretKey,
      expiresAt: now() + Self.enrolmentLifetime)
    enrolments.withLock { $0[Self.key(userName)] = enrolment }
    return TwoFactorEnrolment(
      secret: Base32.encode(secret),
      uri: OneTimePassword.provisioningURI(
        secret: secret, account: account.userName, issuer: Self.issuer))
  }

  func confirmTwoFactor(_ userName: String, _ code: String) throws(AuthenticationError) -> [String]
  {
    let key = Self.key(userName)
    try checkLockout(key)
    let time = now()
    guard let enrolment = enrolments.withLock({ $0[key] }), enrolment.expiresAt > time else {
      throw .twoFactorState("No two-factor setup is waiting for this account; start again.")
    }
    let code = Self.normalized(code)
    guard Self.isTOTPCode(code),
      let counter = acceptedCounter(secret: enrolment.secret, code: code, after: nil)
    else {
      try recordFailure(key)
      throw .invalidCode
    }
    let codes = try (0..<Self.recoveryCodeCount).map { _ throws(AuthenticationError) in
      try Self.newRecoveryCode()
    }
    let (sealed, hashes) = try crypto { () throws(CryptoError) in
      (
        try SecretBox.seal(enrolment.secret, key: enrolment.secretKey),
        try codes.map { code throws(CryptoError) in
          try PasswordHash(hashing: code, algorithm: Self.recoveryCodeAlgorithm).encoded
        }
      )
    }
    let enabled = try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        let existing = try database.query(
          "SELECT 1 FROM two_factor WHERE account_id = ?", SQLiteValue(enrolment.accountID))
        guard existing.isEmpty else { return false }
        try database.run(
          """
          INSERT INTO two_factor (account_id, sealed_secret, last_counter, enabled_at)
          VALUES (?, ?, ?, ?)
          """, SQLiteValue(enrolment.accountID), .blob(sealed), .integer(Int(counter)),
          SQLiteValue(time))
        try database.run(
          "DELETE FROM recovery_codes WHERE account_id = ?", SQLiteValue(enrolment.accountID))
        for hash in hashes {
          try database.run(
            "INSERT INTO recovery_codes (account_id, code_hash) VALUES (?, ?)",
            SQLiteValue(enrolment.accountID), .text(hash))
        }
        return true
      }
    }
    enrolments.withLock { _ = $0.removeValue(forKey: key) }
    guard enabled else { throw .twoFactorState("Two-factor is already on for this account.") }
    try clearFailures(key)
    return codes.map { $0.prefix(5) + "-" + $0.dropFirst(5) }
  }

  func disableTwoFactor(_ userName: String, _ password: String) throws(AuthenticationError) {
    let (account, _) = try authenticate(userName, password)
    guard account.sealedSecret != nil else {
      throw .twoFactorState("Two-factor is not on for this account.")
    }
    try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.run("DELETE FROM two_factor WHERE account_id = ?", SQLiteValue(account.id))
        try database.run(
          "DELETE FROM recovery_codes WHERE account_id = ?", SQLiteValue(account.id))
      }
    }
  }

  // MARK: - Passwords and failures

  /// Checks a password, counting failures by user name whether or not the account exists.
  private func authenticate(
    _ userName: String, _ password: String
  ) throws(AuthenticationError) -> (Account, secretKey: [UInt8]) {
    let key = Self.key(userName)
    try checkLockout(key)
    guard let account = try account(key: key) else {
      // Spend the same work as a real check so timing does not reveal unknown names.
      _ = try? decoyHash().secretKey(ifMatching: password)
      try recordFailure(key)
      throw .invalidCredentials
    }
    let secretKey = try crypto { () throws(CryptoError) in
      try account.hash.secretKey(ifMatching: password)
    }
    guard let secretKey else {
      try recordFailure(key)
      throw .invalidCredentials
    }
    return (account, secretKey)
  }

  private func account(key: String) throws(AuthenticationError) -> Account? {
    let row = try storage { database throws(SQLiteError) in
      try database.query(
        """
        SELECT accounts.id, user_name, password_hash, sealed_secret
        FROM accounts LEFT JOIN two_factor ON two_factor.account_id = accounts.id
        WHERE user_key = ?
        """, .text(key)
      ).first
    }
    guard let row else { return nil }
    do {
      return Account(
        id: try row.get(0), userName: try row.get(1),
        hash: try PasswordHash(encoded: try row.get(2)), sealedSecret: try row.get(3))
    } catch {
      throw .storage("The stored password for this account is damaged.")
    }
  }

  private func decoyHash() throws(CryptoError) -> PasswordHash {
    if let hash = decoy.withLock({ $0 }) { return hash }
    let (hash, _) = try PasswordHash.hashWithSecretKey(
      hexString(try SecureRandom.bytes(count: 16)), algorithm: passwordAlgorithm)
    decoy.withLock { $0 = hash }
    return hash
  }

  private func checkLockout(_ key: String) throws(AuthenticationError) {
    let row = try storage { database throws(SQLiteError) in
      try database.query(
        "SELECT failures, last_failure_at FROM sign_in_failures WHERE user_key = ?", .text(key)
      ).first
    }
    guard let row else { return }
    let failures: Int
    let lastFailureAt: Int64
    do {
      failures = try row.get(0)
      lastFailureAt = try row.get(1)
    } catch {
      throw .storage(error.description)
    }
    if let seconds = Lockout.secondsLeft(
      failures: failures, lastFailureAt: lastFailureAt, now: now())
    {
      throw .lockedOut(retryAfterSeconds: seconds)
    }
  }

  private func recordFailure(_ key: String) throws(AuthenticationError) {
    let time = now()
    try storage { database throws(SQLiteError) in
      try database.run(
        """
        INSERT INTO sign_in_failures (user_key, failures, last_failure_at) VALUES (?, 1, ?)
        ON CONFLICT (user_key) DO UPDATE
        SET failures = failures + 1, last_failure_at = excluded.last_failure_at
        """, .text(key), SQLiteValue(time))
    }
  }

  private func clearFailures(_ key: String) throws(AuthenticationError) {
    try storage { database throws(SQLiteError) in
      try database.run("DELETE FROM sign_in_failures WHERE user_key = ?", .text(key))
    }
  }

  // MARK: - Codes

  /// The TOTP step within ±1 of now whose code matches and is later than `after`.
  private func acceptedCounter(secret: [UInt8], code: String, after last: Int64?) -> UInt64? {
    let current = OneTimePassword.counter(atUnixTime: now() / 1_000)
    let candidates = [current == 0 ? nil : current - 1, current, current + 1].compactMap { $0 }
    var accepted: UInt64?
    // Check every candidate so the time taken does not depend on which one matches.
    for counter in candidates where last.map({ Int64(counter) > $0 }) ?? true {
      let expected = OneTimePassword.hotp(secret: secret, counter: counter)
      if constantTimeEquals(Array(expected.utf8), Array(code.utf8)), accepted == nil {
        accepted = counter
      }
    }
    return accepted
  }

  private func useRecoveryCode(_ code: String, accountID: Int64) throws(AuthenticationError)
    -> Bool
  {
    try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        let rows = try database.query(
          "SELECT id, code_hash FROM recovery_codes WHERE account_id = ? AND used_at IS NULL",
          SQLiteValue(accountID))
        for row in rows {
          guard let hash = try? PasswordHash(encoded: try row.get(1)),
            (try? hash.matches(code)) == true
          else { continue }
          try database.run(
            "UPDATE recovery_codes SET used_at = ? WHERE id = ?", SQLiteValue(now()),
            row[0])
          return true
        }
        return false
      }
    }
  }

  private static func newRecoveryCode() throws(AuthenticationError) -> String {
    let bytes = try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 7) }
    return String(Base32.encode(bytes).lowercased().prefix(recoveryCodeLength))
  }

  // MARK: - Text

  /// The case-insensitive key for a user name; bounded so junk input stays small.
  static func key(_ userName: String) -> String { String(userName.lowercased().prefix(64)) }

  static func isValidUserName(_ userName: String) -> Bool {
    (1...32).contains(userName.unicodeScalars.count)
      && userName.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || ".@_-".unicodeScalars.contains(scalar))
      }
  }

  /// Drops spaces and hyphens and lowercases, as codes are often typed in groups.
  static func normalized(_ code: String) -> String {
    String(code.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" })
  }

  static func isTOTPCode(_ code: String) -> Bool {
    code.utf8.count == OneTimePassword.digits
      && code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  // MARK: - Errors

  private func storage<Result: Sendable>(
    _ body: (Database) throws(SQLiteError) -> Result
  ) throws(AuthenticationError) -> Result {
    do {
      return try database.withConnection(body)
    } catch {
      throw .storage(error.description)
    }
  }
}

private func crypto<Result>(
  _ body: () throws(CryptoError) -> Result
) throws(AuthenticationError) -> Result {
  do {
    return try body()
  } catch {
    throw .storage("The security check could not run: \(error.description)")
  }
}

private struct Account: Sendable {
  let id: Int64
  let userName: String
  let hash: PasswordHash
  let sealedSecret: [UInt8]?
}

/// A sign-in waiting for its second factor; the unsealed secret lives in memory only.
private struct Challenge: Sendable {
  let accountID: Int64
  let userName: String
  let secret: [UInt8]
  let expiresAt: Int64
}

/// Two-factor set-up waiting for its first code.
private struct Enrolment: Sendable {
  let accountID: Int64
  let secret: [UInt8]
  let secretKey: [UInt8]
  let expiresAt: Int64
}
