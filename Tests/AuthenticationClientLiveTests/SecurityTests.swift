import AuthenticationClient
import AuthenticationClientLive
import Crypto
import DatabaseClientLive
import SQLite
import TestSupport
import Testing

@testable import AuthenticationClientLive

/// Changes to a two-factor account need a code; recovery codes can be counted and renewed.
struct SecondFactorTests {
  @Test func changesToATwoFactorAccountNeedACodeAfterThePassword() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    let client = harness.client
    let requests: [(String, @Sendable (Credentials) async throws -> Void)] = [
      ("passwd", { try await client.changePassword($0, "battery staple") }),
      ("2fa-disable", { try await client.disableTwoFactor($0) }),
      ("delete", { try await client.deleteAccount($0) }),
    ]
    for (name, request) in requests {
      // A wrong password says nothing about the second factor.
      await #expect(throws: AuthenticationError.invalidCredentials, "\(name)") {
        try await request(credentials("ann", "wrong horse"))
      }
      // Wait out the lockout these failures build up.
      harness.clock.advance(seconds: 3_600)
      await #expect(throws: AuthenticationError.codeRequired, "\(name)") {
        try await request(credentials("ann", "correct horse"))
      }
      await #expect(throws: AuthenticationError.invalidCode, "\(name)") {
        try await request(credentials("ann", "correct horse", code: "000000"))
      }
      harness.clock.advance(seconds: 3_600)
    }
    // Nothing changed: the password, the second factor and the account are all still there.
    guard case .twoFactorRequired = try await client.login("ann", "correct horse") else {
      Issue.record("a request without a code changed the account")
      return
    }
    try await client.changePassword(
      credentials("ann", "correct horse", code: try harness.code(secret: secret)),
      "battery staple")
    guard case .twoFactorRequired = try await client.login("ann", "battery staple") else {
      Issue.record("the new password does not lead to the code")
      return
    }
  }

  @Test func aRecoveryCodeStandsInForTheCodeOnce() async throws {
    let harness = try Harness()
    let (_, recoveryCodes) = try await harness.annWithTwoFactor()
    let recovery = try #require(recoveryCodes.first)
    try await harness.client.changePassword(
      credentials("ann", "correct horse", code: recovery), "battery staple")
    await #expect(throws: AuthenticationError.invalidCode) {
      try await harness.client.disableTwoFactor(
        credentials("ann", "battery staple", code: recovery))
    }
  }

  /// A code read off paper is typed in capitals, or with 0 and 1 for the o and l they look
  /// like; the codes hold neither digit, so each still stands in once.
  @Test func aRecoveryCodeTypedWithLookAlikesStandsIn() async throws {
    #expect(Accounts.recoveryForm(Accounts.normalized("AB0DE-F1H27")) == "abodeflh27")
    let harness = try Harness()
    let (_, recoveryCodes) = try await harness.annWithTwoFactor()
    let typed = recoveryCodes.map { code in
      String(code.uppercased().map { $0 == "O" ? "0" : $0 == "L" ? "1" : $0 })
    }
    // Which letters a code holds is down to chance, so all eight are typed so and used; the
    // first check above has both look-alikes for certain.
    var password = "correct horse"
    for (index, code) in typed.enumerated() {
      let next = "new password \(index)"
      try await harness.client.changePassword(credentials("ann", password, code: code), next)
      password = next
    }
    await #expect(throws: AuthenticationError.invalidCode) {
      try await harness.client.changePassword(
        credentials("ann", password, code: typed[0]), "one more")
    }
  }

  @Test func wrongCodesForAChangeCountTowardsTheLockout() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    for _ in 0..<5 {
      await #expect(throws: AuthenticationError.invalidCode) {
        try await harness.client.disableTwoFactor(
          credentials("ann", "correct horse", code: "000000"))
      }
    }
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      try await harness.client.disableTwoFactor(
        credentials("ann", "correct horse", code: try harness.code(secret: secret)))
    }
  }

  @Test func accountWithoutTwoFactorNeedsNoCode() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("bob", "correct horse")
    try await harness.client.changePassword(credentials("bob", "correct horse"), "new horses")
    try await harness.client.deleteAccount(credentials("bob", "new horses"))
    #expect(try await harness.client.listAccounts().isEmpty)
  }

  @Test func signedInPlayerCountsAndRenewsRecoveryCodes() async throws {
    let harness = try Harness()
    let (secret, old) = try await harness.annWithTwoFactor()
    let session = try await harness.client.verifyTwoFactor(
      try await harness.challenge(), try harness.code(secret: secret))
    #expect(try await harness.client.remainingRecoveryCodes(session) == 8)
    let used = try #require(old.first)
    _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), used)
    #expect(try await harness.client.remainingRecoveryCodes(session) == 7)

    let new = try await harness.client.regenerateRecoveryCodes(session)
    #expect(new.count == 8 && Set(new).count == 8 && Set(new).isDisjoint(with: old))
    #expect(try await harness.client.remainingRecoveryCodes(session) == 8)
    // The old codes stop working; the new ones work, once.
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), old[1])
    }
    let fresh = try #require(new.last)
    _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), fresh)
    #expect(try await harness.client.remainingRecoveryCodes(session) == 7)
  }

  /// A password changed by another program ends this program's sessions too: a full screen
  /// left signed in cannot make new recovery codes for the account afterwards.
  @Test func aPasswordChangedByAnotherProgramEndsTheSessions() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let harness = try Harness(path: path)
    let (secret, _) = try await harness.annWithTwoFactor()
    let session = try await harness.client.verifyTwoFactor(
      try await harness.challenge(), try harness.code(secret: secret))
    #expect(try await harness.client.remainingRecoveryCodes(session) == 8)
    let other = harness.otherProcess()
    harness.clock.advance(seconds: 30)
    try await other.changePassword(
      credentials("ann", "correct horse", code: try harness.code(secret: secret)), "new horses")
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.regenerateRecoveryCodes(session)
    }
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(session)
    }
  }

  /// Two-factor turned off, or on, by another program ends this program's sessions as a
  /// password change does: a session taken before cannot outlive a change made to shut it out.
  @Test func aTwoFactorChangeByAnotherProgramEndsTheSessions() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let harness = try Harness(path: path)
    let (secret, _) = try await harness.annWithTwoFactor()
    let withTwoFactor = try await harness.client.verifyTwoFactor(
      try await harness.challenge(), try harness.code(secret: secret))
    let other = harness.otherProcess()
    harness.clock.advance(seconds: 30)
    try await other.disableTwoFactor(
      credentials("ann", "correct horse", code: try harness.code(secret: secret)))
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(withTwoFactor)
    }
    // Signed in without it, then turned on elsewhere.
    guard case .signedIn(let without) = try await harness.client.login("ann", "correct horse")
    else {
      Issue.record("two-factor is still on")
      return
    }
    #expect(try await harness.client.remainingRecoveryCodes(without) == nil)
    let enrolment = try await other.beginTwoFactor("ann", "correct horse")
    harness.clock.advance(seconds: 30)
    _ = try await other.confirmTwoFactor("ann", try harness.code(secret: enrolment.secret))
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(without)
    }
  }

  @Test func recoveryCodesNeedASessionTheClientIssued() async throws {
    let harness = try Harness()
    let session = try await harness.client.createAccount("bob", "correct horse")
    #expect(try await harness.client.remainingRecoveryCodes(session) == nil)
    let notOn = AuthenticationError.twoFactorState("Two-factor is not on for this account.")
    await #expect(throws: notOn) {
      _ = try await harness.client.regenerateRecoveryCodes(session)
    }
    let forged = Session(accountID: session.accountID, userName: "bob")
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.regenerateRecoveryCodes(forged)
    }
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(forged)
    }
    // A changed password ends the sessions taken before it (a leaked one among them).
    try await harness.client.changePassword(credentials("bob", "correct horse"), "horse battery")
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(session)
    }
    // A deleted account's sessions end with it.
    let again = try await harness.client.login("bob", "horse battery")
    guard case .signedIn(let signedIn) = again else {
      Issue.record("bob has no two-factor: \(again)")
      return
    }
    #expect(try await harness.client.remainingRecoveryCodes(signedIn) == nil)
    try await harness.client.deleteAccount(credentials("bob", "horse battery"))
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(signedIn)
    }
    // Sessions expire after twelve hours.
    let later = try await harness.client.createAccount("carol", "correct horse")
    harness.clock.advance(seconds: 12 * 3_600 - 1)
    #expect(try await harness.client.remainingRecoveryCodes(later) == nil)
    harness.clock.advance(seconds: 1)
    await #expect(throws: AuthenticationError.notSignedIn) {
      _ = try await harness.client.remainingRecoveryCodes(later)
    }
  }
}

