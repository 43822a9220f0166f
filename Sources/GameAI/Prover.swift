import GameRules

/// A proof search on boards of up to 64 cells of one question: can the attacker force a line.
///
/// Under ``Rules/makerBreaker`` the defender only blocks; under ``Rules/real`` it may also win
/// by completing a line of its own, which the attacker must then stop. A maker-breaker
/// defender's win is also a proof for the real game (the defender's strategy is a strategy of
/// the real game, which can only end sooner), and it prunes far more: cells on no open window
/// of the attacker are dead for both sides, and a pairing strategy or the Erdős–Selfridge
/// potential settles a position without search.
///
/// Results are proven: a `true` is a forced win for the attacker, a `false` a proof that the
/// defender keeps the attacker off every line. The table keys positions by their least image
/// under the board's symmetries.
final class Prover {
  enum Rules {
    /// The defender never wins; it only blocks.
    case makerBreaker
    /// Both sides may complete a line.
    case real
  }

  let geometry: Geometry<UInt64>
  let symmetries: SymmetryTables
  let rules: Rules
  private let k: Int
  /// The windows, in buffers.
  private let lines: WindowTables
  private let table: ProofTable
  private let finder: PairingFinder
  private let counters: UnsafeMutablePointer<Counters>
  private let deadline: ContinuousClock.Instant?
  private let clock = ContinuousClock()
  /// Called every few hundred thousand positions with the count so far.
  var onCheck: ((Int) -> Void)?
  /// The most positions the search may visit before it stops, if limited: a bound that,
  /// unlike a deadline, gives the same answer however loaded the machine is.
  var nodeLimit: Int?

  private struct Counters {
    var nodes = 0
    var nextCheck = Prover.checkInterval
    var isAborted = false
  }

  /// How many positions pass between looks at the clock.
  ///
  /// A position can cost tens of microseconds (the pairing search at each), so a look every few thousand would let a
  /// deadline slip by a large part of a second.
  private static let checkInterval = 1 << 6
  /// How many of the defender's best replies are checked for a quick certificate.
  private static let quickReplies = 16

  /// Positions searched.
  var nodes: Int { counters.pointee.nodes }
  /// Whether the search stopped early (deadline or cancellation); its answer is then void.
  var isAborted: Bool { counters.pointee.isAborted }

  init(
    rows: Int, columns: Int, k: Int, rules: Rules, memory: ProofMemory,
    deadline: ContinuousClock.Instant? = nil
  ) {
    geometry = Geometry(rows: rows, columns: columns, k: k)
    symmetries = SymmetryTables(rows: rows, columns: columns)
    self.rules = rules
    self.k = k
    table = memory.table
    finder = memory.pairings
    self.deadline = deadline
    lines = WindowTables(geometry)
    counters = .allocate(capacity: 1)
    counters.initialize(to: Counters())
  }

  deinit {
    counters.deallocate()
  }

  /// The outcome of a proof search.
  enum Outcome: Equatable {
    /// The attacker forces a line within `plies` plies.
    case attackerWins(plies: Int)
    /// The attacker cannot force a line within the limit the search was given.
    case defenderHolds
  }

  /// Whether the attacker forces a line within `limit` plies (by default, ever), or `nil`
  /// when the search was stopped.
  ///
  /// A win's length is that of the forced win found, which may be longer than the fastest.
  func outcome(
    attacker: UInt64, defender: UInt64, attackerToMove: Bool, limit: Int = ProofTable.forever
  ) -> Outcome? {
    let limit = min(limit, ProofTable.forever)
    let result =
      attackerToMove
      ? attackerNode(attacker, defender, limit: limit)
      : defenderNode(attacker, defender, limit: limit)
    if isAborted { return nil }
    return result > 0 ? .attackerWins(plies: result) : .defenderHolds
  }

