import AuthenticationClient
import Crypto
import DatabaseClientLive
import Foundation
import GameRules
import SQLite
import Synchronization

/// The account logic behind the live authentication client.
final class Accounts: Sendable {
  /// How long a sign-in waits for its two-factor code, in milliseconds.
  static let challengeLifetime: Int64 = 5 * 60_000

  /// How long an enrolment waits for its confirming code, in milliseconds.
  static let enrolmentLifetime: Int64 = 10 * 60_000

  /// How long a session proves a sign-in, in milliseconds.
  static let sessionLifetime: Int64 = 12 * 3_600_000

  /// The number of one-time recovery codes.
  static let recoveryCodeCount = 8

  /// The characters in a recovery code, not counting the hyphen.
  static let recoveryCodeLength = CodeForm.recoveryCodeLength

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
  /// The sessions this client issued, by token, until they expire.
  private let sessions = Mutex<[String: IssuedSession]>([:])
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
    try attempt(userName) { attempt throws(AuthenticationError) in
      try login(attempt, password)
    }
  }

  /// Signs in once the password is right; with two-factor on, the attempt is taken back and the
  /// code is a new attempt of its own.
  private func login(
    _ attempt: Attempt, _ password: String
  ) throws(AuthenticationError) -> LoginResponse {
    let (account, secretKey) = try authenticate(attempt.key, password)
    guard let sealedSecret = account.sealedSecret else {
      try clearFailures(attempt)
      return .signedIn(try issueSession(for: account))
    }
    let secret = try crypto { () throws(CryptoError) in
      try SecretBox.open(sealedSecret, key: secretKey)
    }
    let token = try Self.newToken()
    let challenge = Challenge(
      accountID: account.id, userName: account.userName, key: account.key,
      storedHash: account.storedHash, sealedSecret: sealedSecret, secret: secret,
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
    try attempt(key: challenge.key) { attempt throws(AuthenticationError) in
      // A password changed, or two-factor turned off and on, by another program since the
      // password was checked would end the session at once: the code is not taken (nor spent).
      let stored = try storage { database throws(SQLiteError) in
        try Self.stored(challenge.accountID, in: database)
      }
      guard stored == challenge.asStored else {
        challenges.withLock { _ = $0.removeValue(forKey: request.token) }
        throw .twoFactorState(
          "The account's password or two-factor was changed by another program after the "
            + "password was checked; sign in again.")
      }
      guard try accepts(code, secret: challenge.secret, accountID: challenge.accountID) else {
        throw .invalidCode
      }
      try clearFailures(attempt)
    }
    challenges.withLock { _ = $0.removeValue(forKey: request.token) }
    return try issueSession(
      accountID: challenge.accountID, userName: challenge.userName,
      storedHash: challenge.storedHash, sealedSecret: challenge.sealedSecret)
  }

  func create(_ userName: String, _ password: String) throws(AuthenticationError) -> Session {
    let name: String
    do {
      name = try Name.validated(userName)
    } catch {
      throw .invalidUserName
    }
    let password = try Self.newPassword(password)
    let key = Self.key(name)
    // A name that only looks like one taken would let its owner pass for the other. Checked
    // first to spare the hashing, and again in the insert's transaction, where no other program
    // can take a look-alike name between the check and the insert.
    let forms = UserName.lookAlikeForms(name)
    guard
      try !storage({ database throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) in try Self.isTaken(forms, in: database) }
      })
    else { throw .userNameTaken }
    let (hash, _) = try crypto { () throws(CryptoError) in
      try PasswordHash.hashWithSecretKey(password, algorithm: passwordAlgorithm)
    }
    let time = now()
    let id: Int64?
    do {
      id = try database.withConnection { database throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) -> Int64? in
          guard try !Self.isTaken(forms, in: database) else { return nil }
          try database.run(
            """
            INSERT INTO accounts (user_name, user_key, password_hash, created_at)
            VALUES (?, ?, ?, ?)
            """, .text(name), .text(key), .text(hash.encoded), SQLiteValue(time))
          let id = Int64(database.lastInsertRowID)
          try Self.storeForms(forms, of: id, in: database)
          try database.run("DELETE FROM sign_in_failures WHERE user_key = ?", .text(key))
          return id
        }
      }
    } catch {
      // The key's uniqueness is the database's own guard of the same rule.
      if error.kind == .constraint { throw .userNameTaken }
      throw .storage(error.description)
    }
    guard let id else { throw .userNameTaken }
    return try issueSession(
      accountID: id, userName: name, storedHash: hash.encoded, sealedSecret: nil)
  }

  /// Whether a stored account's name has one of these look-alike forms; called in a write
  /// transaction, which first gives the accounts made before the forms were kept theirs.
  private static func isTaken(_ forms: Set<String>, in database: Database) throws(SQLiteError)
    -> Bool
  {
    let unformed = try database.query(
      """
      SELECT id, user_name FROM accounts
      WHERE (SELECT count(*) FROM accounts)
        > (SELECT count(DISTINCT account_id) FROM account_name_forms)
        AND NOT EXISTS (SELECT 1 FROM account_name_forms WHERE account_id = accounts.id)
      """)
    for row in unformed {
      try storeForms(UserName.lookAlikeForms(try row.get(1)), of: try row.get(0), in: database)
    }
    for form in forms {
      let found = try database.query(
        "SELECT EXISTS (SELECT 1 FROM account_name_forms WHERE form = ?)", .text(form))
      if try found.first?.get(0) ?? false { return true }
    }
    return false
  }

  private static func storeForms(_ forms: Set<String>, of id: Int64, in database: Database)
    throws(SQLiteError)
  {
    for form in forms {
      try database.run(
        "INSERT OR IGNORE INTO account_name_forms (form, account_id) VALUES (?, ?)", .text(form),
        SQLiteValue(id))
    }
  }

  func changePassword(_ credentials: Credentials, new: String) throws(AuthenticationError) {
    let new = try Self.newPassword(new)
    let (account, oldKey) = try authorize(credentials)
    let (hash, newKey) = try crypto { () throws(CryptoError) in
      try PasswordHash.hashWithSecretKey(new, algorithm: passwordAlgorithm)
    }
    // Another program may have changed the password since it was checked: the old one typed
    // is then no longer the account's.
    guard try store(hash, resealing: account, from: oldKey, to: newKey) != nil else {
      throw .invalidCredentials
    }
    enrolments.withLock { _ = $0.removeValue(forKey: account.key) }
    // Whoever held a session before the change (a leaked one) holds it no more.
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value.accountID != account.id }
    }
  }

  func delete(_ credentials: Credentials) throws(AuthenticationError) {
    // What refuses the deletion is checked once the password is right and before the code is,
    // so that a refusal spends no one-time recovery code.
    let (account, _) = try authorize(credentials) { account throws(AuthenticationError) in
      // Its game would stop at the next move, unable to store it for an account that is gone.
      // The game is held from New game on, whether or not one is under way.
      if database.isPlaying(accountID: account.id) {
        throw .storage(
          "\(account.userName.escapingControlCharacters) is signed in to another Tic-Tac-Toe, "
            + "which plays its games; sign out of it or close it, then delete the account.")
      }
      if try hasUnfinishedOnlineGame(account.id) { throw .unfinishedOnlineGame }
    }
    let refusal = try storage { database throws(SQLiteError) -> AuthenticationError? in
      try database.transaction { () throws(SQLiteError) -> AuthenticationError? in
        let id = SQLiteValue(account.id)
        // The password checked may have been changed since by another program.
        guard try Self.isUnchanged(account, in: database) else { return .invalidCredentials }
        // Checked again here: a game may have begun since.
        guard try !Self.hasUnfinishedOnlineGame(account.id, in: database) else {
          return .unfinishedOnlineGame
        }
        // The game in progress is keyed by id alone. Finished games against another account
        // stay that player's, with this side's account NULL (ON DELETE SET NULL); the others
        // (against the computer, a guest, itself, or an account deleted before) go, so that
        // none becomes a game without accounts, which the guest's stats would count.
        try database.run("DELETE FROM games WHERE saved_for = ?", id)
        for table in ["games", "online_games"] {
          try database.run(
            """
            DELETE FROM \(table) WHERE (x_account = ?1 OR o_account = ?1)
              AND (x_account IS NULL OR o_account IS NULL OR x_account = o_account)
            """, id)
        }
        // The two-factor secret, recovery codes, sessions and rating go with it (ON DELETE
        // CASCADE).
        try database.run("DELETE FROM accounts WHERE id = ?", id)
        try database.run("DELETE FROM sign_in_failures WHERE user_key = ?", .text(account.key))
        return nil
      }
    }
    if let refusal { throw refusal }
    enrolments.withLock { _ = $0.removeValue(forKey: account.key) }
    challenges.withLock { challenges in
      challenges = challenges.filter { $0.value.accountID != account.id }
    }
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value.accountID != account.id }
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
        AccountSummary(
          id: try row.get(0), userName: Self.displayed(try row.get(1)),
          hasTwoFactor: try row.get(2))
      }
    }
  }

  func beginTwoFactor(
    _ userName: String, _ password: String
  ) throws(AuthenticationError) -> TwoFactorEnrolment {
    let (account, secretKey) = try attempt(userName) {
      attempt throws(AuthenticationError) in
      let (account, secretKey) = try authenticate(attempt.key, password)
      guard account.sealedSecret == nil else {
        throw .twoFactorState("Two-factor is already on for this account.")
      }
      try clearFailures(attempt)
      return (account, secretKey)
    }
    // 160 bits, the length RFC 4226 recommends for HMAC-SHA1.
    let secret = try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 20) }
    let enrolment = Enrolment(
      accountID: account.id, passwordHash: account.hash.encoded, secret: secret,
      secretKey: secretKey, expiresAt: now() + Self.enrolmentLifetime)
    enrolments.withLock { $0[account.key] = enrolment }
    return TwoFactorEnrolment(
      secret: Base32.encode(secret),
      uri: OneTimePassword.provisioningURI(
        secret: secret, account: account.userName, issuer: Self.issuer))
  }

  func confirmTwoFactor(_ userName: String, _ code: String) throws(AuthenticationError) -> [String]
  {
    try attempt(userName) { attempt throws(AuthenticationError) in
      try confirmTwoFactor(attempt, code)
    }
  }

  private func confirmTwoFactor(
    _ attempt: Attempt, _ code: String
  ) throws(AuthenticationError) -> [String] {
    let key = attempt.key
    let time = now()
    guard let enrolment = enrolments.withLock({ $0[key] }), enrolment.expiresAt > time else {
      throw .twoFactorState("No two-factor setup is waiting for this account; start again.")
    }
    let code = Self.normalized(code)
    guard Self.isTOTPCode(code),
      let counter = acceptedCounter(secret: enrolment.secret, code: code, after: nil)
    else { throw .invalidCode }
    let (codes, hashes) = try Self.newRecoveryCodes()
    let sealed = try crypto { () throws(CryptoError) in
      try SecretBox.seal(enrolment.secret, key: enrolment.secretKey)
    }
    let outcome = try storage { database throws(SQLiteError) -> EnrolmentOutcome in
      try database.transaction { () throws(SQLiteError) -> EnrolmentOutcome in
        // The secret is sealed with a key the password gave when the set-up began; a password
        // changed since (or an account deleted, perhaps made again under the same name) by
        // another process would leave a secret nothing can unseal.
        let stored: String? = try database.query(
          "SELECT password_hash FROM accounts WHERE id = ?", SQLiteValue(enrolment.accountID)
        ).first?.get(0)
        guard stored == enrolment.passwordHash else { return .passwordChanged }
        let existing = try database.query(
          "SELECT 1 FROM two_factor WHERE account_id = ?", SQLiteValue(enrolment.accountID))
        guard existing.isEmpty else { return .alreadyOn }
        try database.run(
          """
          INSERT INTO two_factor (account_id, sealed_secret, last_counter, enabled_at)
          VALUES (?, ?, ?, ?)
          """, SQLiteValue(enrolment.accountID), .blob(sealed), .integer(Int(counter)),
          SQLiteValue(time))
        try Self.replaceRecoveryCodes(of: enrolment.accountID, with: hashes, in: database)
        return .enabled
      }
    }
    enrolments.withLock { _ = $0.removeValue(forKey: key) }
    switch outcome {
    case .enabled: break
    case .alreadyOn: throw .twoFactorState("Two-factor is already on for this account.")
    case .passwordChanged:
      throw .twoFactorState(
        "The account's password changed, or the account was deleted, while two-factor was "
          + "being set up; start again.")
    }
    try clearFailures(attempt)
    return codes
  }

  func disableTwoFactor(_ credentials: Credentials) throws(AuthenticationError) {
    let (account, _) = try authorize(credentials)
    guard account.sealedSecret != nil else {
      throw .twoFactorState("Two-factor is not on for this account.")
    }
    let unchanged = try storage { database throws(SQLiteError) -> Bool in
      try database.transaction { () throws(SQLiteError) -> Bool in
        // The password checked may have been changed since by another program.
        guard try Self.isUnchanged(account, in: database) else { return false }
        try database.run("DELETE FROM two_factor WHERE account_id = ?", SQLiteValue(account.id))
        try database.run(
          "DELETE FROM recovery_codes WHERE account_id = ?", SQLiteValue(account.id))
        return true
      }
    }
    guard unchanged else { throw .invalidCredentials }
  }

  func remainingRecoveryCodes(_ session: Session) throws(AuthenticationError) -> Int? {
    let accountID = try signedIn(session)
    return try storage { database throws(SQLiteError) -> Int? in
      try database.transaction(.deferred) { () throws(SQLiteError) -> Int? in
        let enabled = try database.query(
          "SELECT 1 FROM two_factor WHERE account_id = ?", SQLiteValue(accountID))
        guard !enabled.isEmpty else { return nil }
        return try database.query(
          "SELECT count(*) FROM recovery_codes WHERE account_id = ? AND used_at IS NULL",
          SQLiteValue(accountID)
        ).first?.get(0) ?? 0
      }
    }
  }

  func regenerateRecoveryCodes(_ session: Session) throws(AuthenticationError) -> [String] {
    let accountID = try signedIn(session)
    let (codes, hashes) = try Self.newRecoveryCodes()
    let enabled = try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        let enabled = try database.query(
          "SELECT 1 FROM two_factor WHERE account_id = ?", SQLiteValue(accountID))
        guard !enabled.isEmpty else { return false }
        try Self.replaceRecoveryCodes(of: accountID, with: hashes, in: database)
        return true
      }
    }
    guard enabled else { throw .twoFactorState("Two-factor is not on for this account.") }
    return codes
  }

  // MARK: - Sessions

  func checkSession(_ session: Session) throws(AuthenticationError) {
    _ = try signedIn(session)
  }

  private func issueSession(for account: Account) throws(AuthenticationError) -> Session {
    try issueSession(
      accountID: account.id, userName: account.userName, storedHash: account.storedHash,
      sealedSecret: account.sealedSecret)
  }

  /// A new session for the account whose password hash and sealed two-factor secret, as
  /// stored, are `storedHash` and `sealedSecret`.
  private func issueSession(
    accountID: Int64, userName: String, storedHash: String, sealedSecret: [UInt8]?
  ) throws(AuthenticationError) -> Session {
    let token = try Self.newToken()
    let time = now()
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value.expiresAt > time }
      sessions[token] = IssuedSession(
        accountID: accountID, storedHash: storedHash, sealedSecret: sealedSecret,
        expiresAt: time + Self.sessionLifetime)
    }
    return Session(accountID: accountID, userName: userName, token: token)
  }

  /// The account id of an unexpired session this client issued whose account still exists
  /// with the password and two-factor it was issued under: a password changed since, or
  /// two-factor turned on or off, by this program or another, ends it.
  private func signedIn(_ session: Session) throws(AuthenticationError) -> Int64 {
    let time = now()
    guard let issued = sessions.withLock({ $0[session.token] }), issued.expiresAt > time,
      issued.accountID == session.accountID
    else { throw .notSignedIn }
    let accountID = issued.accountID
    let stored = try storage { database throws(SQLiteError) in
      try Self.stored(accountID, in: database)
    }
    guard stored == issued.asStored else {
      sessions.withLock { _ = $0.removeValue(forKey: session.token) }
      throw .notSignedIn
    }
    return accountID
  }

  // MARK: - Passwords and failures

  /// Checks a password for the user name whose key is `key`, in an attempt (``attempt(_:_:)``),
  /// which counts a failure when it is wrong.
  ///
  /// An unknown user name costs the same work as a known one: its password is checked against
  /// a decoy hash with the parameters new accounts get, in the same steps.
  private func authenticate(
    _ key: String, _ password: String
  ) throws(AuthenticationError) -> (Account, secretKey: [UInt8]) {
    guard !password.unicodeScalars.contains("\0") else { throw .passwordNotText }
    let account = try account(key: key)
    let hash: PasswordHash
    if let account { hash = account.hash } else { hash = try decoyHash() }
    let match = try crypto { () throws(CryptoError) in try Self.check(password, against: hash) }
    guard let account, let match else { throw .invalidCredentials }
    if match.isLegacy,
      // Stored before passwords were normalised: store the normalised form's hash instead.
      // The old hash still works if this fails, so a failure here loses nothing.
      let upgraded = try? upgrade(account, password: password, oldKey: match.secretKey)
    {
      return upgraded
    }
    return (account, match.secretKey)
  }

  /// Whether the account has a server's game waiting or under way, which would end with
  /// sentences that are not true if the account were deleted.
  private func hasUnfinishedOnlineGame(_ accountID: Int64) throws(AuthenticationError) -> Bool {
    try storage { database throws(SQLiteError) in
      try Self.hasUnfinishedOnlineGame(accountID, in: database)
    }
  }

  private static func hasUnfinishedOnlineGame(
    _ accountID: Int64, in database: Database
  ) throws(SQLiteError) -> Bool {
    let unfinished = try database.query(
      """
      SELECT 1 FROM online_games
      WHERE ended_at IS NULL AND (x_account = ?1 OR o_account = ?1) LIMIT 1
      """, SQLiteValue(accountID))
    return !unfinished.isEmpty
  }

  /// The account and its secret key when the credentials are right: the password and, with
  /// two-factor on, the code, which is then spent.
  ///
  /// `refusing` runs once the password is right and before the code is checked: what it
  /// throws refuses the request without spending a one-time code.
  private func authorize(
    _ credentials: Credentials,
    refusing: (Account) throws(AuthenticationError) -> Void = { _ in }
  ) throws(AuthenticationError) -> (Account, secretKey: [UInt8]) {
    try attempt(credentials.userName) { attempt throws(AuthenticationError) in
      let (account, secretKey) = try authenticate(attempt.key, credentials.password)
      try refusing(account)
      guard let sealedSecret = account.sealedSecret else {
        try clearFailures(attempt)
        return (account, secretKey)
      }
      guard let code = credentials.code, !code.trimmingWhitespace().isEmpty else {
        throw .codeRequired
      }
      let secret = try crypto { () throws(CryptoError) in
        try SecretBox.open(sealedSecret, key: secretKey)
      }
      guard try accepts(code, secret: secret, accountID: account.id) else { throw .invalidCode }
      try clearFailures(attempt)
      return (account, secretKey)
    }
  }

  /// The secret key when `password` matches `hash`: first in its normalised form (NFC), then,
  /// for hashes stored before normalisation, as typed.
  private static func check(
    _ password: String, against hash: PasswordHash
  ) throws(CryptoError) -> (secretKey: [UInt8], isLegacy: Bool)? {
    let normalised = normalisedPassword(password)
    if let key = try hash.secretKey(ifMatching: normalised) { return (key, false) }
    guard Array(normalised.utf8) != Array(password.utf8) else { return nil }
    return try hash.secretKey(ifMatching: password).map { ($0, true) }
  }

  /// The account as stored with the normalised password's hash, and its new secret key, or
  /// `nil` when another program changed the account first.
  private func upgrade(
    _ account: Account, password: String, oldKey: [UInt8]
  ) throws(AuthenticationError) -> (Account, secretKey: [UInt8])? {
    let (hash, newKey) = try crypto { () throws(CryptoError) in
      try PasswordHash.hashWithSecretKey(
        Self.normalisedPassword(password), algorithm: account.hash.algorithm)
    }
    return try store(hash, resealing: account, from: oldKey, to: newKey).map { ($0, newKey) }
  }

  /// Stores a new password hash and reseals the two-factor secret, which is sealed with a key
  /// from the password, in one transaction.
  ///
  /// - Returns: The account as now stored, or `nil` when its password or two-factor secret
  ///   is no longer what `account` holds: another program changed it first.
  private func store(
    _ hash: PasswordHash, resealing account: Account, from oldKey: [UInt8], to newKey: [UInt8]
  ) throws(AuthenticationError) -> Account? {
    let resealed = try account.sealedSecret.map { sealed throws(AuthenticationError) in
      try crypto { () throws(CryptoError) in
        try SecretBox.seal(SecretBox.open(sealed, key: oldKey), key: newKey)
      }
    }
    let encoded = hash.encoded
    let stored = try storage { database throws(SQLiteError) -> Bool in
      try database.transaction { () throws(SQLiteError) -> Bool in
        guard try Self.isUnchanged(account, in: database) else { return false }
        try database.run(
          "UPDATE accounts SET password_hash = ? WHERE id = ?", .text(encoded),
          SQLiteValue(account.id))
        if let resealed {
          try database.run(
            "UPDATE two_factor SET sealed_secret = ? WHERE account_id = ?", .blob(resealed),
            SQLiteValue(account.id))
        }
        return true
      }
    }
    guard stored else { return nil }
    return Account(
      id: account.id, userName: account.userName, key: account.key, hash: hash,
      storedHash: encoded, sealedSecret: resealed)
  }

  /// Whether the account's password hash and two-factor secret are as `account` read them:
  /// checked in the transaction that acts on a password checked before it.
  private static func isUnchanged(
    _ account: Account, in database: Database
  ) throws(SQLiteError) -> Bool {
    try stored(account.id, in: database) == account.asStored
  }

  /// The account's password hash and sealed two-factor secret as stored now, or `nil` when the
  /// account is gone: what a checked password, a session or a sign-in waiting for its code
  /// was given, and holds good while they are unchanged.
  private static func stored(
    _ accountID: Int64, in database: Database
  ) throws(SQLiteError) -> StoredCredentials? {
    try database.query(
      """
      SELECT password_hash, sealed_secret
      FROM accounts LEFT JOIN two_factor ON two_factor.account_id = accounts.id
      WHERE accounts.id = ?
      """, SQLiteValue(accountID)
    ).first.map { row throws(SQLiteError) in
      StoredCredentials(hash: try row.get(0), sealedSecret: try row.get(1))
    }
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
      let storedHash: String = try row.get(2)
      return Account(
        id: try row.get(0), userName: Self.displayed(try row.get(1)), key: key,
        hash: try PasswordHash(encoded: storedHash), storedHash: storedHash,
        sealedSecret: try row.get(3))
    } catch {
      throw .storage("The stored password for this account is damaged.")
    }
  }

  private func decoyHash() throws(AuthenticationError) -> PasswordHash {
    if let hash = decoy.withLock({ $0 }) { return hash }
    let hash = try crypto { () throws(CryptoError) in
      try PasswordHash.decoy(algorithm: passwordAlgorithm)
    }
    decoy.withLock { $0 = hash }
    return hash
  }

  /// Runs `body` as one attempt to sign in or prove the account's owner, for the user name
  /// `userName`; see ``attempt(key:_:)``.
  private func attempt<Result>(
    _ userName: String, _ body: (Attempt) throws(AuthenticationError) -> Result
  ) throws(AuthenticationError) -> Result {
    try attempt(key: try Self.lookupKey(userName), body)
  }

  /// Runs `body` as one attempt for the user name whose key is `key`: refused while a lock
  /// holds the name, and otherwise counted in flight until it ends.
  ///
  /// Attempts in flight hold guesses started at once, by several programs on one database, to
  /// the same limit as guesses made one after another: no more start than the failures left
  /// before the lock (one at a time once the limit is reached), and the others wait for them
  /// to end, so that the sixth wrong guess finds the name locked while right ones made at once
  /// all get in. The attempt fails (counted) when `body` throws
  /// ``AuthenticationError/invalidCredentials`` or ``AuthenticationError/invalidCode``;
  /// `body` clears the name's failures (``clearFailures(_:)``) once everything is right; any
  /// other end (a code still to come, a refusal, a storage failure) counts nothing.
  private func attempt<Result>(
    key: String, _ body: (Attempt) throws(AuthenticationError) -> Result
  ) throws(AuthenticationError) -> Result {
    let attempt = try admit(key)
    let result: Result
    do {
      result = try body(attempt)
    } catch {
      if error == .invalidCredentials || error == .invalidCode {
        try fail(attempt)
      } else {
        try? end(attempt)
      }
      throw error
    }
    try end(attempt)
    return result
  }

  /// Starts an attempt, once no lock holds the name and no more attempts are in flight than
  /// failures are left before the lock; waits meanwhile.
  private func admit(_ key: String) throws(AuthenticationError) -> Attempt {
    let waitingSince = ContinuousClock.now
    while true {
      switch try tryToAdmit(key) {
      case .locked(let seconds): throw .lockedOut(retryAfterSeconds: seconds)
      case .admitted(let id): return Attempt(key: key, id: id)
      case .busy:
        // Attempts of a program killed mid-check are given up after their lifetime; a clock
        // held still (a test's) would otherwise keep them for ever.
        guard ContinuousClock.now - waitingSince < .milliseconds(Lockout.attemptLifetime) else {
          throw .lockedOut(retryAfterSeconds: Int(Lockout.attemptLifetime / 1_000))
        }
        usleep(10_000)
      }
    }
  }

  private func tryToAdmit(_ key: String) throws(AuthenticationError) -> Admission {
    try storage { database throws(SQLiteError) -> Admission in
      try database.transaction { () throws(SQLiteError) -> Admission in
        // Read once the transaction holds the database: an attempt another program began
        // while this one waited for it is dated no later than now.
        let time = now()
        // Attempts older than their lifetime (or dated well after now: the clock was set back)
        // are of programs that ended without ending them.
        try database.run(
          """
          DELETE FROM sign_in_attempts
          WHERE user_key = ? AND started_at NOT BETWEEN ? AND ?
          """, .text(key), SQLiteValue(time - Lockout.attemptLifetime),
          SQLiteValue(time + Lockout.clockSlack))
        var failures = 0
        if let row = try database.query(
          "SELECT failures, last_failure_at FROM sign_in_failures WHERE user_key = ?", .text(key)
        ).first {
          failures = try row.get(0)
          let lastFailureAt: Int64 = try row.get(1)
          if lastFailureAt > time {
            // The clock was set back since: the failure counts from now, once, so that the
            // wait neither grows by the step back nor lasts until the clock catches up.
            try database.run(
              "UPDATE sign_in_failures SET last_failure_at = ? WHERE user_key = ?",
              SQLiteValue(time), .text(key))
          }
          if let seconds = Lockout.secondsLeft(
            failures: failures, lastFailureAt: min(lastFailureAt, time), now: time)
          {
            return .locked(retryAfterSeconds: seconds)
          }
        }
        let inFlight: Int =
          try database.query(
            "SELECT count(*) FROM sign_in_attempts WHERE user_key = ?", .text(key)
          ).first?.get(0) ?? 0
        guard inFlight < max(1, Lockout.freeFailures - failures) else { return .busy }
        try database.run(
          "INSERT INTO sign_in_attempts (user_key, started_at) VALUES (?, ?)", .text(key),
          SQLiteValue(time))
        return .admitted(id: Int64(database.lastInsertRowID))
      }
    }
  }

  /// Ends an attempt that was not a failure.
  private func end(_ attempt: Attempt) throws(AuthenticationError) {
    guard !attempt.isSettled else { return }
    attempt.isSettled = true
    try storage { database throws(SQLiteError) in
      try database.run("DELETE FROM sign_in_attempts WHERE id = ?", SQLiteValue(attempt.id))
    }
  }

  /// Ends an attempt as a failure, counted towards the lock.
  private func fail(_ attempt: Attempt) throws(AuthenticationError) {
    attempt.isSettled = true
    let time = now()
    try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.run("DELETE FROM sign_in_attempts WHERE id = ?", SQLiteValue(attempt.id))
        try database.run(
          """
          INSERT INTO sign_in_failures (user_key, failures, last_failure_at) VALUES (?, 1, ?)
          ON CONFLICT (user_key) DO UPDATE
          SET failures = failures + 1, last_failure_at = excluded.last_failure_at
          """, .text(attempt.key), SQLiteValue(time))
      }
    }
  }

  /// Ends an attempt that proved the owner, and forgets the name's failures.
  private func clearFailures(_ attempt: Attempt) throws(AuthenticationError) {
    attempt.isSettled = true
    try storage { database throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.run("DELETE FROM sign_in_attempts WHERE id = ?", SQLiteValue(attempt.id))
        try database.run("DELETE FROM sign_in_failures WHERE user_key = ?", .text(attempt.key))
      }
    }
  }

  // MARK: - Codes

  /// Whether a current TOTP code (used up by accepting it) or an unused recovery code (marked
  /// used) is right for the account.
  private func accepts(
    _ code: String, secret: [UInt8], accountID: Int64
  ) throws(AuthenticationError) -> Bool {
    let code = Self.normalized(code)
    if Self.isTOTPCode(code) {
      return try storage { database throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) in
          guard
            let row = try database.query(
              "SELECT last_counter FROM two_factor WHERE account_id = ?", SQLiteValue(accountID)
            ).first,
            let counter = acceptedCounter(
              secret: secret, code: code, after: try row.get(0, as: Int64.self))
          else { return false }
          try database.run(
            "UPDATE two_factor SET last_counter = ? WHERE account_id = ?",
            .integer(Int(counter)), SQLiteValue(accountID))
          return true
        }
      }
    }
    guard code.count == Self.recoveryCodeLength else { return false }
    return try useRecoveryCode(Self.recoveryForm(code), accountID: accountID)
  }

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

  /// Fresh recovery codes as shown (`abcde-fghij`) and their hashes as stored.
  private static func newRecoveryCodes() throws(AuthenticationError) -> (
    codes: [String], hashes: [String]
  ) {
    let codes = try (0..<recoveryCodeCount).map { _ throws(AuthenticationError) in
      let bytes = try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 7) }
      return String(Base32.encode(bytes).lowercased().prefix(recoveryCodeLength))
    }
    let hashes = try crypto { () throws(CryptoError) in
      try codes.map { code throws(CryptoError) in
        try PasswordHash(hashing: code, algorithm: recoveryCodeAlgorithm).encoded
      }
    }
    return (codes.map { $0.prefix(5) + "-" + $0.dropFirst(5) }, hashes)
  }

  private static func replaceRecoveryCodes(
    of accountID: Int64, with hashes: [String], in database: Database
  ) throws(SQLiteError) {
    try database.run("DELETE FROM recovery_codes WHERE account_id = ?", SQLiteValue(accountID))
    for hash in hashes {
      try database.run(
        "INSERT INTO recovery_codes (account_id, code_hash) VALUES (?, ?)",
        SQLiteValue(accountID), .text(hash))
    }
  }

  private static func newToken() throws(AuthenticationError) -> String {
    hexString(try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 16) })
  }

  // MARK: - Text

  static func key(_ userName: String) -> String { UserName.key(userName) }

  /// The key for a user name typed to sign in, or ``AuthenticationError/invalidUserName`` when
  /// it cannot be one.
  static func lookupKey(_ userName: String) throws(AuthenticationError) -> String {
    key(try UserName.validated(userName))
  }

  /// A user name read from the database, with anything the name rule does not allow escaped.
  static func displayed(_ stored: String) -> String { UserName.displayed(stored) }

  /// A new password in NFC, or the error for one that breaks the password rule.
  static func newPassword(_ password: String) throws(AuthenticationError) -> String {
    guard PasswordRule.isText(password) else { throw .passwordNotText }
    let normalised = normalisedPassword(password)
    guard normalised.count >= PasswordRule.minimumLength else { throw .passwordTooShort }
    guard normalised.count <= PasswordRule.maximumLength else { throw .passwordTooLong }
    return normalised
  }

  /// A password in Unicode normalisation form C, so that the same characters typed as composed
  /// or decomposed accents are the same password.
  static func normalisedPassword(_ password: String) -> String {
    password.precomposedStringWithCanonicalMapping
  }

  static func normalized(_ code: String) -> String { CodeForm.normalized(code) }

  static func recoveryForm(_ code: String) -> String { CodeForm.recoveryForm(code) }

  static func isTOTPCode(_ code: String) -> Bool { CodeForm.isAuthenticatorCode(code) }

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
  let key: String
  let hash: PasswordHash
  /// The hash as stored, to tell whether another program has changed it since.
  let storedHash: String
  let sealedSecret: [UInt8]?
}

