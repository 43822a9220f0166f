/// The node count and limits of one large-board search, shared by its parts.
final class SearchLimits {
  struct Counters {
    /// Positions searched.
    var nodes = 0
    /// Whether the search ran out of time or was cancelled; its unfinished results are void.
    var isAborted = false
    /// Whether the search may stop at the deadline (off while settling the shallowest pass).
    var checksDeadline = true
    /// When the current threat-space search must stop.
    var threatLimit = ContinuousClock.Instant.now
    /// Whether the current threat-space search ran out of time (or was cancelled, which also
    /// stops the whole search).
    var threatStopped = false
  }

  let deadline: ContinuousClock.Instant
  let clock = ContinuousClock()
  // A buffer rather than properties: the counters change at every node.
  let counters: UnsafeMutablePointer<Counters>

  init(deadline: ContinuousClock.Instant) {
    self.deadline = deadline
    counters = .allocate(capacity: 1)
    counters.initialize(to: Counters())
  }

  deinit { counters.deallocate() }

  var nodes: Int { counters.pointee.nodes }
  var isAborted: Bool { counters.pointee.isAborted }

  /// Counts a node of the main search and says whether the search must stop.
  @inline(__always)
  func searchNodeStops() -> Bool {
    counters.pointee.nodes += 1
    if counters.pointee.checksDeadline && counters.pointee.nodes & 63 == 0
      && (Task.isCancelled || clock.now >= deadline)
    {
      counters.pointee.isAborted = true
    }
    return counters.pointee.isAborted
  }

  /// Counts a node of a threat-space search and says whether that search must stop.
  @inline(__always)
  func threatNodeStops() -> Bool {
    counters.pointee.nodes += 1
    if counters.pointee.nodes & 63 == 0 {
      if Task.isCancelled {
        counters.pointee.isAborted = true
        counters.pointee.threatStopped = true
      } else if clock.now >= counters.pointee.threatLimit {
        counters.pointee.threatStopped = true
      }
    }
    return counters.pointee.threatStopped
  }

  /// The instant that ends `fraction` of the time left at `start` (by default, now).
  func share(_ fraction: Double, from start: ContinuousClock.Instant? = nil)
    -> ContinuousClock.Instant
  {
    let start = start ?? clock.now
    return start + (deadline - start) * fraction
  }
}

/// Forced wins through threats on a large board: chains of fours, and the threat-space search
/// through fours and open threes.
final class ThreatSearch<B: BitBoard> {
  let state: LineState<B>
  let limits: SearchLimits

  init(state: LineState<B>, limits: SearchLimits) {
    self.state = state
    self.limits = limits
    var generator = SplitMix64(seed: 0x666f_7572_7320_696e)
    chainKeys = (0..<(2 * state.geometry.cellCount)).map { _ in generator.next() }
  }

  /// The proof-number search over the same threats, which reaches the long wins that
  /// deepening one threat at a time does not.
  lazy var proofSearch = ThreatProof(state: state, limits: limits)
  /// Whether the current depth-first search counts a defender's four as a refutation
  /// unless the attacker's block makes a threat of its own.
  private var blockMustThreaten = false
  /// Whether a chain of fours goes on where the defender's block makes a four of its own
  /// (see ``continuousFours(for:depth:anywhere:)``); off only to measure what that finds.
  var answersDefendersFours = true

  // MARK: - Continuous fours

  /// How many of its own fours the search chains at a leaf (a short-sighted player's search
  /// fewer), and at the root.
  static var leafFours: Int { 6 }
  static var shortSightedLeafFours: Int { 2 }
  static var rootFours: Int { 10 }
  /// How many of a leaf chain's first fours may lie anywhere; each later four shares a
  /// window with the four before it, so that a long chain stays narrow and cheap.
  static var leafFoursAnywhere: Int { 2 }

  /// `sharers[cell]`: the cells that share a window with `cell`, on the four lines through
  /// it within k − 1 steps.
  ///
  /// Made when a narrow chain first needs it, since a short-sighted player's search, made
  /// afresh for each move, never does.
  private lazy var sharers: [B] = {
    let geometry = state.geometry
    return (0..<geometry.cellCount).map { cell in
      (geometry.windowStart[cell]..<geometry.windowStart[cell + 1]).reduce(B.zero) {
        $0 | geometry.windows[geometry.windowIndices[$1]]
      }
    }
  }()