  /// The fastest forced line for the attacker: its length, found by proving wins within ever
  /// longer limits, or `nil` when the search was stopped or the attacker has no win.
  func fastestWin(attacker: UInt64, defender: UInt64, attackerToMove: Bool) -> Int? {
    guard
      case .attackerWins(let longest) = outcome(
        attacker: attacker, defender: defender, attackerToMove: attackerToMove)
    else { return nil }
    var limit = attackerToMove ? 1 : 2
    while limit < longest {
      let result = outcome(
        attacker: attacker, defender: defender, attackerToMove: attackerToMove, limit: limit)
      guard let result else { return nil }
      if case .attackerWins(let plies) = result { return plies }
      limit += 2
    }
    return longest
  }

  /// Lets the search go on after a stop by the node limit, which is raised to `nodeLimit`.
  func resume(nodeLimit: Int?) {
    self.nodeLimit = nodeLimit
    counters.pointee.isAborted = false
    counters.pointee.nextCheck = counters.pointee.nodes + Prover.checkInterval
  }

  /// Whether the attacker, with the defender to move, cannot force a line after the
  /// defender plays `move` (a pass when `nil`: the attacker moves again); `nil` when the
  /// search was stopped (deadline, cancellation or node limit).
  ///
  /// Under ``Rules/makerBreaker`` a move that holds is a strategy for the real game too: the
  /// attacker never completes a line against it.
  func holds(attacker: UInt64, defender: UInt64, after move: Int?) -> Bool? {
    let defender = move.map { defender | 1 << UInt64($0) } ?? defender
    let result = attackerNode(attacker, defender, limit: ProofTable.forever)
    return isAborted ? nil : result <= 0
  }

  /// Whether the defender, to move, keeps the attacker off every line; `nil` when the search
  /// was stopped.
  func holdsWithDefenderToMove(attacker: UInt64, defender: UInt64) -> Bool? {
    let result = defenderNode(attacker, defender, limit: ProofTable.forever)
    return isAborted ? nil : result <= 0
  }

  /// The defender's candidate replies, with the defender to move, in the order the search
  /// tries them: first the block of a line the attacker would complete; the cells on the
  /// attacker's open windows, heaviest first; then the rest.
  func replies(attacker: UInt64, defender: UInt64) -> [Int] {
    let position = lines.scan(attacker, defender, defenderLines: rules == .real)
    let empty = geometry.full & ~(attacker | defender)
    if position.attackerFours != 0 { return position.attackerFours.indices }
    var moves = lines.ordered(
      position.attackerCells, attacker, defender, defenderLines: rules == .real)
    var result: [Int] = []
    while let move = moves.next() { result.append(move) }
    return result + (empty & ~position.attackerCells).indices
  }

  /// Whether the deadline, if any, has passed.
  var isPastDeadline: Bool { deadline.map { clock.now >= $0 } ?? false }

  private func countNode() -> Bool {
    counters.pointee.nodes += 1
    if let nodeLimit, counters.pointee.nodes > nodeLimit { counters.pointee.isAborted = true }
    guard counters.pointee.nodes >= counters.pointee.nextCheck else {
      return counters.pointee.isAborted
    }
    counters.pointee.nextCheck = counters.pointee.nodes + Prover.checkInterval
    if counters.pointee.nodes & ((1 << 18) - 1) < Prover.checkInterval {
      onCheck?(counters.pointee.nodes)
    }
    if Task.isCancelled { counters.pointee.isAborted = true }
    if let deadline, clock.now >= deadline { counters.pointee.isAborted = true }
    return counters.pointee.isAborted
  }

  // MARK: - The position

  // MARK: - Search

  // Results: a positive number is a win for the attacker in that many plies; zero or a
  // negative number -r says the attacker cannot win within r plies (r = `ProofTable.forever`
  // when it never can).

  /// The result for a defender who holds for `plies` plies, or for ever.
  @inline(__always)
  private func holds(_ plies: Int) -> Int { -min(max(plies, 0), ProofTable.forever) }

  private static let holdsForever = -ProofTable.forever

