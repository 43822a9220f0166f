package import GameRules

extension Engine {
  /// The work the guard may do for one candidate, in positions visited.
  ///
  /// Each candidate still unsettled gets the next, larger bound, until one holds. A bound on
  /// work rather than on time, so that whether a move is proven to hold does not depend on
  /// the machine's load.
  static let guardNodeBounds = [4_096, 32_768, 262_144]
  /// The most positions the guard visits for one move, over all its bounds.
  static let guardNodeTotal = 600_000
  /// How many candidate replies the guard tries at the first bound, looking for choices.
  static let guardCandidates = 12
  /// How many positions the guard spends on asking whether the mover could force a line,
  /// and on proving that a four holds once the opponent has blocked it.
  static let guardWinNodes = 36_864
  static let guardFourNodes = 8_192
  /// A backstop against boards whose proofs are far too long for a move (8×8 with five in
  /// a row): the guard stops after a budget of time, and at least after
  /// ``guardMinimumBackstop`` unless the engine keeps to its budget.
  static let guardMinimumBackstop = Duration.seconds(1)

  /// Moves of the side to move on a board of up to 64 cells after which the opponent cannot
  /// complete a line at all, whatever it plays, if the mover keeps answering as the proof
  /// says (the maker-breaker game, where the mover only blocks); their bit indices, at most
  /// `wanted`, in the order the proof search tries them.
  ///
  /// The search is bounded by positions visited, not by time (`deadline` is only a
  /// backstop for boards whose proofs are far too long for a move), and reuses the proof tables
  /// kept between moves: a move that held leaves a holding answer to every reply in the
  /// tables, so after the engine's own holding move the next answer is usually found at
  /// once. When the opponent could not force a line even moving twice in a row, every move
  /// holds (an extra mark never hurts the side that only blocks).
  ///
  /// - Returns: The moves proven to hold; empty when none is found within the bounds (the
  ///   opponent may force a line, or the proof is too long).
  func holdingMoves(
    _ board: Board, wanted: Int = 8, preferring: [Int] = [],
    deadline: ContinuousClock.Instant? = nil
  ) -> [Int] {
    guard board.cellCount <= 64, board.outcome == .inProgress else { return [] }
    let key = proofKey(board, .makerBreaker)
    let memory = proofTables.borrow(key)
    defer { proofTables.giveBack(memory, for: key) }
    let prover = makerBreakerProver(board, memory: memory, deadline: deadline)
    let geometry = prover.geometry
    let (mover, other) = geometry.position(of: board)
    let blocks = prover.replies(attacker: other, defender: mover)
    let forced = geometry.threats(of: other, against: mover) & ~(mover | other)
    var replies =
      forced != 0
      ? blocks : preferring.filter { !blocks.prefix(Engine.guardCandidates).contains($0) }
    replies += blocks
    /// Whether the opponent cannot force a line after `move` (after a pass when `nil`),
    /// within `bound` positions.
    func holds(after move: Int?, within bound: Int) -> Bool? {
      guard prover.nodes < Engine.guardNodeTotal, !prover.isPastDeadline else { return nil }
      prover.resume(nodeLimit: min(prover.nodes + bound, Engine.guardNodeTotal))
      return prover.holds(attacker: other, defender: mover, after: move)
    }
    guard let first = Engine.guardNodeBounds.first else { return [] }
    if holds(after: nil, within: first) == true {
      let empty = geometry.full & ~(mover | other)
      let everyMove = Engine.promisingFirst(geometry, empty, mover: mover, other: other)
      return Array((preferring + everyMove.filter { !preferring.contains($0) }).prefix(wanted))
    }
    var found: [Int] = []
    var unsettled: [Int] = []
    let firstRound = Engine.guardCandidates + replies.count - blocks.count
    for move in replies.prefix(firstRound) where found.count < wanted {
      switch holds(after: move, within: first) {
      case true?: found.append(move)
      case nil: unsettled.append(move)
      case false?: break
      }
    }
    unsettled += replies.dropFirst(firstRound)
    for bound in Engine.guardNodeBounds.dropFirst() where found.isEmpty {
      var still: [Int] = []
      for move in unsettled where found.isEmpty {
        switch holds(after: move, within: bound) {
        case true?: found.append(move)
        case nil: still.append(move)
        case false?: break
        }
      }
      unsettled = still
    }
    return found
  }

