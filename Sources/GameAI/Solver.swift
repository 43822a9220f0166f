/// An exact alpha-beta search to the end of the game on boards of up to 64 cells.
///
/// Scores follow ``Score``: the search is depth-aware, so it finds the fastest win and the
/// slowest loss. It takes a win in one at once, answers a single threat by blocking it, scores
/// a double threat as lost, stops on positions where no line can be completed any more, keys
/// its transposition table by the position's least image under the board's symmetries and
/// tries moves that build or block the most lines first.
final class Solver {
  let geometry: Geometry<UInt64>
  let symmetries: SymmetryTables
  private let table: TranspositionTable
  private struct Counters {
    /// Positions searched.
    var nodes = 0
    /// The node count at which to check the limits next.
    var nextCheck = Solver.checkInterval
    /// Whether the search was stopped.
    var isAborted = false
  }

  // Counters and move lists live in manually managed buffers: they change at every node, and
  // class properties would pay for exclusivity checks on each change.
  private let counters: UnsafeMutablePointer<Counters>
  /// Positions searched.
  var nodes: Int { counters.pointee.nodes }
  /// Whether the search stopped early (deadline or cancellation); its scores are then void.
  var isAborted: Bool { counters.pointee.isAborted }
  private let deadline: ContinuousClock.Instant?
  private let clock = ContinuousClock()
  /// Called every few thousand positions with the count so far.
  var onCheck: ((Int) -> Void)?
  /// Per ply, the moves to try and their ordering values.
  private let moveBuffer: UnsafeMutablePointer<Int>
  private let scoreBuffer: UnsafeMutablePointer<Int>
  private let bufferSize: Int

  private static let checkInterval = 1 << 14
  /// Ordering weights by how many marks a window through the cell already holds.
  private let buildWeights: [Int]

  /// Creates a solver for one board shape that stops at `deadline`.
  ///
  /// It uses `table` when given (perhaps filled by earlier solves of the same shape), else a
  /// new table of `2^tableBits` slots, by default sized to the board.
  init(
    rows: Int, columns: Int, k: Int, deadline: ContinuousClock.Instant? = nil,
    tableBits: Int? = nil, table: TranspositionTable? = nil
  ) {
    geometry = Geometry(rows: rows, columns: columns, k: k)
    symmetries = SymmetryTables(rows: rows, columns: columns)
    let cells = rows * columns
    self.table =
      table ?? TranspositionTable(bits: tableBits ?? Solver.defaultTableBits(cells: cells))
    self.deadline = deadline
    buildWeights = (0...k).map { 1 << min(2 * $0, 40) }
    bufferSize = (cells + 1) * cells
    moveBuffer = .allocate(capacity: bufferSize)
    moveBuffer.initialize(repeating: 0, count: bufferSize)
    scoreBuffer = .allocate(capacity: bufferSize)
    scoreBuffer.initialize(repeating: 0, count: bufferSize)
    counters = .allocate(capacity: 1)
    counters.initialize(to: Counters())
  }

  /// The table size that suits a board of `cells` cells in a move's budget.
  static func defaultTableBits(cells: Int) -> Int { cells <= 9 ? 12 : cells <= 12 ? 16 : 18 }

  deinit {
    moveBuffer.deallocate()
    scoreBuffer.deallocate()
    counters.deallocate()
  }

  /// The exact score of the position for `mover`, or `nil` when the search was stopped.
  func exactScore(mover: UInt64, other: UInt64) -> Int? {
    let sign = search(mover, other, ply: 0, alpha: -1, beta: 1)
    guard !isAborted else { return nil }
    if sign == 0 { return 0 }
    let score =
      sign > 0
      ? search(mover, other, ply: 0, alpha: 0, beta: Score.infinity)
      : search(mover, other, ply: 0, alpha: -Score.infinity, beta: 0)
    return isAborted ? nil : score
  }

  /// The exact score for `mover` of playing `move`, or `nil` when the search was stopped.
  func exactScore(of move: Int, mover: UInt64, other: UInt64) -> Int? {
    let after = mover | 1 << UInt64(move)
    if geometry.completesWindow(after, at: move) { return Score.win(in: 1) }
    if after | other == geometry.full { return 0 }
    return exactScore(mover: other, other: after).map(Score.parent(of:))
  }