  /// The node's result from the table, when the entry settles it within `limit`.
  @inline(__always)
  private func known(_ entry: ProofTable.Entry, limit: Int) -> Int? {
    if entry.attackerWins { return entry.plies <= limit ? entry.plies : nil }
    return entry.plies >= limit ? -entry.plies : nil
  }

  @inline(__always)
  private func entry(_ result: Int) -> ProofTable.Entry {
    result > 0
      ? ProofTable.Entry(attackerWins: true, plies: result)
      : ProofTable.Entry(attackerWins: false, plies: -result)
  }

  /// With `hasNoPairing`, the caller has just found no pairing in this position.
  private func attackerNode(
    _ attacker: UInt64, _ defender: UInt64, limit: Int, hasNoPairing: Bool = false
  ) -> Int {
    if countNode() { return 0 }
    if limit < 1 { return 0 }
    let position = lines.scan(attacker, defender, defenderLines: rules == .real)
    if position.attackerFours != 0 { return 1 }
    if position.defenderFours != 0 {
      if position.defenderFours.nonzeroBitCount >= 2 { return Prover.holdsForever }
      let result = defenderNode(
        attacker | position.defenderFours, defender, limit: limit - 1)
      return result > 0 ? result + 1 : holds(1 - result)
    }
    if position.attackerCells == 0 { return Prover.holdsForever }
    // Erdős–Selfridge: with the attacker to move, a potential below one half is a defender win.
    if 2 * position.potential < lines.weights[0] { return Prover.holdsForever }
    if limit < 3 { return holds(limit) }
    let key = symmetries.canonical(attacker, defender)
    if let entry = table.probe(key.mover, key.other, attackerToMove: true),
      let result = known(entry, limit: limit)
    {
      return result
    }
    if !hasNoPairing && finder.hasPairing(maker: attacker, breaker: defender) {
      table.store(key.mover, key.other, attackerToMove: true, entry(Prover.holdsForever))
      return Prover.holdsForever
    }
    let candidates = position.attackerCells | position.defenderCells
    var moves = lines.ordered(candidates, attacker, defender, defenderLines: rules == .real)
    var result = Prover.holdsForever
    while let move = moves.next() {
      let child = defenderNode(attacker | 1 << UInt64(move), defender, limit: limit - 1)
      if isAborted { return 0 }
      if child > 0 {
        result = child + 1
        break
      }
      result = max(result, holds(1 - child))
    }
    table.store(key.mover, key.other, attackerToMove: true, entry(result))
    return result
  }

  private func defenderNode(_ attacker: UInt64, _ defender: UInt64, limit: Int) -> Int {
    if countNode() { return 0 }
    let position = lines.scan(attacker, defender, defenderLines: rules == .real)
    if position.defenderFours != 0 { return Prover.holdsForever }
    if position.attackerFours.nonzeroBitCount >= 2 { return limit >= 2 ? 2 : holds(limit) }
    if position.attackerFours != 0 {
      let result = attackerNode(attacker, defender | position.attackerFours, limit: limit - 1)
      return result > 0 ? result + 1 : holds(1 - result)
    }
    if position.attackerCells == 0 { return Prover.holdsForever }
    // With the defender to move, a potential below one is a defender win.
    if position.potential < lines.weights[0] { return Prover.holdsForever }
    if limit < 4 { return holds(limit) }
    let key = symmetries.canonical(attacker, defender)
    if let entry = table.probe(key.mover, key.other, attackerToMove: false),
      let result = known(entry, limit: limit)
    {
      return result
    }
    let candidates = position.attackerCells | position.defenderCells
    var moves = lines.ordered(candidates, attacker, defender, defenderLines: rules == .real)
    // A reply after which a cheap certificate proves the defender's win, before any deep
    // search.
    // The reply that settles it is nearly always among the first few.
    var quick = moves
    var checked = 0
    while checked < Prover.quickReplies, let move = quick.next() {
      checked += 1
      if isSettledForDefender(attacker, defender | 1 << UInt64(move)) {
        table.store(key.mover, key.other, attackerToMove: false, entry(Prover.holdsForever))
        return Prover.holdsForever
      }
    }
    var result = 0
    var tried = 0
    while let move = moves.next() {
      tried += 1
      let child = attackerNode(
        attacker, defender | 1 << UInt64(move), limit: limit - 1,
        hasNoPairing: tried <= checked)
      if isAborted { return 0 }
      if child <= 0 {
        result = holds(1 - child)
        break
      }
      result = max(result, child + 1)
    }
    table.store(key.mover, key.other, attackerToMove: false, entry(result))
    return result
  }

