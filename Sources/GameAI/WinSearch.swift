/// A depth-first proof-number search (df-pn) of one question of the real game on boards of up
/// to 64 cells.
///
/// The question: can the attacker force a line before the defender completes one of its own?
///
/// Unlike ``Prover``, which searches depth first in a fixed move order, it always expands the
/// most promising frontier of the proof tree, so a win that needs one good attacker move per
/// node is found without refuting every weaker move first. The pruning is sound:
///
/// - a side with a line to complete completes it; a side facing one must block it, and facing
///   two it loses;
/// - a side with a victory by continuous fours (a chain of fours, each forcing the block,
///   ending in two fours at once) wins at once;
/// - when the side to move faces such a chain of the other side's (were it to pass), it only
///   tries the cells of the chain and of every window where it holds all but two cells: any
///   other move leaves the chain as it was, and cannot make a four of its own on the way;
/// - cells on no open window of either side are never played (such a move is a pass, and a
///   pass is never better than a move), and the Erdős–Selfridge potential of the attacker's
///   windows settles hopeless positions for the defender.
///
/// The table keys positions by their least image under the board's symmetries.
final class WinSearch {
  let geometry: Geometry<UInt64>
  let symmetries: SymmetryTables
  private let k: Int
  /// The windows, in buffers.
  private let lines: WindowTables
  private let table: ProofNumberTable
  /// The last expansion of positions by their slot: the position, its plies left and side to
  /// move (bit 15 set when used), the status (0 moves, 1 proven, 2 disproven) and the moves
  /// or, when proven, the length of the win.
  private let expansions:
    UnsafeMutablePointer<
      (attacker: UInt64, defender: UInt64, moves: UInt64, turn: UInt16, status: UInt8)
    >
  private let expansionBits: Int
  private let counters: UnsafeMutablePointer<Counters>
  /// Called every few hundred thousand positions with the count so far and the root's proof
  /// and disproof numbers.
  var onCheck: ((_ nodes: Int, _ proof: Int, _ disproof: Int) -> Void)?
  /// The most positions the search may expand before it stops, if limited.
  var nodeLimit: Int?
  /// The longest chain of fours looked for, in attacker moves.
  var chainDepth = 6

  private struct Counters {
    var nodes = 0
    var nextCheck = WinSearch.checkInterval
    var isAborted = false
    var rootProof = 1
    var rootDisproof = 1
  }

  private static let checkInterval = 1 << 12
  /// Proof and disproof numbers at or above this are infinite.
  static let infinity = Int(UInt32.max)

  /// Positions expanded.
  var nodes: Int { counters.pointee.nodes }
  /// Whether the search stopped early (node limit or cancellation); its answer is then void.
  var isAborted: Bool { counters.pointee.isAborted }

  init(rows: Int, columns: Int, k: Int, table: ProofNumberTable) {
    geometry = Geometry(rows: rows, columns: columns, k: k)
    symmetries = SymmetryTables(rows: rows, columns: columns)
    self.k = k
    self.table = table
    lines = WindowTables(geometry)
    counters = .allocate(capacity: 1)
    counters.initialize(to: Counters())
    // A twentieth of the table's memory is enough: the expansions a search repeats are
    // those of the current path and its neighbours.
    expansionBits = max(8, min(20, table.bits - 2))
    expansions = .allocate(capacity: 1 << expansionBits)
    expansions.initialize(repeating: (0, 0, 0, 0, 0), count: 1 << expansionBits)
  }

  deinit {
    counters.deallocate()
    expansions.deallocate()
  }

  /// The bound on plies that stands for none.
  static let unlimited = 255

  /// Whether the attacker forces a line, within `plies` plies if given, or `nil` when the
  /// search was stopped.
  func attackerWins(
    attacker: UInt64, defender: UInt64, attackerToMove: Bool, plies: Int = WinSearch.unlimited
  ) -> Bool? {
    let plies = min(max(plies, 0), WinSearch.unlimited)
    let (proof, disproof) = search(
      attacker, defender, attackerToMove: attackerToMove, plies: plies,
      proofLimit: WinSearch.infinity - 1, disproofLimit: WinSearch.infinity - 1, isRoot: true)
    if isAborted { return nil }
    if proof == 0 { return true }
    if disproof == 0 { return false }
    return nil
  }