  /// Makes the tables that moves on boards shaped like `board` search with, so that the
  /// first move does not spend its budget on them (a tournament's START, which has no turn
  /// limit, is the time for it).
  package func prepare(for board: Board) {
    let estimate = TableCache<TranspositionTable>.Key(
      rows: board.rows, columns: board.columns, k: board.k, kind: .estimate,
      bits: explorerTableBits)
    tables.giveBack(tables.borrow(estimate), for: estimate)
    guard board.cellCount <= 64 else { return }
    for rules in [Prover.Rules.makerBreaker, .real] {
      let proof = proofKey(board, rules)
      proofTables.giveBack(proofTables.borrow(proof), for: proof)
    }
  }

  /// The key of the kept proof tables for boards shaped like `board` under `rules`.
  func proofKey(_ board: Board, _ rules: Prover.Rules) -> TableCache<ProofMemory>.Key {
    .init(
      rows: board.rows, columns: board.columns, k: board.k, kind: .proof(rules),
      bits: proofTableBits)
  }

  /// A maker-breaker prover of `board` on `memory`, borrowed with ``proofKey(_:_:)``.
  private func makerBreakerProver(
    _ board: Board, memory: ProofMemory, deadline: ContinuousClock.Instant?
  ) -> Prover {
    Prover(
      rows: board.rows, columns: board.columns, k: board.k, rules: .makerBreaker,
      memory: memory, deadline: deadline)
  }

  /// The moves the guard proves to hold (``holdingMoves(_:wanted:preferring:)``), trying
  /// first those that make lines the opponent must block and those that build most.
  package func guardedMoves(_ board: Board, budget: Duration? = nil) -> [Int] {
    let geometry = Geometry<UInt64>(board)
    let (mover, other) = geometry.position(of: board)
    var preferring = Engine.trapMoves(geometry, mover: mover, other: other).map(\.move)
    for move in Engine.attackingMoves(geometry, mover: mover, other: other, count: 6)
    where !preferring.contains(move) {
      preferring.append(move)
    }
    let budget = budget ?? timeBudget
    // Keeping to the budget, the guard leaves half of it to the rest of the move's search.
    let backstop = keepsToBudget ? budget / 2 : max(budget, Engine.guardMinimumBackstop)
    return holdingMoves(board, preferring: preferring, deadline: .now + backstop)
  }

  /// Whether `move`, which makes exactly one line the opponent must block at once, holds:
  /// the opponent must block it (or lose at once, having no line to complete first), and
  /// after the block the mover is proven to keep the opponent off every line, within the
  /// guard's bound for fours.
  func holdsAfterForcedBlock(_ board: Board, move: Int, deadline: ContinuousClock.Instant)
    -> Bool
  {
    let geometry = Geometry<UInt64>(board)
    let (mover, other) = geometry.position(of: board)
    let empty = geometry.full & ~(mover | other)
    guard geometry.threats(of: other, against: mover) & empty == 0 else { return false }
    let after = mover | 1 << UInt64(move)
    let threats = geometry.threats(of: after, against: other) & empty & ~(1 << UInt64(move))
    guard threats.nonzeroBitCount == 1 else { return false }
    let key = proofKey(board, .makerBreaker)
    let memory = proofTables.borrow(key)
    defer { proofTables.giveBack(memory, for: key) }
    let prover = makerBreakerProver(board, memory: memory, deadline: deadline)
    prover.nodeLimit = Engine.guardFourNodes
    return prover.holdsWithDefenderToMove(attacker: other | threats, defender: after) == true
  }

  /// Whether the side to move is proven unable to force a line even if the opponent only
  /// blocks (the maker-breaker game), within ``guardWinNodes`` positions and `deadline`.
  func moverCannotForceLine(_ board: Board, deadline: ContinuousClock.Instant) -> Bool {
    let key = proofKey(board, .makerBreaker)
    let memory = proofTables.borrow(key)
    defer { proofTables.giveBack(memory, for: key) }
    let prover = makerBreakerProver(board, memory: memory, deadline: deadline)
    prover.nodeLimit = Engine.guardWinNodes
    let (mover, other) = prover.geometry.position(of: board)
    return prover.outcome(attacker: mover, defender: other, attackerToMove: true)
      == .defenderHolds
  }

  /// Whether the side to move on `board` (up to 64 cells) is proven unable to force a line
  /// under the real rules, by a search without a time or node bound and with tables of its
  /// own: a check of the guard's claims independent of its search; `nil` past 64 cells.
  package func sideToMoveCannotWin(_ board: Board) -> Bool? {
    guard board.cellCount <= 64 else { return nil }
    let prover = Prover(
      rows: board.rows, columns: board.columns, k: board.k, rules: .real,
      memory: ProofMemory(rows: board.rows, columns: board.columns, k: board.k, bits: 18))
    let (mover, other) = prover.geometry.position(of: board)
    return prover.outcome(attacker: mover, defender: other, attackerToMove: true)
      == .defenderHolds
  }

