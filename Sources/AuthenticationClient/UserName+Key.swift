import Foundation
import GameRules

extension UserName {
  /// The case-insensitive key for a user name: trimmed, lowercased and in NFC, so the same
  /// name typed with composed or decomposed accents, or with spaces around it, finds the same
  /// account wherever it is looked up (the accounts, the game server's records).
  public static func key(_ userName: String) -> String {
    userName.trimmingWhitespace().lowercased().precomposedStringWithCanonicalMapping
  }

  /// What names that look alike share, so that a new account cannot take a name that passes
  /// for one already taken: compatibility forms folded (fullwidth letters, a no-break space),
  /// case folded, invisible characters left out, runs of spaces made one, and letters of other
  /// scripts that look like Latin ones (Cyrillic `а`, Greek `ο`) taken as those.
  public static func skeleton(_ userName: String) -> String {
    var folded = ""
    var lastWasSpace = true
    for scalar in userName.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars
    where !scalar.properties.isDefaultIgnorableCodePoint {
      if scalar.properties.isWhitespace {
        if !lastWasSpace { folded.unicodeScalars.append(" ") }
        lastWasSpace = true
        continue
      }
      lastWasSpace = false
      folded.unicodeScalars.append(latinLookAlikes[scalar] ?? scalar)
    }
    return folded.hasSuffix(" ") ? String(folded.dropLast()) : folded
  }

  /// Lowercase letters of other scripts drawn like a Latin letter.
  private static let latinLookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
    // Cyrillic
    "\u{0430}": "a", "\u{0441}": "c", "\u{0501}": "d", "\u{0435}": "e", "\u{04BB}": "h",
    "\u{0456}": "i", "\u{0458}": "j", "\u{04CF}": "l", "\u{043E}": "o", "\u{0440}": "p",
    "\u{051B}": "q", "\u{0455}": "s", "\u{051D}": "w", "\u{0445}": "x", "\u{0443}": "y",
    // Greek
    "\u{03B1}": "a", "\u{03B9}": "i", "\u{03BA}": "k", "\u{03BD}": "v", "\u{03BF}": "o",
    "\u{03C1}": "p", "\u{03C5}": "u", "\u{03C7}": "x",
    // Latin dotless i
    "\u{0131}": "i",
  ]
}
