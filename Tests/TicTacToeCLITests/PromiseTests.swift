import Crypto
import DatabaseClient
import DatabaseClientLive
import Foundation
import GameRules
import SQLite
import TestSupport
import Testing

/// Whether text holds a byte that drives a terminal: a C0 control other than the newline, DEL,
/// or a C1 control.
func holdsRawControl(_ text: String) -> Bool {
  text.unicodeScalars.contains { scalar in
    (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
  }
}

/// The commands that open the database, with what they read on standard input.
private let databaseCommands: [(arguments: [String], input: String)] = [
  (["play", "--plain", "--computer", "none"], "b2\na1\n"), (["stats"], ""),
  (["stats", "--reset", "--yes"], ""), (["stats", "alice", "--json"], ""),
  (["history"], ""), (["history", "alice", "--json"], ""), (["replay", "1"], ""),
  (["account", "list"], ""), (["account", "create", "bob", "--password-stdin"], "correct horse\n"),
  (["login", "alice", "--password-stdin"], "correct horse\n"),
]

struct DamagedDatabaseTests {
  @Test func pageDamagedDatabaseIsRefusedAlikeByEveryCommandAndNeverWritten() async throws {
    let database = try TemporaryDatabase()
    let alice = try database.createAccount("alice", password: "correct horse")
    var records: [GameRecord] = []
    for index in 0..<20 {
      records.append(
        try .finished(
          x: PlayerRecord(name: "alice", accountID: alice), o: PlayerRecord(name: "Bob"),
          moves: "a1 a2 b1 b2 c1", endedAt: 1_700_000_000_000 + Int64(index) * 60_000))
    }
    try await database.seed(records)
    let damaged = try damagePages(of: database.path)
    let sentence =
      "tictactoe: The database \(database.path) is damaged or is not a database of this "
      + "program; it was left unchanged, so move it aside or restore a backup to go on.\n"
    for command in databaseCommands {
      let result = try database.run(arguments: command.arguments, input: command.input)
      #expect(result.status == 1, "\(command.arguments)")
      #expect(result.error == sentence, "\(command.arguments)")
      #expect(result.output.isEmpty, "\(command.arguments)")
      #expect(contents(database.path) == damaged, "\(command.arguments) changed the file")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: database.folder.path)
        == ["tictactoe.sqlite"])
  }

  @Test func readOnlyDatabaseIsStillReadAndNeverWritten() async throws {
    let database = try TemporaryDatabase()
    let alice = try database.createAccount("alice", password: "correct horse")
    let ids = try await database.seed([
      try .finished(
        x: PlayerRecord(name: "alice", accountID: alice), o: PlayerRecord(name: "Bob"),
        moves: "a1 a2 b1 b2 c1", endedAt: 1_700_000_000_000)
    ])
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o400], ofItemAtPath: database.path)
    let before = contents(database.path)
    let stats = try database.run("stats", "alice", "--json")
    #expect(stats.status == 0, "\(stats.error)")
    #expect(try stats.json()["wins"] as? Int == 1)
    let history = try database.run("history", "alice")
    #expect(history.status == 0 && history.lines.count == 1, "\(history.error)")
    let replay = try database.run("replay", "\(try #require(ids.first))")
    #expect(replay.status == 0, "\(replay.error)")
    #expect(replay.output.contains("X wins with a1, b1, c1."))
    let list = try database.run("account", "list")
    #expect(list.status == 0 && list.output == "alice\n", "\(list.error)")
    for command in [
      (["play", "--plain", "--computer", "none"], "b2\n"),
      (["stats", "--reset", "--yes"], ""),
      (["account", "create", "bob", "--password-stdin"], "correct horse\n"),
    ] {
      let refused = try database.run(arguments: command.0, input: command.1)
      #expect(refused.status == 1, "\(command.0)")
      #expect(
        refused.error.hasPrefix(
          "tictactoe: The database \(database.path) is read-only, so nothing can be saved"),
        "\(command.0): \(refused.error)")
    }
    #expect(contents(database.path) == before)
  }

  @Test func creationThatRunsOutOfSpaceLeavesNoFile() throws {
    let database = try TemporaryDatabase()
    // A file size limit of 8 KiB stands in for a nearly full disk: the first pages fit, the
    // schema does not.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      "-c", "trap '' XFSZ; ulimit -f 8; exec \"$0\" stats --reset --yes --database \"$1\"",
      executable.path, database.path,
    ]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(
      decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(message.hasPrefix("tictactoe: The database \(database.path) could not be"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: database.folder.path).isEmpty)
    // Without the limit the next run creates it whole.
    let next = try database.run("stats", "--reset", "--yes")
    #expect(next.status == 0, "\(next.error)")
    #expect(try database.run("stats").output == "No games recorded for the guest.\n")
    #expect(FileManager.default.fileExists(atPath: database.path))
  }
}

