import AuthenticationClient
import AuthenticationClientLive
import Crypto
import DatabaseClient
import DatabaseClientLive
import Foundation
import SQLite
import TestSupport
import Testing

struct TwoFactorTests {
  /// A secret or URI no authenticator app could take (control characters, not base32, a URI
  /// for another secret) is not usable; nor are recovery codes that cannot be real ones.
  @Test func whatCameFromElsewhereIsShownOnlyIfItCanBeReal() {
    let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    let uri = "otpauth://totp/TicTacToe:ann?secret=\(secret)&issuer=TicTacToe"
    #expect(TwoFactorEnrolment(secret: secret, uri: uri).isUsable)
    for (badSecret, badURI) in [
      ("JBSW\u{1B}[2JY3DPEHPK3PXP", uri), (secret, uri + "\u{1B}]0;t\u{7}"),
      ("JBSWY3DPEHPK3PX1", "otpauth://totp/a?secret=JBSWY3DPEHPK3PX1"),
      ("JBSW", "otpauth://totp/a?secret=JBSW"),
      (secret, "https://example.com/?secret=\(secret)"),
      (secret, "otpauth://totp/a?secret=JBSWY3DPEHPK3PXP"),
      (secret, "otpauth://totp/a b?secret=\(secret)"),
    ] {
      #expect(
        !TwoFactorEnrolment(secret: badSecret, uri: badURI).isUsable, "\(badSecret) \(badURI)")
    }
    let codes = ["o5l6g-2hyut", "abcde-fghij", "KLMNO PQRST"]
    #expect(CodeForm.areRecoveryCodes(codes))
    for bad in [
      [], ["ab\u{1B}[2Jcd"], ["o5l6g-2hyut", "O5L6G2HYUT"], ["123456"], ["abcde-fghi"],
      (0..<17).map { "abcde-fghi" + String(UnicodeScalar(UInt8(97 + $0))) },
    ] {
      #expect(!CodeForm.areRecoveryCodes(bad), "\(bad)")
    }
  }

  @Test func enrolmentShowsTheSecretAndURIAndTurnsOnOnlyAfterAValidCode() async throws {
    let harness = try Harness()
    let session = try await harness.client.createAccount("ann", "correct horse")
    let enrolment = try await harness.client.beginTwoFactor("ann", "correct horse")
    #expect(try Base32.decode(enrolment.secret).count == 20)
    #expect(enrolment.uri.hasPrefix("otpauth://totp/TicTacToe:ann?secret=\(enrolment.secret)&"))
    // Not on yet: the password alone still signs in.
    guard case .signedIn(let signedIn) = try await harness.client.login("ann", "correct horse")
    else {
      Issue.record("two-factor is on before confirming")
      return
    }
    #expect(signedIn.accountID == session.accountID)
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.confirmTwoFactor(
        "ann", try harness.code(secret: enrolment.secret, steps: 2))
    }
    #expect(try await harness.client.listAccounts().first?.hasTwoFactor == false)
    let codes = try await harness.client.confirmTwoFactor(
      "ann", try harness.code(secret: enrolment.secret))
    #expect(codes.count == 8)
    #expect(Set(codes).count == 8)
    #expect(codes.allSatisfy { $0.count == 11 && $0.split(separator: "-").count == 2 })
    // What a client checks before showing what a server sent passes what this computer makes.
    #expect(enrolment.isUsable)
    #expect(CodeForm.areRecoveryCodes(codes))
    guard case .twoFactorRequired = try await harness.client.login("ann", "correct horse") else {
      Issue.record("two-factor is not on after confirming")
      return
    }
  }

  @Test func confirmingWithoutBeginningIsRefused() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    await #expect {
      _ = try await harness.client.confirmTwoFactor("ann", "123456")
    } throws: { error in
      if case .twoFactorState = error as? AuthenticationError { true } else { false }
    }
  }

  @Test func currentCodeSignsInAndCannotBeReplayed() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    let code = try harness.code(secret: secret)
    let session = try await harness.client.verifyTwoFactor(try await harness.challenge(), code)
    #expect(session.userName == "ann")
    let again = try await harness.challenge()
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(again, code)
    }
  }

  @Test("codes one step either side are accepted", arguments: [-1, 1] as [Int64])
  func neighbouringStepIsAccepted(steps: Int64) async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    // One more step, so the past step is later than the one used to confirm.
    harness.clock.advance(seconds: 30)
    let code = try harness.code(secret: secret, steps: steps)
    _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), code)
  }

  @Test("codes two steps away are rejected", arguments: [-2, 2] as [Int64])
  func codeTwoStepsAwayIsRejected(steps: Int64) async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    // Two steps on, so the past step is later than the one used to confirm.
    harness.clock.advance(seconds: 60)
    let code = try harness.code(secret: secret, steps: steps)
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), code)
    }
  }

  @Test func olderCodeIsRejectedOnceALaterOneWasUsed() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    let later = try harness.code(secret: secret, steps: 1)
    let current = try harness.code(secret: secret)
    _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), later)
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), current)
    }
  }

  @Test func recoveryCodeWorksOnceInAnyCase() async throws {
    let harness = try Harness()
    let (_, recoveryCodes) = try await harness.annWithTwoFactor()
    let code = recoveryCodes[3]
    _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), code.uppercased())
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), code)
    }
    let other = recoveryCodes[4].replacingOccurrences(of: "-", with: "")
    _ = try await harness.client.verifyTwoFactor(try await harness.challenge(), other)
  }

  /// A deletion refused because another program plays as the account spends no recovery
  /// code: the same code deletes the account once that program is closed.
  @Test func aRefusedDeletionSpendsNoRecoveryCode() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let harness = try Harness(path: path)
    let (_, recoveryCodes) = try await harness.annWithTwoFactor()
    let ann = Credentials(userName: "ann", password: "correct horse", code: recoveryCodes[0])
    do {
      let playing = DatabaseClient.live(database: try LocalDatabase(path: path))
      try await playing.claimGameInProgress(.account(1))
      await #expect(throws: AuthenticationError.self) {
        try await harness.client.deleteAccount(ann)
      }
      await playing.releaseGameInProgress(.account(1))
    }
    try await harness.client.deleteAccount(ann)
    #expect(try await harness.client.listAccounts().isEmpty)
  }

  @Test func challengeExpiresAfterFiveMinutes() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    let challenge = try await harness.challenge()
    harness.clock.advance(seconds: 5 * 60)
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(challenge, try harness.code(secret: secret))
    }
  }

  @Test func forgedChallengeIsRejected() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    let forged = TwoFactorChallenge(userName: "ann", token: "00")
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(forged, try harness.code(secret: secret))
    }
  }

  @Test func twoFactorSurvivesAPasswordChange() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    try await harness.client.changePassword(
      credentials("ann", "correct horse", code: try harness.code(secret: secret)), "battery staple")
    harness.clock.advance(seconds: 30)
    let challenge = try await harness.challenge("battery staple")
    _ = try await harness.client.verifyTwoFactor(challenge, try harness.code(secret: secret))
  }

  @Test func disablingNeedsThePasswordAndACodeAndTurnsItOff() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    await #expect(throws: AuthenticationError.invalidCredentials) {
      try await harness.client.disableTwoFactor(
        credentials("ann", "wrong horse", code: try harness.code(secret: secret)))
    }
    await #expect(throws: AuthenticationError.codeRequired) {
      try await harness.client.disableTwoFactor(credentials("ann", "correct horse"))
    }
    try await harness.client.disableTwoFactor(
      credentials("ann", "correct horse", code: try harness.code(secret: secret)))
    guard case .signedIn = try await harness.client.login("ann", "correct horse") else {
      Issue.record("two-factor is still on")
      return
    }
    await #expect {
      try await harness.client.disableTwoFactor(credentials("ann", "correct horse"))
    } throws: { error in
      if case .twoFactorState = error as? AuthenticationError { true } else { false }
    }
  }

  @Test func enablingTwiceIsRefused() async throws {
    let harness = try Harness()
    _ = try await harness.annWithTwoFactor()
    await #expect {
      _ = try await harness.client.beginTwoFactor("ann", "correct horse")
    } throws: { error in
      if case .twoFactorState = error as? AuthenticationError { true } else { false }
    }
  }
}

