/// A depth-limited alpha-beta search with a pattern evaluation, for boards too large to solve.
///
/// It deepens one ply at a time until its deadline, takes a win in one at once, answers a
/// single threat by blocking it (without spending depth, so forced sequences are read to the
/// end), scores a double threat as lost, scores an open four the opponent cannot answer with
/// a four of its own as won, answers the opponent's open three only by stopping it or with a
/// four, reads at the horizon the side to move's chains of up to six fours (each after the
/// second sharing a window with the four before), looks only at cells near the marks, best
/// first, and keeps a transposition table keyed by Zobrist hashes. Line counts, threats and
/// the pattern evaluation are updated move by move (``LineState``); forced wins through
/// threats come from ``ThreatSearch``. A loss counts as proven only where every move that
/// matters was read (a four to block, an open three to stop with no more answers than a node
/// tries); elsewhere it is a likely loss, an estimate.
final class Explorer<B: BitBoard> {
  let geometry: Geometry<B>
  let state: LineState<B>
  let threats: ThreatSearch<B>
  let limits: SearchLimits
  /// `near[cell]` holds the cells within two steps of `cell`.
  private let near: [B]
  /// Random keys: `zobrist[colour * cellCount + cell]`, colour 0 being the root's side to move.
  ///
  /// The keys belong to the marks, not to the colours, so that a table kept between searches
  /// of one game stays valid whichever side is to move at the root.
  private let zobrist: [UInt64]
  /// 1 when the root's side to move is O, else 0: turns a colour into a mark for the table.
  private let rootMark: Int
  private let table: TranspositionTable
  /// How many moves an inner node tries, best first.
  private let breadth: Int
  /// Whether the search reads the open threes and open fours at every node; a short-sighted
  /// player does not, and overlooks what lies beyond its depth.
  private var readsOpenFours = true
  /// Scratch for ``orderedMoves(_:colour:hint:limit:)``: the candidates and their values.
  private let scratchMoves: UnsafeMutablePointer<Int>
  private let scratchValues: UnsafeMutablePointer<Int>

  var nodes: Int { limits.nodes }
  var isAborted: Bool { limits.isAborted }

  /// Creates a search over `geometry` that stops at `deadline`.
  ///
  /// - Parameters:
  ///   - geometry: The board's shape and windows.
  ///   - deadline: When to stop deepening.
  ///   - tableBits: The size of a new table, when `table` is `nil`.
  ///   - table: A table to use, perhaps filled by earlier searches of the same board shape;
  ///     by default a new one of `2^tableBits` slots.
  ///   - rootIsO: Whether O is to move at the root.
  init(
    geometry: Geometry<B>, deadline: ContinuousClock.Instant, tableBits: Int = 18,
    table: TranspositionTable? = nil, rootIsO: Bool = false
  ) {
    self.geometry = geometry
    self.table = table ?? TranspositionTable(bits: tableBits)
    state = LineState(geometry: geometry)
    limits = SearchLimits(deadline: deadline)
    threats = ThreatSearch(state: state, limits: limits)
    rootMark = rootIsO ? 1 : 0
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
    let keys = (0..<2 * geometry.cellCount).map { _ in generator.next() }
    zobrist =
      rootIsO
      ? Array(keys[geometry.cellCount...] + keys[..<geometry.cellCount]) : keys
    breadth = geometry.cellCount <= 25 ? 16 : 10
    scratchMoves = .allocate(capacity: geometry.cellCount)
    scratchValues = .allocate(capacity: geometry.cellCount)
  }

  deinit {
    scratchMoves.deallocate()
    scratchValues.deallocate()
  }

  private var tallies: Tallies { state.tallies.pointee }

  // MARK: - Entry points