struct StoredTextTests {
  private static let hostile = "\u{1B}[2J\u{1B}]0;PWNED\u{7}"

  @Test func namesFromTheDatabaseReachTheTerminalEscaped() async throws {
    let database = try TemporaryDatabase()
    let alice = try database.createAccount("alice", password: "correct horse")
    let ids = try await database.seed([
      try .finished(
        x: PlayerRecord(name: Self.hostile, accountID: nil), o: PlayerRecord(name: "Bob\u{9B}2J"),
        moves: "a1 a2 b1 b2 c1", endedAt: 1_700_000_000_000),
      try .finished(
        x: PlayerRecord(name: "alice", accountID: alice),
        o: PlayerRecord(name: "Eve\u{202E}gnp.exe"), moves: "a1 a2 b1 b2 c1",
        endedAt: 1_700_000_060_000),
    ])
    try LocalDatabase(path: database.path).withConnection { database throws(SQLiteError) in
      try database.run(
        """
        INSERT INTO accounts (user_name, user_key, password_hash, created_at)
        VALUES (?, 'mallory', '$scrypt$ln=4,r=1,p=1$00$00', 0)
        """, .text("mal\u{1B}[31mlory"))
    }
    let commands = [
      ["history"], ["history", "--json"], ["history", "alice"], ["history", "alice", "--json"],
      ["stats"], ["stats", "--json"], ["stats", "alice"], ["stats", "alice", "--json"],
      ["replay", "\(ids[0])"], ["replay", "\(ids[1])"], ["account", "list"],
      ["account", "list", "--json"],
    ]
    for arguments in commands {
      let result = try database.run(arguments: arguments)
      #expect(result.status == 0, "\(arguments): \(result.error)")
      #expect(
        !holdsRawControl(result.output), "\(arguments) printed \(result.output.debugDescription)")
      #expect(!holdsRawControl(result.error), "\(arguments)")
      #expect(!result.output.unicodeScalars.contains("\u{202E}"), "\(arguments)")
    }
    #expect(try database.run("history").output.contains("\\u{1B}[2J\\u{1B}]0;"))
    #expect(try database.run("account", "list").output.contains("mal\\u{1B}[31mlory"))
    // JSON stays JSON: the escapes decode back to the stored text.
    let json = try database.run("history", "--json").json()
    let games = try #require(json["games"] as? [[String: Any]])
    let x = try #require(games.first?["x"] as? [String: Any])
    #expect((x["name"] as? String)?.hasPrefix("\\u{1B}[2J\\u{1B}]0;") == true)
  }
}

struct CredentialTests {
  private let password = "correct horse"

  /// alice with two-factor on and one finished game; returns her TOTP secret.
  private func aliceWithTwoFactor(_ database: TemporaryDatabase) async throws -> [UInt8] {
    try await aliceWithTwoFactorAndRecoveryCodes(database).secret
  }

  /// alice with two-factor on and one finished game; returns her TOTP secret and recovery
  /// codes.
  private func aliceWithTwoFactorAndRecoveryCodes(
    _ database: TemporaryDatabase
  ) async throws -> (secret: [UInt8], recoveryCodes: [String]) {
    let alice = try database.createAccount("alice", password: password)
    try await database.seed([
      try .finished(
        x: PlayerRecord(name: "alice", accountID: alice), o: PlayerRecord(name: "Bob"),
        moves: "a1 a2 b1 b2 c1", endedAt: 1_700_000_000_000)
    ])
    let (enabled, secret) = try database.enableTwoFactor("alice", password: password)
    #expect(enabled.status == 0)
    return (secret, recoveryCodes(in: enabled.output))
  }

  private func nextCode(_ secret: [UInt8]) -> String {
    OneTimePassword.totp(secret: secret, unixTime: unixTime() + 30)
  }