  /// The length of the longest line of the proof found that the attacker forces a line (not
  /// always the fastest win), or `nil` when it has none or the search was stopped.
  func proofLength(attacker: UInt64, defender: UInt64, attackerToMove: Bool) -> Int? {
    guard
      attackerWins(attacker: attacker, defender: defender, attackerToMove: attackerToMove)
        == true
    else { return nil }
    return proofLength(
      attacker, defender, attackerToMove: attackerToMove, plies: WinSearch.unlimited)
  }

  /// The length of the fastest forced line of the attacker, or `nil` when it has none or the
  /// search was stopped: the longest line of the proof found, then proofs within ever fewer
  /// plies until one fails.
  func fastestWin(attacker: UInt64, defender: UInt64, attackerToMove: Bool) -> Int? {
    guard
      attackerWins(attacker: attacker, defender: defender, attackerToMove: attackerToMove)
        == true,
      var best = proofLength(
        attacker, defender, attackerToMove: attackerToMove, plies: WinSearch.unlimited)
    else { return nil }
    while best > (attackerToMove ? 1 : 2) {
      let limit = best - 2
      guard
        let wins = attackerWins(
          attacker: attacker, defender: defender, attackerToMove: attackerToMove, plies: limit)
      else { return nil }
      guard wins else { break }
      guard
        let length = proofLength(
          attacker, defender, attackerToMove: attackerToMove, plies: limit)
      else { return nil }
      best = min(length, limit)
    }
    return best
  }

  /// The root's proof and disproof numbers as last seen.
  var rootNumbers: (proof: Int, disproof: Int) {
    (counters.pointee.rootProof, counters.pointee.rootDisproof)
  }

  private func countNode() -> Bool {
    counters.pointee.nodes += 1
    if let nodeLimit, counters.pointee.nodes > nodeLimit { counters.pointee.isAborted = true }
    guard counters.pointee.nodes >= counters.pointee.nextCheck else {
      return counters.pointee.isAborted
    }
    counters.pointee.nextCheck = counters.pointee.nodes + WinSearch.checkInterval
    if counters.pointee.nodes & ((1 << 18) - 1) < WinSearch.checkInterval {
      onCheck?(counters.pointee.nodes, counters.pointee.rootProof, counters.pointee.rootDisproof)
    }
    if Task.isCancelled { counters.pointee.isAborted = true }
    return counters.pointee.isAborted
  }

  // MARK: - The position

  /// The number of moves of a chain of at most `depth` fours by which `own`, to move, with no
  /// line to complete and none to block, wins, or 0 when it finds none; the chain's cells (its
  /// moves, the blocks and the final two cells) are added to `zone`.
  private func chain(_ own: UInt64, _ other: UInt64, depth: Int, zone: inout UInt64) -> Int {
    guard depth > 0 else { return 0 }
    let need = k - 2
    var threes: UInt64 = 0
    for index in 0..<lines.windowCount {
      let window = lines.windows[index]
      if window & other == 0 && (window & own).nonzeroBitCount == need {
        threes |= window
      }
    }
    var moves = threes & ~(own | other)
    while moves != 0 {
      let move = moves.trailingZeroBitCount
      moves &= moves &- 1
      let bit = UInt64(1) << UInt64(move)
      let after = own | bit
      var fours: UInt64 = 0
      for slot in lines.starts[move]..<lines.starts[move + 1] {
        let window = lines.windows[lines.slots[slot]]
        if window & other == 0 && (window & after).nonzeroBitCount == k - 1 {
          fours |= window & ~after
        }
      }
      if fours == 0 { continue }
      if fours.nonzeroBitCount >= 2 {
        zone |= bit | fours
        return 1
      }
      // The block must not give the other side a four of its own.
      let blocked = other | fours
      let block = fours.trailingZeroBitCount
      var counter = false
      for slot in lines.starts[block]..<lines.starts[block + 1] {
        let window = lines.windows[lines.slots[slot]]
        if window & after == 0 && (window & blocked).nonzeroBitCount == k - 1 {
          counter = true
          break
        }
      }
      if counter { continue }
      let rest = chain(after, blocked, depth: depth - 1, zone: &zone)
      if rest > 0 {
        zone |= bit | fours
        return rest + 1
      }
    }
    return 0
  }

  /// The cells where the side to move, facing the other side's chain of fours through
  /// `zone`, may still stop it: the chain's cells and the empty cells of every window free of
  /// the other side where the side to move holds all but two cells, counting the chain's
  /// cells as its own.
  private func replies(to zone: UInt64, mover: UInt64, other: UInt64) -> UInt64 {
    var result = zone
    let counted = mover | zone
    for index in 0..<lines.windowCount {
      let window = lines.windows[index]
      if window & other == 0 && (window & counted).nonzeroBitCount >= k - 2 {
        result |= window
      }
    }
    return result & ~(mover | other)
  }

