import GameAI
import Testing

@testable import TerminalUI

struct InputDecoderTests {
  private func decode(_ chunks: [UInt8]...) -> [Key] {
    var decoder = InputDecoder()
    return chunks.flatMap { decoder.decode($0) }
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func printableCharactersAreKeys() {
    #expect(
      decode(bytes("q5 ?")) == [.character("q"), .character("5"), .character(" "), .character("?")])
  }

  @Test func arrowKeysInBothCursorModes() {
    #expect(
      decode(bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")) == [.up, .down, .right, .left])
    #expect(
      decode(bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD")) == [.up, .down, .right, .left])
  }

  @Test func arrowsWithModifiersAreStillArrows() {
    #expect(decode(bytes("\u{1B}[1;5C")) == [.right])
  }

  @Test func editingKeysWithTildes() {
    #expect(
      decode(bytes("\u{1B}[3~\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F"))
        == [.delete, .home, .end, .pageUp, .pageDown, .home, .end])
  }

  @Test func controlBytes() {
    #expect(
      decode([0x0D, 0x09, 0x7F, 0x08, 0x03, 0x04, 0x07])
        == [.enter, .tab, .backspace, .backspace, .interrupt, .endOfInput, .control("g")])
  }

  @Test func carriageReturnLineFeedIsOneEnter() {
    #expect(decode([0x0D, 0x0A, 0x0A]) == [.enter, .enter])
  }

