import AppLive
import AuthenticationClient
import AuthenticationClientLive
import Console
import Crypto
import DatabaseClient
import DatabaseClientLive
import Foundation
import GameRules

/// Why a subcommand stopped: one sentence for stderr and the exit code.
struct CommandFailure: Error {
  var message: String
  var status: Int32

  /// A failure of the world or the credentials: exit 1.
  static func failure(_ message: String) -> CommandFailure {
    CommandFailure(message: message, status: CLI.ExitCode.failure)
  }

  /// Bad usage or input: exit 2.
  static func usage(_ message: String) -> CommandFailure {
    CommandFailure(message: message, status: CLI.ExitCode.usage)
  }

  /// The failure for an error thrown by a client or the input.
  init(_ error: any Error) {
    switch error {
    case let error as CommandFailure: self = error
    case let error as UsageError:
      self = error.isInputFailure ? .failure(error.message) : .usage(error.message)
    case let error as DatabaseError: self = .failure(error.message)
    case let error as AuthenticationError:
      switch error {
      case .invalidUserName, .passwordTooShort, .passwordTooLong, .passwordNotText:
        self = .usage(error.message)
      default: self = .failure(error.message)
      }
    default: self = .failure("\(error)")
    }
  }

  init(message: String, status: Int32) {
    self.message = message
    self.status = status
  }
}

/// The test knob for password hashing, read only by the command line.
enum PasswordCost {
  /// The environment variable that selects cheap password hashing for tests.
  static let variable = "TICTACTOE_PASSWORD_COST"

  /// The hashing cost for new passwords: production scrypt (N = 2^17) unless the variable says
  /// `test`, which picks N = 2^10 so test suites create accounts quickly.
  ///
  /// - Throws: ``CommandFailure`` (exit 2) for any other value.
  static func algorithm(_ value: String?) throws(CommandFailure) -> PasswordHash.Algorithm {
    switch value {
    case nil, "", "production": .production
    case "test": .scrypt(logN: 10, r: 8, p: 1)
    case .some(let other):
      throw .usage("\(variable) must be test, production or unset, not \"\(other)\".")
    }
  }
}

extension LiveClients {
  /// Opens the database that `--database` or the environment names and builds the clients.
  ///
  /// - Parameters:
  ///   - common: The common options.
  ///   - access: `.reading` for commands that only read, which then work on a database that
  ///     cannot be written.
  ///   - timeBudget: The engine's time per move.
  /// - Throws: ``CommandFailure`` with the database's sentence (exit 1), or for a bad
  ///   `TICTACTOE_PASSWORD_COST` (exit 2).
  init(
    _ common: CommonOptions, access: LocalDatabase.Access = .writing,
    timeBudget: Duration = .seconds(1)
  ) throws(CommandFailure) {
    let environment = ProcessInfo.processInfo.environment
    let algorithm = try PasswordCost.algorithm(environment[PasswordCost.variable])
    do {
      try self.init(
        databasePath: common.database, environment: environment, access: access,
        timeBudget: timeBudget, passwordAlgorithm: algorithm)
    } catch {
      throw .failure(error.message)
    }
  }
}

extension CLI {
  /// Runs a subcommand body, printing its failure and returning the exit code.
  static func outcome(_ body: () async throws(CommandFailure) -> Void) async -> Int32 {
    do {
      try await body()
      return ExitCode.success
    } catch {
      printError(error.message)
      return error.status
    }
  }

  /// Calls a client endpoint, turning its error into a ``CommandFailure``.
  static func calling<Result>(_ body: () async throws -> Result) async throws(CommandFailure)
    -> Result
  {
    do {
      return try await body()
    } catch {
      throw CommandFailure(error)
    }
  }

  // MARK: - account