  private enum Expansion {
    /// The attacker wins within `plies` plies without search.
    case proven(plies: Int)
    case disproven
    case moves(UInt64)
  }

  /// The node's status, or the moves to search from it, remembered from the last time.
  private func cachedExpansion(
    _ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool, plies: Int
  ) -> Expansion {
    var hash = (attacker &* 0x9E37_79B9_7F4A_7C15) ^ (defender &* 0xC2B2_AE3D_27D4_EB4F)
    hash ^= UInt64(plies &* 2 + (attackerToMove ? 1 : 0)) &* 0xD6E8_FEB8_6659_FD93
    let slot = Int(truncatingIfNeeded: hash >> (64 - UInt64(expansionBits)))
    let turn = UInt16(plies << 1 | (attackerToMove ? 1 : 0)) | 1 << 15
    let entry = expansions[slot]
    if entry.turn == turn && entry.attacker == attacker && entry.defender == defender {
      switch entry.status {
      case 1: return .proven(plies: Int(entry.moves))
      case 2: return .disproven
      default: return .moves(entry.moves)
      }
    }
    let result = expand(attacker, defender, attackerToMove: attackerToMove, plies: plies)
    switch result {
    case .proven(let length):
      expansions[slot] = (attacker, defender, UInt64(length), turn, 1)
    case .disproven: expansions[slot] = (attacker, defender, 0, turn, 2)
    case .moves(let moves): expansions[slot] = (attacker, defender, moves, turn, 0)
    }
    return result
  }

  /// The node's status, or the moves to search from it, with the attacker to complete a line
  /// within `plies` plies.
  private func expand(_ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool, plies: Int)
    -> Expansion
  {
    let position = lines.scan(attacker, defender, defenderLines: true)
    let live = position.attackerCells | position.defenderCells
    var zone: UInt64 = 0
    if attackerToMove {
      if plies < 1 { return .disproven }
      if position.attackerFours != 0 { return .proven(plies: 1) }
      if position.defenderFours.nonzeroBitCount >= 2 { return .disproven }
      if position.attackerCells == 0 || plies < 3 { return .disproven }
      if position.defenderFours != 0 { return .moves(position.defenderFours) }
      if 2 * position.potential < lines.weights[0] { return .disproven }
      let length = chain(attacker, defender, depth: min(chainDepth, (plies - 1) / 2), zone: &zone)
      if length > 0 { return .proven(plies: 2 * length + 1) }
      zone = 0
      if chain(defender, attacker, depth: chainDepth, zone: &zone) > 0 {
        let moves = live & replies(to: zone, mover: attacker, other: defender)
        return moves == 0 ? .disproven : .moves(moves)
      }
      return .moves(live)
    } else {
      if position.defenderFours != 0 || plies < 2 { return .disproven }
      if position.attackerFours.nonzeroBitCount >= 2 { return .proven(plies: 2) }
      if position.attackerCells == 0 { return .disproven }
      if position.attackerFours != 0 { return .moves(position.attackerFours) }
      if plies < 4 || position.potential < lines.weights[0] { return .disproven }
      if chain(defender, attacker, depth: chainDepth, zone: &zone) > 0 { return .disproven }
      zone = 0
      let length = chain(attacker, defender, depth: min(chainDepth, (plies - 2) / 2), zone: &zone)
      if length > 0 {
        let moves = live & replies(to: zone, mover: defender, other: attacker)
        return moves == 0 ? .proven(plies: 2 * length + 2) : .moves(moves)
      }
      return .moves(live)
    }
  }

  // MARK: - Search

  private struct Child {
    var attacker: UInt64
    var defender: UInt64
    var key: (mover: UInt64, other: UInt64, symmetry: Int)
    var proof: Int
    var disproof: Int
  }