struct StorageTests {
  @Test func noPasswordSecretOrRecoveryCodeIsStoredInClear() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let secret: String
    let recoveryCodes: [String]
    do {
      let harness = try Harness(path: path)
      (secret, recoveryCodes) = try await harness.annWithTwoFactor()
    }
    var stored = Data()
    for suffix in ["", "-wal"] {
      stored.append(FileManager.default.contents(atPath: path + suffix) ?? Data())
    }
    #expect(stored.count > 0)
    let rawSecret = Data(try Base32.decode(secret))
    var needles = [Data("correct horse".utf8), Data(secret.utf8), rawSecret]
    for code in recoveryCodes {
      needles.append(Data(code.utf8))
      needles.append(Data(code.replacingOccurrences(of: "-", with: "").utf8))
    }
    for needle in needles {
      #expect(stored.range(of: needle) == nil)
    }
  }
}

/// Two-factor set-up raced by another process (another client over the same database), which
/// changes the password or deletes the account while the first waits for its code.
struct TwoFactorRaceTests {
  private static let changed = AuthenticationError.twoFactorState(
    "The account's password changed, or the account was deleted, while two-factor was being "
      + "set up; start again.")

  @Test func aPasswordChangedDuringTheSetUpLeavesTwoFactorOffAndTheAccountUsable() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    let enrolment = try await harness.client.beginTwoFactor("ann", "correct horse")
    try await harness.otherProcess().changePassword(
      credentials("ann", "correct horse"), "battery staple")
    await #expect(throws: Self.changed) {
      _ = try await harness.client.confirmTwoFactor(
        "ann", try harness.code(secret: enrolment.secret))
    }
    #expect(try await harness.client.listAccounts().first?.hasTwoFactor == false)
    guard case .signedIn = try await harness.client.login("ann", "battery staple") else {
      Issue.record("the new password does not sign in alone")
      return
    }
    // Starting again works, and the secret it seals opens with the new password.
    let again = try await harness.client.beginTwoFactor("ann", "battery staple")
    _ = try await harness.client.confirmTwoFactor("ann", try harness.code(secret: again.secret))
    harness.clock.advance(seconds: 30)
    let challenge = try await harness.challenge("battery staple")
    _ = try await harness.client.verifyTwoFactor(
      challenge, try harness.code(secret: again.secret))
  }

  @Test(arguments: ["password", "two-factor"])
  func aChangeElsewhereWhileTheCodeIsAskedRefusesTheCodeAndSpendsNone(change: String)
    async throws
  {
    let harness = try Harness()
    let (secret, recoveryCodes) = try await harness.annWithTwoFactor()
    let challenge = try await harness.challenge()
    let other = harness.otherProcess()
    var password = "correct horse"
    if change == "password" {
      password = "battery staple"
      try await other.changePassword(
        credentials("ann", "correct horse", code: try harness.code(secret: secret)), password)
      harness.clock.advance(seconds: 30)
    } else {
      try await other.disableTwoFactor(
        credentials("ann", "correct horse", code: try harness.code(secret: secret)))
      let again = try await other.beginTwoFactor("ann", "correct horse")
      _ = try await other.confirmTwoFactor("ann", try harness.code(secret: again.secret))
    }
    let refusal = AuthenticationError.twoFactorState(
      "The account's password or two-factor was changed by another program after the "
        + "password was checked; sign in again.")
    // Taken, the code would sign in to a session the change had ended already.
    await #expect(throws: refusal) {
      _ = try await harness.client.verifyTwoFactor(challenge, recoveryCodes[0])
    }
    await #expect(throws: AuthenticationError.invalidCode) {
      _ = try await harness.client.verifyTwoFactor(challenge, recoveryCodes[0])
    }
    if change == "password" {
      // The recovery code was not spent: it signs in with the new password.
      let fresh = try await harness.challenge(password)
      _ = try await harness.client.verifyTwoFactor(fresh, recoveryCodes[0])
    }
  }

  @Test func anAccountDeletedAndMadeAgainDuringTheSetUpGetsNoOneElsesSecret() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    let enrolment = try await harness.client.beginTwoFactor("ann", "correct horse")
    let other = harness.otherProcess()
    try await other.deleteAccount(credentials("ann", "correct horse"))
    _ = try await other.createAccount("ann", "another horse")
    await #expect(throws: Self.changed) {
      _ = try await harness.client.confirmTwoFactor(
        "ann", try harness.code(secret: enrolment.secret))
    }
    #expect(try await harness.client.listAccounts().first?.hasTwoFactor == false)
    guard case .signedIn = try await harness.client.login("ann", "another horse") else {
      Issue.record("the new account does not sign in with its password alone")
      return
    }
  }
}