  /// Random keys for the positions a root chain of fours reaches:
  /// `chainKeys[colour * cellCount + cell]`.
  private let chainKeys: [UInt64]

  /// The key of the position `key` names once `colour` has played `cell` and the opponent
  /// `reply`.
  @inline(__always)
  private func key(_ key: UInt64, after cell: Int, and reply: Int, by colour: Int) -> UInt64 {
    let cellCount = state.geometry.cellCount
    return key ^ chainKeys[colour * cellCount + cell]
      ^ chainKeys[(1 - colour) * cellCount + reply]
  }
  /// The key of the position `key` names once `colour` has played `cell`.
  @inline(__always)
  private func key(_ key: UInt64, adding cell: Int, by colour: Int) -> UInt64 {
    key ^ chainKeys[colour * state.geometry.cellCount + cell]
  }

  /// The positions, by key, where a root chain of fours was shown to fail, with the most
  /// fours it was allowed there; emptied at each root search.
  private var failedChains: [UInt64: Int] = [:]

  /// A win for `colour`, to move, by a chain of at most `depth` fours, each forcing the
  /// opponent's reply: the first move and the plies to the win.
  ///
  /// Expects neither side to have a four on the board. Where a forced block gives the
  /// opponent a four of its own, the chain goes on only if blocking that makes a four in
  /// turn. Meant for short chains at the leaves of a search:
  /// it keeps no memory and no clock. With `anywhere`, only the chain's first `anywhere`
  /// fours may lie anywhere; each later one shares a window with the four before it (a win
  /// it misses is only not found; a win it finds is one).
  func continuousFours(for colour: Int, depth: Int, anywhere: Int = .max)
    -> (move: Int, plies: Int)?
  {
    fours(colour, depth: depth, key: 0, remembers: false, anywhere: anywhere, after: -1)
  }

  /// A win for `colour`, to move, by a chain of up to `rootFours` fours, found before
  /// `limit`: the first move and the plies to the win, or `nil` when there is none or the
  /// time ran out (then `threatStopped` is true).
  ///
  /// Chains of one and two fours are tried first, so that a quick win (a four that makes two
  /// threats at once) is played rather than a long chain found first. Long chains branch at
  /// every four, and different orders of the same fours meet in the same position, so it
  /// remembers the positions where a chain failed, with how many fours it had left.
  func longestFours(for colour: Int, until limit: ContinuousClock.Instant)
    -> (move: Int, plies: Int)?
  {
    limits.counters.pointee.threatLimit = limit
    limits.counters.pointee.threatStopped = false
    failedChains.removeAll(keepingCapacity: true)
    for depth in [1, 2, ThreatSearch.rootFours] {
      if let win = fours(colour, depth: depth, key: 0, remembers: true, anywhere: .max, after: -1) {
        return win
      }
      if limits.counters.pointee.threatStopped { return nil }
    }
    return nil
  }

  /// The chain of fours from here: `anywhere` more fours may lie anywhere, the rest only
  /// where they share a window with `previous`, the four before.
  private func fours(
    _ colour: Int, depth: Int, key: UInt64, remembers: Bool, anywhere: Int, after previous: Int
  ) -> (move: Int, plies: Int)? {
    guard depth > 0, state.tallies.pointee[colour].threes > 0 else { return nil }
    if remembers {
      if let failed = failedChains[key], failed >= depth { return nil }
      if limits.threatNodeStops() { return nil }
    }
    var cells = state.fourMakingCells(for: colour)
    if anywhere <= 0 && previous >= 0 { cells = cells & sharers[previous] }
    while !cells.isZero {
      let cell = cells.lowestIndex
      cells = cells.withoutLowest
      if let plies = four(
        at: cell, for: colour, depth: depth, key: key, remembers: remembers, anywhere: anywhere)
      {
        return (cell, plies)
      }
      if remembers && limits.counters.pointee.threatStopped { return nil }
    }
    if remembers { failedChains[key] = depth }
    return nil
  }

