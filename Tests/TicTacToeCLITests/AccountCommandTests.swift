import Crypto
import DatabaseClient
import DatabaseClientLive
import Foundation
import Testing
import TicTacToeCLI

struct AccountCommandTests {
  private let password = "correct horse"

  @Test func createdAccountIsListed() throws {
    let database = try TemporaryDatabase()
    let created = try database.run(
      "account", "create", "alice", "--password-stdin", input: password + "\n")
    #expect(created.status == 0)
    #expect(created.output == "Created the account alice.\n")
    #expect(created.error.isEmpty)
    let listed = try database.run("account", "list", "--json")
    #expect(listed.status == 0)
    #expect(
      listed.output == "{\"accounts\":[{\"id\":1,\"userName\":\"alice\",\"twoFactor\":false}]}\n")
    #expect(try database.run("account", "list").output == "alice\n")
  }

  @Test func databaseOptionWinsOverTheEnvironment() throws {
    let database = try TemporaryDatabase()
    let chosen = database.folder.appendingPathComponent("chosen.sqlite").path
    let created = try database.run(
      "account", "create", "alice", "--password-stdin", "--database", chosen,
      input: password + "\n")
    #expect(created.status == 0)
    #expect(FileManager.default.fileExists(atPath: chosen))
    #expect(!FileManager.default.fileExists(atPath: database.path))
  }

  @Test func takenUserNameIsRefused() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let again = try database.run(
      "account", "create", "Alice", "--password-stdin", input: "another password\n")
    #expect(again.status == 1)
    #expect(again.error == "tictactoe: That user name is taken. Choose another.\n")
  }

  @Test func shortPasswordIsBadInput() throws {
    let database = try TemporaryDatabase()
    let created = try database.run(
      "account", "create", "alice", "--password-stdin", input: "short\n")
    #expect(created.status == 2)
    #expect(created.error.contains("at least 8 characters"))
    #expect(try database.run("account", "list", "--json").output == "{\"accounts\":[]}\n")
  }

  @Test func passwordWithoutATerminalNeedsTheStdinOption() throws {
    let database = try TemporaryDatabase()
    let created = try database.run("account", "create", "alice", input: password + "\n")
    #expect(created.status == 2)
    #expect(created.error.contains("--password-stdin"))
  }

  @Test func wrongPasswordAndUnknownUserFailAlike() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let wrong = try database.run(
      "login", "alice", "--password-stdin", input: "not the password\n")
    let unknown = try database.run(
      "login", "bob", "--password-stdin", input: "not the password\n")
    #expect(wrong.status == 1)
    #expect(unknown.status == 1)
    #expect(wrong.error == "tictactoe: The user name or password is incorrect.\n")
    #expect(unknown.error == wrong.error)
    #expect(wrong.output.isEmpty)
  }

  @Test func repeatedFailuresLockKnownAndUnknownNamesAlike() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    for user in ["alice", "bob"] {
      for _ in 1...5 {
        let wrong = try database.run("login", user, "--password-stdin", input: "wrong words\n")
        #expect(wrong.status == 1)
      }
    }
    let locked = try database.run("login", "alice", "--password-stdin", input: password + "\n")
    #expect(locked.status == 1)
    #expect(locked.error.hasPrefix("tictactoe: Too many failed attempts. Try again in "))
    let unknown = try database.run("login", "bob", "--password-stdin", input: password + "\n")
    #expect(unknown.status == 1)
    #expect(unknown.error.hasPrefix("tictactoe: Too many failed attempts. Try again in "))
  }

  @Test func rightPasswordSignsIn() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let login = try database.run("login", "ALICE", "--password-stdin", input: password + "\n")
    #expect(login.status == 0)
    #expect(login.output == "Signed in as alice.\n")
  }

  @Test func changedPasswordReplacesTheOldOne() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let changed = try database.run(
      "account", "passwd", "alice", "--password-stdin", input: "\(password)\nnew password\n")
    #expect(changed.status == 0)
    #expect(
      try database.run("login", "alice", "--password-stdin", input: password + "\n").status == 1)
    #expect(
      try database.run("login", "alice", "--password-stdin", input: "new password\n").status == 0)
  }

  @Test func deletingNeedsThePasswordAndRemovesTheAccount() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let refused = try database.run(
      "account", "delete", "alice", "--password-stdin", input: "wrong password\n")
    #expect(refused.status == 1)
    let deleted = try database.run(
      "account", "delete", "alice", "--password-stdin", input: password + "\n")
    #expect(deleted.status == 0)
    #expect(try database.run("account", "list", "--json").output == "{\"accounts\":[]}\n")
  }

  /// An account playing in another program is not deleted: its game would stop at the next
  /// move, unable to store it.
  @Test func anAccountPlayingElsewhereIsNotDeleted() async throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    // This test holds alice's game in progress, as a program playing as her does.
    let playing = DatabaseClient.live(database: try LocalDatabase(path: database.path))
    try await playing.claimGameInProgress(.account(1))
    let refused = try database.run(
      "account", "delete", "alice", "--password-stdin", input: password + "\n")
    #expect(refused.status == 1)
    #expect(
      refused.error
        == "tictactoe: alice is signed in to another Tic-Tac-Toe, which plays its games; sign out "
        + "of it or close it, then delete the account.\n")
    await playing.releaseGameInProgress(.account(1))
    let deleted = try database.run(
      "account", "delete", "alice", "--password-stdin", input: password + "\n")
    #expect(deleted.status == 0, "\(deleted.error)")
  }

  @Test func twoFactorTurnsOnWithACodeAndGuardsSignIn() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let (enabled, secret) = try database.enableTwoFactor("alice", password: password)
    #expect(enabled.status == 0, "\(enabled.error)")
    let lines = enabled.lines
    #expect(lines.first == "Secret: \(Base32.encode(secret))")
    #expect(
      lines.dropFirst().first?.hasPrefix("URI: otpauth://totp/TicTacToe:alice?secret=") == true)
    let codes = recoveryCodes(in: enabled.output)
    #expect(codes.count == 8)
    #expect(Set(codes).count == 8)
    #expect(
      try database.run("account", "list", "--json").output.contains("\"twoFactor\":true"))

    let withoutCode = try database.run("login", "alice", "--password-stdin", input: password + "\n")
    #expect(withoutCode.status == 1)
    #expect(withoutCode.error.contains("--code"))

    // The enabling code used the current time step; the next one is within the ±1 allowed.
    let code = OneTimePassword.totp(secret: secret, unixTime: unixTime() + 30)
    let signedIn = try database.run(
      "login", "alice", "--password-stdin", "--code", code, input: password + "\n")
    #expect(signedIn.status == 0, "\(signedIn.error)")
    #expect(
      signedIn.output
        == "Signed in as alice; 8 recovery codes left (tictactoe account recovery-codes alice "
        + "makes new ones).\n")
    let replayed = try database.run(
      "login", "alice", "--password-stdin", "--code", code, input: password + "\n")
    #expect(replayed.status == 1)
    #expect(replayed.error.contains("code is not valid"))

    let recovery = try #require(codes.first)
    let recovered = try database.run(
      "login", "alice", "--password-stdin", "--code", recovery, input: password + "\n")
    #expect(recovered.status == 0)
    #expect(recovered.output.hasPrefix("Signed in as alice; 7 recovery codes left"))
    let reused = try database.run(
      "login", "alice", "--password-stdin", "--code", recovery, input: password + "\n")
    #expect(reused.status == 1)
  }

  @Test func twoFactorCodeMayFollowThePasswordOnStandardInput() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let (enabled, secret) = try database.enableTwoFactor("alice", password: password)
    #expect(enabled.status == 0)
    let code = OneTimePassword.totp(secret: secret, unixTime: unixTime() + 30)
    let login = try database.run(
      "login", "alice", "--password-stdin", input: "\(password)\n\(code)\n")
    #expect(login.status == 0, "\(login.error)")
    let wrongPassword = try database.run(
      "login", "alice", "--password-stdin", input: "wrong password\n\(code)\n")
    #expect(wrongPassword.status == 1)
  }

  @Test func wrongConfirmingCodeLeavesTwoFactorOff() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let (enabled, _) = try database.enableTwoFactor("alice", password: password) { secret in
      // Every digit differs from the current code.
      let code = OneTimePassword.totp(secret: secret, unixTime: unixTime())
      return String(code.map { Character(String(((Int(String($0)) ?? 0) + 1) % 10)) })
    }
    #expect(enabled.status == 1)
    #expect(enabled.error.contains("Two-factor stays off."))
    #expect(recoveryCodes(in: enabled.output).isEmpty)
    #expect(
      try database.run("account", "list", "--json").output.contains("\"twoFactor\":false"))
  }

  @Test func disablingTwoFactorNeedsThePasswordAndACode() throws {
    let database = try TemporaryDatabase()
    try database.createAccount("alice", password: password)
    let (enabled, secret) = try database.enableTwoFactor("alice", password: password)
    #expect(enabled.status == 0)
    let code = OneTimePassword.totp(secret: secret, unixTime: unixTime() + 30)
    let refused = try database.run(
      "account", "2fa-disable", "alice", "--password-stdin", "--code", code,
      input: "wrong password\n")
    #expect(refused.status == 1)
    #expect(refused.error == "tictactoe: The user name or password is incorrect.\n")
    let withoutCode = try database.run(
      "account", "2fa-disable", "alice", "--password-stdin", input: password + "\n")
    #expect(withoutCode.status == 1)
    #expect(withoutCode.error.contains("two-factor on: pass --code CODE"))
    let disabled = try database.run(
      "account", "2fa-disable", "alice", "--password-stdin", input: "\(password)\n\(code)\n")
    #expect(disabled.status == 0, "\(disabled.error)")
    #expect(
      try database.run("login", "alice", "--password-stdin", input: password + "\n").status == 0)
  }

  @Test func unknownPasswordCostIsRefused() throws {
    let database = try TemporaryDatabase()
    let result = try TicTacToeCLITests.run(
      arguments: ["account", "list"],
      environment: ["TICTACTOE_PASSWORD_COST": "cheap"]
        .merging(["TICTACTOE_DATABASE": database.path]) { $1 })
    #expect(result.status == 2)
    #expect(result.error.contains("TICTACTOE_PASSWORD_COST"))
  }

  @Test(arguments: [
    (["account"], "The account command needs an action"),
    (["account", "rename", "alice"], "Unknown account action \"rename\""),
    (["account", "create"], "needs a user name"),
    (["account", "create", "alice", "--json"], "--json works only with account list"),
    (["account", "list", "--password-stdin"], "reads no password"),
    (["login"], "needs a user name"),
    (["login", "alice", "--code"], "--code needs a value"),
    (["stats", "--yes"], "--yes confirms --reset"),
    (["history", "alice", "bob"], "Unexpected argument \"bob\""),
    (["replay"], "needs a game id"),
    (["replay", "twelve"], "not \"twelve\""),
    (["account", "create", "alice", "--code", "123456"], "--code works only with account passwd"),
    (["account", "list", "--code", "123456"], "--code works only with"),
    (["account", "recovery-codes"], "needs a user name"),
    (["stats", "alice", "--password-stdin"], "go with USER --reset"),
    (["stats", "--reset", "--code", "123456"], "go with USER --reset"),
    (["login", "alice", "--code", "12\u{202E}34"], "--code needs the 6-digit code"),
    // Neither 6 digits nor a recovery code, whether or not the account has two-factor on.
    (["login", "alice", "--code", "12345x"], "--code needs the 6-digit code"),
    (["login", "alice", "--code", "1234567"], "--code needs the 6-digit code"),
    (["login", "alice", "--code", "abcde-fghi8"], "--code needs the 6-digit code"),
    (["play", "--user", "alice", "--code", "12345"], "--code needs the 6-digit code"),
    (["stats", String(repeating: "a", count: 33)], "A user name is 1 to 24 printable"),
  ])
  func badUsageExitsWithTwo(arguments: [String], message: String) throws {
    let database = try TemporaryDatabase()
    let result = try TicTacToeCLITests.run(arguments: arguments, environment: database.environment)
    #expect(result.status == 2)
    #expect(result.error.contains(message), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1)
    // Usage errors are found before the database is opened.
    #expect(!FileManager.default.fileExists(atPath: database.path))
  }

  @Test func parsesTheCodeAndTheNewOptions() throws {
    #expect(
      try Command.parse(["account", "2fa-disable", "  alice ", "--code", "123 456"])
        == .account(AccountOptions(action: .disableTwoFactor, user: "alice", code: "123 456")))
    #expect(
      try Command.parse(["account", "recovery-codes", "alice", "--password-stdin"])
        == .account(
          AccountOptions(action: .recoveryCodes, user: "alice", passwordFromStandardInput: true)))
    #expect(
      try Command.parse(["stats", "alice", "--reset", "--password-stdin", "--code", "abcde-fghij"])
        == .stats(
          StatsOptions(
            user: "alice", reset: true, passwordFromStandardInput: true, code: "abcde-fghij")))
    // A user name of an earlier rule (up to 32 letters) is still accepted.
    let earlier = String(repeating: "a", count: 32)
    #expect(try Command.parse(["history", earlier]) == .history(user: earlier, json: false))
  }

  @Test func parsesAccountOptions() throws {
    #expect(
      try Command.parse(["account", "2fa-enable", "alice", "--password-stdin"])
        == .account(
          AccountOptions(
            action: .enableTwoFactor, user: "alice", passwordFromStandardInput: true)))
    #expect(
      try Command.parse(["login", "alice", "--code=123456"])
        == .login(LoginOptions(user: "alice", code: "123456")))
    #expect(
      try Command.parse(["stats", "bob", "--reset", "--yes", "--json"])
        == .stats(StatsOptions(user: "bob", json: true, reset: true, confirmed: true)))
    #expect(try Command.parse(["replay", "12"]) == .replay(gameID: 12))
  }

  @Test func helpListsTheNewCommands() throws {
    let overview = try run("--help").output
    for command in ["account", "login", "stats", "history", "replay"] {
      #expect(overview.contains("\n  \(command) "), "overview lacks \(command)")
      let help = try run(command, "--help")
      #expect(help.status == 0)
      #expect(help.output.contains("Examples:\n  tictactoe \(command)"), "\(command) --help")
    }
  }
}

