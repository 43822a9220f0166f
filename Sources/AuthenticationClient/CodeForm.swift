/// The forms a two-factor code takes, as typed: an authenticator app's 6 digits, or a recovery
/// code of 10 letters and digits (a–z, 2–7) shown in two groups of 5.
///
/// A code that can be neither is refused as typed, whether or not the account needs one.
public enum CodeForm {
  /// The digits of an authenticator app's code.
  public static let authenticatorDigits = 6
  /// The letters and digits of a recovery code.
  public static let recoveryCodeLength = 10
  /// The most recovery codes an account holds at once.
  public static let mostRecoveryCodes = 16

  /// Drops spaces and hyphens and lowercases, as codes are often typed in groups.
  public static func normalized(_ code: String) -> String {
    String(code.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" })
  }

  /// A recovery code as it was made, from a normalized code typed with a digit for the letter
  /// it looks like: the codes' letters and digits (a–z, 2–7) hold no 0 or 1, so 0 can only be
  /// o and 1 only l.
  public static func recoveryForm(_ code: String) -> String {
    String(
      code.map { character in
        switch character {
        case "0": "o"
        case "1": "l"
        default: character
        }
      })
  }

  /// Whether a normalized code is an authenticator app's: 6 ASCII digits.
  public static func isAuthenticatorCode(_ code: String) -> Bool {
    code.utf8.count == authenticatorDigits
      && code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  /// Whether `codes` can be a set of new recovery codes, as they are shown.
  ///
  /// That is 1 to ``mostRecoveryCodes`` of them, each a recovery code (no authenticator app's), none given twice.
  /// Codes that came from elsewhere (a server) are shown only if they can.
  public static func areRecoveryCodes(_ codes: [String]) -> Bool {
    let forms = codes.map { recoveryForm(normalized($0)) }
    return (1...mostRecoveryCodes).contains(codes.count) && Set(forms).count == codes.count
      && codes.allSatisfy { isWellFormed($0) && !isAuthenticatorCode(normalized($0)) }
  }

  /// Whether `code`, as typed, can be an authenticator app's code or a recovery code.
  public static func isWellFormed(_ code: String) -> Bool {
    let code = normalized(code)
    if isAuthenticatorCode(code) { return true }
    return code.unicodeScalars.count == recoveryCodeLength
      && recoveryForm(code).unicodeScalars.allSatisfy { scalar in
        ("a"..."z").contains(scalar) || ("2"..."7").contains(scalar)
      }
  }
}