  static func account(_ options: AccountOptions, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common, access: options.action == .list ? .reading : .writing)
      let client = try accounts(common, clients)
      let input = PasswordInput(fromStandardInput: options.passwordFromStandardInput)
      let user = options.user ?? ""
      switch options.action {
      case .list:
        let accounts = try await calling { try await client.listAccounts() }
        if options.json {
          Console.line(AccountFormatting.listJSON(accounts))
        } else if accounts.isEmpty {
          Console.line("No accounts yet; create one with tictactoe account create NAME.")
        } else {
          for account in accounts {
            Console.line(
              account.userName.escapingControlCharacters
                + (account.hasTwoFactor ? "  (two-factor on)" : ""))
          }
        }
      case .create:
        let password = try await calling {
          try input.newPassword(prompt: "Password for the new account \(user): ")
        }
        let session = try await calling { try await client.createAccount(user, password) }
        Console.announce("Created the account \(session.userName).")
      case .passwd:
        let old = try await calling {
          try input.password(prompt: "Current password for \(user): ", what: "the old password")
        }
        let new = try await calling {
          try input.newPassword(prompt: "New password: ", what: "the new password")
        }
        try await withCode(options, input: input, password: old) { credentials in
          try await client.changePassword(credentials, new)
        }
        Console.announce("Changed the password of \(user).")
      case .delete:
        let password = try await calling {
          try input.password(prompt: "Password for \(user), to delete the account: ")
        }
        try await withCode(options, input: input, password: password) { credentials in
          try await client.deleteAccount(credentials)
        }
        Console.announce("Deleted the account \(user).")
      case .enableTwoFactor:
        try await enableTwoFactor(user: user, client: client, input: input)
      case .disableTwoFactor:
        let password = try await calling { try input.password(prompt: "Password for \(user): ") }
        try await withCode(options, input: input, password: password) { credentials in
          try await client.disableTwoFactor(credentials)
        }
        Console.announce("Two-factor is off for \(user).")
      case .recoveryCodes:
        let session = try await signIn(
          LoginOptions(
            user: user, passwordFromStandardInput: options.passwordFromStandardInput,
            code: options.code),
          client: client)
        let codes = try await calling { try await client.regenerateRecoveryCodes(session) }
        Console.line("New recovery codes for \(session.userName); the old ones no longer work:")
        for code in codes { Console.line(code.escapingControlCharacters) }
      }
    }
  }

  /// Runs a request that checks the credentials and, when the account has two-factor on and
  /// no `--code` was given, asks for the code (the next line with `--password-stdin`) and runs
  /// it again.
  private static func withCode(
    _ options: AccountOptions, input: PasswordInput, password: String,
    _ request: (Credentials) async throws -> Void
  ) async throws(CommandFailure) {
    let user = options.user ?? ""
    var credentials = Credentials(userName: user, password: password, code: options.code)
    do {
      try await request(credentials)
      return
    } catch AuthenticationError.codeRequired where options.code == nil {
      // Asked below.
    } catch {
      throw CommandFailure(error)
    }
    credentials.code = try await calling { try codeLine(input) }
    try await calling { try await request(credentials) }
  }

  /// The two-factor code on the next line (or prompted for), or the failure when input ends.
  private static func codeLine(_ input: PasswordInput) throws -> String {
    guard
      let code = try input.visibleLine(
        prompt: "Two-factor code (or a recovery code): ", what: "the code")
    else {
      throw CommandFailure.failure(
        "This account has two-factor on: pass --code CODE or give the code on the next line.")
    }
    guard !code.trimmingWhitespace().isEmpty else {
      throw CommandFailure.usage("No two-factor code was entered, so nothing was changed.")
    }
    return code
  }

  private static func enableTwoFactor(
    user: String, client: AuthenticationClient, input: PasswordInput
  ) async throws(CommandFailure) {
    let password = try await calling { try input.password(prompt: "Password for \(user): ") }
    let enrolment = try await calling { try await client.beginTwoFactor(user, password) }
    Console.line("Secret: \(enrolment.secret.escapingControlCharacters)")
    Console.line("URI: \(enrolment.uri.escapingControlCharacters)")
    // A person may mistype; a script gets one try.
    let attempts = input.isInteractive ? 3 : 1
    for attempt in 1...attempts {
      let line = try await calling {
        try input.visibleLine(
          prompt: "Add the secret to an authenticator app, then type its 6-digit code: ",
          what: "the code")
      }
      guard let code = line else {
        throw .usage("Input ended before the confirming code; two-factor stays off.")
      }
      guard !code.trimmingWhitespace().isEmpty else {
        throw .usage("No code was entered, so two-factor stays off.")
      }
      do {
        let recoveryCodes = try await client.confirmTwoFactor(user, code)
        Console.announce("Two-factor is on for \(user).")
        Console.line("Recovery codes, each usable once instead of a code; keep them safe:")
        for recoveryCode in recoveryCodes { Console.line(recoveryCode.escapingControlCharacters) }
        return
      } catch AuthenticationError.invalidCode where attempt < attempts {
        printError(AuthenticationError.invalidCode.message)
      } catch {
        let failure = CommandFailure(error)
        // Another process may have turned it on meanwhile: then it does not stay off. A
        // server lists no accounts; its refusal settles it, but a connection lost after the
        // code was sent leaves it unknown.
        let isOn = (try? await client.listAccounts())?.contains {
          $0.userName.lowercased() == user.lowercased() && $0.hasTwoFactor
        }
        let wasRefused = (error as? AuthenticationError)?.isRefusal ?? false
        let outcome =
          switch isOn {
          case true?: ""
          case false?: " Two-factor stays off."
          case nil where wasRefused: " Two-factor stays off."
          case nil:
            " Whether two-factor is on now is not known: sign in to see (a code is asked if it is)."
          }
        throw CommandFailure(message: failure.message + outcome, status: failure.status)
      }
    }
  }

  // MARK: - login

  static func login(_ options: LoginOptions, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      let client = try accounts(common, LiveClients(common))
      let session = try await signIn(options, client: client)
      let remaining = try await calling { try await client.remainingRecoveryCodes(session) }
      let name = session.userName.escapingControlCharacters
      if let remaining {
        Console.line(
          "Signed in as \(name); \(RecordFormatting.count(remaining, "recovery code")) "
            + "left (tictactoe account recovery-codes \(name) makes new ones).")
      } else {
        Console.line("Signed in as \(name).")
      }
    }
  }

  /// Checks a user's password and, when the account has two-factor on, a code.
  ///
  /// - Parameters:
  ///   - options: The user, where the password comes from, and a code if given.
  ///   - client: The accounts.
  /// - Returns: The signed-in session.
  /// - Throws: ``CommandFailure`` with one sentence that never reveals whether the user exists.
  static func signIn(
    _ options: LoginOptions, client: AuthenticationClient
  ) async throws(CommandFailure) -> Session {
    let input = PasswordInput(
      fromStandardInput: options.passwordFromStandardInput, outcome: "no one was signed in")
    let password = try await calling {
      try input.password(prompt: "Password for \(options.user): ")
    }
    switch try await calling({ try await client.login(options.user, password) }) {
    case .signedIn(let session):
      return session
    case .twoFactorRequired(let challenge):
      let code = try await calling { try options.code ?? codeLine(input) }
      return try await calling { try await client.verifyTwoFactor(challenge, code) }
    }
  }
}

/// Text and JSON for account listings.
enum AccountFormatting {
  static func listJSON(_ accounts: [AccountSummary]) -> String {
    JSON.line(AccountListOutput(accounts: accounts))
  }
}
