import Foundation
import GameRules
import Testing

struct NameTests {
  @Test func nameIsTrimmed() throws {
    let names = try ["  Ada Lovelace\t", "Zoë", "名人"].map { try Name.validated($0) }
    #expect(names == ["Ada Lovelace", "Zoë", "名人"])
  }

  @Test func emptyAndBlankNamesAreRefused() {
    #expect(throws: NameError.empty) { try Name.validated("") }
    #expect(throws: NameError.empty) { try Name.validated("   ") }
  }

  @Test func lengthIsCountedInCharactersAfterTrimming() throws {
    let longest = String(repeating: "é", count: Name.maximumLength)
    let trimmed = try Name.validated(" \(longest) ")
    #expect(trimmed == longest)
    #expect(throws: NameError.tooLong(25)) { try Name.validated(longest + "x") }
    #expect(throws: NameError.tooLong(100_000)) {
      try Name.validated(String(repeating: "a", count: 100_000))
    }
  }

  @Test(arguments: [
    "\u{1B}[2J\u{1B}]0;PWNED\u{07}", "Ann\u{0}", "Ann\nBob", "a\u{7F}", "\u{9B}31m", "Ann\u{202E}",
    "\u{200B}", "\u{E000}", "a\u{2028}b", "\u{3164}", "Ann\u{2800}", "An\u{034F}n", "\u{0301}",
    "\u{0301}Ann",
  ])
  func controlAndInvisibleCharactersAreRefused(text: String) {
    #expect(throws: NameError.notPrintable) { try Name.validated(text) }
  }

  @Test func aCharacterMayCarryAFewAccentsNotHundreds() throws {
    // A flag is one character of two scalars; ë written as e and an accent, two.
    #expect(
      try Name.validated("Zoe\u{0308} \u{1F1EB}\u{1F1F7}") == "Zoe\u{0308} \u{1F1EB}\u{1F1F7}")
    let accented = "a" + String(repeating: "\u{0301}", count: Name.maximumScalarsPerCharacter - 1)
    #expect(try Name.validated(accented) == accented)
    #expect(throws: NameError.overloaded) { try Name.validated(accented + "\u{0301}") }
    #expect(throws: NameError.overloaded) {
      try Name.validated("z" + String(repeating: "\u{0301}", count: 400))
    }
  }

  @Test func everySentenceEndsWithAFullStop() {
    for error in [NameError.empty, .tooLong(30), .notPrintable, .overloaded] {
      #expect(error.description.hasSuffix("."))
    }
  }

  @Test func escapingLeavesPrintableTextAlone() {
    #expect("Ann \\ Bob ✕ ◯".escapingControlCharacters == "Ann \\ Bob ✕ ◯")
  }

  @Test func escapingWritesEveryControlCharacterAsAnEscape() {
    let hostile = "\u{1B}[2J\u{1B}]0;PWNED\u{07}\u{0}\u{9B}\u{202E}"
    let escaped = hostile.escapingControlCharacters
    #expect(escaped == "\\u{1B}[2J\\u{1B}]0;PWNED\\u{7}\\u{0}\\u{9B}\\u{202E}")
    #expect(escaped.unicodeScalars.allSatisfy { $0.isPrintable })
  }

  /// Cut to fit, an escaped text ends between characters, never halfway through an escape.
  @Test func cuttingNeverSplitsAnEscape() {
    let stored = "Mal\u{202E}lory\r\nX and more"
    // The line end is one character, two escapes: it goes whole or not at all.
    #expect(stored.escaped(cutTo: 24) == "Mal\\u{202E}lory…")
    #expect(stored.escaped(cutTo: 27) == "Mal\\u{202E}lory\\u{D}\\u{A}X…")
    #expect(stored.escaped(cutTo: 200) == stored.escapingControlCharacters)
    for length in 2...40 {
      let cut = stored.escaped(cutTo: length)
      #expect(cut.count <= length, "\(length)")
      let body = cut.hasSuffix("…") ? String(cut.dropLast()) : cut
      #expect(
        body.components(separatedBy: "\\u{").count == body.components(separatedBy: "}").count,
        "\(length): \(cut)")
    }
    #expect(String(repeating: "a", count: 100).quotable == String(repeating: "a", count: 40) + "…")
  }
}