  /// The best move found for `mover` before the deadline, its score and the depth reached,
  /// passing over the cells of `avoiding` (moves known to lose) unless nothing else is left.
  ///
  /// With `maximumDepth` the search looks that many plies ahead at most and, unless
  /// `isShortSighted` is false, skips the long threat searches at the root and the open
  /// threes and fours at its nodes: a short-sighted player.
  func bestMove(
    mover: B, other: B, avoiding: B = .zero, maximumDepth: Int? = nil,
    isShortSighted: Bool? = nil
  ) -> (move: Int, score: Int, depth: Int) {
    let isShortSighted = isShortSighted ?? (maximumDepth != nil)
    readsOpenFours = !isShortSighted
    state.setUp(mover: mover, other: other)
    let empty = geometry.full & ~(mover | other)
    let own = geometry.threats(of: mover, against: other) & empty
    if !own.isZero { return (own.lowestIndex, Score.win(in: 1), 1) }
    let opposing = geometry.threats(of: other, against: mover) & empty
    if opposing.isZero, !isShortSighted,
      let win = threats.longestFours(for: 0, until: limits.share(1.0 / 4))
    {
      return (win.move, Score.win(in: win.plies), win.plies)
    }
    if opposing.isZero, geometry.k >= 4, !isShortSighted {
      // A share of the budget for forcing wins through threes, which the deepening search
      // cannot see far enough to find.
      if let win = threats.threatSpaceWin(for: 0, until: limits.share(1.0 / 3)) {
        return (win.move, Score.win(in: win.plies), win.plies)
      }
    }
    let area = candidates(mover: mover, other: other)
    var moves = orderedMoves(opposing.isZero ? area : opposing, colour: 0, hint: -1)
    let allowed = moves.filter { !avoiding.contains($0) }
    if !allowed.isEmpty { moves = allowed }
    if moves.count == 1 { return (moves[0], 0, 0) }
    // Moves the defence check did not reach: searched only once every safe move is shown
    // to lose, so that a loss is never claimed while one of them may hold.
    var unchecked: [Int] = []
    if opposing.isZero, geometry.k >= 4, !isShortSighted {
      (moves, unchecked) = threats.defences(among: moves)
    }
    return deepen(
      moves, unchecked: unchecked, area: area, hash: hash(mover: mover, other: other),
      maximumDepth: min(empty.nonzeroBitCount, maximumDepth ?? .max))
  }

  /// The deepening search alone, without the threat searches and the defence check of the
  /// root: every move near the marks (or every block of a four) read to `depth` plies.
  ///
  /// It measures the speed of the search (``Engine/deepen(_:to:)``).
  func deepening(mover: B, other: B, depth: Int) -> (move: Int, score: Int, depth: Int) {
    readsOpenFours = true
    state.setUp(mover: mover, other: other)
    let empty = geometry.full & ~(mover | other)
    let opposing = geometry.threats(of: other, against: mover) & empty
    let area = candidates(mover: mover, other: other)
    let moves = orderedMoves(opposing.isZero ? area : opposing, colour: 0, hint: -1)
    precondition(!moves.isEmpty, "a full board has no move to read")
    return deepen(
      moves, unchecked: [], area: area, hash: hash(mover: mover, other: other),
      maximumDepth: min(empty.nonzeroBitCount, depth))
  }

  /// Deepens one ply at a time over the root's `moves`, best first, to `maximumDepth` or the
  /// deadline; the `unchecked` moves are read only once every one of `moves` is shown to
  /// lose.
  private func deepen(
    _ moves: [Int], unchecked: [Int], area: B, hash: UInt64, maximumDepth: Int
  ) -> (move: Int, score: Int, depth: Int) {
    var moves = moves
    var unchecked = unchecked
    var best = (move: moves[0], score: -Score.infinity, depth: 0)
    for depth in 1...max(1, maximumDepth) {
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
      // A cut-short pass still searched the previous best first, so its best stands; after
      // a proven loss, a move of the unchecked ones replaces it only if it does better.
      if iterationBest >= 0, !Score.isProven(best.score) || alpha > best.score {
        best = (iterationBest, alpha, depth)
      }
      if isAborted { break }
      if Score.isProven(best.score) {
        guard best.score < 0, !unchecked.isEmpty else { break }
        moves = unchecked
        unchecked = []
        continue
      }
      moves.removeAll { $0 == best.move }
      moves.insert(best.move, at: 0)
    }
    return best
  }

