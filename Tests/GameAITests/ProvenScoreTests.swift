import GameRules
import Testing

@testable import GameAI

/// A score the large-board search calls proven must be one: its inner nodes read only the
/// most promising moves near the marks, so a loss found there is an estimate unless every
/// move that matters was read.
struct ProvenScoreTests {
  /// A game of 15×15 freestyle against another engine, in Gomocup `x,y` coordinates.
  ///
  /// After 17 stones the search once called O's 4,8 a win in 11; X answered 6,8 and O's own
  /// search then read the position as level.
  static let game = GomocupGame(
    """
    6,6 5,5 9,5 5,6 5,4 6,7 8,4 4,5 3,4 7,5 6,5 7,6 7,7 5,8 4,9 5,9 5,7 4,8 6,8
    """)

  /// The board after the game's first `count` stones.
  static func board(after count: Int) throws -> Board { try game.board(after: count) }

  /// The search's move, score and depth at `board`, read to `depth` plies as Hard and above
  /// read (open threes and fours at every node).
  static func search(_ board: Board, depth: Int) -> (move: Int, score: Int, depth: Int) {
    let geometry = Geometry<Bits256>(board)
    let (mover, other) = geometry.position(of: board)
    let explorer = Explorer(
      geometry: geometry, deadline: .now + .seconds(6), tableBits: 16,
      rootIsO: board.toMove == .o)
    return explorer.bestMove(
      mover: mover, other: other, maximumDepth: depth, isShortSighted: false)
  }

  @Test func aWinItCannotProveIsNotCalledProven() throws {
    let result = Self.search(try Self.board(after: 17), depth: 6)
    // Depth 6 is where it made the claim.
    #expect(result.depth == 6)
    #expect(!Score.isProven(result.score), "score \(result.score) at depth \(result.depth)")
    // The refutation the other engine found: after it, O is not lost either.
    let after = Self.search(try Self.board(after: 19), depth: 5)
    #expect(!Score.isProven(after.score), "score \(after.score) at depth \(after.depth)")
  }
}