  /// Whether, with the attacker to move and no four for it, the potential or a pairing proves
  /// that the attacker cannot win.
  private func isSettledForDefender(_ attacker: UInt64, _ defender: UInt64) -> Bool {
    let need = k - 1
    var potential = 0
    for index in 0..<lines.windowCount {
      let window = lines.windows[index]
      guard window & defender == 0 else { continue }
      let own = (window & attacker).nonzeroBitCount
      if own == need { return false }
      potential += lines.weights[k - own]
    }
    if 2 * potential < lines.weights[0] { return true }
    return finder.hasPairing(maker: attacker, breaker: defender)
  }
}

/// Up to 64 moves kept sorted by value, highest first.
struct MoveList {
  private var storage: [(cell: Int, value: Int)] = []
  private var position = 0

  init() { storage.reserveCapacity(16) }

  mutating func insert(_ cell: Int, value: Int) {
    var index = storage.count
    storage.append((cell, value))
    while index > 0, storage[index - 1].value < value {
      storage[index] = storage[index - 1]
      index -= 1
    }
    storage[index] = (cell, value)
  }

  mutating func next() -> Int? {
    guard position < storage.count else { return nil }
    defer { position += 1 }
    return storage[position].cell
  }
}

/// Results of ``Prover`` by position and side to move.
///
/// A win is kept with the length of the forced win found; a defender's win with the number of
/// plies it holds for certain, ``ProofTable/forever`` when it holds to the end of the game.
final class ProofTable: @unchecked Sendable {
  /// A result: `plies` is the length of the win for an attacker's win, and how long the
  /// defender holds for a defender's win.
  struct Entry: Equatable {
    var attackerWins: Bool
    var plies: Int
  }

  /// The length recorded for a defender who holds to the end.
  static let forever = Int(UInt8.max)

  private struct Slot {
    var attacker: UInt64
    var defender: UInt64
    /// 0 free; bit 0: attacker to move; bit 1: the attacker wins; bit 2 always set.
    var flags: UInt8
    var plies: UInt8
  }

  private let slots: SlotBuffer<Slot>
  /// The table holds `2^bits` slots.
  var bits: Int { slots.bits }

  init(bits: Int) {
    slots = SlotBuffer(bits: bits, empty: Slot(attacker: 0, defender: 0, flags: 0, plies: 0))
  }

  @inline(__always)
  private func index(_ attacker: UInt64, _ defender: UInt64, _ attackerToMove: Bool) -> Int {
    var hash = (attacker &* 0x9E37_79B9_7F4A_7C15) ^ (defender &* 0xC2B2_AE3D_27D4_EB4F)
    if attackerToMove { hash = ~hash }
    return Int(truncatingIfNeeded: hash ^ (hash >> 31)) & slots.mask
  }

  func probe(_ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool) -> Entry? {
    let slot = slots[index(attacker, defender, attackerToMove)]
    guard slot.flags != 0, slot.attacker == attacker, slot.defender == defender,
      (slot.flags & 1 == 1) == attackerToMove
    else { return nil }
    return Entry(attackerWins: slot.flags & 2 != 0, plies: Int(slot.plies))
  }

  func store(_ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool, _ entry: Entry) {
    slots[index(attacker, defender, attackerToMove)] = Slot(
      attacker: attacker, defender: defender,
      flags: 4 | (attackerToMove ? 1 : 0) | (entry.attackerWins ? 2 : 0),
      plies: UInt8(clamping: entry.plies))
  }
}