  private func checkLimits() {
    counters.pointee.nextCheck = nodes + Solver.checkInterval
    onCheck?(nodes)
    if Task.isCancelled { counters.pointee.isAborted = true }
    if let deadline, clock.now >= deadline { counters.pointee.isAborted = true }
  }

  private func search(_ mover: UInt64, _ other: UInt64, ply: Int, alpha: Int, beta: Int) -> Int {
    counters.pointee.nodes += 1
    if counters.pointee.nodes >= counters.pointee.nextCheck {
      checkLimits()
      if isAborted { return 0 }
    }
    let empty = geometry.full & ~(mover | other)
    if empty == 0 { return 0 }

    // One pass over the windows: threats of both sides, and whether any line is still open.
    let need = geometry.k - 1
    var ownThreats: UInt64 = 0
    var otherThreats: UInt64 = 0
    var isOpen = false
    for window in geometry.windows {
      let own = window & mover
      let theirs = window & other
      if theirs == 0 {
        isOpen = true
        if own.nonzeroBitCount == need { ownThreats |= window ^ own }
      } else if own == 0 {
        isOpen = true
        if theirs.nonzeroBitCount == need { otherThreats |= window ^ theirs }
      }
    }
    if ownThreats != 0 { return Score.win(in: ply + 1) }
    if !isOpen { return 0 }
    let emptyCount = empty.nonzeroBitCount
    if emptyCount == 1 { return 0 }
    if otherThreats.nonzeroBitCount >= 2 { return Score.loss(in: ply + 2) }

    // Without a win in one, the best is a win in three and the worst a loss in two.
    let lowest = Score.loss(in: ply + 2)
    if lowest >= beta { return lowest }
    let highest = Score.win(in: ply + 3)
    if highest <= alpha { return highest }
    var alpha = max(alpha, lowest)
    let beta = min(beta, highest)

    let canonical = symmetries.canonical(mover, other)
    var hint = -1
    if let entry = table.probe(canonical.mover, canonical.other) {
      if let score = entry.cutoff(alpha: alpha, beta: beta, ply: ply) { return score }
      if entry.move >= 0 { hint = symmetries.inverses[canonical.symmetry][entry.move] }
    }

    let candidates = otherThreats != 0 ? otherThreats : empty
    let count = orderMoves(candidates, mover: mover, other: other, hint: hint, ply: ply)
    let base = ply * geometry.cellCount
    let originalAlpha = alpha
    var best = -Score.infinity
    var bestMove = -1
    for slot in 0..<count {
      let move = moveBuffer[base + slot]
      let score = -search(
        other, mover | 1 << UInt64(move), ply: ply + 1, alpha: -beta, beta: -alpha)
      if isAborted { return 0 }
      if score > best {
        best = score
        bestMove = move
        if score > alpha {
          alpha = score
          if alpha >= beta { break }
        }
      }
    }

    table.store(
      canonical.mover, canonical.other,
      .init(
        score: Score.toNode(best, ply: ply),
        bound: .init(best: best, originalAlpha: originalAlpha, beta: beta),
        move: symmetries.permutations[canonical.symmetry][bestMove], depth: Int(UInt8.max)))
    return best
  }

  /// Writes `candidates` into this ply's move buffer, best first, and returns how many.
  private func orderMoves(
    _ candidates: UInt64, mover: UInt64, other: UInt64, hint: Int, ply: Int
  ) -> Int {
    let base = ply * geometry.cellCount
    var count = 0
    var rest = candidates
    while rest != 0 {
      let move = rest.trailingZeroBitCount
      rest &= rest &- 1
      var value = 0
      if move == hint {
        value = Int.max
      } else {
        for slot in geometry.windowStart[move]..<geometry.windowStart[move + 1] {
          let window = geometry.windows[geometry.windowIndices[slot]]
          let own = window & mover
          let theirs = window & other
          if theirs == 0 { value += 2 * buildWeights[own.nonzeroBitCount] }
          if own == 0 { value += buildWeights[theirs.nonzeroBitCount] }
        }
      }
      // Insertion sort: the lists are short.
      var position = count
      while position > 0, scoreBuffer[base + position - 1] < value {
        moveBuffer[base + position] = moveBuffer[base + position - 1]
        scoreBuffer[base + position] = scoreBuffer[base + position - 1]
        position -= 1
      }
      moveBuffer[base + position] = move
      scoreBuffer[base + position] = value
      count += 1
    }
    return count
  }
}
