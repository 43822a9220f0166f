import GameRules
import Testing

struct CellTests {
  @Test func namesCountRowsFromOne() {
    #expect(Cell(row: 0, column: 0).name == "a1")
    #expect(Cell(row: 2, column: 2).name == "c3")
    #expect(Cell(row: 14, column: 14).name == "o15")
  }

  /// A cell no board has (from a damaged record) is named by its numbers, never a crash.
  @Test func cellsOffEveryBoardAreNamedByTheirNumbers() {
    #expect(Cell(row: Int.max, column: 0).name == "(\(Int.max), 0)")
    #expect(Cell(row: -1, column: 2).name == "(-1, 2)")
    #expect(Cell(row: 0, column: 26).name == "(0, 26)")
    #expect(Cell(row: Int.min, column: Int.min).name == "(\(Int.min), \(Int.min))")
  }

  @Test func namesParseInAnyCase() {
    #expect(Cell(name: "B2") == Cell(row: 1, column: 1))
    #expect(Cell(name: "o15") == Cell(row: 14, column: 14))
    for text in ["", "b", "2b", "b0", "b02", "bb", "b-1", "b2x", "é2"] {
      #expect(Cell(name: text) == nil, "\(text)")
    }
  }

  @Test func everyCellNameRoundTrips() {
    for row in 0..<15 {
      for column in 0..<15 {
        let cell = Cell(row: row, column: column)
        #expect(Cell(name: cell.name) == cell)
      }
    }
  }
}