  @Test func passwdAndDeleteOfATwoFactorAccountNeedACode() async throws {
    let database = try TemporaryDatabase()
    let secret = try await aliceWithTwoFactor(database)
    let passwd = try database.run(
      "account", "passwd", "alice", "--password-stdin", input: "\(password)\nnew words!\n")
    #expect(passwd.status == 1)
    #expect(passwd.error.contains("two-factor on: pass --code CODE"))
    let delete = try database.run(
      "account", "delete", "alice", "--password-stdin", input: "\(password)\n")
    #expect(delete.status == 1)
    #expect(try database.run("account", "list").output == "alice  (two-factor on)\n")
    let changed = try database.run(
      "account", "passwd", "alice", "--password-stdin", "--code", nextCode(secret),
      input: "\(password)\nnew words!\n")
    #expect(changed.status == 0, "\(changed.error)")
    #expect(
      try database.run("login", "alice", "--password-stdin", input: "new words!\n").error
        .contains("two-factor on"))
  }

  @Test func resettingAnAccountsStatsNeedsItsSignIn() async throws {
    let database = try TemporaryDatabase()
    let secret = try await aliceWithTwoFactor(database)
    let withoutPassword = try database.run("stats", "alice", "--reset", "--yes")
    #expect(withoutPassword.status == 2)
    let wrong = try database.run(
      "stats", "alice", "--reset", "--yes", "--password-stdin", input: "wrong words\n000000\n")
    #expect(wrong.status == 1)
    #expect(wrong.error == "tictactoe: The user name or password is incorrect.\n")
    let noCode = try database.run(
      "stats", "alice", "--reset", "--yes", "--password-stdin", input: "\(password)\n")
    #expect(noCode.status == 1)
    #expect(try database.run("stats", "alice", "--json").json()["games"] as? Int == 1)
    let unknown = try database.run(
      "stats", "nobody", "--reset", "--yes", "--password-stdin", input: "\(password)\n")
    #expect(unknown.status == 1)
    #expect(unknown.error == wrong.error)
    let reset = try database.run(
      "stats", "alice", "--reset", "--yes", "--password-stdin", "--code", nextCode(secret),
      input: "\(password)\n")
    #expect(reset.status == 0, "\(reset.error)")
    #expect(reset.output == "Reset the stats of alice: deleted 1 finished game.\n")
    #expect(try database.run("stats", "alice", "--json").json()["games"] as? Int == 0)
  }

  /// Programs signing alice in at once, one a password, over a database where her account
  /// has the cost real accounts have: slow enough for the programs' checks to overlap.
  private func signInsAtOnce(_ passwords: [String]) throws -> [RunResult] {
    let database = try TemporaryDatabase()
    let realCost = ["TICTACTOE_DATABASE": database.path]
    let created = try TicTacToeCLITests.run(
      arguments: ["account", "create", "alice", "--password-stdin"], input: password + "\n",
      environment: realCost)
    #expect(created.status == 0, "\(created.error)")
    let programs = try passwords.map { typed in
      let program = try launch(
        arguments: ["login", "alice", "--password-stdin"], environment: realCost)
      program.input.fileHandleForWriting.write(Data((typed + "\n").utf8))
      try program.input.fileHandleForWriting.close()
      return program
    }
    return programs.map { $0.finish() }
  }

  /// Eight right sign-ins at once all get in: attempts in flight are no failed attempts, and
  /// none is told to wait for a lock that is not there.
  @Test func rightSignInsInManyProgramsAtOnceAllGetIn() throws {
    let results = try signInsAtOnce(Array(repeating: password, count: 8))
    #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
  }

  /// Ten wrong guesses at once are held to the five failures allowed before the wait.
  @Test func wrongGuessesInManyProgramsAtOnceMeetTheWaitAtTheSixth() throws {
    let results = try signInsAtOnce((0..<10).map { "wrong horse \($0)" })
    let errors = results.map(\.error)
    #expect(
      errors.filter { $0 == "tictactoe: The user name or password is incorrect.\n" }.count == 5,
      "\(errors)")
    #expect(
      errors.filter { $0 == "tictactoe: Too many failed attempts. Try again in 30 seconds.\n" }
        .count == 5, "\(errors)")
  }

  @Test func aResetRefusedForWantOfYesSpendsNoRecoveryCode() async throws {
    let database = try TemporaryDatabase()
    let code = try #require(
      try await aliceWithTwoFactorAndRecoveryCodes(database).recoveryCodes.first)
    let refused = try database.run(
      "stats", "alice", "--reset", "--password-stdin", "--code", code, input: "\(password)\n")
    #expect(refused.status == 2)
    #expect(
      refused.error
        == "tictactoe: Resetting stats deletes finished games; pass --yes to confirm when not "
        + "at a terminal.\n")
    #expect(try database.run("stats", "alice", "--json").json()["games"] as? Int == 1)
    // The recovery code was not spent on the refusal: it still signs in.
    let login = try database.run(
      "login", "alice", "--password-stdin", "--code", code, input: "\(password)\n")
    #expect(login.status == 0, "\(login.error)")
  }

  @Test func guestStatsResetWithoutCredentials() async throws {
    let database = try TemporaryDatabase()
    try await database.seed([
      try .finished(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Ben"), moves: "a1 a2 b1 b2 c1",
        endedAt: 1_700_000_000_000)
    ])
    let reset = try database.run("stats", "--reset", "--yes")
    #expect(reset.status == 0)
    #expect(reset.output == "Reset the stats of the guest: deleted 1 finished game.\n")
  }

  @Test func recoveryCodesCommandMakesNewCodesForASignedInPlayer() async throws {
    let database = try TemporaryDatabase()
    let secret = try await aliceWithTwoFactor(database)
    let made = try database.run(
      "account", "recovery-codes", "alice", "--password-stdin", "--code", nextCode(secret),
      input: "\(password)\n")
    #expect(made.status == 0, "\(made.error)")
    #expect(made.lines.first == "New recovery codes for alice; the old ones no longer work:")
    let codes = recoveryCodes(in: made.output)
    #expect(codes.count == 8)
    let login = try database.run(
      "login", "alice", "--password-stdin", "--code", try #require(codes.first),
      input: "\(password)\n")
    #expect(login.status == 0)
    #expect(login.output.hasPrefix("Signed in as alice; 7 recovery codes left"))
    let withoutTwoFactor = try TemporaryDatabase()
    try withoutTwoFactor.createAccount("bob", password: password)
    let refused = try withoutTwoFactor.run(
      "account", "recovery-codes", "bob", "--password-stdin", input: "\(password)\n")
    #expect(refused.status == 1)
    #expect(refused.error == "tictactoe: Two-factor is not on for this account.\n")
  }

  @Test(arguments: [
    (Array("abcdefgh\u{0}\n".utf8), "NUL"),
    ([0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA, 0xF9, 0xF8, 0x0A], "UTF-8"),
    (Array("esc\u{1B}[2Jape\n".utf8), "control"),
    (Array(String(repeating: "x", count: 100_000).utf8) + [0x0A], "longer than"),
  ])
  func passwordLineThatIsNotTextIsRefused(bytes: [UInt8], reason: String) throws {
    let database = try TemporaryDatabase()
    // A command that changes something says nothing was; a sign-in, that no one was signed in.
    for (arguments, outcome) in [
      (["account", "create", "alice", "--password-stdin"], "; nothing was changed.\n"),
      (["login", "alice", "--password-stdin"], "; no one was signed in.\n"),
    ] {
      let result = try run(
        arguments: arguments, bytes: bytes, environment: database.environment)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error.hasPrefix("tictactoe: The line with the password "))
      #expect(result.error.contains(reason))
      #expect(result.error.hasSuffix(outcome), "\(result.error)")
      #expect(result.error.split(separator: "\n").count == 1)
      #expect(!holdsRawControl(result.error))
    }
    #expect(try database.run("account", "list", "--json").output == "{\"accounts\":[]}\n")
  }

  /// Input that ends before the password says so, and what it left undone.
  @Test func inputEndingBeforeThePasswordSaysWhatItLeftUndone() throws {
    let database = try TemporaryDatabase()
    let created = try database.run("account", "create", "alice", "--password-stdin")
    #expect(created.status == 2)
    #expect(
      created.error == "tictactoe: Standard input ended before the password; nothing was changed.\n"
    )
    let login = try database.run("login", "alice", "--password-stdin")
    #expect(login.status == 2)
    #expect(
      login.error == "tictactoe: Standard input ended before the password; no one was signed in.\n")
  }
}

