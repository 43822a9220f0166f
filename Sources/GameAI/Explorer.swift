/// A depth-limited alpha-beta search with a pattern evaluation, for boards too large to solve.
///
/// It deepens one ply at a time until its deadline, takes a win in one at once, answers a
/// single threat by blocking it (without spending depth, so forced sequences are read to the
/// end), scores a double threat as lost, looks only at cells near the marks, best first, and
/// keeps a transposition table keyed by Zobrist hashes.
final class Explorer<B: BitBoard> {
  let geometry: Geometry<B>
  /// `near[cell]` holds the cells within two steps of `cell`.
  private let near: [B]
  /// Random keys: `zobrist[side * cellCount + cell]`, side 0 being the root's side to move.
  private let zobrist: [UInt64]
  /// Evaluation weights by how many marks an unblocked window holds.
  private let weights: [Int]
  private var table: TranspositionTable
  private(set) var nodes = 0
  private(set) var isAborted = false
  private let deadline: ContinuousClock.Instant
  private let clock = ContinuousClock()
  /// How many moves an inner node tries, best first.
  private let breadth: Int

  /// Creates a search over `geometry` that stops at `deadline`; `tableBits` sizes its table.
  init(geometry: Geometry<B>, deadline: ContinuousClock.Instant, tableBits: Int = 18) {
    self.geometry = geometry
    table = TranspositionTable(bits: tableBits)
    self.deadline = deadline
    let rows = geometry.rows
    let columns = geometry.columns
    var near: [B] = []
    for index in 0..<geometry.cellCount {
      var mask = B.zero
      let (row, column) = (index / columns, index % columns)
      for r in max(0, row - 2)...min(rows - 1, row + 2) {
        for c in max(0, column - 2)...min(columns - 1, column + 2) {
          mask = mask.inserting(r * columns + c)
        }
      }
      near.append(mask)
    }
    self.near = near
    var generator = SplitMix64(seed: 0x7469_6374_6163_746f)
    zobrist = (0..<2 * geometry.cellCount).map { _ in generator.next() }
    var weights = [0]
    var weight = 1
    for _ in 1..<geometry.k {
      weights.append(weight)
      weight *= 6
    }
    weights.append(weight)
    self.weights = weights
    breadth = geometry.cellCount <= 25 ? 16 : 10
  }

  // MARK: - Entry points

  /// The best move found for `mover` before the deadline, its score and the depth reached.
  func bestMove(mover: B, other: B) -> (move: Int, score: Int, depth: Int) {
    let empty = geometry.full & ~(mover | other)
    let scan = self.scan(mover: mover, other: other)
    let own = scan.ownThreats & empty
    if !own.isZero { return (own.lowestIndex, Score.win(in: 1), 1) }
    var moves = orderedMoves(
      scan.otherThreats.isZero ? candidates(mover: mover, other: other) : scan.otherThreats,
      mover: mover, other: other, hint: -1)
    var best = (move: moves[0], score: -Score.infinity, depth: 0)
    if moves.count == 1 { return (moves[0], 0, 0) }
    let hash = self.hash(mover: mover, other: other)
    for depth in 1...empty.nonzeroBitCount {
      var alpha = -Score.infinity
      var iterationBest = -1
      for move in moves {
        let score = -search(
          other, mover.inserting(move), hash: hash ^ zobrist[move], ply: 1, depth: depth - 1,
          alpha: -Score.infinity, beta: -alpha)
        if isAborted { break }
        if score > alpha {
          alpha = score
          iterationBest = move
        }
      }
      // A cut-short pass still searched the previous best first, so its best stands.
      if iterationBest >= 0 { best = (iterationBest, alpha, depth) }
      if isAborted || Score.isProven(best.score) { break }
      moves.removeAll { $0 == best.move }
      moves.insert(best.move, at: 0)
    }
    return best
  }

  /// An estimated score for `mover` of every move in `moves`, deepening until the deadline.
  func scores(of moves: [Int], mover: B, other: B) -> [Int: Int] {
    var result: [Int: Int] = [:]
    let hash = self.hash(mover: mover, other: other)
    let empties = (geometry.full & ~(mover | other)).nonzeroBitCount
    for depth in 0..<empties {
      var settled = true
      for move in moves {
        if let known = result[move], Score.isProven(known) { continue }
        let after = mover.inserting(move)
        let score: Int
        if geometry.completesWindow(after, at: move) {
          score = Score.win(in: 1)
        } else if after | other == geometry.full {
          score = 0
        } else {
          score = -search(
            other, after, hash: hash ^ zobrist[move], ply: 1, depth: depth,
            alpha: -Score.infinity, beta: Score.infinity)
        }
        // The shallowest pass always completes so that every move has an estimate.
        if isAborted && depth > 0 { return result }
        result[move] = score
        if !Score.isProven(score) { settled = false }
      }
      if settled || isAborted { break }
    }
    return result
  }

  // MARK: - Search

  private func hash(mover: B, other: B) -> UInt64 {
    var hash: UInt64 = 0
    for index in mover.indices { hash ^= zobrist[index] }
    for index in other.indices { hash ^= zobrist[geometry.cellCount + index] }
    return hash
  }

