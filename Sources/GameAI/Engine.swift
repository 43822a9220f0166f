public import GameRules

/// The game engine: analyses positions, picks moves at any difficulty and solves boards.
///
/// On 3×3 every answer comes from a table of all positions built once. Boards of up to 64
/// cells are solved exactly when the search finishes within the time budget; otherwise, and on
/// larger boards, the engine estimates with a deepening search and marks its answers as
/// estimates. One instance can serve many threads: its only state is a bounded cache of
/// transposition tables, kept under a lock, through which consecutive searches of one board
/// shape share what they learnt. Long searches stop early when their task is cancelled.
public final class Engine: Sendable {
  /// How long ``analyze(_:)`` and ``bestMove(for:difficulty:using:)`` may think.
  public let timeBudget: Duration
  /// Tables kept between searches.
  let tables = TableCache()
  /// The size of the tables of the estimating search on large boards.
  static let explorerTableBits = 19

  /// Creates an engine that thinks for at most `timeBudget` a move.
  public init(timeBudget: Duration = .seconds(1)) {
    self.timeBudget = timeBudget
  }

  // MARK: - Analysis

  /// Every legal move's value for the side to move, the position's value and the best moves.
  public func analyze(_ board: Board) -> Analysis {
    guard board.outcome == .inProgress else { return Engine.finishedAnalysis(board) }
    let start = ContinuousClock.now
    let empties = board.emptyCells.count
    let (scores, isExact) = moveScores(board, start: start)
    let moves = scores.map { cell, score in
      MoveEvaluation(
        cell: cell,
        evaluation: Score.evaluation(score, emptyCells: empties, isExact: isExact))
    }
    let top = scores.map(\.score).max() ?? 0
    return Analysis(
      evaluation: Score.evaluation(top, emptyCells: empties, isExact: isExact),
      moves: moves,
      best: scores.filter { $0.score == top }.map(\.cell))
  }

  /// Whether an exact search of `board` has a chance within a move's budget: up to 64 cells
  /// and at most 25 empty ones (the empty 5×5 board takes seconds; emptier large boards, far
  /// longer).
  static func mightSolve(_ board: Board) -> Bool {
    board.cellCount <= 64 && board.cellCount - board.markCount <= 25
  }

  static func finishedAnalysis(_ board: Board) -> Analysis {
    let value: GameValue = board.outcome == .draw ? .draw : .loss
    return Analysis(
      evaluation: Evaluation(value: value, plies: 0, isExact: true), moves: [], best: [])
  }

  /// Each empty cell's score for the side to move, in reading order, and whether the scores
  /// are exact.
  private func moveScores(_ board: Board, start: ContinuousClock.Instant)
    -> (scores: [(cell: Cell, score: Int)], isExact: Bool)
  {
    if board.rows == 3 && board.columns == 3 {
      let geometry = ClassicTable.geometry
      let (mover, other) = geometry.position(of: board)
      let scores = board.emptyCells.map { cell in
        (cell, ClassicTable.score(of: geometry.index(of: cell), mover: mover, other: other))
      }
      return (scores, true)
    }
    if Engine.mightSolve(board) {
      let exact = exactScores(board, deadline: start + timeBudget * 0.6, progress: nil)
      if !exact.isAborted {
        return (exact.scores.compactMap { cell, score in score.map { (cell, $0) } }, true)
      }
    }
    let scores = Estimates(engine: self, board: board, deadline: start + timeBudget)
      .run(cells: board.cellCount)
    let geometry = Geometry<UInt64>(rows: board.rows, columns: board.columns, k: board.k)
    return (board.emptyCells.map { ($0, scores[geometry.index(of: $0)] ?? 0) }, false)
  }

  /// Estimated scores of every empty cell, by bit index, from the large-board search.
  private struct Estimates: BitBoardWork {
    let engine: Engine
    let board: Board
    let deadline: ContinuousClock.Instant

    func run<B: BitBoard>(on _: B.Type) -> [Int: Int] {
      engine.withExplorer(B.self, board, deadline: deadline) { explorer, geometry, mover, other in
        let moves = explorer.orderedMoves(
          geometry.full & ~(mover | other), mover: mover, other: other)
        return explorer.scores(of: moves, mover: mover, other: other)
      }
    }
  }

  /// Runs `body` with a large-board search of `board`, on a table kept between calls.
  ///
  /// - Returns: What `body` returns.
  func withExplorer<B: BitBoard, Result>(
    _: B.Type, _ board: Board, deadline: ContinuousClock.Instant,
    _ body: (Explorer<B>, Geometry<B>, _ mover: B, _ other: B) -> Result
  ) -> Result {
    let geometry = Geometry<B>(board)
    let (mover, other) = geometry.position(of: board)
    let key = TableCache.Key(
      rows: board.rows, columns: board.columns, k: board.k, isExact: false,
      bits: Engine.explorerTableBits)
    let table = tables.borrow(key)
    defer { tables.giveBack(table, for: key) }
    let explorer = Explorer(
      geometry: geometry, deadline: deadline, table: table, rootIsO: board.toMove == .o)
    return body(explorer, geometry, mover, other)
  }

  /// The outcome of an exact search over the moves of a board of up to 64 cells.
  struct ExactScores {
    /// Every empty cell in reading order with its exact score, `nil` where unsettled.
    var scores: [(cell: Cell, score: Int?)]
    var nodes: Int
    /// Whether the search stopped before settling every move.
    var isAborted: Bool
  }

  /// Exact scores of every empty cell of a board of up to 64 cells, settling moves that lead
  /// to positions symmetric to each other once.
  ///
  /// The search stops at `deadline` or when the task is cancelled.
  func exactScores(
    _ board: Board, deadline: ContinuousClock.Instant?, tableBits: Int? = nil,
    progress: ((_ nodes: Int, _ done: Int, _ total: Int) -> Void)?
  ) -> ExactScores {
    let key = TableCache.Key(
      rows: board.rows, columns: board.columns, k: board.k, isExact: true,
      bits: tableBits ?? Solver.defaultTableBits(cells: board.cellCount))
    let table = tables.borrow(key)
    // An aborted solve stores nothing it has not settled, so its table stays sound.
    defer { tables.giveBack(table, for: key) }
    let solver = Solver(
      rows: board.rows, columns: board.columns, k: board.k, deadline: deadline, table: table)
    let geometry = solver.geometry
    let (mover, other) = geometry.position(of: board)
    let cells = board.emptyCells
    // Group the moves by the least image of the position they lead to, most promising first.
    var groups: [UInt128: [Int]] = [:]
    var order: [UInt128] = []
    for cell in cells {
      let move = geometry.index(of: cell)
      let least = solver.symmetries.canonical(mover | 1 << UInt64(move), other)
      let key = UInt128(least.mover) << 64 | UInt128(least.other)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(move)
    }
    let total = order.count
    var done = 0
    if let progress {
      var reported = 0
      solver.onCheck = { nodes in
        guard nodes - reported >= 1 << 20 else { return }
        reported = nodes
        progress(nodes, done, total)
      }
    }
    var scores: [Int: Int] = [:]
    for key in order {
      guard let moves = groups[key], let first = moves.first,
        let score = solver.exactScore(of: first, mover: mover, other: other)
      else { break }
      for move in moves { scores[move] = score }
      done += 1
      progress?(solver.nodes, done, total)
    }
    return ExactScores(
      scores: cells.map { ($0, scores[geometry.index(of: $0)]) }, nodes: solver.nodes,
      isAborted: solver.isAborted)
  }
}