  /// A forced win for `mover` found by the threat searches alone before the deadline (a
  /// line in one, a chain of fours, threats through open threes): the first move and its
  /// score, or `nil`.
  func forcedWin(mover: B, other: B) -> (move: Int, score: Int)? {
    state.setUp(mover: mover, other: other)
    let empty = geometry.full & ~(mover | other)
    let own = geometry.threats(of: mover, against: other) & empty
    if !own.isZero { return (own.lowestIndex, Score.win(in: 1)) }
    guard (geometry.threats(of: other, against: mover) & empty).isZero else { return nil }
    if let win = threats.longestFours(for: 0, until: limits.deadline) {
      return (win.move, Score.win(in: win.plies))
    }
    guard geometry.k >= 4,
      let win = threats.threatSpaceWin(for: 0, until: limits.deadline)
    else { return nil }
    return (win.move, Score.win(in: win.plies))
  }

  /// An estimated score for `mover` of every move in `moves`, deepening until the deadline
  /// or, with `maximumDepth`, until that many plies below each move.
  func scores(of moves: [Int], mover: B, other: B, maximumDepth: Int? = nil) -> [Int: Int] {
    readsOpenFours = maximumDepth == nil
    state.setUp(mover: mover, other: other)
    var result: [Int: Int] = [:]
    let hash = self.hash(mover: mover, other: other)
    let area = candidates(mover: mover, other: other)
    let empties = (geometry.full & ~(mover | other)).nonzeroBitCount
    if geometry.k >= 4, tallies.second.fours == 0, tallies.first.fours == 0 {
      if let win = threats.threatSpaceWin(for: 0, until: limits.share(1.0 / 3)),
        moves.contains(win.move)
      {
        result[win.move] = Score.win(in: win.plies)
      }
      if isAborted { return result }
    }
    for depth in 0..<min(empties, (maximumDepth ?? empties) + 1) {
      // The shallowest pass always completes so that every move has an estimate.
      limits.counters.pointee.checksDeadline = depth > 0
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
    state.place(move, colour: colour)
    let score = search(
      ply: ply + 1, depth: depth, alpha: alpha, beta: beta, area: area | near[move],
      hash: hash ^ zobrist[colour * geometry.cellCount + move])
    state.remove(move, colour: colour)
    return score
  }

  private func search(ply: Int, depth: Int, alpha: Int, beta: Int, area: B, hash: UInt64) -> Int {
    if limits.searchNodeStops() { return 0 }
    let me = ply & 1
    let them = 1 - me
    let empty = state.empty
    if empty.isZero { return 0 }
    let tallies = self.tallies
    if tallies[me].fours > 0 { return Score.win(in: ply + 1) }
    if tallies.openWindows == 0 { return 0 }
    if empty.nonzeroBitCount == 1 { return 0 }
    var forced = B.zero
    if tallies[them].fours > 0 {
      forced = state.threatCells(of: them)
      if forced.nonzeroBitCount >= 2 { return Score.loss(in: ply + 2) }
    }
    // Two threats at once win unless the opponent has fours to play first; while the
    // opponent can make them, only the cells that stop it and the side's own fours matter.
    var stops = B.zero
    if forced.isZero && readsOpenFours {
      if tallies[me].threes >= 2, tallies[them].threes == 0,
        !state.openFours(of: me).makers.isZero
      {
        return Score.win(in: ply + 3)
      }
      stops = openThreeStops(against: me)
    }
    if depth <= 0 && forced.isZero {
      if tallies[me].threes > 0, let win = leafChain(for: me) {
        return Score.win(in: ply + win.plies)
      }
      return horizonEstimate(for: me, stops: stops)
    }

    let side = UInt64(me ^ rootMark) + 1
    var hint = -1
    if let entry = table.probe(hash, side) {
      if entry.depth >= depth, let score = entry.cutoff(alpha: alpha, beta: beta, ply: ply) {
        return score
      }
      hint = entry.move
    }

    let isForced = !forced.isZero
    // The moves that matter, when not every move near the marks does.
    let narrowed = stops.isZero ? forced : stops | state.fourMakingCells(for: me)
    var moves = orderedMoves(
      narrowed.isZero ? area & empty : narrowed, colour: me, hint: hint, limit: breadth)
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
    if best <= -Score.provenThreshold, !isForced,
      narrowed.isZero || narrowed.nonzeroBitCount > breadth
    {
      // Only the most promising moves near the marks were read, so a loss is likely, not
      // proven; the longer it takes, the better the estimate.
      best = -(Score.estimateLimit - 1) + min(Score.mate + best - ply, 99)
    }
    table.store(
      hash, side,
      .init(
        score: Score.toNode(best, ply: ply),
        bound: .init(best: best, originalAlpha: originalAlpha, beta: beta), move: bestMove,
        depth: depth))
    return best
  }

  /// A win for `me`, to move at the horizon, by a chain of fours: a long, narrow chain, or
  /// for a short-sighted player two fours anywhere.
  private func leafChain(for me: Int) -> (move: Int, plies: Int)? {
    readsOpenFours
      ? threats.continuousFours(
        for: me, depth: ThreatSearch<B>.leafFours, anywhere: ThreatSearch<B>.leafFoursAnywhere)
      : threats.continuousFours(for: me, depth: ThreatSearch<B>.shortSightedLeafFours)
  }

  /// What an open three of the side to move is worth at the horizon while the opponent can
  /// still make fours (without them it is scored as a win): with the move it becomes an open
  /// four, which only fours in between can answer.
  static var openThreeToPlay: Int { 150 }
  /// What an open three of the opponent costs the side to move at the horizon: its next move
  /// must stop it.
  static var openThreeToAnswer: Int { 70 }

  /// The cells that stop the open threes of the side not to move, `1 - me`.
  ///
  /// They include its other double-threat makers, and are empty when it has none. Two
  /// windows of three are the least that makes one, so with fewer the scan is skipped.
  func openThreeStops(against me: Int) -> B {
    tallies[1 - me].threes >= 2 ? state.openFours(of: 1 - me).stops : .zero
  }

  /// The estimate of a quiet position at the horizon for the side to move, `me`, given the
  /// cells that stop the opponent's open threes (`stops`, empty when it has none): the
  /// windows' weights, the side to move's counting for more, since it is a tempo ahead, and,
  /// for a search that reads open threes, their worth to each side.
  func horizonEstimate(for me: Int, stops: B) -> Int {
    let tallies = self.tallies
    let them = 1 - me
    var estimate = (3 * tallies[me].weight - 2 * tallies[them].weight) / 2
    if readsOpenFours {
      if !stops.isZero { estimate -= Self.openThreeToAnswer }
      if tallies[me].threes >= 2, tallies[them].threes > 0,
        !state.openFours(of: me).makers.isZero
      {
        estimate += Self.openThreeToPlay
      }
    }
    return max(-Score.estimateLimit + 1, min(Score.estimateLimit - 1, estimate))
  }

  // MARK: - Move ordering

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
  ///
  /// Every inner node orders its moves, so the candidates and their values go to scratch
  /// buffers that live as long as the search, not to arrays made at each node.
  private func orderedMoves(_ cells: B, colour: Int, hint: Int, limit: Int = .max) -> [Int] {
    let moves = scratchMoves
    let values = scratchValues
    var total = 0
    var rest = cells
    while !rest.isZero {
      let move = rest.lowestIndex
      rest = rest.withoutLowest
      moves[total] = move
      values[total] = move == hint ? .max : state.value(of: move, for: colour)
      total &+= 1
    }
    // Selection of the best few: cheaper than sorting every candidate.
    let count = min(limit, total)
    return [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
      for slot in 0..<count {
        var top = slot
        var index = slot &+ 1
        while index < total {
          if values[index] > values[top] { top = index }
          index &+= 1
        }
        (moves[slot], moves[top]) = (moves[top], moves[slot])
        (values[slot], values[top]) = (values[top], values[slot])
        buffer[slot] = moves[slot]
      }
      initialized = count
    }
  }

  /// How much each cell of `cells` builds the mover's lines and blocks the other side's, in
  /// reading order.
  func plausibility(_ cells: B, mover: B, other: B) -> [(move: Int, value: Int)] {
    let weights = state.weights
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