  /// Plays `cell`, a four of `colour`'s and one of the `depth` fours the chain may still
  /// make, and reads on past the opponent's block: the plies to the win from `cell` on, or
  /// `nil`.
  private func four(
    at cell: Int, for colour: Int, depth: Int, key: UInt64, remembers: Bool, anywhere: Int
  ) -> Int? {
    limits.counters.pointee.nodes += 1
    state.place(cell, colour: colour)
    defer { state.remove(cell, colour: colour) }
    let threats = state.threats(of: colour, through: cell)
    if threats.nonzeroBitCount >= 2 { return 3 }
    guard !threats.isZero else { return nil }
    let block = threats.lowestIndex
    state.place(block, colour: 1 - colour)
    defer { state.remove(block, colour: 1 - colour) }
    return afterBlock(
      colour, depth: depth - 1, key: self.key(key, after: cell, and: block, by: colour),
      remembers: remembers, anywhere: anywhere - 1, after: cell
    ).map { 2 + $0 }
  }

  /// The rest of a chain of fours once the opponent has blocked the four before: the plies
  /// to the win from here, or `nil`.
  ///
  /// Where the block made a four of the opponent's, `colour` must block that in turn, and
  /// the chain goes on only if its block makes a four too (two win at once); such a forced
  /// block counts as one of the chain's fours but is not narrowed, since it has no choice.
  private func afterBlock(
    _ colour: Int, depth: Int, key: UInt64, remembers: Bool, anywhere: Int, after previous: Int
  ) -> Int? {
    let opponent = 1 - colour
    guard state.tallies.pointee[opponent].fours > 0 else {
      return fours(
        colour, depth: depth, key: key, remembers: remembers, anywhere: anywhere,
        after: previous)?.plies
    }
    let counter = state.threatCells(of: opponent)
    guard answersDefendersFours, depth > 0, counter.nonzeroBitCount == 1 else { return nil }
    return four(
      at: counter.lowestIndex, for: colour, depth: depth, key: key, remembers: remembers,
      anywhere: anywhere)
  }

  // MARK: - Threat-space search

  /// The deepest chain of threats that the search tries, counted in the attacker's open
  /// threes and in its fours past the first `freeFours` of a line of play.
  static var threatDepth: Int { 6 }

  /// How many fours a line of play of the threat-space search may make without spending
  /// depth: a four leaves one reply, so it costs little to read.
  static var freeFours: Int { 4 }

  /// A forced win for `colour`, to move, through a sequence of threats (fours and open
  /// threes) that each leave the opponent only defensive replies: the first move and the
  /// plies to the win.
  ///
  /// A found win is sound: after a four the opponent's one reply is searched, and after a
  /// three every reply that could matter, that is every cell that stops the three from
  /// becoming an open four and every four of the opponent's own. Any other reply lets the
  /// attacker make an open four, which wins. Three searches over these moves share the time
  /// until `limit`, since each finds wins the others miss in their time:
  /// - the depth-first search (``depthFirstWin(for:until:blockMustThreaten:)``), which
  ///   deepens one threat at a time, with an opponent's four refuting unless the attacker's
  ///   block threatens in turn: the narrowest, and so the fastest to the short wins;
  /// - the same search with an opponent's four only delaying: the attacker blocks it and
  ///   goes on from whatever it still threatens;
  /// - the proof-number search (``ThreatProof``), which follows the lines whose proof looks
  ///   cheapest, to any length.
  func threatSpaceWin(for colour: Int, until limit: ContinuousClock.Instant)
    -> (move: Int, plies: Int)?
  {
    let start = limits.clock.now
    let shares = ThreatSearch.depthFirstShares
    for (share, narrow) in [(shares.narrow, true), (shares.narrow + shares.wide, false)] {
      if let win = depthFirstWin(
        for: colour, until: start + (limit - start) * share, blockMustThreaten: narrow)
      {
        return win
      }
      if limits.isAborted { return nil }
    }
    return proofSearch.win(for: colour, until: limit)
  }

  /// The shares of a threat-space search's time for the depth-first searches.
  ///
  /// The first share goes to the search where an opponent's four refutes, the second to the
  /// one where it only delays, the rest to the proof-number search. Over 194 positions of games against Rapfi where it announced a forced win, these found
  /// 88 within 1 s each, where the first search alone found 74.
  static var depthFirstShares: (narrow: Double, wide: Double) { (0.2, 0.2) }