/// Requests that act on a password checked before their write, raced by another process that
/// changes the password in between: the write refuses, rather than saying it was done.
struct PasswordRaceTests {
  /// Two processes change ann's password with the same old one while a third holds the
  /// database's write lock, so that both check the old password before either writes.
  @Test func ofTwoChangesFromTheSameOldPasswordOnlyTheOneStoredIsSaidToBeMade() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let harness = try Harness(path: path)
    _ = try await harness.client.createAccount("ann", "correct horse")
    let clock = harness.clock
    let other = AuthenticationClient.live(
      database: try LocalDatabase(path: path), passwordAlgorithm: .scrypt(logN: 4, r: 1, p: 1),
      now: { clock.now })
    holdWriteLock(path)
    async let first = Self.change(harness.client, to: "battery staple")
    async let second = Self.change(other, to: "purple monkey")
    let outcomes = [("battery staple", await first), ("purple monkey", await second)]
    let made = outcomes.filter { $0.1 == nil }.map(\.0)
    #expect(made.count == 1)
    #expect(outcomes.allSatisfy { $0.1 == nil || $0.1 == .invalidCredentials })
    for (password, _) in outcomes {
      let signsIn = (try? await harness.client.login("ann", password)) != nil
      #expect(signsIn == made.contains(password), "\(password)")
    }
  }

  /// The error a password change ended with, or `nil` when it was made.
  private static func change(
    _ client: AuthenticationClient, to password: String
  ) async -> AuthenticationError? {
    do {
      try await client.changePassword(credentials("ann", "correct horse"), password)
      return nil
    } catch {
      return error as? AuthenticationError ?? .storage("\(error)")
    }
  }
}

