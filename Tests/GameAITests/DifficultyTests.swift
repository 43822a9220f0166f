import GameAI
import GameRules
import Testing

struct DifficultyTests {
  let engine = Engine(timeBudget: .milliseconds(200))

  /// Plays one 3×3 game and returns the winner, or `nil` for a draw.
  ///
  /// `x` and `o` choose the moves.
  func play(
    x: (Board, inout SplitMix64) -> Cell?, o: (Board, inout SplitMix64) -> Cell?, seed: UInt64
  ) throws -> Mark? {
    var generator = SplitMix64(seed: seed)
    var board = Board.classic
    while board.outcome == .inProgress {
      let chooser = board.toMove == .x ? x : o
      try board.play(at: try #require(chooser(board, &generator)))
    }
    return board.outcome.winner
  }

  func level(_ difficulty: Difficulty) -> (Board, inout SplitMix64) -> Cell? {
    { board, generator in engine.bestMove(for: board, difficulty: difficulty, using: &generator) }
  }

  func random(_ board: Board, _ generator: inout SplitMix64) -> Cell? {
    board.emptyCells.randomElement(using: &generator)
  }

  @Test func hardAndAboveAlwaysTakeAWinInOne() throws {
    // X to move wins on row 1 in each.
    for notation in ["xx./oo./...", "xx./o../o..", "x.x/oo./..."] {
      let board = try Board(notation: notation)
      for difficulty in [Difficulty.hard, Difficulty(skill: 0.9), .unbeatable] {
        for seed in 0..<100 {
          var generator = SplitMix64(seed: UInt64(seed))
          let move = engine.bestMove(for: board, difficulty: difficulty, using: &generator)
          let outcome = try board.playing(at: try #require(move)).outcome
          #expect(outcome.winner == .x, "\(notation) at \(difficulty) seed \(seed)")
        }
      }
    }
  }

  @Test func easySometimesMissesABlockButUsuallyMakesIt() throws {
    // O threatens b1-b2-b3 at b1; X has no win.
    let board = try Board(notation: ".../.ox/xo.")
    #expect(board.toMove == .x)
    let target = try #require(Cell(name: "b1"))
    var blocks = 0
    for seed in 0..<200 {
      var generator = SplitMix64(seed: UInt64(seed))
      if engine.bestMove(for: board, difficulty: .easy, using: &generator) == target {
        blocks += 1
      }
    }
    #expect(blocks > 100)
    #expect(blocks < 200)
  }

  @Test func easyOverlooksAGapInsideALineMoreOftenThanAnOpenEnd() throws {
    // O threatens to win at b1, at the end of column b or inside row 1; X has no win.
    func blocks(_ notation: String) throws -> Int {
      let board = try Board(notation: notation)
      let target = try #require(Cell(name: "b1"))
      return (0..<1_000).count { seed in
        var generator = SplitMix64(seed: UInt64(seed))
        return engine.bestMove(for: board, difficulty: .easy, using: &generator) == target
      }
    }
    let atTheEnd = try blocks(".../.ox/xo.")
    let inside = try blocks("o.o/..x/x..")
    #expect(inside < atTheEnd, "inside \(inside), at the end \(atTheEnd)")
    #expect(inside > 0)
  }

  @Test func lowerLevelsPlayNearTheAction() throws {
    var board = try Board(rows: 15, columns: 15, k: 5)
    for name in ["h8", "h9", "i8"] { try board.play(at: try #require(Cell(name: name))) }
    for seed in 0..<30 {
      var generator = SplitMix64(seed: UInt64(seed))
      let move = try #require(
        engine.bestMove(for: board, difficulty: .easy, using: &generator))
      let near = ["h8", "h9", "i8"].compactMap { Cell(name: $0) }.contains {
        abs($0.row - move.row) <= 2 && abs($0.column - move.column) <= 2
      }
      #expect(near, "seed \(seed): \(move)")
    }
  }

  @Test func sameSeedSameMoves() throws {
    var first = SplitMix64(seed: 11)
    var second = SplitMix64(seed: 11)
    var board = Board.classic
    while board.outcome == .inProgress {
      let a = engine.bestMove(for: board, difficulty: .medium, using: &first)
      let b = engine.bestMove(for: board, difficulty: .medium, using: &second)
      #expect(a == b)
      try board.play(at: try #require(a))
    }
  }

  @Test func strengthGrowsWithTheDial() throws {
    let levels: [Difficulty] = [.easy, .medium, .hard, .unbeatable]
    var againstRandom: [Int] = []
    var againstUnbeatable: [Int] = []
    for difficulty in levels {
      // Points: 2 a win, 1 a draw, from both sides of the board.
      var points = 0
      var lost = 0
      for seed in UInt64(0)..<100 {
        let asX = try play(x: level(difficulty), o: random, seed: seed)
        let asO = try play(x: random, o: level(difficulty), seed: seed)
        points += (asX == .x ? 2 : asX == nil ? 1 : 0) + (asO == .o ? 2 : asO == nil ? 1 : 0)
        let versusX = try play(x: level(difficulty), o: level(.unbeatable), seed: seed)
        let versusO = try play(x: level(.unbeatable), o: level(difficulty), seed: seed)
        lost += (versusX == .o ? 1 : 0) + (versusO == .x ? 1 : 0)
      }
      againstRandom.append(points)
      againstUnbeatable.append(-lost)
    }
    #expect(againstRandom == againstRandom.sorted(), "\(againstRandom)")
    #expect(againstUnbeatable == againstUnbeatable.sorted(), "\(againstUnbeatable)")
    #expect(againstUnbeatable.last == 0)
    #expect((againstRandom.first ?? 0) < (againstRandom.last ?? 0))
  }

  @Test func eachLevelHoldsItsOwnAgainstTheLevelBelowOnSevenBySeven() throws {
    // Few, short-budget games: a cheap check that the dial does not turn backwards on a
    // board the engine cannot solve from the start.
    let quick = Engine(timeBudget: .milliseconds(5))
    let levels: [Difficulty] = [.easy, .medium, .hard, .unbeatable]
    var records: [String] = []
    for index in 1..<levels.count {
      var (wins, losses) = (0, 0)
      for seed in UInt64(0)..<6 {
        var generator = SplitMix64(seed: seed)
        var board = try Board(rows: 7, columns: 7, k: 5)
        let strongerIsX = seed.isMultiple(of: 2)
        while board.outcome == .inProgress {
          let isStronger = (board.toMove == .x) == strongerIsX
          let difficulty = isStronger ? levels[index] : levels[index - 1]
          try board.play(
            at: try #require(quick.bestMove(for: board, difficulty: difficulty, using: &generator)))
        }
        if let winner = board.outcome.winner {
          if (winner == .x) == strongerIsX { wins += 1 } else { losses += 1 }
        }
      }
      records.append("\(levels[index]) vs \(levels[index - 1]): \(wins)-\(losses)")
      #expect(wins >= losses, "\(records)")
    }
  }

  @Test func hardTakesAWinInOneOnALargeBoard() throws {
    // X: c4 d4 e4 f4 with b4 taken by O; g4 wins.
    var board = try Board(rows: 7, columns: 7, k: 5)
    for name in ["c4", "b4", "d4", "a1", "e4", "g7", "f4", "a7"] {
      try board.play(at: try #require(Cell(name: name)))
    }
    for seed in UInt64(0)..<50 {
      var generator = SplitMix64(seed: seed)
      let move = engine.bestMove(for: board, difficulty: .hard, using: &generator)
      #expect(move?.name == "g4", "seed \(seed)")
    }
  }
}