  /// The depth-first threat-space search: a win for `colour`, to move, deepening one threat
  /// at a time until `limit`; with `blockMustThreaten`, a four of the opponent's refutes
  /// unless the attacker's block makes a threat in turn.
  func depthFirstWin(
    for colour: Int, until limit: ContinuousClock.Instant, blockMustThreaten: Bool = true
  ) -> (move: Int, plies: Int)? {
    limits.counters.pointee.threatLimit = limit
    limits.counters.pointee.threatStopped = false
    failedThreats.removeAll(keepingCapacity: true)
    self.blockMustThreaten = blockMustThreaten
    defer { self.blockMustThreaten = false }
    for depth in 1...ThreatSearch.threatDepth {
      if let win = attack(colour, depth: depth, fours: ThreatSearch.freeFours, key: 0) {
        return win
      }
      if limits.counters.pointee.threatStopped { return nil }
    }
    return nil
  }

  /// Whether the last threat-space search ran out of time.
  var threatStopped: Bool { limits.counters.pointee.threatStopped }

  /// How many of the best-ordered moves the root checks against the opponent's threats.
  private static var checkedDefences: Int { 24 }

  /// The moves of `moves` split by the opponent's forced wins through threats.
  ///
  /// When the opponent has such a win now, `safe` holds, in their order, the moves checked
  /// and found to leave none, and `unchecked` the moves the check did not reach in time or
  /// count, which may still hold; moves shown to lose are in neither. When the opponent has
  /// no such win, or no move is found safe, `safe` is all of `moves`.
  func defences(among moves: [Int]) -> (safe: [Int], unchecked: [Int]) {
    let start = limits.clock.now
    guard depthFirstWin(for: 1, until: limits.share(1.0 / 6, from: start)) != nil else {
      return (moves, [])
    }
    let limit = limits.share(0.5, from: start)
    var safe: [Int] = []
    var checked = 0
    for move in moves.prefix(ThreatSearch.checkedDefences) {
      state.place(move, colour: 0)
      // A four only delays: judge it after the opponent's forced block, as if the side to
      // move then passed, so that a four which changes nothing does not count as a defence.
      var block = -1
      if state.tallies.pointee.first.fours > 0 {
        let completions = state.threatCells(of: 0)
        if completions.nonzeroBitCount == 1 {
          block = completions.lowestIndex
          state.place(block, colour: 1)
        }
      }
      let win =
        state.tallies.pointee.first.fours > 0 ? nil : depthFirstWin(for: 1, until: limit)
      if block >= 0 { state.remove(block, colour: 1) }
      state.remove(move, colour: 0)
      if threatStopped { break }
      checked += 1
      if win == nil { safe.append(move) }
    }
    if safe.isEmpty { return (moves, []) }
    return (safe, Array(moves.dropFirst(checked)))
  }

  /// The positions, by key and free fours left, where the attacker of the current
  /// threat-space search was shown to have no win, with the most depth it was allowed there.
  private var failedThreats: [UInt64: Int] = [:]
  /// Whether the threat-space search remembers its failed positions; off only to test that
  /// the memory changes no answer.
  var remembersThreats = true