struct HostileArgumentTests {
  /// Values no option takes: escape sequences, other controls, overlong and empty.
  private static let values = [
    "\u{1B}[2J\u{1B}]0;PWNED\u{7}", "tab\there", "line\nbreak", "\u{7F}", "\u{9B}31m",
    String(repeating: "x", count: 5_000), "",
  ]

  @Test func hostileValuesAreRefusedInOneEscapedSentence() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: "correct horse")
    let before = contents(database.path)
    let commands: [[String]] = [
      ["play", "--x"], ["play", "--o"], ["play", "--difficulty"], ["play", "--user"],
      ["play", "--database"], ["stats"], ["history"], ["replay"], ["login"],
      ["account", "create"], ["account", "passwd"], ["analyze"], ["bestmove"],
      ["stats", "--database"], ["account", "list", "--database"],
    ]
    for command in commands {
      for value in Self.values {
        // An empty positional means the argument is missing, which is a usage error too.
        let result = try database.run(arguments: command + [value])
        #expect(result.status == 2, "\(command) \(value.debugDescription)")
        #expect(result.error.hasPrefix("tictactoe: "), "\(command)")
        #expect(result.error.split(separator: "\n").count == 1, "\(command)")
        #expect(!holdsRawControl(result.error), "\(command) \(result.error.debugDescription)")
        #expect(result.output.isEmpty, "\(command)")
      }
    }
    #expect(contents(database.path) == before)
  }
}
