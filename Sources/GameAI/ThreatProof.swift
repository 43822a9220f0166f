/// A proof-number search for a forced win through threats on a large board: the moves of the
/// threat-space search (fours and open threes for the attacker; for the defender, the cells
/// that stop them and its own fours), explored where the proof looks cheapest instead of to a
/// fixed depth.
///
/// The search keeps its tree in flat arrays and replays the moves from the root to each node
/// it expands, so the line state is the one the rest of the search uses. A defender's four is
/// followed at once by the attacker's block, in one step of the tree, and the defender is then
/// to move again with the attacker's threats still standing.
final class ThreatProof<B: BitBoard> {
  private let state: LineState<B>
  private let limits: SearchLimits

  /// The most nodes the tree may hold, 37 bytes each: about 10 MB, reserved once.
  static var nodeLimit: Int { 1 << 18 }
  private static var infinity: Int { 1 << 40 }

  // The tree, one entry a node; the root is node 0.
  /// The move that leads to the node from its parent.
  private var move: [Int32] = []
  /// The attacker's block that follows a defender's four, or -1.
  private var block: [Int32] = []
  private var parent: [Int32] = []
  /// The node's first child, or -1 while it is not expanded.
  private var firstChild: [Int32] = []
  private var childCount: [Int32] = []
  private var proof: [Int] = []
  private var disproof: [Int] = []
  /// Whether the defender is to move at the node.
  private var defends: [Bool] = []

  init(state: LineState<B>, limits: SearchLimits) {
    self.state = state
    self.limits = limits
    let capacity = Self.nodeLimit
    move.reserveCapacity(capacity)
    block.reserveCapacity(capacity)
    parent.reserveCapacity(capacity)
    firstChild.reserveCapacity(capacity)
    childCount.reserveCapacity(capacity)
    proof.reserveCapacity(capacity)
    disproof.reserveCapacity(capacity)
    defends.reserveCapacity(capacity)
  }

  /// A forced win through threats for `colour`, to move, found before `limit`: the first move
  /// and the plies to the win, or `nil` when there is none, the time ran out (then
  /// `threatStopped` is set) or the tree filled up.
  ///
  /// Expects neither side to have a four on the board.
  func win(for colour: Int, until limit: ContinuousClock.Instant) -> (move: Int, plies: Int)? {
    limits.counters.pointee.threatLimit = limit
    limits.counters.pointee.threatStopped = false
    truncate(to: 0)
    addNode(move: -1, block: -1, parent: -1, defends: false, proof: 1, disproof: 1)
    while proof[0] != 0 && disproof[0] != 0 {
      // An expansion adds at most a child a cell, fewer than 256 on the largest board.
      if limits.threatNodeStops() || move.count + 256 > Self.nodeLimit { return nil }
      var path: [Int] = []
      var node = 0
      while firstChild[node] >= 0 {
        node = mostProving(child: node)
        play(node, colour: colour)
        path.append(node)
      }
      expand(node, colour: colour)
      for visited in path.reversed() {
        update(visited)
        undo(visited, colour: colour)
      }
      update(0)
    }
    let start = Int(firstChild[0])
    guard proof[0] == 0,
      let first = (start..<start + Int(childCount[0])).first(where: { proof[$0] == 0 })
    else { return nil }
    return (Int(move[first]), 1 + plies(first))
  }

  private func addNode(
    move cell: Int, block reply: Int, parent node: Int, defends isDefence: Bool, proof p: Int,
    disproof d: Int
  ) {
    move.append(Int32(cell))
    block.append(Int32(reply))
    parent.append(Int32(node))
    firstChild.append(-1)
    childCount.append(0)
    proof.append(p)
    disproof.append(d)
    defends.append(isDefence)
  }

  /// The child of `node` to follow: the cheapest to prove at the attacker's turn, the
  /// cheapest to disprove at the defender's.
  private func mostProving(child node: Int) -> Int {
    let start = Int(firstChild[node])
    var best = start
    if defends[node] {
      for child in start..<start + Int(childCount[node]) where disproof[child] < disproof[best] {
        best = child
      }
    } else {
      for child in start..<start + Int(childCount[node]) where proof[child] < proof[best] {
        best = child
      }
    }
    return best
  }

  /// Plays the moves that lead to `node`: the attacker's threat, or the defender's reply
  /// and, after a four of the defender's, the attacker's block.
  private func play(_ node: Int, colour: Int) {
    if defends[node] && block[node] < 0 {
      state.place(Int(move[node]), colour: colour)
    } else {
      state.place(Int(move[node]), colour: 1 - colour)
      if block[node] >= 0 { state.place(Int(block[node]), colour: colour) }
    }
  }

  private func undo(_ node: Int, colour: Int) {
    if defends[node] && block[node] < 0 {
      state.remove(Int(move[node]), colour: colour)
    } else {
      if block[node] >= 0 { state.remove(Int(block[node]), colour: colour) }
      state.remove(Int(move[node]), colour: 1 - colour)
    }
  }

  /// Sets the proof and disproof numbers of an expanded `node` from its children's.
  private func update(_ node: Int) {
    guard firstChild[node] >= 0 else { return }
    let start = Int(firstChild[node])
    let children = start..<start + Int(childCount[node])
    if children.isEmpty {
      // An attacker with no threat left, or a defender with a reply that refutes.
      (proof[node], disproof[node]) = defends[node] ? (0, Self.infinity) : (Self.infinity, 0)
      return
    }
    var least = Self.infinity
    var sum = 0
    for child in children {
      if defends[node] {
        least = min(least, disproof[child])
        sum = min(Self.infinity, sum + proof[child])
      } else {
        least = min(least, proof[child])
        sum = min(Self.infinity, sum + disproof[child])
      }
    }
    (proof[node], disproof[node]) = defends[node] ? (sum, least) : (least, sum)
  }

