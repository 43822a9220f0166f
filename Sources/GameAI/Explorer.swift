/// A depth-limited alpha-beta search with a pattern evaluation, for boards too large to solve.
///
/// It deepens one ply at a time until its deadline, takes a win in one at once, answers a
/// single threat by blocking it (without spending depth, so forced sequences are read to the
/// end), scores a double threat as lost, looks only at cells near the marks, best first, and
/// keeps a transposition table keyed by Zobrist hashes. Line counts, threats and the pattern
/// evaluation are updated move by move, so a position costs only the windows through its last
/// move.
final class Explorer<B: BitBoard> {
  let geometry: Geometry<B>
  /// `near[cell]` holds the cells within two steps of `cell`.
  private let near: [B]
  /// Random keys: `zobrist[colour * cellCount + cell]`, colour 0 being the root's side to move.
  private let zobrist: [UInt64]
  /// Evaluation weights by how many marks an unblocked window holds.
  private let weights: [Int]
  private let table: TranspositionTable
  private(set) var nodes = 0
  private(set) var isAborted = false
  /// Whether the search may stop at the deadline (off while settling the shallowest pass).
  private var checksLimits = true
  private let deadline: ContinuousClock.Instant
  private let clock = ContinuousClock()
  /// How many moves an inner node tries, best first.
  private let breadth: Int

