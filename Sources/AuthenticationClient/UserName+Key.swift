import Foundation
import GameRules

extension UserName {
  /// The case-insensitive key for a user name: trimmed, lowercased and in NFC, so the same
  /// name typed with composed or decomposed accents, or with spaces around it, finds the same
  /// account wherever it is looked up (the accounts, the game server's records).
  public static func key(_ userName: String) -> String {
    userName.trimmingWhitespace().lowercased().precomposedStringWithCanonicalMapping
  }

  /// The forms that names which look alike share, so that a new account cannot take a name
  /// that passes for one already taken: two names look alike when their forms meet.
  ///
  /// Compatibility forms are folded (fullwidth and mathematical letters, a no-break space),
  /// invisible characters and a dot above left out, runs of spaces made one; `1` and `|` are
  /// taken as `l`, `0` as `o` and `rn` as `m`; letters of other scripts drawn like Latin ones
  /// (Cyrillic `а` and `К`, Greek `ο` and `Ν`, Armenian `օ`, Cherokee `Ꭺ`, small capitals) are
  /// taken as those; and the case is folded, once with a capital `I` as the `l` it is drawn
  /// like.
  public static func lookAlikeForms(_ userName: String) -> Set<String> {
    [skeleton(userName, capitalIAsL: false), skeleton(userName, capitalIAsL: true)]
  }

  private static func skeleton(_ userName: String, capitalIAsL: Bool) -> String {
    var folded = ""
    var lastWasSpace = true
    for scalar in userName.precomposedStringWithCompatibilityMapping.unicodeScalars
    where !scalar.properties.isDefaultIgnorableCodePoint && scalar != "\u{0307}" {
      if scalar.properties.isWhitespace {
        if !lastWasSpace { folded.unicodeScalars.append(" ") }
        lastWasSpace = true
        continue
      }
      lastWasSpace = false
      // A letter drawn like a Latin one is taken as that letter before the case is folded: a
      // capital's own lowercase (Cyrillic к, Greek ν) may be drawn like nothing Latin, or
      // like another letter.
      let scalar = confusableLetters[scalar] ?? scalar
      if capitalIAsL && scalar == "I" {
        folded.unicodeScalars.append("l")
        continue
      }
      if let latin = digitLookAlikes[scalar] {
        folded.unicodeScalars.append(latin)
        continue
      }
      for lower in String(scalar).lowercased().unicodeScalars {
        folded.unicodeScalars.append(latinLookAlike(of: lower) ?? lower)
      }
    }
    let trimmed = folded.hasSuffix(" ") ? String(folded.dropLast()) : folded
    return trimmed.replacingOccurrences(of: "rn", with: "m")
  }

  /// Digits and signs drawn like a Latin letter.
  private static let digitLookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
    "1": "l", "|": "l", "0": "o",
  ]

  /// The Latin letter a lowercase letter of another script is drawn like, if any.
  private static func latinLookAlike(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
    if let latin = latinLookAlikes[scalar] { return latin }
    // Cherokee lowercase letters are drawn like their capitals.
    let value = scalar.value
    let capital: UInt32? =
      switch value {
      case 0xAB70...0xABBF: value - 0xAB70 + 0x13A0
      case 0x13F8...0x13FD: value - 0x13F8 + 0x13F0
      case 0x13A0...0x13F5: value
      default: nil
      }
    return capital.flatMap { Unicode.Scalar($0) }.flatMap { cherokeeLookAlikes[$0] }
  }

  /// Lowercase letters of other scripts drawn like a Latin letter (some like its small
  /// capital, as Cyrillic в, к, м, н and т are).
  private static let latinLookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
    // Cyrillic
    "\u{0430}": "a", "\u{0441}": "c", "\u{0501}": "d", "\u{0435}": "e", "\u{04BB}": "h",
    "\u{0456}": "i", "\u{0458}": "j", "\u{04CF}": "l", "\u{043E}": "o", "\u{0440}": "p",
    "\u{051B}": "q", "\u{0455}": "s", "\u{051D}": "w", "\u{0445}": "x", "\u{0443}": "y",
    "\u{0432}": "b", "\u{043A}": "k", "\u{043C}": "m", "\u{043D}": "h", "\u{0442}": "t",
    // Greek
    "\u{03B1}": "a", "\u{03B9}": "i", "\u{03BA}": "k", "\u{03BD}": "v", "\u{03BF}": "o",
    "\u{03C1}": "p", "\u{03C5}": "u", "\u{03C7}": "x", "\u{03F2}": "c", "\u{03F3}": "j",
    // Armenian
    "\u{0570}": "h", "\u{0578}": "n", "\u{057D}": "u", "\u{0581}": "g", "\u{0585}": "o",
    // Coptic
    "\u{2C9F}": "o", "\u{2CA3}": "p", "\u{2CA5}": "c",
    // Latin: alpha, dotless i, the estimated sign, small capitals
    "\u{0251}": "a", "\u{0131}": "i", "\u{212E}": "e", "\u{1D00}": "a", "\u{0299}": "b",
    "\u{1D04}": "c", "\u{1D05}": "d", "\u{1D07}": "e", "\u{0262}": "g", "\u{029C}": "h",
    "\u{026A}": "i", "\u{1D0A}": "j", "\u{1D0B}": "k", "\u{029F}": "l", "\u{1D0D}": "m",
    "\u{0274}": "n", "\u{1D0F}": "o", "\u{1D18}": "p", "\u{0280}": "r", "\u{A731}": "s",
    "\u{1D1B}": "t", "\u{1D1C}": "u", "\u{1D20}": "v", "\u{1D21}": "w", "\u{028F}": "y",
    "\u{1D22}": "z",
  ]

  /// Cherokee letters drawn like a Latin capital, by their capital form.
  private static let cherokeeLookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
    "\u{13A0}": "d", "\u{13A1}": "r", "\u{13A2}": "t", "\u{13A9}": "y", "\u{13AA}": "a",
    "\u{13AB}": "j", "\u{13AC}": "e", "\u{13B3}": "w", "\u{13B7}": "m", "\u{13BB}": "h",
    "\u{13C0}": "g", "\u{13C3}": "z", "\u{13C6}": "i", "\u{13CF}": "b", "\u{13D2}": "r",
    "\u{13D4}": "w", "\u{13D5}": "s", "\u{13D9}": "v", "\u{13DA}": "s", "\u{13DE}": "l",
    "\u{13DF}": "c", "\u{13E2}": "p", "\u{13E6}": "k", "\u{13F4}": "b",
  ]
}
