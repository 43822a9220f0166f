import AppCore
import GameCore
public import GameProtocol
import GameRules
import OnlineCore
import ServerLive
import TLS

/// What `tictactoe play --server` does.
public enum OnlinePlay: Equatable, Sendable {
  /// `--new`: create a game with the game options.
  case create(GameOptions)
  /// `--join CODE`: take the free seat, or one's own seat again.
  case join(code: String)
  /// `--watch CODE`: watch without playing.
  case watch(code: String)
  /// None of them, full screen: Sign in with the server (and `--user`) filled in, then New
  /// game's online choices.
  case signIn
}

extension Command {
  /// Parses `serve` and `games`.
  static func parseOnline(
    _ name: String, _ arguments: [String]
  ) throws(UsageError) -> (Command, Arguments) {
    let parsed = try Arguments(arguments, syntax: Syntax.command(name))
    switch name {
    case "serve":
      try parsed.requirePositionals(atMost: 0, command: name)
      var options = ServeOptions(database: parsed.value("database"))
      if let text = parsed.value("listen") {
        guard let address = ServerAddress(parsing: text) else {
          throw UsageError(
            "The option --listen needs HOST:PORT, such as 127.0.0.1:7457 or [::]:0, not \"\(text)\"."
          )
        }
        options.listen = address
      }
      if let grace = try parsed.integer(
        "reconnect-grace", in: 1...ProtocolLimits.maximumReconnectGraceSeconds)
      {
        options.reconnectGraceSeconds = grace
      }
      return (.serve(options), parsed)
    default:
      try parsed.requirePositionals(atMost: 0, command: name)
      return (.games(json: parsed.has("json")), parsed)
    }
  }

  /// The server of `--server`, required by `games` and refused where it means nothing.
  static func server(_ parsed: Arguments, for command: Command) throws(UsageError)
    -> ServerAddress?
  {
    guard let text = parsed.value("server") else {
      if case .games = command {
        throw UsageError("The games command needs --server HOST[:PORT], the server to ask.")
      }
      guard parsed.value("server-fingerprint") == nil else {
        throw UsageError("The option --server-fingerprint goes with --server.")
      }
      return nil
    }
    guard let address = ServerAddress(connectingTo: text) else {
      throw UsageError(
        "The option --server needs HOST or HOST:PORT with a port from 1 to 65535, such as "
          + "example.org or 127.0.0.1:7457, not \"\(text)\".")
    }
    if case .account(let options) = command, options.action == .list {
      throw UsageError(
        "A server does not list its accounts; drop --server to list this computer's.")
    }
    return address
  }

  /// The fingerprint of `--server-fingerprint`: 64 hex digits, `SHA256:` and colons optional.
  static func serverFingerprint(_ parsed: Arguments) throws(UsageError) -> [UInt8]? {
    guard let text = parsed.value("server-fingerprint") else { return nil }
    guard let fingerprint = Fingerprint.parse(text) else {
      throw UsageError(
        "The option --server-fingerprint needs SHA256: and 64 hex digits (colons optional), "
          + "as the server prints at start, not \"\(text)\".")
    }
    return fingerprint
  }

  /// What `play --server` asks for, checking that the options fit together.
  static func onlinePlay(_ parsed: Arguments, options: PlayOptions) throws(UsageError)
    -> OnlinePlay?
  {
    let chosen = [
      parsed.has("new") ? "--new" : nil, parsed.value("join").map { _ in "--join" },
      parsed.value("watch").map { _ in "--watch" },
    ].compactMap { $0 }
    guard parsed.value("server") != nil else {
      guard chosen.isEmpty else {
        throw UsageError("The option \(chosen[0]) plays online: add --server HOST[:PORT].")
      }
      return nil
    }
    if chosen.isEmpty, !options.plain, !parsed.has("password-stdin") {
      return .signIn
    }
    guard chosen.count == 1 else {
      throw UsageError(
        chosen.isEmpty
          ? "Playing on a server needs --new, --join CODE or --watch CODE."
          : "Give only one of --new, --join and --watch.")
    }
    for option in ["x", "o", "computer", "difficulty", "time"] where parsed.value(option) != nil {
      throw UsageError(
        "The option --\(option) is for games on this computer; online, each player is a person "
          + "with an account.")
    }
    let gameOptions: Set<String> = ["size", "rows", "columns", "k", "first"]
    if !parsed.has("new"), let option = gameOptions.first(where: { parsed.value($0) != nil }) {
      throw UsageError("The option --\(option) sets up a new game and goes with --new.")
    }
    if let code = parsed.value("watch") {
      guard options.user == nil else {
        throw UsageError("Watching needs no account; drop --user, or play with --join.")
      }
      return .watch(code: try inviteCode(code))
    }
    guard options.user != nil else {
      throw UsageError("Playing online needs an account: add --user NAME.")
    }
    if let code = parsed.value("join") { return .join(code: try inviteCode(code)) }
    guard options.request.startingRule != .alternate else {
      throw UsageError("An online game is a single game: --first is x, o or random.")
    }
    return .create(GameOptions(options.request.settings(for: nil)))
  }

  private static func inviteCode(_ text: String) throws(UsageError) -> String {
    guard let code = InviteCode.normalized(text) else {
      throw UsageError(
        "\"\(text.escapingControlCharacters)\" is not an invite code: codes are 6 letters and "
          + "digits, such as K7M2QX.")
    }
    return code
  }
}
