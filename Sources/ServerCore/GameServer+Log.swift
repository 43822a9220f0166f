package import GameProtocol
import GameRules

/// The operator's log: one line for each thing that happened to an account or a game.
///
/// Each line is said once what it tells is stored. Names and addresses come from clients, so
/// their control characters are escaped.
package enum ServerLog {
  /// How the line about a connection closed for breaking the protocol begins, so that the
  /// process can count such lines rather than write each.
  package static let brokeProtocolPrefix = "Closed a connection from "

  /// The line for a connection closed for breaking the protocol: `reason` finishes
  /// `Closed a connection from ADDRESS that …`.
  package static func closed(from address: String, that reason: String) -> String {
    brokeProtocolPrefix + "\(address.escapingControlCharacters) that \(reason)"
  }

  package static func signedIn(_ account: SignedInAccount, request: UInt8, from address: String)
    -> String
  {
    let name = account.userName.escapingControlCharacters
    let place = address.escapingControlCharacters
    switch request {
    case ClientMessage.createAccount(userName: "", password: "").type:
      return "\(name) created an account from \(place) and signed in."
    case ClientMessage.resumeSession(token: "").type:
      return "\(name) came back from \(place) with a session token."
    default:
      return "\(name) signed in from \(place)."
    }
  }

  /// The line for a refused sign-in or account change, where its reason matters to the
  /// operator: a guessed password or code, a lockout, too many attempts from one address.
  package static func refused(_ refusal: Refusal, of request: UInt8, from address: String)
    -> String?
  {
    let place = address.escapingControlCharacters
    let signIns: Set<UInt8> = [
      ClientMessage.signIn(userName: "", password: "").type, ClientMessage.submitCode("").type,
    ]
    let what = signIns.contains(request) ? "A sign-in" : "An account change"
    switch refusal.code {
    case .invalidCredentials:
      return "\(what) from \(place) was refused: wrong user name or password."
    case .invalidCode:
      return "\(what) from \(place) was refused: wrong two-factor code."
    case .lockedOut:
      return "\(what) from \(place) was refused: the account is locked for "
        + "\(refusal.detail) s after failed attempts."
    case .rateLimited:
      return "A request from \(place) was refused: too many sign-in attempts from there; "
        + "it may try again in \(refusal.detail) s, and until then its requests are refused "
        + "without a line each."
    default:
      return nil
    }
  }

  /// A change to an account, for its line.
  package enum AccountChange {
    case password, twoFactorOn, twoFactorOff, recoveryCodes, deleted
  }

  /// The line for a change to an account, made from `address`, with the name as given trimmed.
  package static func accountChanged(
    _ change: AccountChange, of userName: String, from address: String
  ) -> String {
    let name = userName.trimmingWhitespace().escapingControlCharacters
    let place = address.escapingControlCharacters
    return switch change {
    case .password: "\(name) changed the password from \(place)."
    case .twoFactorOn: "\(name) turned two-factor sign-in on from \(place)."
    case .twoFactorOff: "\(name) turned two-factor sign-in off from \(place)."
    case .recoveryCodes: "\(name) made new recovery codes from \(place)."
    case .deleted: "The account \(name) was deleted from \(place)."
    }
  }

  package static func sessionsNotEnded(of userName: String, reason: String) -> String {
    "The sessions of \(userName.trimmingWhitespace().escapingControlCharacters) could not be "
      + "ended after a change of its password or two-factor, so earlier sign-ins may still "
      + "resume: \(reason.escapingControlCharacters)"
  }

  package static func opened(_ match: Match) -> String {
    let board = match.game.start
    return "\(match.x.name.escapingControlCharacters) opened game \(match.code) "
      + "(\(board.rows)×\(board.columns), \(board.k) in a row)."
  }

  package static func joined(_ match: Match) -> String {
    let o = match.o?.name.escapingControlCharacters ?? "?"
    return "\(o) joined game \(match.code); \(match.x.name.escapingControlCharacters) plays X, "
      + "\(o) plays O."
  }

  package static func ended(_ match: Match, _ ending: Ending) -> String {
    func name(_ mark: Mark) -> String {
      (match.seat(mark)?.name).map { "\($0.escapingControlCharacters) (\(mark.symbol))" }
        ?? mark.symbol
    }
    guard let winner = ending.winner else { return "Game \(match.code) ended in a draw." }
    let how =
      switch ending.reason {
      case .completed: "with a line"
      case .resigned: "\(name(winner.opponent)) resigned"
      case .forfeit: "\(name(winner.opponent)) forfeited, away past the grace"
      }
    return "Game \(match.code) ended: \(name(winner)) won, \(how)."
  }

  package static func cancelled(_ match: Match, byCreator: Bool) -> String {
    let creator = match.x.name.escapingControlCharacters
    return byCreator
      ? "\(creator) cancelled game \(match.code)."
      : "Game \(match.code) was dropped: \(creator) did not come back to it."
  }

  package static func away(_ name: String, code: String, seconds: Int) -> String {
    "\(name.escapingControlCharacters) lost the connection to game \(code); the seat is held "
      + "for \(seconds) s."
  }

  package static func back(_ name: String, code: String) -> String {
    "\(name.escapingControlCharacters) is back in game \(code)."
  }
}
