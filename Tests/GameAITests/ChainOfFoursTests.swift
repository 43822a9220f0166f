import GameRules
import Testing

@testable import GameAI

/// The chain of fours the large-board search tries at its root: bounded by its time limit,
/// and its memory of failed positions changing no answer.
struct ChainOfFoursTests {
  /// A game of 15×15 freestyle in the Gomocup protocol's `x,y` coordinates.
  ///
  /// After its 47th stone, O has so many fours to chain that the search without memory and clock took four
  /// seconds, and so overran a tournament's 100 ms turn.
  static let game = GomocupGame(
    """
    5,7 6,9 5,8 7,8 5,10 5,9 4,9 6,7 6,11 3,8 5,6 7,9 6,6 7,7 7,6 8,6 6,8 8,9 9,9 8,7 8,8 3,6 \
    7,5 8,4 8,5 5,5 9,5 10,5 9,6 10,7 9,7 9,8 11,6 3,7 3,9 4,8 6,10 4,6 2,8 2,6 1,5 3,5 3,4 \
    4,4 9,4 9,3 5,3
    """)

  /// The board after the game's first `count` stones.
  static func board(after count: Int) throws -> Board { try game.board(after: count) }

  /// Runs `body` with a search set up at `board`, the side to move being colour 0; `nil`
  /// when either side already has a four, where the chain of fours does not apply.
  static func withThreats<Result>(
    _ board: Board, _ body: (ThreatSearch<Bits256>) -> Result
  ) -> Result? {
    ThreatProofTests.withThreats(Bits256.self, board, body)
  }

  @Test func stopsAtItsLimit() throws {
    let board = try Self.board(after: 47)
    let outcome = try #require(
      Self.withThreats(board) { threats in
        let win = threats.longestFours(for: 0, until: .now)
        return (found: win != nil, stopped: threats.threatStopped, nodes: threats.limits.nodes)
      })
    #expect(!outcome.found)
    #expect(outcome.stopped)
    // The clock is read every 64 nodes; each node tries at most a few dozen fours.
    #expect(outcome.nodes < 64 * 40, "\(outcome.nodes) nodes")
  }

  /// For both sides (the side not to move as if it were), after each of the game's stones
  /// while the search without memory still takes milliseconds.
  @Test func remembersWithoutChangingAnAnswer() throws {
    var compared = 0
    var wins = 0
    for count in 12...43 {
      let board = try Self.board(after: count)
      let answers = Self.withThreats(board) { threats in
        (0...1).map { colour in
          let plain = threats.continuousFours(
            for: colour, depth: ThreatSearch<Bits256>.rootFours)
          let remembered = threats.longestFours(for: colour, until: .now + .seconds(60))
          #expect(!threats.threatStopped)
          return [plain.map { [$0.move, $0.plies] }, remembered.map { [$0.move, $0.plies] }]
        }
      }
      for (colour, pair) in (answers ?? []).enumerated() {
        #expect(pair[0] == pair[1], "after \(count) stones, colour \(colour)")
        compared += 1
        if pair[0] != nil { wins += 1 }
      }
    }
    #expect(compared >= 20)
    #expect(wins >= 10, "\(wins) wins")
  }
}