struct TerminalPromptTests {
  @Test func createAsksTwiceWithoutEcho() throws {
    let database = try TemporaryDatabase()
    let run = try runOnTerminal(
      ["account", "create", "alice"], environment: database.environment,
      answers: [
        ("Password for the new account alice: ", "hidden words"), ("again: ", "hidden words"),
      ])
    #expect(run.status == 0)
    #expect(run.output == "Created the account alice.\n")
    #expect(run.terminal.contains("Type it again: "))
    #expect(!run.terminal.contains("hidden"))
    let login = try runOnTerminal(
      ["login", "alice"], environment: database.environment,
      answers: [("Password for alice: ", "hidden words")])
    #expect(login.status == 0)
    #expect(login.output == "Signed in as alice.\n")
    #expect(!login.terminal.contains("hidden"))
  }

  @Test func differentRepeatsCreateNothing() throws {
    let database = try TemporaryDatabase()
    let run = try runOnTerminal(
      ["account", "create", "alice"], environment: database.environment,
      answers: [("alice: ", "hidden words"), ("again: ", "hidden wordz")])
    #expect(run.status == 2)
    #expect(run.terminal.contains("The two passwords differ, so nothing was changed."))
    #expect(try database.run("account", "list", "--json").output == "{\"accounts\":[]}\n")
  }

  @Test func resetOnATerminalAsksFirst() async throws {
    let database = try TemporaryDatabase()
    try await database.seed([
      .finished(
        x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Ben"), moves: "a1 a2 b1 b2 c1",
        endedAt: 1_700_000_000_000)
    ])
    let declined = try runOnTerminal(
      ["stats", "--reset"], environment: database.environment,
      answers: [("Delete 1 finished game of the guest for good? Type yes to confirm: ", "no")])
    #expect(declined.status == 1)
    #expect(try database.run("stats", "--json").json()["games"] as? Int == 1)
    let confirmed = try runOnTerminal(
      ["stats", "--reset"], environment: database.environment,
      answers: [("Type yes to confirm: ", "yes")])
    #expect(confirmed.status == 0)
    #expect(try database.run("stats", "--json").json()["games"] as? Int == 0)
  }
}