/// A sign-in waiting for its second factor; the unsealed secret lives in memory only.
private struct Challenge: Sendable {
  let accountID: Int64
  let userName: String
  let key: String
  /// The password hash as stored when the password was checked.
  let storedHash: String
  /// The two-factor secret, sealed, as stored then.
  let sealedSecret: [UInt8]
  let secret: [UInt8]
  let expiresAt: Int64
}

/// A session this client issued.
private struct IssuedSession: Sendable {
  let accountID: Int64
  /// The account's password hash as stored when the session was issued.
  let storedHash: String
  /// The account's two-factor secret, sealed, as stored then; `nil` when it was off.
  let sealedSecret: [UInt8]?
  let expiresAt: Int64
}

/// How confirming a two-factor set-up ended.
private enum EnrolmentOutcome {
  case enabled
  case alreadyOn
  case passwordChanged
}

/// Two-factor set-up waiting for its first code.
private struct Enrolment: Sendable {
  let accountID: Int64
  /// The account's password hash when the set-up began, whose key seals the secret.
  let passwordHash: String
  let secret: [UInt8]
  let secretKey: [UInt8]
  let expiresAt: Int64
}

/// An attempt in flight, until it ends.
private final class Attempt {
  /// The user name's key.
  let key: String
  /// Its row in `sign_in_attempts`.
  let id: Int64
  /// Whether it has ended.
  var isSettled = false

  init(key: String, id: Int64) {
    self.key = key
    self.id = id
  }
}

/// Whether an attempt may start.
private enum Admission {
  case locked(retryAfterSeconds: Int)
  /// Attempts in flight already use the failures left before the lock: wait for them.
  case busy
  case admitted(id: Int64)
}

/// An account's password hash and sealed two-factor secret as stored.
private struct StoredCredentials: Equatable, Sendable {
  let hash: String
  let sealedSecret: [UInt8]?
}

extension Account {
  var asStored: StoredCredentials {
    StoredCredentials(hash: storedHash, sealedSecret: sealedSecret)
  }
}

extension Challenge {
  var asStored: StoredCredentials {
    StoredCredentials(hash: storedHash, sealedSecret: sealedSecret)
  }
}

extension IssuedSession {
  var asStored: StoredCredentials {
    StoredCredentials(hash: storedHash, sealedSecret: sealedSecret)
  }
}
