import GameRules
import Testing

struct DiagramTests {
  @Test func classicBoard() throws {
    let board = try Board(notation: "x.o/.x./..o")
    #expect(
      board.diagram == """
          a b c
        1 X . O
        2 . X .
        3 . . O
        """)
  }

  @Test func largeBoardLabelsLineUp() throws {
    let lines = try Board(size: 11).diagram.split(separator: "\n")
    #expect(lines.first == "   a b c d e f g h i j k")
    #expect(lines[1] == " 1 . . . . . . . . . . .")
    #expect(lines.last == "11 . . . . . . . . . . .")
  }

  @Test func rectangularBoard() throws {
    let board = try Board(notation: "x.../...o/....")
    #expect(
      board.diagram == """
          a b c d
        1 X . . .
        2 . . . O
        3 . . . .
        """)
  }
}