  /// The cells where the side to move would make a line the opponent must block at once (a
  /// four, with five in a row): bit indices, with how many such lines each makes and how many
  /// of them have the cell to block inside, not at an end.
  static func trapMoves(_ geometry: Geometry<UInt64>, mover: UInt64, other: UInt64)
    -> [(move: Int, lines: Int, hidden: Int)]
  {
    let empty = geometry.full & ~(mover | other)
    var lines: [Int: Int] = [:]
    var hidden: [Int: Int] = [:]
    for window in geometry.windows where window & other == 0 {
      guard (window & mover).nonzeroBitCount == geometry.k - 2 else { continue }
      let open = (window & empty).indices
      let ends = window.indices
      for (move, block) in [(open[0], open[1]), (open[1], open[0])] {
        lines[move, default: 0] += 1
        if block != ends.first && block != ends.last { hidden[move, default: 0] += 1 }
      }
    }
    return lines.map { (move: $0.key, lines: $0.value, hidden: hidden[$0.key] ?? 0) }
      .sorted { $0.move < $1.move }
  }

  /// Unbeatable's examination where the guard proved that some moves hold, or `nil` when
  /// the mover might have a win that only the proofs would find (`mayWin`: no exact search
  /// has ruled one out).
  ///
  /// A forced win, when the threat searches find one; else, among the moves that hold, one
  /// that makes the most lines the opponent must block at once (those with a gap inside
  /// first, which people overlook more often), so that a fallible opponent gets the most
  /// chances to go wrong; else the one that builds most on the mover's open lines.
  func pressingExamination(
    _ board: Board, holding: [Int], mayWin: Bool, start: ContinuousClock.Instant,
    budget: Duration
  ) -> Examination? {
    let geometry = Geometry<UInt64>(board)
    let (mover, other) = geometry.position(of: board)
    func examination(_ choices: [Int], proven: Int? = nil) -> Examination {
      let facts = board.emptyCells.map { cell in
        let index = geometry.index(of: cell)
        let isChoice = choices.contains(index)
        return MoveFacts(
          cell: cell, proven: isChoice ? proven : nil, isSafe: holding.contains(index),
          estimate: isChoice ? 1 : 0)
      }
      var result = Engine.examination(board, facts, moverCannotWin: false)
      result.choices = choices.map(geometry.cell(at:))
      return result
    }
    if mayWin {
      let attack = withExplorer(UInt64.self, board, deadline: start + budget * 0.5) {
        explorer, _, mover, other in explorer.forcedWin(mover: mover, other: other)
      }
      if let attack { return examination([attack.move], proven: attack.score) }
      // Pressing is for positions the mover cannot win against perfect defence; where it
      // might, the proofs look for the win.
      guard moverCannotForceLine(board, deadline: start + budget * 0.6) else { return nil }
    }
    let traps = Engine.trapMoves(geometry, mover: mover, other: other).filter { trap in
      trap.hidden > 0
        && (holding.contains(trap.move)
          || holdsAfterForcedBlock(board, move: trap.move, deadline: start + budget))
    }
    if let most = traps.map({ ($0.lines, $0.hidden) }).max(by: <) {
      return examination(traps.filter { ($0.lines, $0.hidden) == most }.map(\.move))
    }
    let pressures = holding.map { Engine.pressure(geometry, of: $0, mover: mover, other: other) }
    guard let most = pressures.max() else { return examination(holding) }
    return examination(zip(holding, pressures).filter { $0.1 == most }.map(\.0))
  }

  /// How much a move of the side to move builds on lines the opponent has not blocked: each
  /// such window through it weighs four to the power of its marks after the move.
  static func pressure(_ geometry: Geometry<UInt64>, of move: Int, mover: UInt64, other: UInt64)
    -> Int
  {
    var value = 0
    for slot in geometry.windowStart[move]..<geometry.windowStart[move + 1] {
      let window = geometry.windows[geometry.windowIndices[slot]]
      guard window & other == 0 else { continue }
      value += 1 << (2 * ((window & mover).nonzeroBitCount + 1))
    }
    return value
  }

  /// The cells that build most on the mover's open lines, strongest first: the moves the
  /// guard tries first, so that the moves that hold include attacking ones.
  static func attackingMoves(_ geometry: Geometry<UInt64>, mover: UInt64, other: UInt64, count: Int)
    -> [Int]
  {
    let empty = geometry.full & ~(mover | other)
    let scored = empty.indices.map { ($0, pressure(geometry, of: $0, mover: mover, other: other)) }
    return scored.sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(count).map(\.0)
  }
}
