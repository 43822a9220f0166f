import AuthenticationClient
import GameRules

/// What `tictactoe account` does.
public enum AccountAction: String, Equatable, Sendable, CaseIterable {
  case create
  case passwd
  case delete
  case list
  case enableTwoFactor = "2fa-enable"
  case disableTwoFactor = "2fa-disable"
  case recoveryCodes = "recovery-codes"

  /// Whether the action checks the credentials of an account that may have two-factor on,
  /// and so takes `--code`.
  var takesCode: Bool { [.passwd, .delete, .disableTwoFactor, .recoveryCodes].contains(self) }
}

/// The options of `tictactoe account`.
public struct AccountOptions: Equatable, Sendable {
  /// The action.
  public var action: AccountAction
  /// The user name; `nil` only for `list`.
  public var user: String?
  /// Whether passwords and codes come from standard input lines rather than prompts.
  public var passwordFromStandardInput: Bool
  /// Whether `list` prints JSON.
  public var json: Bool
  /// The two-factor or recovery code, if given on the command line.
  public var code: String?

  /// Creates the options.
  public init(
    action: AccountAction, user: String? = nil, passwordFromStandardInput: Bool = false,
    json: Bool = false, code: String? = nil
  ) {
    self.action = action
    self.user = user
    self.passwordFromStandardInput = passwordFromStandardInput
    self.json = json
    self.code = code
  }
}

/// The options of `tictactoe login`.
public struct LoginOptions: Equatable, Sendable {
  /// The user name.
  public var user: String
  /// Whether the password (and code) come from standard input lines rather than prompts.
  public var passwordFromStandardInput: Bool
  /// The two-factor or recovery code, if given on the command line.
  public var code: String?

  /// Creates the options.
  public init(user: String, passwordFromStandardInput: Bool = false, code: String? = nil) {
    self.user = user
    self.passwordFromStandardInput = passwordFromStandardInput
    self.code = code
  }
}

/// The options of `tictactoe stats`.
public struct StatsOptions: Equatable, Sendable {
  /// The account whose stats to show; `nil` for the guest.
  public var user: String?
  /// Whether to print JSON.
  public var json: Bool
  /// Whether to delete the finished games first.
  public var reset: Bool
  /// Whether `--yes` confirmed the reset in advance.
  public var confirmed: Bool
  /// Whether the password (and code) for resetting an account come from standard input lines.
  public var passwordFromStandardInput: Bool
  /// The two-factor or recovery code for resetting an account, if given.
  public var code: String?

  /// Creates the options.
  public init(
    user: String? = nil, json: Bool = false, reset: Bool = false, confirmed: Bool = false,
    passwordFromStandardInput: Bool = false, code: String? = nil
  ) {
    self.user = user
    self.json = json
    self.reset = reset
    self.confirmed = confirmed
    self.passwordFromStandardInput = passwordFromStandardInput
    self.code = code
  }
}

extension Command {
  /// Parses `account`, `login`, `stats`, `history` and `replay`.
  static func parseRecords(
    _ name: String, _ arguments: [String]
  ) throws(UsageError) -> (Command, Arguments) {
    let parsed = try Arguments(arguments, syntax: Syntax.command(name))
    switch name {
    case "account":
      return (.account(try accountOptions(parsed)), parsed)
    case "login":
      try parsed.requirePositionals(atMost: 1, command: name)
      guard let user = parsed.positionals.first else {
        throw UsageError("The login command needs a user name, as in tictactoe login alice.")
      }
      return (
        .login(
          LoginOptions(
            user: try userName(user), passwordFromStandardInput: parsed.has("password-stdin"),
            code: try code(parsed))),
        parsed
      )
    case "stats":
      try parsed.requirePositionals(atMost: 1, command: name)
      guard parsed.has("reset") || !parsed.has("yes") else {
        throw UsageError("The option --yes confirms --reset and means nothing without it.")
      }
      let user = try parsed.positionals.first.map(userName)
      guard
        user != nil && parsed.has("reset")
          || (!parsed.has("password-stdin") && parsed.value("code") == nil)
      else {
        throw UsageError(
          "The options --password-stdin and --code sign in to reset an account's stats; they "
            + "go with USER --reset.")
      }
      return (
        .stats(
          StatsOptions(
            user: user, json: parsed.has("json"), reset: parsed.has("reset"),
            confirmed: parsed.has("yes"), passwordFromStandardInput: parsed.has("password-stdin"),
            code: try code(parsed))),
        parsed
      )
    case "history":
      try parsed.requirePositionals(atMost: 1, command: name)
      return (
        .history(user: try parsed.positionals.first.map(userName), json: parsed.has("json")),
        parsed
      )
    default:
      try parsed.requirePositionals(atMost: 1, command: name)
      guard let text = parsed.positionals.first else {
        throw UsageError(
          "The replay command needs a game id, as in tictactoe replay 12; tictactoe history "
            + "lists them.")
      }
      guard let id = Int64(text), id > 0 else {
        throw UsageError(
          "A game id is a whole number from 1 to \(Int64.max), not \"\(text)\".")
      }
      return (.replay(gameID: id), parsed)
    }
  }

  private static func accountOptions(_ parsed: Arguments) throws(UsageError) -> AccountOptions {
    try parsed.requirePositionals(atMost: 2, command: "account")
    let actions = AccountAction.allCases.map(\.rawValue).joined(separator: ", ")
    guard let actionText = parsed.positionals.first else {
      throw UsageError("The account command needs an action: \(actions).")
    }
    guard let action = AccountAction(rawValue: actionText) else {
      throw UsageError("Unknown account action \"\(actionText)\"; use one of \(actions).")
    }
    let user = try parsed.positionals.dropFirst().first.map(userName)
    if action == .list {
      try parsed.requirePositionals(atMost: 1, command: "account list")
      guard !parsed.has("password-stdin") else {
        throw UsageError("The account list command reads no password; drop --password-stdin.")
      }
    } else {
      guard user != nil else {
        throw UsageError(
          "The account \(action.rawValue) command needs a user name, as in tictactoe account "
            + "\(action.rawValue) alice.")
      }
      guard !parsed.has("json") else {
        throw UsageError("The option --json works only with account list.")
      }
    }
    guard action.takesCode || parsed.value("code") == nil else {
      throw UsageError(
        "The option --code works only with account passwd, delete, 2fa-disable and "
          + "recovery-codes.")
    }
    return AccountOptions(
      action: action, user: user, passwordFromStandardInput: parsed.has("password-stdin"),
      json: parsed.has("json"), code: try code(parsed))
  }

  /// A user name from the command line, or the sentence saying why it cannot be one.
  private static func userName(_ text: String) throws(UsageError) -> String {
    do {
      return try UserName.validated(text)
    } catch {
      throw UsageError(error.message)
    }
  }

  /// The `--code` value: at most 64 characters, in a form a code takes (``CodeForm``), which
  /// holds nothing but letters, digits, spaces and hyphens.
  static func code(_ parsed: Arguments) throws(UsageError) -> String? {
    guard let code = parsed.value("code") else { return nil }
    guard code.count <= 64, CodeForm.isWellFormed(code) else {
      throw UsageError(
        "The option --code needs the 6-digit code of an authenticator app or a recovery code.")
    }
    return code
  }
}
