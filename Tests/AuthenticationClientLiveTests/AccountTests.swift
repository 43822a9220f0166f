import AuthenticationClient
import AuthenticationClientLive
import Crypto
import SQLite
import TestSupport
import Testing

@testable import DatabaseClientLive

struct AccountTests {
  @Test func createdAccountSignsIn() async throws {
    let harness = try Harness()
    let session = try await harness.client.createAccount("Ann", "correct horse")
    #expect(session.userName == "Ann")
    guard case .signedIn(let again) = try await harness.client.login("ann", "correct horse")
    else {
      Issue.record("ann did not sign in")
      return
    }
    #expect(again.accountID == session.accountID && again.userName == "Ann")
    #expect(!again.token.isEmpty && again.token != session.token)
  }

  @Test func wrongPasswordAndUnknownUserGetTheSameError() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    var messages: [String] = []
    for (user, password) in [("ann", "wrong horse"), ("bob", "correct horse")] {
      do {
        _ = try await harness.client.login(user, password)
        Issue.record("\(user) signed in with a wrong password")
      } catch let error as AuthenticationError {
        #expect(error == .invalidCredentials)
        messages.append(error.message)
      }
    }
    #expect(messages.count == 2 && messages[0] == messages[1])
    #expect(messages[0] == "The user name or password is incorrect.")
  }

  /// A name that only looks like one taken is taken: Cyrillic or Greek letters drawn like
  /// Latin ones, fullwidth letters, a no-break space or two spaces for one.
  @Test func aNameThatLooksLikeOneTakenIsTaken() async throws {
    let harness = try Harness()
    let taken = [
      "alice", "Ada Lovelace", "opa", "nick", "dog", "mary", "ALICE2", "Kate", "Bob", "Tom",
      "Max", "Hank", "Eve", "Nina", "Yuri", "Zed", "Amy", "Bee", "Ted", "Oleg", "wow", "Lola",
    ]
    for name in taken { _ = try await harness.client.createAccount(name, "correct horse") }
    for name in [
      "\u{0430}lice", "\u{0430}l\u{0456}\u{0441}\u{0435}",
      "\u{FF41}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}",
      "AL\u{0131}CE", "Ada\u{00A0}Lovelace", "ada  lovelace", "\u{03B1}lice", "\u{0251}lice",
      "ali\u{0307}ce", "alic\u{212E}", "\u{13AA}\u{13DE}\u{13C6}\u{13DF}\u{13AC}", "\u{0585}pa",
      "\u{0578}ick", "d\u{2C9F}g", "\u{1D05}og", "aIice", "a1ice", "\u{1D41A}lice", "rnary",
      "ALlCE2",
      // Capitals drawn like Latin ones whose lowercase is not (Cyrillic К В Т М Н, Greek Ε Ν
      // Υ Ζ), and Cyrillic lowercase drawn like small capitals.
      "\u{041A}ate", "\u{0412}ob", "\u{0422}om", "\u{041C}ax", "\u{041D}ank", "\u{0395}ve",
      "\u{039D}ina", "\u{03A5}uri", "\u{0396}ed", "\u{0442}om", "\u{043A}ate",
      "AL\u{0399}CE2",
      // Letters of Lisu, Tifinagh and Coptic, and Latin ones with no compatibility form, that
      // Unicode's confusables data takes for Latin ones.
      "\u{A4EE}my", "\u{A4D0}ee", "\u{A4D4}ed", "\u{A4F3}leg", "\u{2D54}leg", "\u{2CA6}ed",
      "\u{A7B4}ee", "\u{0461}ow", "\u{0196}ola",
    ] {
      await #expect(throws: AuthenticationError.userNameTaken, "\(name)") {
        _ = try await harness.client.createAccount(name, "correct horse")
      }
    }
    // Names that differ to the eye are free: accented letters, other alphabets' own names, and
    // an i for an l.
    let free = [
      "alicia", "alíce", "Ada Byron", "\u{0434}\u{0430}\u{0448}\u{0430}", "Иван", "Νίκος", "José",
      "Zoë", "ailce", "Eli", "Ell",
    ]
    for name in free { _ = try await harness.client.createAccount(name, "correct horse") }
    #expect(try await harness.client.listAccounts().count == taken.count + free.count)
  }

  /// Accounts made before their names' look-alike forms were kept are given them by the next
  /// account made, and an account deleted frees the names that looked like its own.
  @Test func accountsMadeBeforeTheFormsWereKeptAreCheckedToo() async throws {
    let harness = try Harness()
    try harness.database.withConnection { database throws(SQLiteError) in
      try database.run(
        """
        INSERT INTO accounts (user_name, user_key, password_hash, created_at)
        VALUES ('alice', 'alice', '$scrypt$ln=4,r=1,p=1$00$00', 0)
        """)
    }
    await #expect(throws: AuthenticationError.userNameTaken) {
      _ = try await harness.client.createAccount("\u{0430}lice", "correct horse")
    }
    _ = try await harness.client.createAccount("carol", "correct horse")
    await #expect(throws: AuthenticationError.userNameTaken) {
      _ = try await harness.client.createAccount("\u{0441}arol", "correct horse")
    }
    try await harness.client.deleteAccount(credentials("carol", "correct horse"))
    _ = try await harness.client.createAccount("\u{0441}arol", "correct horse")
    let kept = try harness.database.withConnection { database throws(SQLiteError) -> Int in
      try database.query("SELECT count(DISTINCT account_id) FROM account_name_forms").first?
        .get(0) ?? 0
    }
    #expect(kept == 2)
  }

  /// Forms kept by version 5, which took a Cyrillic `К` for nothing Latin, are worked out
  /// again: on a database of that version holding `Кate`, `Kate` is taken.
  @Test func formsKeptBeforeCapitalsCountedAreWorkedOutAgain() async throws {
    let folder = try TemporaryFolder()
    let path = folder.file("tictactoe.sqlite")
    do {
      let old = try Database(path: path)
      try old.migrate(Array(Schema.migrations.prefix(5)))
      try old.execute(
        """
        INSERT INTO accounts (user_name, user_key, password_hash, created_at)
        VALUES ('\u{041A}ate', '\u{043A}ate', '$scrypt$ln=4,r=1,p=1$00$00', 0);
        INSERT INTO account_name_forms VALUES ('\u{043A}ate', 1);
        """)
    }
    let harness = try Harness(path: path)
    await #expect(throws: AuthenticationError.userNameTaken) {
      _ = try await harness.client.createAccount("Kate", "correct horse")
    }
  }

  @Test func userNamesAreCheckedAndUniqueIgnoringCase() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    await #expect(throws: AuthenticationError.userNameTaken) {
      _ = try await harness.client.createAccount("ANN", "another horse")
    }
    for name in [
      "", "   ", String(repeating: "a", count: 25), "\u{1B}[2J", "a\u{7}b", "bi\u{202E}di",
      "line\nbreak", "nul\u{0}",
    ] {
      await #expect(throws: AuthenticationError.invalidUserName) {
        _ = try await harness.client.createAccount(name, "correct horse")
      }
    }
    // The one name rule: printable text, trimmed, up to 24 characters.
    let spaced = try await harness.client.createAccount("  Ada Lovelace ", "correct horse")
    #expect(spaced.userName == "Ada Lovelace")
    _ = try await harness.client.createAccount("émile", "correct horse")
    _ = try await harness.client.createAccount(String(repeating: "z", count: 24), "12345678")
    await #expect(throws: AuthenticationError.passwordTooShort) {
      _ = try await harness.client.createAccount("bob", "1234567")
    }
    _ = try await harness.client.createAccount("bob.o_k@x-y", "12345678")
  }

  @Test func passwordChangeReplacesTheOldOne() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    await #expect(throws: AuthenticationError.invalidCredentials) {
      try await harness.client.changePassword(credentials("ann", "wrong horse"), "battery staple")
    }
    await #expect(throws: AuthenticationError.passwordTooShort) {
      try await harness.client.changePassword(credentials("ann", "correct horse"), "short")
    }
    try await harness.client.changePassword(
      credentials("ann", "correct horse"), "battery staple")
    await #expect(throws: AuthenticationError.invalidCredentials) {
      _ = try await harness.client.login("ann", "correct horse")
    }
    _ = try await harness.client.login("ann", "battery staple")
  }

  @Test func deletedAccountIsGoneAndItsNameFree() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    _ = try await harness.client.createAccount("bob", "correct horse")
    await #expect(throws: AuthenticationError.invalidCredentials) {
      try await harness.client.deleteAccount(credentials("ann", "wrong horse"))
    }
    try await harness.client.deleteAccount(credentials("ann", "correct horse"))
    await #expect(throws: AuthenticationError.invalidCredentials) {
      _ = try await harness.client.login("ann", "correct horse")
    }
    #expect(try await harness.client.listAccounts().map(\.userName) == ["bob"])
    _ = try await harness.client.createAccount("ann", "new horse!")
  }

  @Test func listShowsNamesAndTwoFactorInNameOrder() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("zoe", "correct horse")
    _ = try await harness.annWithTwoFactor()
    let accounts = try await harness.client.listAccounts()
    #expect(accounts.map(\.userName) == ["ann", "zoe"])
    #expect(accounts.map(\.hasTwoFactor) == [true, false])
  }
}

