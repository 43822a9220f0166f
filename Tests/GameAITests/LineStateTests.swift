import Testing

@testable import GameAI

/// What the large-board search keeps move by move (the windows that are threes and fours, the
/// cells' values for the move order, the tallies), checked against a count from the marks
/// alone after long runs of moves placed and taken back in any order.
struct LineStateTests {
  /// The cells of the windows where `colour` holds `marks` marks and the other colour none,
  /// counted from the marks; only the empty ones.
  static func recount<B: BitBoard>(_ state: LineState<B>, colour: Int, holding marks: Int) -> B {
    var result = B.zero
    for window in state.geometry.windows
    where (window & state.marks[colour]).nonzeroBitCount == marks
      && (window & state.marks[1 - colour]).isZero
    {
      result = result | window
    }
    return result & state.empty
  }

  /// `value(of:for:)` counted from the marks: twice the weight each own window through
  /// `cell` would reach, plus the weight of each opposing window it would block.
  static func recountValue<B: BitBoard>(_ state: LineState<B>, of cell: Int, for colour: Int)
    -> Int
  {
    let geometry = state.geometry
    var value = 0
    for window in geometry.windows where window.contains(cell) {
      let mine = (window & state.marks[colour]).nonzeroBitCount
      let theirs = (window & state.marks[1 - colour]).nonzeroBitCount
      if theirs == 0 { value += 2 * state.weights[min(mine + 1, geometry.k)] }
      if mine == 0 { value += state.weights[min(theirs + 1, geometry.k)] }
    }
    return value
  }

  @Test(arguments: [(15, 15, 5), (9, 9, 5), (7, 9, 4), (6, 6, 4), (3, 3, 3), (4, 5, 3)])
  func keepsWhatACountFromTheMarksFinds(rows: Int, columns: Int, k: Int) {
    let geometry = Geometry<Bits256>(rows: rows, columns: columns, k: k)
    let state = LineState(geometry: geometry)
    let fresh = LineState(geometry: geometry)
    var generator = SplitMix64(seed: UInt64(rows * 1_000 + columns * 10 + k))
    state.setUp(mover: .zero, other: .zero)
    var placed: [(cell: Int, colour: Int)] = []
    var (threes, fours) = (0, 0)
    for step in 0..<3_000 {
      // Mostly placing, so that the board fills, with runs of moves taken back, the last
      // one or any other.
      let empty = state.empty
      if !placed.isEmpty, empty.isZero || Int.random(in: 0..<3, using: &generator) == 0 {
        let index =
          Bool.random(using: &generator)
          ? placed.count - 1 : Int.random(in: 0..<placed.count, using: &generator)
        let (cell, colour) = placed.remove(at: index)
        state.remove(cell, colour: colour)
      } else {
        let cells = empty.indices
        let cell = cells[Int.random(in: 0..<cells.count, using: &generator)]
        let colour = Int.random(in: 0...1, using: &generator)
        state.place(cell, colour: colour)
        placed.append((cell, colour))
      }
      for colour in 0...1 {
        let threeCells = Self.recount(state, colour: colour, holding: k - 2)
        let fourCells = Self.recount(state, colour: colour, holding: k - 1)
        #expect(state.fourMakingCells(for: colour) == threeCells, "step \(step)")
        #expect(state.threatCells(of: colour) == fourCells, "step \(step)")
        if !threeCells.isZero { threes += 1 }
        if !fourCells.isZero { fours += 1 }
      }
      if step % 10 == 0 {
        fresh.setUp(mover: state.marks[0], other: state.marks[1])
        #expect(state.tallies.pointee.first.weight == fresh.tallies.pointee.first.weight)
        #expect(state.tallies.pointee.second.threes == fresh.tallies.pointee.second.threes)
        #expect(state.tallies.pointee.openWindows == fresh.tallies.pointee.openWindows)
        for cell in state.empty.indices {
          for colour in 0...1 {
            #expect(
              state.value(of: cell, for: colour) == Self.recountValue(state, of: cell, for: colour),
              "step \(step), cell \(cell)")
          }
        }
      }
    }
    // The runs reach threes and fours often, so the sets are tried in and out of them.
    #expect(threes > 500 && fours > 500, "\(threes) and \(fours) of 6,000")
  }
}