  /// Creates the children of the leaf `node`, whose position is on the board.
  private func expand(_ node: Int, colour: Int) {
    firstChild[node] = Int32(move.count)
    if defends[node] {
      expandDefence(node, colour: colour)
    } else {
      expandAttack(node, colour: colour)
    }
    childCount[node] = Int32(move.count) - firstChild[node]
    update(node)
  }

  /// The attacker's fours and open threes, each a defender's node.
  private func expandAttack(_ node: Int, colour: Int) {
    let defender = 1 - colour
    var cells = state.threatCandidates(for: colour)
    while !cells.isZero {
      let cell = cells.lowestIndex
      cells = cells.withoutLowest
      state.place(cell, colour: colour)
      let completions = state.threats(of: colour, through: cell)
      var replies = B.zero
      if completions.nonzeroBitCount >= 2 {
        // Two threats at once: the win. Its one child proves the node.
        state.remove(cell, colour: colour)
        truncate(to: Int(firstChild[node]))
        addNode(
          move: cell, block: -1, parent: node, defends: true, proof: 0, disproof: Self.infinity)
        return
      } else if !completions.isZero {
        replies = completions
      } else {
        let stops = state.openFourDefences(of: colour, after: cell)
        if !stops.isZero { replies = stops | state.fourMakingCells(for: defender) }
      }
      state.remove(cell, colour: colour)
      if !replies.isZero {
        addNode(
          move: cell, block: -1, parent: node, defends: true,
          proof: replies.nonzeroBitCount, disproof: 1)
      }
    }
  }

  /// Drops the nodes from `count` on, keeping the arrays' capacity: the whole tree, or the
  /// children made so far of the node being expanded.
  private func truncate(to count: Int) {
    move.removeLast(move.count - count)
    block.removeLast(block.count - count)
    parent.removeLast(parent.count - count)
    firstChild.removeLast(firstChild.count - count)
    childCount.removeLast(childCount.count - count)
    proof.removeLast(proof.count - count)
    disproof.removeLast(disproof.count - count)
    defends.removeLast(defends.count - count)
  }

  /// The defender's replies that could matter, each an attacker's node, or, after a four of
  /// the defender's, a defender's node again; none when one reply refutes the threats.
  private func expandDefence(_ node: Int, colour: Int) {
    let defender = 1 - colour
    var replies = state.threatCells(of: colour)
    if replies.isZero {
      let open = state.openFours(of: colour)
      if open.makers.isZero {
        refute(node)
        return
      }
      replies = open.stops | state.fourMakingCells(for: defender)
    }
    while !replies.isZero {
      let reply = replies.lowestIndex
      replies = replies.withoutLowest
      state.place(reply, colour: defender)
      let counter = state.threats(of: defender, through: reply)
      var refuted = false
      if counter.isZero {
        if state.tallies.pointee[colour].fours > 0 {
          addNode(
            move: reply, block: -1, parent: node, defends: false, proof: 0,
            disproof: Self.infinity)
        } else if state.threatCandidates(for: colour).isZero {
          refuted = true
        } else {
          addNode(move: reply, block: -1, parent: node, defends: false, proof: 1, disproof: 1)
        }
      } else if counter.nonzeroBitCount == 1, state.threatCells(of: defender).nonzeroBitCount == 1 {
        let cell = counter.lowestIndex
        state.place(cell, colour: colour)
        let completions = state.threatCells(of: colour)
        if completions.nonzeroBitCount >= 2 {
          addNode(
            move: reply, block: cell, parent: node, defends: true, proof: 0,
            disproof: Self.infinity)
        } else if !completions.isZero {
          addNode(move: reply, block: cell, parent: node, defends: true, proof: 1, disproof: 1)
        } else {
          let open = state.openFours(of: colour)
          if open.makers.isZero {
            refuted = true
          } else {
            addNode(
              move: reply, block: cell, parent: node, defends: true,
              proof: (open.stops | state.fourMakingCells(for: defender)).nonzeroBitCount,
              disproof: 1)
          }
        }
        state.remove(cell, colour: colour)
      } else {
        // Two fours, or a four while another stands: the defender wins the race.
        refuted = true
      }
      state.remove(reply, colour: defender)
      if refuted {
        refute(node)
        return
      }
    }
  }

  /// Drops the children made so far of the defender's `node`, which a reply refutes.
  private func refute(_ node: Int) {
    truncate(to: Int(firstChild[node]))
    addNode(move: -1, block: -1, parent: node, defends: false, proof: Self.infinity, disproof: 0)
  }

  /// The plies to the win from the proven `node`, counting the move to play there, along
  /// the fastest proof the tree holds at the attacker's turns.
  private func plies(_ node: Int) -> Int {
    let start = Int(firstChild[node])
    guard start >= 0 else { return defends[node] ? 2 : 1 }
    let children = start..<start + Int(childCount[node])
    if defends[node] {
      return children.map { (block[$0] >= 0 ? 2 : 1) + plies($0) }.max() ?? 2
    }
    return children.filter { proof[$0] == 0 }.map { 1 + plies($0) }.min() ?? 1
  }
}