  @inline(__always)
  private func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
    if lhs >= WinSearch.infinity || rhs >= WinSearch.infinity { return WinSearch.infinity }
    return min(lhs + rhs, WinSearch.infinity - 1)
  }

  /// The node's children: one position for each move, up to symmetry.
  private func children(
    _ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool, cells: UInt64
  ) -> [Child] {
    var result: [Child] = []
    var moves = lines.ordered(cells, attacker, defender, defenderLines: true)
    while let move = moves.next() {
      let bit = UInt64(1) << UInt64(move)
      let child = attackerToMove ? (attacker | bit, defender) : (attacker, defender | bit)
      let key = symmetries.canonical(child.0, child.1)
      if result.contains(where: { $0.key.mover == key.mover && $0.key.other == key.other }) {
        continue
      }
      result.append(
        Child(attacker: child.0, defender: child.1, key: key, proof: 1, disproof: 1))
    }
    return result
  }

  /// Searches the node until its proof number reaches `proofLimit` or its disproof number
  /// `disproofLimit`, and returns both; `plies` bounds the attacker's line
  /// (``WinSearch/unlimited`` for no bound).
  private func search(
    _ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool, plies: Int, proofLimit: Int,
    disproofLimit: Int, isRoot: Bool = false
  ) -> (Int, Int) {
    let key = symmetries.canonical(attacker, defender)
    let turn = (plies, attackerToMove)
    if let known = table.probe(key.mover, key.other, turn),
      known.proof >= proofLimit || known.disproof >= disproofLimit
    {
      return known
    }
    if countNode() { return (1, 1) }
    let startNodes = nodes
    let childPlies = plies == WinSearch.unlimited ? plies : plies - 1
    var children: [Child]
    switch cachedExpansion(attacker, defender, attackerToMove: attackerToMove, plies: plies) {
    case .proven:
      table.store(key.mover, key.other, turn, (0, WinSearch.infinity), work: 0)
      return (0, WinSearch.infinity)
    case .disproven:
      table.store(key.mover, key.other, turn, (WinSearch.infinity, 0), work: 0)
      return (WinSearch.infinity, 0)
    case .moves(let cells):
      children = self.children(attacker, defender, attackerToMove: attackerToMove, cells: cells)
    }
    var proof = 0
    var disproof = 0
    while true {
      // The children's numbers, from the table. The side to move takes its best child: the
      // least of the numbers it needs (proof for the attacker, disproof for the defender),
      // while the other number is the sum over all children.
      var best = 0
      var least = WinSearch.infinity
      var second = WinSearch.infinity
      var total = 0
      for index in children.indices {
        let child = children[index]
        if let known = table.probe(child.key.mover, child.key.other, (childPlies, !attackerToMove))
        {
          children[index].proof = known.proof
          children[index].disproof = known.disproof
        }
        let (p, d) = (children[index].proof, children[index].disproof)
        let (own, summed) = attackerToMove ? (p, d) : (d, p)
        total = saturatingSum(total, summed)
        if own < least {
          second = least
          least = own
          best = index
        } else if own < second {
          second = own
        }
      }
      (proof, disproof) = attackerToMove ? (least, total) : (total, least)
      if isRoot {
        counters.pointee.rootProof = proof
        counters.pointee.rootDisproof = disproof
      }
      if proof >= proofLimit || disproof >= disproofLimit || proof == 0 || disproof == 0 {
        break
      }
      let child = children[best]
      // 1 + ε thresholds: stay in the child a little past the point where its sibling
      // overtakes it, which saves re-expanding the same subtree again and again.
      let widened = second >= WinSearch.infinity - 1 ? second : second + second / 4 + 1
      let result: (Int, Int)
      if attackerToMove {
        result = search(
          child.attacker, child.defender, attackerToMove: false, plies: childPlies,
          proofLimit: min(proofLimit, widened),
          disproofLimit: disproofLimit - disproof + child.disproof)
      } else {
        result = search(
          child.attacker, child.defender, attackerToMove: true, plies: childPlies,
          proofLimit: proofLimit - proof + child.proof,
          disproofLimit: min(disproofLimit, widened))
      }
      if isAborted { return (1, 1) }
      children[best].proof = result.0
      children[best].disproof = result.1
    }
    table.store(key.mover, key.other, turn, (proof, disproof), work: nodes - startNodes)
    return (proof, disproof)
  }

  /// The length of the longest line of the proof that the attacker wins, walked through the
  /// table (positions it no longer holds are proven again), or `nil` when the position is not
  /// proven or the search was stopped.
  private func proofLength(
    _ attacker: UInt64, _ defender: UInt64, attackerToMove: Bool, plies: Int
  ) -> Int? {
    let childPlies = plies == WinSearch.unlimited ? plies : plies - 1
    let cells: UInt64
    switch cachedExpansion(attacker, defender, attackerToMove: attackerToMove, plies: plies) {
    case .proven(let length): return length
    case .disproven: return nil
    case .moves(let moves): cells = moves
    }
    let list = children(attacker, defender, attackerToMove: attackerToMove, cells: cells)
    let turn = (childPlies, !attackerToMove)
    func isProven(_ child: Child) -> Bool {
      table.probe(child.key.mover, child.key.other, turn)?.proof == 0
    }
    func length(_ child: Child) -> Int? {
      proofLength(
        child.attacker, child.defender, attackerToMove: !attackerToMove, plies: childPlies)
    }
    /// Proves `child` again, if the table has lost its proof.
    func reprove(_ child: Child) -> Bool {
      if isProven(child) { return true }
      _ = search(
        child.attacker, child.defender, attackerToMove: !attackerToMove, plies: childPlies,
        proofLimit: WinSearch.infinity - 1, disproofLimit: WinSearch.infinity - 1)
      return !isAborted && isProven(child)
    }
    if attackerToMove {
      // A move the table holds proven, else any move proven again.
      if let child = list.first(where: isProven) { return length(child).map { $0 + 1 } }
      for child in list where reprove(child) { return length(child).map { $0 + 1 } }
      return nil
    }
    var longest = 0
    for child in list {
      guard reprove(child), let plies = length(child) else { return nil }
      longest = max(longest, plies + 1)
    }
    return attackerToMove ? nil : longest
  }
}