  private struct Scan {
    var ownThreats = B.zero
    var otherThreats = B.zero
    var isOpen = false
    var own = 0
    var theirs = 0
  }

  /// Threats, liveness and pattern totals in one pass over the windows.
  private func scan(mover: B, other: B) -> Scan {
    var scan = Scan()
    let need = geometry.k - 1
    for window in geometry.windows {
      let own = window & mover
      let theirs = window & other
      if theirs.isZero {
        scan.isOpen = true
        let count = own.nonzeroBitCount
        scan.own += weights[count]
        if count == need { scan.ownThreats = scan.ownThreats | (window ^ own) }
      } else if own.isZero {
        scan.isOpen = true
        let count = theirs.nonzeroBitCount
        scan.theirs += weights[count]
        if count == need { scan.otherThreats = scan.otherThreats | (window ^ theirs) }
      }
    }
    return scan
  }

  private func checkLimits() {
    if Task.isCancelled || clock.now >= deadline { isAborted = true }
  }

  private func search(
    _ mover: B, _ other: B, hash: UInt64, ply: Int, depth: Int, alpha: Int, beta: Int
  ) -> Int {
    nodes += 1
    if nodes & 63 == 0 {
      checkLimits()
    }
    if isAborted { return 0 }
    let empty = geometry.full & ~(mover | other)
    if empty.isZero { return 0 }
    let scan = self.scan(mover: mover, other: other)
    if !scan.ownThreats.isZero { return Score.win(in: ply + 1) }
    if !scan.isOpen { return 0 }
    if empty.nonzeroBitCount == 1 { return 0 }
    let threatCount = scan.otherThreats.nonzeroBitCount
    if threatCount >= 2 { return Score.loss(in: ply + 2) }
    if depth <= 0 && threatCount == 0 {
      // The side to move is a tempo ahead: its patterns count for more.
      let estimate = (3 * scan.own - 2 * scan.theirs) / 2
      return max(-Score.estimateLimit + 1, min(Score.estimateLimit - 1, estimate))
    }

    let side = UInt64(ply & 1) + 1
    var hint = -1
    if let entry = table.probe(hash, side) {
      if entry.depth >= depth {
        let score = Score.toRoot(entry.score, ply: ply)
        switch entry.bound {
        case .exact: return score
        case .lower where score >= beta: return score
        case .upper where score <= alpha: return score
        default: break
        }
      }
      hint = entry.move
    }

    let forced = threatCount == 1
    var moves = orderedMoves(
      forced ? scan.otherThreats : candidates(mover: mover, other: other), mover: mover,
      other: other, hint: hint)
    if moves.count > breadth { moves.removeLast(moves.count - breadth) }
    let keyOffset = (ply & 1) * geometry.cellCount
    let nextDepth = forced ? depth : depth - 1
    var alpha = alpha
    let originalAlpha = alpha
    var best = -Score.infinity
    var bestMove = moves[0]
    for move in moves {
      let score = -search(
        other, mover.inserting(move), hash: hash ^ zobrist[keyOffset + move], ply: ply + 1,
        depth: nextDepth, alpha: -beta, beta: -alpha)
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
    let bound: TranspositionTable.Bound =
      best <= originalAlpha ? .upper : best >= beta ? .lower : .exact
    table.store(
      hash, side,
      .init(score: Score.toNode(best, ply: ply), bound: bound, move: bestMove, depth: depth))
    return best
  }

  /// Empty cells near the marks, or the centre of an empty board.
  func candidates(mover: B, other: B) -> B {
    let occupied = mover | other
    if occupied.isZero {
      return B(bit: (geometry.rows / 2) * geometry.columns + geometry.columns / 2)
    }
    var result = B.zero
    var rest = occupied
    while !rest.isZero {
      result = result | near[rest.lowestIndex]
      rest = rest.withoutLowest
    }
    result = result & ~occupied
    // A crowded patch can hide every empty cell from the neighbourhoods.
    return result.isZero ? geometry.full & ~occupied : result
  }

  /// The cells of `cells`, the hint first, then those building or blocking the most lines.
  func orderedMoves(_ cells: B, mover: B, other: B, hint: Int) -> [Int] {
    var scored = plausibility(cells, mover: mover, other: other)
    for index in scored.indices where scored[index].move == hint { scored[index].value = .max }
    scored.sort { $0.value > $1.value || ($0.value == $1.value && $0.move < $1.move) }
    return scored.map(\.move)
  }

  /// How much each cell of `cells` builds the mover's lines and blocks the other side's, in
  /// reading order.
  func plausibility(_ cells: B, mover: B, other: B) -> [(move: Int, value: Int)] {
    var scored: [(move: Int, value: Int)] = []
    var rest = cells
    while !rest.isZero {
      let move = rest.lowestIndex
      rest = rest.withoutLowest
      var value = 0
      for slot in geometry.windowStart[move]..<geometry.windowStart[move + 1] {
        let window = geometry.windows[geometry.windowIndices[slot]]
        let own = window & mover
        let theirs = window & other
        if theirs.isZero { value += 2 * weights[own.nonzeroBitCount + 1] }
        if own.isZero { value += weights[theirs.nonzeroBitCount + 1] }
      }
      scored.append((move, value))
    }
    return scored
  }
}
