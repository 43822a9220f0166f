import Foundation
import Testing

struct GTPCommandTests {
  /// The responses of a session, one per command, without the blank line that ends each.
  private func responses(_ script: String, _ arguments: String...) throws -> [String] {
    let result = try run(arguments: ["gtp"] + arguments, input: script)
    #expect(result.status == 0)
    #expect(result.output.hasSuffix("\n\n"))
    return result.output.components(separatedBy: "\n\n").dropLast()
  }

  @Test func everyCommandAnswers() throws {
    let script = """
      1 protocol_version
      2 name
      3 version
      4 known_command genmove
      5 known_command fly
      list_commands
      boardsize 3
      clear_board
      play x B2
      showboard
      undo
      quit

      """
    let answers = try responses(script)
    #expect(answers.count == 12)
    #expect(answers[0] == "=1 2")
    #expect(answers[1] == "=2 tictactoe")
    #expect(answers[2].hasPrefix("=3 0."))
    #expect(answers[3] == "=4 true")
    #expect(answers[4] == "=5 false")
    #expect(answers[5].contains("genmove\nundo\nshowboard\nquit"))
    #expect(answers[6] == "=")
    #expect(answers[7] == "=")
    #expect(answers[8] == "=")
    #expect(answers[9].contains(" 2 . X . 2"))
    #expect(answers[9].contains("O to move"))
    #expect(answers[10] == "=")
    #expect(answers[11] == "=")
  }

  @Test func badInputAnswersWithAQuestionMark() throws {
    let script = """
      play x B2
      play o B2
      play o Z9
      play o J1
      genmove x
      play x A1
      genmove x
      boardsize 16
      boardsize three
      undo
      undo
      undo
      frobnicate
      # a comment line is ignored

      """
    let answers = try responses(script)
    #expect(answers.count == 13)
    #expect(
      Array(answers.prefix(4)) == [
        "=",
        "? illegal move: the point is occupied",
        "? invalid coordinate",
        "? invalid coordinate",
      ])
    // X may not move again while a stone ahead: the rules allow a lead of one at most...
    #expect(
      answers[4]
        == "? cannot move for X: it has 1 stone to O's 0, and a side may lead by one stone at most")
    // ...but GTP lets either colour play, so X may place another stone.
    #expect(answers[5] == "=")
    #expect(
      answers[6]
        == "? cannot move for X: X has 2 stones to O's 0, and this engine reads only positions "
        + "where the colours took turns")
    #expect(answers[7] == "? unacceptable size: the board is 3 to 15 on a side")
    #expect(answers[8] == "? boardsize not an integer")
    #expect(Array(answers.suffix(4)) == ["=", "=", "? cannot undo", "? unknown command"])
  }

  @Test func charactersThatDoNotPrintAreDroppedBeforeTheCommandIsRead() throws {
    // A C1 control, a direction override, a zero-width space and an escape.
    let script = "7\u{9B} na\u{202E}me\nplay\u{200B} x B2\n\u{1B}[2Jfly\n"
    let answers = try responses(script)
    #expect(answers == ["=7 tictactoe", "=", "? unknown command"])
  }

  @Test func eitherColourMayPlayAndAFinishedGameAnswersPass() throws {
    let script = """
      play b A1
      play b B1
      play b C1
      genmove w
      genmove b
      play w C3
      showboard
      undo
      undo
      genmove w

      """
    let answers = try responses(script)
    #expect(answers[0] == "=" && answers[1] == "=" && answers[2] == "=")
    // X has a line: the game is over for both colours.
    #expect(answers[3] == "= pass")
    #expect(answers[4] == "= pass")
    #expect(answers[5] == "? illegal move: the game is over")
    #expect(answers[6].contains("X has won"))
    #expect(answers[7] == "=" && answers[8] == "=")
    // X has A1 only: O answers.
    #expect(answers[9].hasPrefix("= ") && answers[9] != "= pass")
  }

  @Test func komiIsTakenAndAPassPlacesNothing() throws {
    let script = """
      known_command komi
      komi 6.5
      komi lots
      komi -0.5
      komi 0x10
      komi 1e3
      play o A1
      play o A2
      play o A3
      genmove x
      play x pass
      play w PASS
      showboard

      """
    let answers = try responses(script)
    #expect(answers[0] == "= true")
    #expect(answers[1] == "=")
    #expect(answers[2] == "? komi not a float")
    #expect(answers[3] == "=")
    #expect(answers[4] == "? komi not a float" && answers[5] == "? komi not a float")
    // O has a line, so genmove answers pass, which the other engine's controller plays on.
    #expect(answers[9] == "= pass")
    #expect(answers[10] == "=" && answers[11] == "=")
    #expect(answers[12].contains("O has won"))
    #expect(!answers[12].contains("X"))
  }

  /// Two stones ahead, by a colour played twice or after a pass, is a position this engine
  /// cannot read whoever moves: neither colour's move is refused for a lead it would not make.
  @Test func aColourTwoStonesBehindIsToldWhichSideIsAhead() throws {
    for script in ["play x A1\nplay x B1\n", "play x A1\nplay o pass\nplay x B1\n"] {
      let answers = try responses(script + "genmove o\ngenmove x\n")
      let count = script.split(separator: "\n").count
      let unread =
        "X has 2 stones to O's 0, and this engine reads only positions where the "
        + "colours took turns"
      #expect(answers[count] == "? cannot move for O: " + unread)
      #expect(answers[count + 1] == "? cannot move for X: " + unread)
    }
  }

  @Test func boardsizeSaysWhichSizesItTakes() throws {
    let answers = try responses("boardsize 4\nboardsize 16\nboardsize 7\n", "--k", "5")
    #expect(answers[0] == "? unacceptable size: with 5 in a row the board is 5 to 15 on a side")
    #expect(answers[1] == answers[0])
    #expect(answers[2] == "=")
  }

  @Test func vertsCountRowsFromTheBottom() throws {
    let answers = try responses("play x A1\nplay o C3\nshowboard\n")
    let rows = answers[2].split(separator: "\n")
    #expect(rows.contains(" 1 X . . 1"))
    #expect(rows.contains(" 3 . . O 3"))
  }

  @Test func selfPlayOnTheClassicBoardEndsInADraw() throws {
    let script =
      Array(repeating: "genmove x\ngenmove o", count: 5).joined(separator: "\n")
      + "\nshowboard\n"
    let answers = try responses(script)
    let moves = answers.prefix(9)
    #expect(moves.allSatisfy { $0.hasPrefix("= ") })
    #expect(Set(moves).count == 9)
    #expect(answers[9] == "= pass")
    #expect(answers[10].hasSuffix("drawn"))
  }

  @Test func largeBoardsUseTheGivenK() throws {
    let answers = try responses("boardsize 15\ngenmove x\nshowboard\n", "--k", "5", "--time", "0.2")
    #expect(answers[0] == "=")
    #expect(answers[1].hasPrefix("= "))
    #expect(answers[2].contains("k = 5"))
    #expect(answers[2].contains("A B C D E F G H J K L M N O P"))
  }
}