  // Incremental state, by colour: 0 is the root's side to move, 1 the other side.
  private let windowCount: Int
  // The state lives in manually managed buffers: it changes at every node, and class
  // properties would pay for exclusivity checks and copy-on-write tests on each change.
  /// `counts[colour * windowCount + window]`: that colour's marks in the window.
  private let counts: UnsafeMutablePointer<Int>
  /// `totals[colour]`: that colour's sum of `weights` over the windows the other colour has
  /// not entered; `totals[2 + colour]`: its windows one mark short of a line that the other
  /// colour has not entered (fours); `totals[4]`: windows that some colour can still
  /// complete; `totals[5 + colour]`: its windows two marks short of a line that the other
  /// colour has not entered (threes).
  private let totals: UnsafeMutablePointer<Int>
  /// Each colour's marks.
  private let marks: UnsafeMutablePointer<B>
  /// Copies of `geometry.windowStart`, `geometry.windowIndices` and `weights` for the hot
  /// loops.
  private let starts: UnsafeMutablePointer<Int>
  private let slots: UnsafeMutablePointer<Int>
  private let fastWeights: UnsafeMutablePointer<Int>

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
    windowCount = geometry.windows.count
    counts = .allocate(capacity: 2 * geometry.windows.count)
    counts.initialize(repeating: 0, count: 2 * geometry.windows.count)
    totals = .allocate(capacity: 7)
    totals.initialize(repeating: 0, count: 7)
    marks = .allocate(capacity: 2)
    marks.initialize(repeating: .zero, count: 2)
    starts = Explorer.copy(geometry.windowStart)
    slots = Explorer.copy(geometry.windowIndices)
    fastWeights = Explorer.copy(weights)
  }

  private static func copy(_ values: [Int]) -> UnsafeMutablePointer<Int> {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: max(values.count, 1))
    pointer.initialize(repeating: 0, count: max(values.count, 1))
    for (index, value) in values.enumerated() { pointer[index] = value }
    return pointer
  }

  deinit {
    counts.deallocate()
    totals.deallocate()
    marks.deinitialize(count: 2)
    marks.deallocate()
    starts.deallocate()
    slots.deallocate()
    fastWeights.deallocate()
  }

  // MARK: - Entry points

  /// The best move found for `mover` before the deadline, its score and the depth reached.
  func bestMove(mover: B, other: B) -> (move: Int, score: Int, depth: Int) {
    setUp(mover: mover, other: other)
    let empty = geometry.full & ~(mover | other)
    let own = geometry.threats(of: mover, against: other) & empty
    if !own.isZero { return (own.lowestIndex, Score.win(in: 1), 1) }
    let threats = geometry.threats(of: other, against: mover) & empty
    if threats.isZero, let win = continuousFours(for: 0, depth: Explorer.rootFours) {
      return (win.move, Score.win(in: win.plies), win.plies)
    }
    let area = candidates(mover: mover, other: other)
    var moves = orderedMoves(threats.isZero ? area : threats, colour: 0, hint: -1)
    var best = (move: moves[0], score: -Score.infinity, depth: 0)
    if moves.count == 1 { return (moves[0], 0, 0) }
    let hash = self.hash(mover: mover, other: other)
    for depth in 1...empty.nonzeroBitCount {
      var alpha = -Score.infinity
      var iterationBest = -1
      for move in moves {
        let score = -child(
          move, colour: 0, hash: hash, ply: 0, depth: depth - 1, alpha: -Score.infinity,
          beta: -alpha, area: area)
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
    setUp(mover: mover, other: other)
    var result: [Int: Int] = [:]
    let hash = self.hash(mover: mover, other: other)
    let area = candidates(mover: mover, other: other)
    let empties = (geometry.full & ~(mover | other)).nonzeroBitCount
    for depth in 0..<empties {
      // The shallowest pass always completes so that every move has an estimate.
      checksLimits = depth > 0
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
          score = -child(
            move, colour: 0, hash: hash, ply: 0, depth: depth, alpha: -Score.infinity,
            beta: Score.infinity, area: area)
        }
        if isAborted { return result }
        result[move] = score
        if !Score.isProven(score) { settled = false }
      }
      if settled { break }
    }
    return result
  }

  // MARK: - Incremental state

  private func setUp(mover: B, other: B) {
    counts.update(repeating: 0, count: 2 * windowCount)
    marks.update(repeating: .zero, count: 2)
    totals.update(repeating: 0, count: 7)
    totals[4] = windowCount
    for cell in mover.indices { place(cell, colour: 0) }
    for cell in other.indices { place(cell, colour: 1) }
  }

  /// Adds (`sign` 1) or removes (`sign` -1) a window's share of the totals.
  @inline(__always)
  private func account(_ first: Int, _ second: Int, sign: Int) {
    if first == 0 || second == 0 { totals[4] += sign }
    if second == 0 {
      totals[0] += sign * fastWeights[first]
      if first == geometry.k - 1 { totals[2] += sign }
      if first == geometry.k - 2 { totals[5] += sign }
    }
    if first == 0 {
      totals[1] += sign * fastWeights[second]
      if second == geometry.k - 1 { totals[3] += sign }
      if second == geometry.k - 2 { totals[6] += sign }
    }
  }

  private func place(_ cell: Int, colour: Int) { change(cell, colour: colour, by: 1) }

  private func remove(_ cell: Int, colour: Int) { change(cell, colour: colour, by: -1) }

  private func change(_ cell: Int, colour: Int, by step: Int) {
    for slot in starts[cell]..<starts[cell + 1] {
      let window = slots[slot]
      let first = counts[window]
      let second = counts[windowCount + window]
      account(first, second, sign: -1)
      counts[colour * windowCount + window] += step
      account(counts[window], counts[windowCount + window], sign: 1)
    }
    marks[colour] = marks[colour] ^ B(bit: cell)
  }

  /// The empty cells that would complete a line for `colour`.
  private func threatCells(of colour: Int) -> B {
    var result = B.zero
    let own = colour * windowCount
    let other = (1 - colour) * windowCount
    for window in 0..<windowCount
    where counts[own + window] == geometry.k - 1 && counts[other + window] == 0 {
      let cells = geometry.windows[window]
      result = result | (cells ^ (cells & marks[colour]))
    }
    return result
  }

  // MARK: - Continuous fours

  /// How many of its own fours the search chains at a leaf, and at the root.
  private static var leafFours: Int { 2 }
  private static var rootFours: Int { 10 }

  /// Cells where `colour` would make a four: the empty cells of its threes.
  private func fourMakingCells(for colour: Int) -> B {
    var result = B.zero
    let own = colour * windowCount
    let other = (1 - colour) * windowCount
    let empty = geometry.full & ~(marks[0] | marks[1])
    for window in 0..<windowCount
    where counts[own + window] == geometry.k - 2 && counts[other + window] == 0 {
      result = result | (geometry.windows[window] & empty)
    }
    return result
  }

  /// The threat cells of `colour` in the windows through `cell`.
  private func threats(of colour: Int, through cell: Int) -> B {
    var result = B.zero
    let own = colour * windowCount
    let other = (1 - colour) * windowCount
    for slot in starts[cell]..<starts[cell + 1] {
      let window = slots[slot]
      if counts[own + window] == geometry.k - 1 && counts[other + window] == 0 {
        let cells = geometry.windows[window]
        result = result | (cells ^ (cells & marks[colour]))
      }
    }
    return result
  }

  /// A win for `colour`, to move, by a chain of at most `depth` fours, each forcing the
  /// opponent's reply: the first move and the plies to the win.
  ///
  /// Expects neither side to have a four on the board. A chain fails where a forced block
  /// gives the opponent a four of its own.
  private func continuousFours(for colour: Int, depth: Int) -> (move: Int, plies: Int)? {
    guard depth > 0, totals[5 + colour] > 0 else { return nil }
    var cells = fourMakingCells(for: colour)
    while !cells.isZero {
      let cell = cells.lowestIndex
      cells = cells.withoutLowest
      nodes += 1
      place(cell, colour: colour)
      var plies: Int?
      let threats = threats(of: colour, through: cell)
      if threats.nonzeroBitCount >= 2 {
        plies = 3
      } else if !threats.isZero {
        let block = threats.lowestIndex
        place(block, colour: 1 - colour)
        if totals[3 - colour] == 0, let rest = continuousFours(for: colour, depth: depth - 1) {
          plies = 2 + rest.plies
        }
        remove(block, colour: 1 - colour)
      }
      remove(cell, colour: colour)
      if let plies { return (cell, plies) }
    }
    return nil
  }

  // MARK: - Search

  private func hash(mover: B, other: B) -> UInt64 {
    var hash: UInt64 = 0
    for index in mover.indices { hash ^= zobrist[index] }
    for index in other.indices { hash ^= zobrist[geometry.cellCount + index] }
    return hash
  }

  /// Plays `move` for `colour`, searches the position after it and takes the move back.
  private func child(
    _ move: Int, colour: Int, hash: UInt64, ply: Int, depth: Int, alpha: Int, beta: Int,
    area: B
  ) -> Int {
    place(move, colour: colour)
    let score = search(
      ply: ply + 1, depth: depth, alpha: alpha, beta: beta, area: area | near[move],
      hash: hash ^ zobrist[colour * geometry.cellCount + move])
    remove(move, colour: colour)
    return score
  }

  private func search(ply: Int, depth: Int, alpha: Int, beta: Int, area: B, hash: UInt64) -> Int {
    nodes += 1
    if checksLimits && nodes & 63 == 0 && (Task.isCancelled || clock.now >= deadline) {
      isAborted = true
    }
    if isAborted { return 0 }
    let me = ply & 1
    let them = 1 - me
    let occupied = marks[0] | marks[1]
    let empty = geometry.full & ~occupied
    if empty.isZero { return 0 }
    if totals[2 + me] > 0 { return Score.win(in: ply + 1) }
    if totals[4] == 0 { return 0 }
    if empty.nonzeroBitCount == 1 { return 0 }
    var forced = B.zero
    if totals[2 + them] > 0 {
      forced = threatCells(of: them)
      if forced.nonzeroBitCount >= 2 { return Score.loss(in: ply + 2) }
    }
    if depth <= 0 && forced.isZero {
      if totals[5 + me] > 0, let win = continuousFours(for: me, depth: Explorer.leafFours) {
        return Score.win(in: ply + win.plies)
      }
      // The side to move is a tempo ahead: its patterns count for more.
      let estimate = (3 * totals[me] - 2 * totals[them]) / 2
      return max(-Score.estimateLimit + 1, min(Score.estimateLimit - 1, estimate))
    }

    let side = UInt64(me) + 1
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

    let isForced = !forced.isZero
    var moves = orderedMoves(
      isForced ? forced : area & empty, colour: me, hint: hint, limit: breadth)
    if moves.isEmpty { moves = orderedMoves(empty, colour: me, hint: hint, limit: breadth) }
    let nextDepth = isForced ? depth : depth - 1
    var alpha = alpha
    let originalAlpha = alpha
    var best = -Score.infinity
    var bestMove = moves[0]
    for move in moves {
      let score = -child(
        move, colour: me, hash: hash, ply: ply, depth: nextDepth, alpha: -beta, beta: -alpha,
        area: area)
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

  /// The best `limit` cells of `cells`, the hint first, then those building or blocking the
  /// most lines for `colour`, judged on the current position.
  private func orderedMoves(_ cells: B, colour: Int, hint: Int, limit: Int = .max) -> [Int] {
    var moves: [Int] = []
    var values: [Int] = []
    let own = colour * windowCount
    let other = (1 - colour) * windowCount
    var rest = cells
    while !rest.isZero {
      let move = rest.lowestIndex
      rest = rest.withoutLowest
      var value = 0
      if move == hint {
        value = .max
      } else {
        for slot in starts[move]..<starts[move + 1] {
          let window = slots[slot]
          let mine = counts[own + window]
          let theirs = counts[other + window]
          if theirs == 0 { value += 2 * fastWeights[mine + 1] }
          if mine == 0 { value += fastWeights[theirs + 1] }
        }
      }
      moves.append(move)
      values.append(value)
    }
    // Selection of the best few: cheaper than sorting every candidate.
    let count = min(limit, moves.count)
    for slot in 0..<count {
      var top = slot
      for index in slot + 1..<moves.count where values[index] > values[top] { top = index }
      moves.swapAt(slot, top)
      values.swapAt(slot, top)
    }
    moves.removeLast(moves.count - count)
    return moves
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

  /// The cells of `cells`, those building or blocking the most lines first.
  func orderedMoves(_ cells: B, mover: B, other: B) -> [Int] {
    plausibility(cells, mover: mover, other: other)
      .sorted { $0.value > $1.value || ($0.value == $1.value && $0.move < $1.move) }
      .map(\.move)
  }
}