/// Holds the database's write lock for 0.3 s from the return, as a third program would.
///
/// Two writers started then both check before either writes. The lock is held and let go on a
/// thread of its own; the writers wait for it in SQLite's busy handler, blocking the threads
/// they run on.
private func holdWriteLock(_ path: String) {
  let locked = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    let holder = try? Database(path: path)
    try? holder?.execute("BEGIN IMMEDIATE")
    locked.signal()
    usleep(300_000)
    try? holder?.execute("COMMIT")
  }
  locked.wait()
}

struct NameRaceTests {
  /// Two processes make accounts whose names look alike, "alice" and one with a Cyrillic "а",
  /// while a third holds the write lock, so that both see neither name taken before either
  /// writes: one account is made, the other is told the name is taken.
  @Test func ofTwoLookAlikeNamesTakenAtOnceOnlyOneIsMade() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    let harness = try Harness(path: path)
    let clock = harness.clock
    let other = AuthenticationClient.live(
      database: try LocalDatabase(path: path), passwordAlgorithm: .scrypt(logN: 4, r: 1, p: 1),
      now: { clock.now })
    holdWriteLock(path)
    async let first = Self.create(harness.client, "alice")
    async let second = Self.create(other, "\u{430}lice")
    let outcomes = [await first, await second]
    #expect(outcomes.filter { $0 == nil }.count == 1)
    #expect(outcomes.allSatisfy { $0 == nil || $0 == .userNameTaken })
    #expect(try await harness.client.listAccounts().count == 1)
  }

  /// The error an account's creation ended with, or `nil` when it was made.
  private static func create(
    _ client: AuthenticationClient, _ name: String
  ) async -> AuthenticationError? {
    do {
      _ = try await client.createAccount(name, "correct horse")
      return nil
    } catch {
      return error as? AuthenticationError ?? .storage("\(error)")
    }
  }
}

struct CodeFormTests {
  @Test func codesAreSixDigitsOrARecoveryCodeAsTyped() {
    for code in ["123456", "123 456", "abcde-fghij", "ABCDE FGHIJ", "abcde-fgh1j", "0bcde-22777"] {
      #expect(CodeForm.isWellFormed(code), "\(code)")
    }
    for code in ["", "12345", "1234567", "12345x", "abcde-fghi8", "abcde-fghijk", "ab\u{202E}cd"] {
      #expect(!CodeForm.isWellFormed(code), "\(code)")
    }
    #expect(CodeForm.authenticatorDigits == OneTimePassword.digits)
  }
}
