import GameAI
import GameRules
import Testing

/// A board after `marks` random moves from `generator`, or `nil` if the game ended first.
func randomPosition(
  rows: Int, columns: Int, k: Int, marks: Int, using generator: inout SplitMix64
) throws -> Board? {
  var board = try Board(rows: rows, columns: columns, k: k)
  while board.markCount < marks {
    guard board.outcome == .inProgress else { return nil }
    try board.play(at: try #require(board.emptyCells.randomElement(using: &generator)))
  }
  return board.outcome == .inProgress ? board : nil
}

/// The proof searches used where too many cells are empty for the exact search.
struct ProofTests {
  // About a dozen empty cells each, so that the exact search stays cheap.
  static let shapes: [(rows: Int, columns: Int, k: Int, marks: Int)] = [
    (5, 5, 4, 12), (4, 5, 4, 7), (4, 4, 3, 3), (5, 5, 5, 11), (4, 6, 4, 11), (6, 5, 5, 17),
    (5, 5, 3, 12), (3, 7, 3, 8),
  ]

  @Test(arguments: shapes.indices)
  func proofsGiveWhatTheExactSearchGives(shape: Int) throws {
    // The exact search agrees with a plain minimax (SolverAgreementTests); the proofs must
    // agree with it move by move: value and length.
    try ProofTests.expectExactProofs(shape: shape, seed: UInt64(100 + shape)) { engine, board in
      engine.provenMoves(board, deadline: nil, fastest: true)
    }
  }

  /// Checks `prove`'s move proofs of four random positions of `shapes[shape]` against the
  /// exact search, move by move: the score (value and length), and which moves cannot lose.
  static func expectExactProofs(
    shape: Int, seed: UInt64, _ prove: (Engine, Board) -> Engine.ProvenMoves
  ) throws {
    let (rows, columns, k, marks) = ProofTests.shapes[shape]
    var generator = SplitMix64(seed: seed)
    var compared = 0
    for _ in 0..<4 {
      guard
        let board = try randomPosition(
          rows: rows, columns: columns, k: k, marks: marks, using: &generator)
      else { continue }
      let engine = Engine()
      let exact = engine.exactScores(board, deadline: nil, progress: nil)
      let proven = prove(engine, board)
      #expect(!proven.isAborted)
      for (cell, score) in exact.scores {
        let index = cell.row * columns + cell.column
        #expect(proven.scores[index] == score, "\(board.notation) \(cell.name)")
        #expect(proven.safe.contains(index) == ((score ?? -1) >= 0), "\(board.notation) \(cell)")
      }
      compared += 1
    }
    #expect(compared > 0)
  }

  static let pairingShapes: [(rows: Int, columns: Int, k: Int)] = [
    (7, 7, 5), (6, 6, 5), (8, 8, 5), (4, 9, 4), (5, 5, 4), (9, 4, 4), (5, 12, 4),
  ]

  @Test(arguments: pairingShapes.indices)
  func everyPairingFoundCoversEveryOpenWindow(shape: Int) throws {
    let (rows, columns, k) = ProofTests.pairingShapes[shape]
    let finder = PairingFinder(rows: rows, columns: columns, k: k)
    var generator = SplitMix64(seed: UInt64(rows * 100 + columns * 10 + k))
    var found = 0
    for marks in 0..<(rows * columns * 2 / 3) {
      for _ in 0..<6 {
        // Random stones, not a game: the breaker holds about two in three, so that pairings
        // are common.
        var maker: UInt64 = 0
        var breaker: UInt64 = 0
        for _ in 0..<marks {
          let cell = UInt64(Int.random(in: 0..<(rows * columns), using: &generator))
          if (maker | breaker) & (1 << cell) != 0 { continue }
          if Int.random(in: 0..<3, using: &generator) == 0 {
            maker |= 1 << cell
          } else {
            breaker |= 1 << cell
          }
        }
        guard let pairs = finder.pairing(maker: maker, breaker: breaker) else { continue }
        found += 1
        var used: UInt64 = 0
        for (a, b) in pairs {
          let both = UInt64(1) << UInt64(a) | UInt64(1) << UInt64(b)
          #expect(both & (maker | breaker | used) == 0, "a pair on a taken or paired cell")
          used |= both
        }
        for window in windows(rows: rows, columns: columns, k: k) where window & breaker == 0 {
          let covered = pairs.contains { a, b in
            let both = UInt64(1) << UInt64(a) | UInt64(1) << UInt64(b)
            return window & both == both
          }
          #expect(covered, "an open window without a pair")
        }
      }
    }
    #expect(found > 5)
  }

  /// Every run of `k` cells, written independently of the engine.
  func windows(rows: Int, columns: Int, k: Int) -> [UInt64] {
    var result: [UInt64] = []
    for row in 0..<rows {
      for column in 0..<columns {
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
          let cells = (0..<k).map { (row + dr * $0, column + dc * $0) }
          guard cells.allSatisfy({ $0.0 < rows && $0.1 >= 0 && $0.1 < columns }) else {
            continue
          }
          result.append(cells.reduce(0) { $0 | 1 << UInt64($1.0 * columns + $1.1) })
        }
      }
    }
    return result
  }

  @Test(arguments: [6, 7])
  func fiveInARowIsADrawOnSmallSquareBoards(side: Int) throws {
    let result = Engine().solve(try Board(rows: side, columns: side, k: 5), progress: nil)
    #expect(result.evaluation == Evaluation(value: .draw, plies: side * side))
    #expect(result.best.count == side * side)
    #expect(result.moves.count == side * side)
  }

  /// The hardest shapes the top level's promise covers, in each family of the rule.
  static let promisedShapes: [(rows: Int, columns: Int, k: Int)] = [
    (4, 7, 4), (5, 5, 4), (3, 15, 4), (4, 15, 5), (5, 9, 5), (6, 8, 5), (8, 8, 6), (4, 15, 6),
  ]

  @Test(arguments: promisedShapes.indices)
  func shapesThePromiseCoversAreProvenDraws(shape: Int) throws {
    let (rows, columns, k) = ProofTests.promisedShapes[shape]
    #expect(Difficulty.promisesNeverLosing(rows: rows, columns: columns, k: k))
    let result = Engine().solve(try Board(rows: rows, columns: columns, k: k), progress: nil)
    #expect(result.evaluation == Evaluation(value: .draw, plies: rows * columns))
  }

  @Test func fourInARowOnFourBySevenIsADraw() throws {
    let result = Engine().solve(try Board(rows: 4, columns: 7, k: 4), progress: nil)
    #expect(result.evaluation == Evaluation(value: .draw, plies: 28))
  }

  @Test func sevenBySevenAnalysisSaysWhatItProves() throws {
    // After three moves each, the engine proves what every move leads to.
    var board = try Board(rows: 7, columns: 7, k: 5)
    for name in ["d4", "c3", "e5", "e3", "c5", "f6"] {
      try board.play(at: try #require(Cell(name: name)))
    }
    let analysis = Engine(timeBudget: .seconds(20)).analyze(board)
    #expect(analysis.evaluation.isExact)
    #expect(analysis.moves.allSatisfy { $0.evaluation.isExact })
    #expect(!analysis.best.isEmpty)
    for cell in analysis.best {
      #expect(analysis.moves.first { $0.cell == cell }?.evaluation == analysis.evaluation)
    }
  }
}
