import GameRules
import Testing

@testable import GameAI

/// The threat-space searches, depth first (a defender's four refuting or only delaying) and by
/// proof numbers: the wins they find, and that every win they claim is one.
struct ThreatProofTests {
  /// A game of 15×15 freestyle between ours and another engine.
  static let game = GomocupGame(
    """
    5,7 6,9 5,8 5,6 6,6 4,8 5,5 7,7 6,4 4,5 6,7 6,5 7,6 4,9 4,6 7,3 9,4 8,5 7,4 8,4 3,5 2,4 \
    3,4 3,6 2,7 4,7 4,4 5,4 3,3 2,2 2,9 2,6 8,6 7,9 5,9 10,6 9,5 4,11 4,10 5,10 7,8 6,11 2,8 \
    3,7 3,8
    """)

  /// A game of 15×15 freestyle, the other engine black; it announced a forced win in 19
  /// plies after 12 stones.
  static let opening = GomocupGame("5,7 6,9 5,8 7,8 4,8 4,10 6,7 5,10 8,7 7,7 6,6 7,5")

  /// Runs `body` with the threat searches set up at `board`, the side to move being colour
  /// 0, and a clock of `seconds`; `nil` when either side has a four.
  static func withThreats<B: BitBoard, Result>(
    _: B.Type, _ board: Board, seconds: Int = 60, _ body: (ThreatSearch<B>) -> Result
  ) -> Result? {
    let geometry = Geometry<B>(board)
    let (mover, other) = geometry.position(of: board)
    let empty = geometry.full & ~(mover | other)
    guard (geometry.threats(of: mover, against: other) & empty).isZero,
      (geometry.threats(of: other, against: mover) & empty).isZero
    else { return nil }
    let explorer = Explorer(
      geometry: geometry, deadline: .now + .seconds(seconds), tableBits: 4,
      rootIsO: board.toMove == .o)
    explorer.state.setUp(mover: mover, other: other)
    return body(explorer.threats)
  }

  /// Whether `move` wins the real 8×8 game (five in a row) for the side with `mover`'s marks,
  /// by a proof-number search of the whole game after it; `nil` when the search does not
  /// settle it within 200,000 positions.
  static func winsRealGame(move: Int, mover: UInt64, other: UInt64) -> Bool? {
    let search = WinSearch(rows: 8, columns: 8, k: 5, table: ProofNumberTable(bits: 18))
    search.nodeLimit = 200_000
    return search.attackerWins(
      attacker: mover.inserting(move), defender: other, attackerToMove: false)
  }

  /// After 45 stones the side to move wins through a sequence in which the defender has a
  /// four to play; the search used to count that four as a refutation and found no win in
  /// a second, though the four only delays: the attacker blocks and its threats still stand.
  @Test func aDefendersFourOnlyDelays() throws {
    let win = Self.withThreats(Bits256.self, try Self.game.board(after: 45)) { threats in
      threats.depthFirstWin(for: 0, until: .now + .seconds(30), blockMustThreaten: false)
    }
    #expect(win??.plies == 17, "\(String(describing: win))")
  }

  /// The proof-number search finds the opening win that the depth-first search, deepening
  /// one threat at a time, does not reach in a second.
  @Test func provesAnOpeningWin() throws {
    let win = Self.withThreats(Bits256.self, try Self.opening.board(after: 12)) { threats in
      threats.proofSearch.win(for: 0, until: .now + .seconds(60))
    }
    let found = try #require(win ?? nil)
    #expect(found.plies >= 11 && found.plies <= 25, "\(found)")
  }