struct LockoutTests {
  private func failLogins(_ harness: Harness, user: String, times: Int) async {
    for _ in 0..<times {
      await #expect(throws: AuthenticationError.invalidCredentials) {
        _ = try await harness.client.login(user, "wrong horse")
      }
    }
  }

  @Test func fiveFailuresLockEvenTheRightPasswordForThirtySeconds() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    await failLogins(harness, user: "ann", times: 5)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await harness.client.login("ann", "correct horse")
    }
    harness.clock.advance(seconds: 29)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 1)) {
      _ = try await harness.client.login("ann", "correct horse")
    }
    harness.clock.advance(seconds: 1)
    _ = try await harness.client.login("ann", "correct horse")
    // Success starts the count again.
    await failLogins(harness, user: "ann", times: 4)
    _ = try await harness.client.login("ann", "correct horse")
  }

  @Test func delaysGrowWithEachFurtherFailure() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    await failLogins(harness, user: "ann", times: 5)
    for expected in [60, 120, 240] {
      harness.clock.advance(seconds: Int64(expected / 2))
      await failLogins(harness, user: "ann", times: 1)
      await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: expected)) {
        _ = try await harness.client.login("ann", "correct horse")
      }
    }
  }

  @Test func aClockSetBackNeverLengthensTheWait() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    await failLogins(harness, user: "ann", times: 5)
    // The failures now lie a day in the future of the clock.
    harness.clock.advance(seconds: -86_400)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await harness.client.login("ann", "correct horse")
    }
    harness.clock.advance(seconds: 30)
    _ = try await harness.client.login("ann", "correct horse")
  }

  @Test func unknownUserIsLockedOutTheSameWay() async throws {
    let harness = try Harness()
    await failLogins(harness, user: "ghost", times: 5)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await harness.client.login("ghost", "correct horse")
    }
  }

  @Test func lockoutCountsPerUserName() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("bob", "correct horse")
    await failLogins(harness, user: "ann", times: 5)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await harness.client.login("ann", "correct horse")
    }
    _ = try await harness.client.login("bob", "correct horse")
  }

  @Test func attemptsOfProgramsKilledMidCheckCountNothingAndAreGivenUp() async throws {
    let harness = try Harness()
    _ = try await harness.client.createAccount("ann", "correct horse")
    // Five programs were killed while checking ann's password, and one left an attempt dated
    // after now (the clock was set back since).
    let now = harness.clock.now
    try harness.database.withConnection { database throws(SQLiteError) in
      for startedAt in [now, now, now, now, now, now + 86_400_000] {
        try database.run(
          "INSERT INTO sign_in_attempts (user_key, started_at) VALUES ('ann', ?)",
          SQLiteValue(startedAt))
      }
    }
    // Once their lifetime is over, they no longer hold anyone back, and none was a failure.
    harness.clock.advance(seconds: 31)
    guard case .signedIn = try await harness.client.login("ann", "correct horse") else {
      Issue.record("ann's password alone does not sign her in")
      return
    }
    await failLogins(harness, user: "ann", times: 4)
    _ = try await harness.client.login("ann", "correct horse")
  }

  @Test func guessesStartedAtOnceByManyProgramsAreHeldToTheSameLimit() async throws {
    // Ten programs over one database guess at once, with a password hash slow enough for their
    // checks to overlap: no more are checked at once than failures are left, so the sixth
    // finds the lock.
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let programs = try (0..<10).map { _ in
      AuthenticationClient.live(
        database: try LocalDatabase(path: folder.file("accounts.sqlite")),
        passwordAlgorithm: .scrypt(logN: 12, r: 8, p: 1), now: { clock.now })
    }
    _ = try await programs[0].createAccount("ann", "correct horse")
    let outcomes = await withTaskGroup(of: AuthenticationError?.self) { group in
      for program in programs {
        group.addTask {
          do {
            _ = try await program.login("ann", "wrong horse")
            return nil
          } catch {
            return error as? AuthenticationError
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.filter { $0 == .invalidCredentials }.count == 5)
    #expect(outcomes.filter { $0 == .lockedOut(retryAfterSeconds: 30) }.count == 5)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await programs[0].login("ann", "correct horse")
    }
  }

  @Test func aRightPasswordAwaitingItsCodeNeitherCountsNorClears() async throws {
    let harness = try Harness()
    _ = try await harness.annWithTwoFactor()
    await failLogins(harness, user: "ann", times: 4)
    // Right, with a code still to come: not a failure, and not yet proof of the owner.
    _ = try await harness.challenge()
    await #expect(throws: AuthenticationError.codeRequired) {
      try await harness.client.disableTwoFactor(credentials("ann", "correct horse"))
    }
    await failLogins(harness, user: "ann", times: 1)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await harness.client.login("ann", "correct horse")
    }
  }

  @Test func wrongCodesCountTowardsTheLockout() async throws {
    let harness = try Harness()
    let (secret, _) = try await harness.annWithTwoFactor()
    let challenge = try await harness.challenge()
    for _ in 0..<5 {
      await #expect(throws: AuthenticationError.invalidCode) {
        _ = try await harness.client.verifyTwoFactor(challenge, "000000")
      }
    }
    let rightCode = try harness.code(secret: secret)
    await #expect(throws: AuthenticationError.lockedOut(retryAfterSeconds: 30)) {
      _ = try await harness.client.verifyTwoFactor(challenge, rightCode)
    }
  }
}