/// Passwords are text, normalised before hashing; names follow the one name rule.
struct PasswordRuleTests {
  @Test(arguments: [
    "abcdefg\u{0}", "abc\u{0}defgh", String(repeating: "\u{FFFD}", count: 8),
    "escape\u{1B}[2J", "bell\u{7}bell\u{7}", "line\nbreak!",
  ])
  func passwordThatIsNotTextIsRefused(password: String) async throws {
    let harness = try Harness()
    await #expect(throws: AuthenticationError.passwordNotText) {
      _ = try await harness.client.createAccount("ann", password)
    }
    _ = try await harness.client.createAccount("bob", "correct horse")
    await #expect(throws: AuthenticationError.passwordNotText) {
      try await harness.client.changePassword(credentials("bob", "correct horse"), password)
    }
    #expect(try await harness.client.listAccounts().map(\.userName) == ["bob"])
  }

  @Test func trailingNULNeverSignsIn() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "abcdefgh")
    // HMAC pads keys with zero bytes, so without the rule "abcdefgh\0" would be "abcdefgh".
    await #expect(throws: AuthenticationError.passwordNotText) {
      _ = try await harness.client.login("ann", "abcdefgh\u{0}")
    }
  }

  @Test func passwordLengthIsCountedInCharactersBothWays() async throws {
    let harness = try Harness()
    await #expect(throws: AuthenticationError.passwordTooShort) {
      _ = try await harness.client.createAccount("ann", "ééééééé")
    }
    await #expect(throws: AuthenticationError.passwordTooLong) {
      _ = try await harness.client.createAccount("ann", String(repeating: "x", count: 257))
    }
    _ = try await harness.client.createAccount("ann", String(repeating: "é", count: 256))
  }

  @Test func composedAndDecomposedAccentsAreThePassword() async throws {
    let harness = try Harness()
    let composed = "caf\u{E9} cr\u{E8}me"
    let decomposed = "cafe\u{301} cre\u{300}me"
    _ = try await harness.client.createAccount("ann", decomposed)
    guard case .signedIn = try await harness.client.login("ann", composed) else {
      Issue.record("the composed form did not sign in")
      return
    }
    guard case .signedIn = try await harness.client.login("ann", decomposed) else {
      Issue.record("the decomposed form did not sign in")
      return
    }
  }

  @Test func passwordStoredBeforeNormalisingStillSignsInAndIsUpgraded() async throws {
    let harness = try Harness()
    let decomposed = "cafe\u{301} cre\u{300}me"
    // What an earlier version stored: the hash of the bytes as typed, and a two-factor secret
    // sealed with the key from them.
    let (hash, key) = try PasswordHash.hashWithSecretKey(
      decomposed, algorithm: .scrypt(logN: 4, r: 1, p: 1))
    let secret = try SecureRandom.bytes(count: 20)
    let sealed = try SecretBox.seal(secret, key: key)
    try harness.database.withConnection { database throws(SQLiteError) in
      try database.run(
        """
        INSERT INTO accounts (id, user_name, user_key, password_hash, created_at)
        VALUES (1, 'ann', 'ann', ?, 0)
        """, .text(hash.encoded))
      try database.run(
        "INSERT INTO two_factor VALUES (1, ?, 0, 0)", .blob(sealed))
    }
    let challenge = try await harness.challenge(decomposed)
    let code = OneTimePassword.totp(secret: secret, unixTime: harness.clock.now / 1_000)
    _ = try await harness.client.verifyTwoFactor(challenge, code)
    // Now stored in NFC, so the composed form signs in too, and the secret still opens.
    let stored = try harness.database.withConnection { database throws(SQLiteError) in
      try database.query("SELECT password_hash FROM accounts")[0].get(0, as: String.self)
    }
    #expect(try PasswordHash(encoded: stored).matches("caf\u{E9} cr\u{E8}me"))
    harness.clock.advance(seconds: 30)
    let again = try await harness.challenge("caf\u{E9} cr\u{E8}me")
    _ = try await harness.client.verifyTwoFactor(
      again, OneTimePassword.totp(secret: secret, unixTime: harness.clock.now / 1_000))
  }

  @Test func userNameOfAnEarlierRuleStillSignsIn() async throws {
    let harness = try Harness()
    let long = "a_thirty_character_user_name.x"
    #expect(long.count == 30)
    await #expect(throws: AuthenticationError.invalidUserName) {
      _ = try await harness.client.createAccount(long, "correct horse")
    }
    let (hash, _) = try PasswordHash.hashWithSecretKey(
      "correct horse", algorithm: .scrypt(logN: 4, r: 1, p: 1))
    try harness.database.withConnection { database throws(SQLiteError) in
      try database.run(
        """
        INSERT INTO accounts (user_name, user_key, password_hash, created_at)
        VALUES (?, ?, ?, 0)
        """, .text(long), .text(long), .text(hash.encoded))
    }
    guard case .signedIn(let session) = try await harness.client.login(long, "correct horse")
    else {
      Issue.record("the earlier user name did not sign in")
      return
    }
    #expect(session.userName == long)
  }

  @Test func userNameWithControlCharactersIsRefusedBeforeAnyLookup() async throws {
    let harness = try Harness()
    for name in ["\u{1B}[2J", "", String(repeating: "x", count: 100_000), "a\u{0}b"] {
      await #expect(throws: AuthenticationError.invalidUserName) {
        _ = try await harness.client.login(name, "correct horse")
      }
    }
    // Nothing was counted against any name.
    let failures = try harness.database.withConnection { database throws(SQLiteError) in
      try database.query("SELECT count(*) FROM sign_in_failures")[0].get(0, as: Int.self)
    }
    #expect(failures == 0)
  }

  @Test func storedNameAgainstTheRuleIsListedEscaped() async throws {
    let harness = try Harness()
    try harness.database.withConnection { database throws(SQLiteError) in
      try database.execute(
        """
        INSERT INTO accounts (user_name, user_key, password_hash, created_at)
        VALUES ('x' || char(27) || '[2J', 'x', '$scrypt$ln=4,r=1,p=1$00$00', 0)
        """)
    }
    #expect(try await harness.client.listAccounts().map(\.userName) == ["x\\u{1B}[2J"])
  }
}
