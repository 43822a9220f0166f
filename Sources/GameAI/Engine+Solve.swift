public import GameRules

extension Engine {
  /// Solves `board` under perfect play: its value, every optimal move and the work it took.
  ///
  /// Boards of up to 64 cells are searched to the end with no time limit, with the plies of
  /// the fastest win and slowest loss: exactly when few cells are empty, and otherwise by
  /// proof searches. The search stops, with a result marked inexact, if the task is
  /// cancelled. Larger boards get
  /// the time budget's estimate. `progress` is called every million positions or so and
  /// whenever a first move is settled.
  public func solve(_ board: Board, progress: (@Sendable (SolveProgress) -> Void)?) -> SolveResult {
    let clock = ContinuousClock()
    let start = clock.now
    guard board.outcome == .inProgress else {
      let finished = Engine.finishedAnalysis(board)
      return SolveResult(
        evaluation: finished.evaluation, best: [], moves: [], nodes: 0, duration: .zero)
    }
    if board.rows == 3 && board.columns == 3 { return Engine.solveClassic(board, clock: clock) }
    guard board.cellCount <= 64 else {
      let analysis = analyze(board)
      return SolveResult(
        evaluation: analysis.evaluation, best: analysis.best, moves: analysis.moves, nodes: nil,
        duration: clock.now - start)
    }
    let report: (Int, Int, Int) -> Void = { nodes, done, total in
      progress?(
        SolveProgress(
          nodes: nodes, elapsed: clock.now - start, movesDone: done, movesTotal: total))
    }
    let empties = board.emptyCells.count
    let scores: [(cell: Cell, score: Int?)]
    let nodes: Int
    var moverCannotWin = false
    if empties <= Engine.exactSearchEmpties {
      // A long solve earns a large table: up to 2^22 slots, about 90 MB.
      let cells = board.cellCount
      let bits = cells <= 9 ? 12 : cells <= 12 ? 16 : cells <= 16 ? 20 : 22
      let exact = exactScores(board, deadline: nil, tableBits: bits, progress: report)
      (scores, nodes) = (exact.scores, exact.nodes)
    } else {
      let proven = provenMoves(
        board, deadline: nil, tableBits: Engine.solveTableBits(cells: board.cellCount),
        fastest: true, proofNumberBits: Engine.solveProofNumberBits(cells: board.cellCount),
        progress: report)
      let geometry = Geometry<UInt64>(board)
      scores = board.emptyCells.map { ($0, proven.scores[geometry.index(of: $0)]) }
      (nodes, moverCannotWin) = (proven.nodes, proven.moverCannotWin)
    }
    let settled = scores.compactMap { cell, score in score.map { (cell: cell, score: $0) } }
    let moves = settled.map { move in
      MoveEvaluation(
        cell: move.cell,
        evaluation: Score.evaluation(move.score, emptyCells: empties, isExact: true))
    }
    let top = settled.map(\.score).max()
    var evaluation = Score.evaluation(top ?? 0, emptyCells: empties, isExact: true)
    // Unsettled moves leave the value open, unless a win is in hand or no win is possible.
    let isComplete = settled.count == scores.count
    evaluation.isExact =
      top != nil
      && (isComplete || (top ?? 0) >= Score.provenThreshold || (top == 0 && moverCannotWin))
    return SolveResult(
      evaluation: evaluation, best: settled.filter { $0.score == top }.map(\.cell), moves: moves,
      nodes: nodes, duration: clock.now - start)
  }

  /// Solves a 3×3 position with a search that needs nothing built beforehand, settling moves
  /// that lead to positions symmetric to each other once.
  private static func solveClassic(_ board: Board, clock: ContinuousClock) -> SolveResult {
    let start = clock.now
    var mover: UInt16 = 0
    var other: UInt16 = 0
    for row in 0..<3 {
      for column in 0..<3 {
        guard let mark = board[row, column] else { continue }
        let bit: UInt16 = 1 << UInt16(row * 3 + column)
        if mark == board.toMove { mover |= bit } else { other |= bit }
      }
    }
    var solver = ClassicSolver()
    var known: [(key: UInt32, score: Int)] = []
    var moves: [MoveEvaluation] = []
    let empties = 9 - (mover | other).nonzeroBitCount
    var top = Int.min
    for cell in 0..<9 where (mover | other) & (1 << UInt16(cell)) == 0 {
      let key = ClassicSolver.key(other, mover | 1 << UInt16(cell))
      let score: Int
      if let seen = known.first(where: { $0.key == key }) {
        score = seen.score
      } else {
        score = solver.score(of: cell, mover: mover, other: other)
        known.append((key, score))
      }
      top = max(top, score)
      moves.append(
        MoveEvaluation(
          cell: Cell(row: cell / 3, column: cell % 3),
          evaluation: Score.evaluation(score, emptyCells: empties, isExact: true)))
    }
    let best = moves.filter {
      $0.evaluation == Score.evaluation(top, emptyCells: empties, isExact: true)
    }
    return SolveResult(
      evaluation: Score.evaluation(top, emptyCells: empties, isExact: true),
      best: best.map(\.cell), moves: moves, nodes: solver.nodes, duration: clock.now - start)
  }

  /// The size of the proof tables of a solve without a time limit: larger boards need more
  /// positions kept (8×8 gets 2^24 slots, about 400 MB).
  static func solveTableBits(cells: Int) -> Int {
    cells <= 25 ? 18 : cells <= 36 ? 21 : cells <= 49 ? 22 : 24
  }

  /// The size of the proof-number table of a solve without a time limit, made only when the
  /// real game is asked: 2^24 slots of 32 bytes, 512 MB, from 30 cells on (4×9 needs them).
  static func solveProofNumberBits(cells: Int) -> Int {
    cells <= 20 ? 18 : cells < 30 ? 22 : 24
  }
}