  /// The attacker's turn in the threat-space search: a win through threats.
  ///
  /// It spends at most `depth`, with `fours` fours left that spend none. `key` names the
  /// position reached from the search's root by the marks added.
  private func attack(_ colour: Int, depth: Int, fours: Int, key: UInt64)
    -> (move: Int, plies: Int)?
  {
    if limits.threatNodeStops() { return nil }
    let defender = 1 - colour
    if state.tallies.pointee[colour].fours > 0 {
      return (state.threatCells(of: colour).lowestIndex, 1)
    }
    guard depth > 0 || fours > 0 else { return nil }
    let entry = key &+ UInt64(fours) &* 0x9E37_79B9_7F4A_7C15
    if remembersThreats, let failed = failedThreats[entry], failed >= depth { return nil }
    var cells: B
    if state.tallies.pointee[defender].fours > 0 {
      // The attacker must block, and the block must itself be a threat.
      cells = state.threatCells(of: defender)
      if cells.nonzeroBitCount >= 2 { return nil }
    } else {
      cells = state.threatCandidates(for: colour)
    }
    // Fours first: they are cheap to refute and often win outright.
    var threes: [(move: Int, defences: B)] = []
    while !cells.isZero {
      let cell = cells.lowestIndex
      cells = cells.withoutLowest
      state.place(cell, colour: colour)
      let completions = state.threats(of: colour, through: cell)
      var result: (move: Int, plies: Int)?
      if completions.nonzeroBitCount >= 2 {
        result = (cell, 3)
      } else if !completions.isZero {
        // Past the guard above, a four is free or there is depth to spend on it.
        let free = fours > 0
        if let rest = defend(
          colour, replies: completions, depth: free ? depth : depth - 1,
          fours: free ? fours - 1 : 0, key: self.key(key, adding: cell, by: colour))
        {
          result = (cell, 1 + rest)
        }
      } else if depth >= 2 {
        let defences = state.openFourDefences(of: colour, after: cell)
        if !defences.isZero { threes.append((cell, defences)) }
      }
      state.remove(cell, colour: colour)
      if let result { return result }
      if threatStopped { return nil }
    }
    for (cell, defences) in threes {
      state.place(cell, colour: colour)
      let rest = defend(
        colour, replies: defences | state.fourMakingCells(for: defender), depth: depth - 1,
        fours: fours, key: self.key(key, adding: cell, by: colour))
      state.remove(cell, colour: colour)
      if let rest { return (cell, 1 + rest) }
      if threatStopped { return nil }
    }
    if remembersThreats { failedThreats[entry] = depth }
    return nil
  }

  /// The defender's turn in the threat-space search, after a threat of the attacker's
  /// (`colour`): the plies to the attacker's win, counting the defender's move, when every
  /// one of `replies` loses, or `nil`.
  ///
  /// `replies` are the moves that could matter: those that stop the threat and the
  /// defender's own fours. A four of the defender's only delays: the attacker blocks it, and
  /// the defender is to move again with the attacker's threats still on the board, so the
  /// search goes on from what the attacker then threatens rather than giving up.
  private func defend(_ colour: Int, replies: B, depth: Int, fours: Int, key: UInt64) -> Int? {
    let defender = 1 - colour
    var longest = 0
    var rest = replies
    while !rest.isZero {
      let reply = rest.lowestIndex
      rest = rest.withoutLowest
      state.place(reply, colour: defender)
      let afterReply = self.key(key, adding: reply, by: defender)
      var outcome: Int?
      let counter = state.threats(of: defender, through: reply)
      if counter.isZero {
        outcome = attack(colour, depth: depth, fours: fours, key: afterReply)?.plies
      } else if counter.nonzeroBitCount == 1,
        state.threatCells(of: defender).nonzeroBitCount == 1
      {
        let block = counter.lowestIndex
        state.place(block, colour: colour)
        if let renewed = renewed(
          colour, after: block, depth: depth, fours: fours,
          key: self.key(afterReply, adding: block, by: colour))
        {
          outcome = 1 + renewed
        }
        state.remove(block, colour: colour)
      }
      state.remove(reply, colour: defender)
      guard let outcome else { return nil }
      longest = max(longest, outcome)
      if threatStopped { return nil }
    }
    return 1 + longest
  }

  /// The defender's turn after the attacker (`colour`) blocked one of its fours at `block`:
  /// the plies to the attacker's win, counting the defender's move, when what the attacker
  /// then threatens (a four, an open four, two fours; through `block` only, where the block
  /// must threaten) forces it, or `nil`.
  private func renewed(_ colour: Int, after block: Int, depth: Int, fours: Int, key: UInt64)
    -> Int?
  {
    let completions =
      blockMustThreaten
      ? state.threats(of: colour, through: block) : state.threatCells(of: colour)
    if completions.nonzeroBitCount >= 2 { return 2 }
    if !completions.isZero {
      return defend(colour, replies: completions, depth: depth, fours: fours, key: key)
    }
    let stops: B
    var depth = depth
    if blockMustThreaten {
      // A three made by the block spends depth, as the attacker's own threes do.
      guard depth >= 1 else { return nil }
      stops = state.openFourDefences(of: colour, after: block)
      depth -= 1
    } else {
      stops = state.openFours(of: colour).stops
    }
    guard !stops.isZero else { return nil }
    return defend(
      colour, replies: stops | state.fourMakingCells(for: 1 - colour), depth: depth,
      fours: fours, key: key)
  }
}
