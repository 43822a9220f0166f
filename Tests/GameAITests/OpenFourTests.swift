import GameRules
import Testing

@testable import GameAI

/// The cells where a side would make two threats at once, which the large-board search reads
/// at every node: checked against playing every empty cell in turn.
struct OpenFourTests {
  /// What playing each empty cell shows: the cells that make two or more threats for
  /// `colour`, and those cells with the threats they make.
  static func bruteForce<B: BitBoard>(_ state: LineState<B>, colour: Int) -> (makers: B, stops: B) {
    var makers = B.zero
    var stops = B.zero
    for cell in state.empty.indices {
      state.place(cell, colour: colour)
      let threats = state.threats(of: colour, through: cell)
      state.remove(cell, colour: colour)
      if threats.nonzeroBitCount >= 2 {
        makers = makers.inserting(cell)
        stops = stops | threats | B(bit: cell)
      }
    }
    return (makers, stops)
  }

  /// Random crowded positions of `rows`×`columns` with `k` in a row, each stone next to an
  /// earlier one, stopping short of any four, so that the positions are full of threes.
  static func positions(rows: Int, columns: Int, k: Int, count: Int, seed: UInt64)
    -> [(mover: Bits256, other: Bits256)]
  {
    let geometry = Geometry<Bits256>(rows: rows, columns: columns, k: k)
    let state = LineState(geometry: geometry)
    var generator = SplitMix64(seed: seed)
    var result: [(mover: Bits256, other: Bits256)] = []
    while result.count < count {
      state.setUp(mover: .zero, other: .zero)
      var colour = 0
      let centre = (rows / 2) * columns + columns / 2
      var played = [centre]
      state.place(centre, colour: colour)
      for _ in 0..<Int.random(in: 6...40, using: &generator) {
        colour = 1 - colour
        let anchor = played.randomElement(using: &generator) ?? centre
        let row = anchor / columns + Int.random(in: -1...1, using: &generator)
        let column = anchor % columns + Int.random(in: -1...1, using: &generator)
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { continue }
        let cell = row * columns + column
        guard state.empty.contains(cell) else { continue }
        state.place(cell, colour: colour)
        if state.tallies.pointee[colour].fours > 0 {
          state.remove(cell, colour: colour)
          continue
        }
        played.append(cell)
      }
      result.append((state.marks[0], state.marks[1]))
    }
    return result
  }

  @Test(arguments: [(15, 15, 5), (9, 9, 5), (7, 9, 4), (6, 6, 4)])
  func agreesWithPlayingEveryCell(rows: Int, columns: Int, k: Int) {
    let geometry = Geometry<Bits256>(rows: rows, columns: columns, k: k)
    let state = LineState(geometry: geometry)
    var withMakers = 0
    for (mover, other) in Self.positions(
      rows: rows, columns: columns, k: k, count: 400, seed: UInt64(rows * 100 + k))
    {
      state.setUp(mover: mover, other: other)
      for colour in 0...1 {
        let expected = Self.bruteForce(state, colour: colour)
        let found = state.openFours(of: colour)
        #expect(found.makers == expected.makers)
        #expect(found.stops == expected.stops)
        if !found.makers.isZero { withMakers += 1 }
      }
    }
    // The positions are crowded enough that many hold a double threat to find.
    #expect(withMakers > 100, "\(withMakers) of 800")
  }

  /// The names of the cells `openFours` finds for X and for O on a 15×15 board where X and O
  /// have played `x` and `o`, O to move.
  static func openFours(x: [String], o: [String]) throws
    -> (x: (makers: Set<String>, stops: Set<String>), o: (makers: Set<String>, stops: Set<String>))
  {
    let board = try gomoku(x: x, o: o)
    #expect(board.toMove == .o)
    let geometry = Geometry<Bits256>(board)
    let (mover, other) = geometry.position(of: board)
    let state = LineState(geometry: geometry)
    // O is to move: colour 0 is O, colour 1 is X.
    state.setUp(mover: mover, other: other)
    let names = { (cells: Bits256) in Set(cells.indices.map { geometry.cell(at: $0).name }) }
    let (forX, forO) = (state.openFours(of: 1), state.openFours(of: 0))
    return ((names(forX.makers), names(forX.stops)), (names(forO.makers), names(forO.stops)))
  }

  @Test func findsTheOpenFourOfAnOpenThreeAndTheCellsThatStopIt() throws {
    // X on f8 g8 h8, open at both ends: e8 and i8 make open fours; d8 and j8 complete them.
    let found = try Self.openFours(x: ["f8", "g8", "h8"], o: ["a1", "o15"])
    #expect(found.x.makers == ["e8", "i8"])
    #expect(found.x.stops == ["d8", "e8", "i8", "j8"])
    #expect(found.o.makers.isEmpty && found.o.stops.isEmpty)
  }

  @Test func findsNoneWhenAnEndIsBlocked() throws {
    let found = try Self.openFours(x: ["f8", "g8", "h8"], o: ["e8", "o15"])
    #expect(found.x.makers.isEmpty && found.x.stops.isEmpty)
  }
}
