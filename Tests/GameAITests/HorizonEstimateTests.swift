import Testing

@testable import GameAI

/// The estimate at the horizon of the large-board search: the windows' weights, and the worth
/// of an open three to the side that has it with the move and to the side that must answer it.
struct HorizonEstimateTests {
  static let geometry = Geometry<Bits256>(rows: 15, columns: 15, k: 5)

  static func explorer() -> Explorer<Bits256> {
    Explorer(geometry: geometry, deadline: .now + .seconds(60), tableBits: 4)
  }

  static func cells(_ pairs: [(row: Int, column: Int)]) -> Bits256 {
    pairs.reduce(Bits256.zero) { $0.inserting($1.row * 15 + $1.column) }
  }

  /// The windows' part alone, the side to move's counting half as much again.
  static func windows(_ explorer: Explorer<Bits256>, for me: Int) -> Int {
    let tallies = explorer.state.tallies.pointee
    return (3 * tallies[me].weight - 2 * tallies[1 - me].weight) / 2
  }

  @Test func anOpenThreeWithTheMoveCountsWhenTheOpponentCanMakeFours() {
    let explorer = Self.explorer()
    // The side to move: an open three on row 7. The other side: a three against the edge,
    // which makes fours but no open four.
    let mover = Self.cells([(7, 5), (7, 6), (7, 7), (12, 12)])
    let other = Self.cells([(0, 0), (0, 1), (0, 2), (3, 10)])
    explorer.state.setUp(mover: mover, other: other)
    let stops = explorer.openThreeStops(against: 0)
    #expect(stops.isZero)
    #expect(
      explorer.horizonEstimate(for: 0, stops: stops)
        == Self.windows(explorer, for: 0) + Explorer<Bits256>.openThreeToPlay)
    // With the move the other side's, that open three is one it must answer.
    let theirs = explorer.openThreeStops(against: 1)
    #expect(!theirs.isZero)
    #expect(
      explorer.horizonEstimate(for: 1, stops: theirs)
        == Self.windows(explorer, for: 1) - Explorer<Bits256>.openThreeToAnswer)
  }

  @Test func aClosedThreeIsOnlyItsWindows() {
    let explorer = Self.explorer()
    // Row 7's three is closed on the left by the other side's mark.
    let mover = Self.cells([(7, 5), (7, 6), (7, 7), (12, 12)])
    let other = Self.cells([(7, 4), (0, 0), (0, 1), (0, 2)])
    explorer.state.setUp(mover: mover, other: other)
    for me in 0...1 {
      let stops = explorer.openThreeStops(against: me)
      #expect(stops.isZero)
      #expect(explorer.horizonEstimate(for: me, stops: stops) == Self.windows(explorer, for: me))
    }
  }

  /// Over crowded random positions, the estimate against playing every empty cell in turn.
  @Test func agreesWithPlayingEveryCell() {
    let explorer = Self.explorer()
    var bonuses = 0
    var penalties = 0
    for (mover, other) in OpenFourTests.positions(
      rows: 15, columns: 15, k: 5, count: 300, seed: 1_507)
    {
      explorer.state.setUp(mover: mover, other: other)
      for me in 0...1 {
        let tallies = explorer.state.tallies.pointee
        let own = OpenFourTests.bruteForce(explorer.state, colour: me).makers
        let theirs = OpenFourTests.bruteForce(explorer.state, colour: 1 - me).makers
        // The search never reaches the horizon with a four on the board or with an open
        // three it has already scored as a win.
        if tallies[me].fours > 0 || tallies[1 - me].fours > 0 { continue }
        if !own.isZero && tallies[1 - me].threes == 0 { continue }
        var expected = Self.windows(explorer, for: me)
        if !own.isZero {
          expected += Explorer<Bits256>.openThreeToPlay
          bonuses += 1
        }
        if !theirs.isZero {
          expected -= Explorer<Bits256>.openThreeToAnswer
          penalties += 1
        }
        expected = max(-Score.estimateLimit + 1, min(Score.estimateLimit - 1, expected))
        let found = explorer.horizonEstimate(for: me, stops: explorer.openThreeStops(against: me))
        #expect(found == expected)
      }
    }
    #expect(bonuses > 20, "\(bonuses) positions with an open three to play")
    #expect(penalties > 20, "\(penalties) positions with an open three to answer")
  }
}