/// Proof and disproof numbers of ``WinSearch`` by position, bound on plies and side to move,
/// two slots a bucket: a new entry replaces the one of the two that took less work to find,
/// and settled entries are kept over unsettled ones.
final class ProofNumberTable: @unchecked Sendable {
  private struct Slot {
    var attacker: UInt64
    var defender: UInt64
    var proof: UInt32
    var disproof: UInt32
    /// 0 free; else bit 15 set, the bound on plies above bit 0, the attacker to move in bit 0.
    var tag: UInt16
    /// The base-2 logarithm of the positions searched to find it, 255 when settled.
    var work: UInt8
  }

  private let slots: SlotBuffer<Slot>
  /// The table holds `2^bits` slots.
  var bits: Int { slots.bits }

  init(bits: Int) {
    slots = SlotBuffer(
      bits: bits,
      empty: Slot(attacker: 0, defender: 0, proof: 0, disproof: 0, tag: 0, work: 0))
  }

  @inline(__always)
  private static func tag(_ turn: (plies: Int, attackerToMove: Bool)) -> UInt16 {
    1 << 15 | UInt16(turn.plies) << 1 | (turn.attackerToMove ? 1 : 0)
  }

  @inline(__always)
  private func index(_ attacker: UInt64, _ defender: UInt64, _ tag: UInt16) -> Int {
    var hash = (attacker &* 0x9E37_79B9_7F4A_7C15) ^ (defender &* 0xC2B2_AE3D_27D4_EB4F)
    hash ^= UInt64(tag) &* 0xD6E8_FEB8_6659_FD93
    return Int(truncatingIfNeeded: hash ^ (hash >> 31)) & slots.mask & ~1
  }

  @inline(__always)
  private func matches(_ slot: Slot, _ attacker: UInt64, _ defender: UInt64, _ tag: UInt16)
    -> Bool
  {
    slot.tag == tag && slot.attacker == attacker && slot.defender == defender
  }

  func probe(_ attacker: UInt64, _ defender: UInt64, _ turn: (plies: Int, attackerToMove: Bool))
    -> (proof: Int, disproof: Int)?
  {
    let tag = ProofNumberTable.tag(turn)
    let base = index(attacker, defender, tag)
    for offset in 0..<2 {
      let slot = slots[base + offset]
      if matches(slot, attacker, defender, tag) {
        return (Int(slot.proof), Int(slot.disproof))
      }
    }
    return nil
  }

  func store(
    _ attacker: UInt64, _ defender: UInt64, _ turn: (plies: Int, attackerToMove: Bool),
    _ numbers: (Int, Int), work: Int
  ) {
    let tag = ProofNumberTable.tag(turn)
    let base = index(attacker, defender, tag)
    let settled = numbers.0 == 0 || numbers.1 == 0
    let effort =
      settled ? UInt8(255) : UInt8(Int.bitWidth - max(work, 1).leadingZeroBitCount)
    let slot = Slot(
      attacker: attacker, defender: defender, proof: UInt32(clamping: numbers.0),
      disproof: UInt32(clamping: numbers.1), tag: tag, work: effort)
    if matches(slots[base], attacker, defender, tag) {
      slots[base] = slot
    } else if matches(slots[base + 1], attacker, defender, tag) {
      slots[base + 1] = slot
    } else if slots[base].tag == 0 || slots[base].work <= slots[base + 1].work {
      slots[base] = slot
    } else {
      slots[base + 1] = slot
    }
  }
}
