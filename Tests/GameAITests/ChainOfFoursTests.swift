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

  /// A win in five plies through a four of the defender's, where the chain once stopped.
  ///
  /// X to move plays 7,6, a four whose fifth cell is 5,6. O's block there makes a four of
  /// O's on column 5 (5,6 5,7 5,9 5,10), so X must block at 5,8, which makes an open four on
  /// the diagonal 5,8 6,7 7,6 8,5.
  @Test func goesOnThroughTheDefendersFour() throws {
    let game = GomocupGame("8,5 4,4 8,6 7,10 8,10 5,10 6,6 5,7 7,9 5,9 6,7 10,8 4,6 5,4")
    let board = try game.board(after: 14)
    let answers = try #require(
      Self.withThreats(board) { threats in
        [
          threats.continuousFours(for: 0, depth: 1),
          threats.continuousFours(for: 0, depth: 2),
          threats.continuousFours(
            for: 0, depth: ThreatSearch<Bits256>.leafFours,
            anywhere: ThreatSearch<Bits256>.leafFoursAnywhere),
          threats.longestFours(for: 0, until: .now + .seconds(60)),
        ].map { $0.map { [$0.move, $0.plies] } }
      })
    let win = [6 * 15 + 7, 5]
    #expect(answers == [nil, win, win, win])
  }

  /// For both sides (the side not to move as if it were), after each of the game's stones
  /// while the search without memory still takes milliseconds: memory changes no answer.
  @Test func remembersWithoutChangingAnAnswer() throws {
    var compared = 0
    var wins = 0
    for count in 12...43 {
      let board = try Self.board(after: count)
      let answers = Self.withThreats(board) { threats in
        (0...1).map { colour in
          // The same order as the remembering search: one four, two, then all it may make.
          let plain = [1, 2, ThreatSearch<Bits256>.rootFours].lazy.compactMap {
            threats.continuousFours(for: colour, depth: $0)
          }.first
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

/// The chain of fours at the leaves of the large-board search: longer than the two fours it
/// once read, and narrow, each four after the second sharing a window with the four before.
struct LeafChainTests {
  /// 400 positions of 16 to 31 stones dealt at random in the middle 9×9 of a 15×15 board,
  /// for both sides: every win of two fours is still found, every win found is one the
  /// unrestricted chain of as many fours finds too and takes no more plies than it may, some
  /// wins need more than two fours, and the narrow chain reads far fewer fours than the
  /// unrestricted one.
  @Test func findsLongerChainsAndNoFalseOnes() throws {
    let leafFours = ThreatSearch<Bits256>.leafFours
    var generator = SplitMix64(seed: 0x6c65_6166)
    var (compared, short, longer) = (0, 0, 0)
    var (narrowFours, wideFours) = (0, 0)
    for _ in 0..<400 {
      var board = try Board(rows: 15, columns: 15, k: 5)
      let stones = 16 + Int(generator.next() % 16)
      while board.markCount < stones && board.outcome == .inProgress {
        let cell = Cell(
          row: 3 + Int(generator.next() % 9), column: 3 + Int(generator.next() % 9))
        if board[cell] == nil { try board.play(at: cell) }
      }
      guard board.outcome == .inProgress else { continue }
      let answers = ChainOfFoursTests.withThreats(board) { threats in
        (0...1).map { colour in
          let short = threats.continuousFours(for: colour, depth: 2)
          let start = threats.limits.nodes
          let leaf = threats.continuousFours(
            for: colour, depth: leafFours, anywhere: ThreatSearch<Bits256>.leafFoursAnywhere)
          let middle = threats.limits.nodes
          let wide = threats.continuousFours(for: colour, depth: leafFours)
          let end = threats.limits.nodes
          return (
            short: short, leaf: leaf, wide: wide, narrowFours: middle - start,
            wideFours: end - middle
          )
        }
      }
      for (colour, answer) in (answers ?? []).enumerated() {
        compared += 1
        narrowFours += answer.narrowFours
        wideFours += answer.wideFours
        let context = "\(board.notation), colour \(colour)"
        if answer.short != nil {
          short += 1
          #expect(answer.leaf != nil, "\(context)")
        }
        if let leaf = answer.leaf {
          #expect(answer.wide != nil, "\(context)")
          #expect(leaf.plies <= 2 * leafFours + 1, "\(context)")
          if answer.short == nil { longer += 1 }
        }
      }
    }
    #expect(compared >= 200, "\(compared) positions")
    #expect(short >= 10, "\(short) wins of two fours")
    #expect(longer >= 10, "\(longer) wins need more than two fours")
    #expect(narrowFours * 4 < wideFours, "\(narrowFours) fours read, against \(wideFours)")
  }
}