  @Test func sgrMouseClickAndRelease() {
    #expect(
      decode(bytes("\u{1B}[<0;5;2M\u{1B}[<0;5;2m")) == [
        .mouse(MouseEvent(button: 0, row: 1, column: 4, isPress: true)),
        .mouse(MouseEvent(button: 0, row: 1, column: 4, isPress: false)),
      ])
  }

  @Test func sgrMouseBeyondColumn223() {
    #expect(
      decode(bytes("\u{1B}[<2;300;40M")) == [.mouse(MouseEvent(button: 2, row: 39, column: 299))])
  }

  /// A report no terminal sends (negative, or past any screen) is an unknown key, never a
  /// crash.
  @Test func sgrMouseReportsOutOfRangeAreUnknown() {
    for report in [
      "\u{1B}[<0;-9223372036854775808;1M", "\u{1B}[<0;1;-9223372036854775808m",
      "\u{1B}[<-1;1;1M", "\u{1B}[<0;99999999999999999999;1M", "\u{1B}[<0;65536;1M",
    ] {
      #expect(decode(bytes(report + "x")) == [.unknown, .character("x")], "\(report)")
    }
  }

  /// 20,000 escape sequences with parameters at the edges (negative, past any screen, past
  /// `Int`), mixed with loose fragments and split at random between two reads, decode without a
  /// crash.
  @Test func randomSequencesNeverCrashTheDecoder() {
    let numbers = [
      "0", "1", "-1", "200", "201", "65535", "65536", "9223372036854775807",
      "-9223372036854775808", "99999999999999999999", "",
    ]
    let finals = ["M", "m", "~", "A", "Z", "u", "R", "\u{7F}"]
    let fragments = ["\u{1B}", "\u{1B}[", "\u{1B}O", "\u{1B}]", "\u{7}", "\u{9B}", "é", "x"]
    var generator = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      var text = ""
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        if Bool.random(using: &generator) {
          let count = Int.random(in: 0...4, using: &generator)
          let parameters = (0..<count).map { _ in numbers.randomElement(using: &generator) ?? "" }
          text +=
            "\u{1B}[" + (Bool.random(using: &generator) ? "<" : "")
            + parameters.joined(separator: ";") + (finals.randomElement(using: &generator) ?? "")
        } else {
          text += fragments.randomElement(using: &generator) ?? ""
        }
      }
      let input = bytes(text)
      let split = Int.random(in: 0...input.count, using: &generator)
      var decoder = InputDecoder()
      _ = decoder.decode(Array(input[..<split]))
      _ = decoder.decode(Array(input[split...]))
    }
  }

  /// A sequence given up as too long is dropped to its end, however many reads it takes:
  /// none of its digits is typed (a digit plays a cell).
  @Test func theRestOfASequenceTooLongIsNeverTyped() {
    func decodeInReads(_ text: String, size: Int) -> [Key] {
      var decoder = InputDecoder()
      let all = bytes(text)
      return stride(from: 0, to: all.count, by: size).flatMap {
        decoder.decode(all[$0..<min($0 + size, all.count)])
      }
    }
    let digits = String(repeating: "9", count: 1_100)
    #expect(decodeInReads("\u{1B}[<\(digits);1;1Mx", size: 100) == [.unknown, .character("x")])
    let title = "\u{1B}]" + String(repeating: "1", count: 100_000) + "\u{7}x"
    #expect(decodeInReads(title, size: 1_024) == [.unknown, .character("x")])
    #expect(decodeInReads("\u{1B}O\(digits)Px", size: 64) == [.unknown, .character("x")])
    // A runaway whose end never comes ends at a pause: what is typed after it counts.
    var decoder = InputDecoder()
    #expect(decoder.decode(bytes("\u{1B}[" + String(repeating: "1", count: 40))) == [.unknown])
    #expect(decoder.decode(bytes("2")) == [])
    #expect(decoder.flush() == [])
    #expect(decoder.decode(bytes("5")) == [.character("5")])
  }

  /// A modifier's parameters in an SS3 key (`ESC O 1 ; 5 P`, Ctrl-F1 in some terminals) are
  /// part of the key, never typed.
  @Test func ss3KeysWithModifiersAreOneKey() {
    #expect(decode(bytes("\u{1B}O1;5Px")) == [.f1, .character("x")])
    #expect(decode(bytes("\u{1B}O1;5A")) == [.up])
    #expect(decode(bytes("\u{1B}O2P")) == [.f1])
  }

  @Test func legacyMouseReport() {
    // Button 0 at column 5, row 4, each byte offset by 32.
    #expect(decode(bytes("\u{1B}[M %$")) == [.mouse(MouseEvent(button: 0, row: 3, column: 4))])
  }

  @Test func utf8Characters() {
    #expect(decode(bytes("é✕😀")) == [.character("é"), .character("✕"), .character("😀")])
  }

  @Test func utf8SplitAcrossReads() {
    let smile = bytes("😀")
    #expect(
      decode(Array(smile[..<1]), Array(smile[1..<3]), Array(smile[3...])) == [.character("😀")])
  }

  @Test func arrowSplitAcrossReads() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.hasPending)
    #expect(decoder.decode(bytes("[")).isEmpty)
    #expect(decoder.decode(bytes("Ax")) == [.up, .character("x")])
    #expect(!decoder.hasPending)
  }

  @Test func mouseReportSplitAcrossReads() {
    #expect(
      decode(bytes("\u{1B}[<0;1"), bytes("2;3"), bytes("M")) == [
        .mouse(MouseEvent(button: 0, row: 2, column: 11))
      ])
  }

  @Test func loneEscapeWaitsForFlush() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.flush() == [.escape])
    #expect(decoder.flush().isEmpty)
  }

  /// Alt plus a key comes as an escape and the key in one read: one key no screen acts on,
  /// so that Alt-y is not Escape (leave?) answered by y.
  @Test func altPlusAKeyIsNeitherEscapeNorTheKey() {
    #expect(decode(bytes("\u{1B}y")) == [.unknown])
    #expect(decode(bytes("\u{1B}éq")) == [.unknown, .character("q")])
    #expect(decode(bytes("\u{1B}\r")) == [.unknown])
    #expect(decode([0x1B, 0x1B]) == [.escape])
  }

  /// A pasted control string (a title, a device string) types nothing and asks nothing, with
  /// either terminator, whole or split across reads.
  @Test func controlStringsAreOneKey() {
    #expect(decode(bytes("\u{1B}]0;pwned\u{7}n")) == [.unknown, .character("n")])
    #expect(decode(bytes("\u{1B}]0;pwned\u{1B}\\y")) == [.unknown, .character("y")])
    #expect(decode(bytes("\u{1B}P1$r\u{1B}\\")) == [.unknown])
    var decoder = InputDecoder()
    #expect(decoder.decode(bytes("\u{1B}]0;pw")).isEmpty)
    #expect(decoder.decode(bytes("ned\u{7}a")) == [.unknown, .character("a")])
  }

  @Test func flushingAHalfSequenceGivesTheEscapeAndWhatFollowed() {
    var decoder = InputDecoder()
    #expect(decoder.decode(bytes("\u{1B}[")).isEmpty)
    #expect(decoder.flush() == [.escape, .character("[")])
  }

  @Test func unknownSequencesAreSkippedWhole() {
    #expect(decode(bytes("\u{1B}[99zq")) == [.unknown, .character("q")])
  }

  @Test func invalidUTF8IsUnknown() {
    #expect(decode([0xFF, 0x61]) == [.unknown, .character("a")])
    #expect(decode([0xC3, 0x61]) == [.unknown, .character("a")])
  }

  @Test func runawaySequenceIsDropped() {
    var decoder = InputDecoder()
    let keys = decoder.decode(bytes("\u{1B}[" + String(repeating: "1", count: 40)))
    #expect(keys == [.unknown])
    #expect(!decoder.hasPending)
  }

  @Test func controlAndFormatCharactersAreNeverText() {
    // C1 CSI, a right-to-left override and a left-to-right isolate: none types into a field.
    #expect(
      decode(bytes("a\u{9B}31mb")) == [.character("a"), .unknown] + "31mb".map(Key.character))
    #expect(decode(bytes("\u{202E}\u{2066}é")) == [.unknown, .unknown, .character("é")])
  }

  @Test func whatIsDrawnNeverHoldsARawControlCharacter() {
    let line = StyledLine("Ann\u{1B}[2J\u{9B}\u{202E}", .bold)
    #expect(!line.rendered(.color).unicodeScalars.contains("\u{9B}"))
    #expect(!line.rendered(.none).unicodeScalars.contains("\u{202E}"))
    #expect(line.rendered(.none) == "Ann\\u{1B}[2J\\u{9B}\\u{202E}")
  }

  @Test func aPasteIsOneKeyWithoutItsControlCharacters() {
    #expect(
      decode(bytes("q\u{1B}[200~yes\r\n\u{1B}[2J\u{9B}é\t!\u{1B}[201~n"))
        == [.character("q"), .paste("yes[2Jé!"), .character("n")])
  }

  @Test func aPasteSplitAcrossReadsAtEveryByte() {
    let whole = bytes("\u{1B}[200~ann\u{1B}[201~y")
    for cut in 1..<whole.count {
      #expect(
        decode(Array(whole[..<cut]), Array(whole[cut...])) == [.paste("ann"), .character("y")],
        "cut at \(cut)")
    }
  }

  @Test func aLongPasteKeepsItsBeginningAndEndsOnTime() {
    var decoder = InputDecoder()
    var keys = decoder.decode(bytes("\u{1B}[200~"))
    for _ in 0..<100 { keys += decoder.decode(bytes(String(repeating: "x", count: 1_000))) }
    #expect(keys.isEmpty)
    #expect(decoder.hasPending)
    keys += decoder.decode(bytes("\u{1B}[201~"))
    #expect(keys == [.paste(String(repeating: "x", count: InputDecoder.maximumPasteLength))])
    #expect(!decoder.hasPending)
  }

  @Test func aPasteWhoseEndNeverComesEndsAfterAPause() {
    var decoder = InputDecoder()
    #expect(decoder.decode(bytes("\u{1B}[200~ab\u{1B}[20")).isEmpty)
    var keys: [Key] = []
    for _ in 0..<29 { keys += decoder.flush() }
    #expect(keys.isEmpty)
    #expect(decoder.flush() == [.paste("ab[20")])
    #expect(decoder.decode([0x03]) == [.interrupt])
  }
}