  /// On 8×8 boards crowded enough for lines to cross, every win that only a chain of fours
  /// going on through a four of the defender's finds is a win of the real game.
  @Test func chainsThroughTheDefendersFoursAreWins() throws {
    var generator = SplitMix64(seed: 0x636f_756e_7465_72)
    var (positions, claims) = (0, 0)
    let geometry = Geometry<UInt64>(rows: 8, columns: 8, k: 5)
    let explorer = Explorer(geometry: geometry, deadline: .now + .seconds(60), tableBits: 4)
    let threats = explorer.threats
    let depth = ThreatSearch<UInt64>.rootFours
    // At most 40 claims are checked, so that a wrong chain fails fast.
    for _ in 0..<30_000 where claims < 40 {
      // 12 to 24 stones anywhere, the side to move having played as many or one fewer.
      let stones = 12 + Int(generator.next() % 13)
      var (mover, other) = (UInt64.zero, UInt64.zero)
      while mover.nonzeroBitCount + other.nonzeroBitCount < stones {
        let cell = Int(generator.next() % 64)
        guard !(mover | other).contains(cell) else { continue }
        if other.nonzeroBitCount > mover.nonzeroBitCount {
          mover = mover.inserting(cell)
        } else {
          other = other.inserting(cell)
        }
      }
      let empty = geometry.full & ~(mover | other)
      // The chain of fours applies where no line is complete and neither side has a four.
      guard !geometry.hasWindow(mover), !geometry.hasWindow(other),
        (geometry.threats(of: mover, against: other) & empty).isZero,
        (geometry.threats(of: other, against: mover) & empty).isZero
      else { continue }
      explorer.state.setUp(mover: mover, other: other)
      positions += 1
      threats.answersDefendersFours = true
      guard let win = threats.continuousFours(for: 0, depth: depth) else { continue }
      threats.answersDefendersFours = false
      guard threats.continuousFours(for: 0, depth: depth) == nil else { continue }
      claims += 1
      let wins = Self.winsRealGame(move: win.move, mover: mover, other: other)
      #expect(wins == true, "mover \(mover), other \(other), \(win)")
    }
    #expect(positions >= 10_000, "\(positions) positions")
    #expect(claims >= 5, "\(claims) wins through a four of the defender's")
  }

  /// On 8×8 boards, where the full game can be searched, after 80 random openings of
  /// plausible moves: every win any of the threat searches (the chain of fours among them)
  /// claims for the side to move is a win of the real game, and every first move it names
  /// wins.
  @Test func everyClaimedWinIsOne() throws {
    var generator = SplitMix64(seed: 0x7468_7265_6174_73)
    var claims = 0
    var checked = 0
    for _ in 0..<80 {
      var board = try Board(rows: 8, columns: 8, k: 5)
      let stones = 8 + Int(generator.next() % 9)
      while board.markCount < stones, board.outcome == .inProgress {
        let near = board.emptyCells.filter { cell in
          board.markCount == 0
            ? abs(cell.row - 3) + abs(cell.column - 3) <= 1
            : (-1...1).contains { dr in
              (-1...1).contains { dc in
                let (r, c) = (cell.row + dr, cell.column + dc)
                return (0..<8).contains(r) && (0..<8).contains(c) && board[r, c] != nil
              }
            }
        }
        try board.play(at: near[Int(generator.next() % UInt64(near.count))])
      }
      guard board.outcome == .inProgress else { continue }
      // The position is read with the geometry the searches were set up with.
      let found = Self.withThreats(UInt64.self, board) { threats in
        (
          position: threats.state.geometry.position(of: board),
          answers: [
            threats.depthFirstWin(for: 0, until: .now + .milliseconds(250)),
            threats.depthFirstWin(
              for: 0, until: .now + .milliseconds(250), blockMustThreaten: false),
            threats.proofSearch.win(for: 0, until: .now + .milliseconds(250)),
            threats.continuousFours(for: 0, depth: ThreatSearch<UInt64>.rootFours),
          ]
        )
      }
      guard let found else { continue }
      let (mover, other) = found.position
      for answer in found.answers.compactMap({ $0 }) {
        claims += 1
        // The full game, from the position after the named move, the defender to move.
        guard let wins = Self.winsRealGame(move: answer.move, mover: mover, other: other)
        else { continue }
        checked += 1
        #expect(wins, "\(board) \(answer)")
      }
    }
    #expect(claims >= 20, "\(claims) claims")
    #expect(checked >= claims * 3 / 4, "\(checked) of \(claims) checked")
  }
}
