/// What the large-board search keeps up to date for one side, over the windows the other side
/// has not entered.
struct SideTally {
  /// The sum of the evaluation weights of those windows, by the side's marks in each.
  var weight = 0
  /// Those windows one mark short of a line (fours).
  var fours = 0
  /// Those windows two marks short of a line (threes).
  var threes = 0
}

/// Both sides' tallies and the windows still open to either.
struct Tallies {
  /// The root's side to move.
  var first = SideTally()
  /// The other side.
  var second = SideTally()
  /// Windows that some side can still complete.
  var openWindows = 0

  /// The tally of `colour`: 0 the root's side to move, 1 the other side.
  subscript(colour: Int) -> SideTally {
    get { colour == 0 ? first : second }
    set {
      if colour == 0 { first = newValue } else { second = newValue }
    }
  }
}

/// A position of the large-board search with every window's marks counted, updated move by
/// move so that a move costs only the windows through its cell.
///
/// Colours are 0 for the root's side to move and 1 for the other side. The state lives in
/// manually managed buffers: it changes at every node, and class properties would pay for
/// exclusivity checks and copy-on-write tests on each change.
final class LineState<B: BitBoard> {
  let geometry: Geometry<B>
  let k: Int
  let windowCount: Int
  /// Evaluation weights by how many marks an unblocked window holds.
  let weights: [Int]
  /// `codes[window]`: colour 0's marks in the window times `k + 1` plus colour 1's, the index
  /// of the window's row in the tables of shares.
  private let codes: UnsafeMutablePointer<Int>
  /// `alone[colour * (k + 1)² + code]`: the marks `colour` holds in a window of that code
  /// when the other colour holds none, else -1.
  private let alone: UnsafeMutablePointer<Int>
  /// The tallies of both sides.
  let tallies: UnsafeMutablePointer<Tallies>
  /// Each colour's marks.
  let marks: UnsafeMutablePointer<B>
  /// Copies of `geometry.windowStart` and `geometry.windowIndices` for the hot loops.
  let starts: UnsafeMutablePointer<Int>
  let slots: UnsafeMutablePointer<Int>
  /// `shares[first * (k + 1) + second]`: what a window holding `first` marks of colour 0
  /// and `second` of colour 1 adds to the tallies.
  private let shares: UnsafeMutablePointer<Tallies>
  /// `orderShares[colour * (k + 1)² + first * (k + 1) + second]`: what a window holding
  /// `first` marks of colour 0 and `second` of colour 1 adds to ``value(of:for:)`` of a
  /// cell in it, for `colour`.
  private let orderShares: UnsafeMutablePointer<Int>
  /// Scratch for ``openFours(of:)``: a cell's partner in a three window, or -1.
  private let partners: UnsafeMutablePointer<Int>
  /// Scratch for ``openFours(of:)``: the two empty cells of each three window seen.
  private let pairs: UnsafeMutablePointer<Int>
  /// 64-bit words of a set of windows.
  private let setWords: Int
  /// `lineSets[(colour * 2 + kind) * setWords + word]`: the windows, one bit each, where
  /// `colour` holds `k - 2` marks (kind 0, threes) or `k - 1` (kind 1, fours), the other none.
  ///
  /// Kept by ``change(_:colour:by:)``, so that the threat scans visit only those windows.
  private let lineSets: UnsafeMutablePointer<UInt64>
  /// `kinds[first * (k + 1) + second]`: the sets of ``lineSets`` that a window holding
  /// `first` marks of colour 0 and `second` of colour 1 belongs to, bit `colour * 2 + kind`
  /// standing for each.
  private let kinds: UnsafeMutablePointer<UInt8>

  init(geometry: Geometry<B>) {
    self.geometry = geometry
    k = geometry.k
    var weights = [0]
    var weight = 1
    for _ in 1..<geometry.k {
      weights.append(weight)
      weight *= 6
    }
    weights.append(weight)
    self.weights = weights
    windowCount = geometry.windows.count
    codes = .allocate(capacity: max(1, windowCount))
    codes.initialize(repeating: 0, count: max(1, windowCount))
    tallies = .allocate(capacity: 1)
    tallies.initialize(to: Tallies())
    marks = .allocate(capacity: 2)
    marks.initialize(repeating: .zero, count: 2)
    starts = LineState.copy(geometry.windowStart)
    slots = LineState.copy(geometry.windowIndices)
    let stride = geometry.k + 1
    shares = .allocate(capacity: stride * stride)
    orderShares = .allocate(capacity: 2 * stride * stride)
    alone = .allocate(capacity: 2 * stride * stride)
    for first in 0...geometry.k {
      for second in 0...geometry.k {
        shares[first * stride + second] = LineState.share(
          first, second, k: geometry.k, weights: weights)
        orderShares[first * stride + second] = LineState.orderShare(
          mine: first, theirs: second, k: geometry.k, weights: weights)
        orderShares[stride * stride + first * stride + second] = LineState.orderShare(
          mine: second, theirs: first, k: geometry.k, weights: weights)
        alone[first * stride + second] = second == 0 ? first : -1
        alone[stride * stride + first * stride + second] = first == 0 ? second : -1
      }
    }
    partners = .allocate(capacity: geometry.cellCount)
    partners.initialize(repeating: -1, count: geometry.cellCount)
    pairs = .allocate(capacity: max(2, 2 * windowCount))
    pairs.initialize(repeating: 0, count: max(2, 2 * windowCount))
    setWords = (windowCount + 63) / 64
    kinds = .allocate(capacity: stride * stride)
    for first in 0...geometry.k {
      for second in 0...geometry.k {
        let share = shares[first * stride + second]
        kinds[first * stride + second] =
          UInt8(share.first.threes) | UInt8(share.first.fours) << 1
          | UInt8(share.second.threes) << 2 | UInt8(share.second.fours) << 3
      }
    }
    lineSets = .allocate(capacity: max(1, 4 * setWords))
    lineSets.initialize(repeating: 0, count: max(1, 4 * setWords))
  }

  private static func copy(_ values: [Int]) -> UnsafeMutablePointer<Int> {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: max(values.count, 1))
    pointer.initialize(repeating: 0, count: max(values.count, 1))
    for (index, value) in values.enumerated() { pointer[index] = value }
    return pointer
  }

  deinit {
    alone.deallocate()
    codes.deallocate()
    tallies.deallocate()
    marks.deinitialize(count: 2)
    marks.deallocate()
    starts.deallocate()
    slots.deallocate()
    shares.deallocate()
    orderShares.deallocate()
    partners.deallocate()
    pairs.deallocate()
    lineSets.deallocate()
    kinds.deallocate()
  }

  /// Sets up the position with `mover` as colour 0 and `other` as colour 1.
  func setUp(mover: B, other: B) {
    codes.update(repeating: 0, count: windowCount)
    lineSets.update(repeating: 0, count: 4 * setWords)
    marks.update(repeating: .zero, count: 2)
    tallies.pointee = Tallies()
    tallies.pointee.openWindows = windowCount
    for cell in mover.indices { place(cell, colour: 0) }
    for cell in other.indices { place(cell, colour: 1) }
  }

  /// The empty cells.
  var empty: B { geometry.full & ~(marks[0] | marks[1]) }

  // MARK: - Moves

  func place(_ cell: Int, colour: Int) { change(cell, colour: colour, by: 1) }

  func remove(_ cell: Int, colour: Int) { change(cell, colour: colour, by: -1) }

  /// Moves the codes and tallies of every window through `cell` by `step`, and the
  /// windows that become or stop being threes or fours between the sets of ``lineSets``.
  ///
  /// This is the hottest loop of the large-board search. Its sums are bounded by the
  /// windows' weights, so it adds without overflow checks, which lets the compiler keep the
  /// seven tallies in vector registers; the sets are kept in a second pass, whose rare
  /// branch would otherwise keep them out of the registers.
  private func change(_ cell: Int, colour: Int, by step: Int) {
    let stride = k + 1
    // A step in colour 0's count moves a window a whole row of the shares table.
    let move = colour == 0 ? step * stride : step
    var tallies = self.tallies.pointee
    for slot in starts[cell]..<starts[cell + 1] {
      let window = slots[slot]
      let before = codes[window]
      codes[window] = before &+ move
      let old = shares[before]
      let new = shares[before &+ move]
      tallies.openWindows &+= new.openWindows &- old.openWindows
      tallies.first.weight &+= new.first.weight &- old.first.weight
      tallies.first.fours &+= new.first.fours &- old.first.fours
      tallies.first.threes &+= new.first.threes &- old.first.threes
      tallies.second.weight &+= new.second.weight &- old.second.weight
      tallies.second.fours &+= new.second.fours &- old.second.fours
      tallies.second.threes &+= new.second.threes &- old.second.threes
    }
    // A window enters or leaves a side's threes or fours only where its marks reach or
    // leave k - 2 or k - 1, which few steps do.
    for slot in starts[cell]..<starts[cell + 1] {
      let window = slots[slot]
      let after = codes[window]
      var flips = kinds[after] ^ kinds[after &- move]
      guard flips != 0 else { continue }
      let word = window &>> 6
      let bit = UInt64(1) &<< UInt64(window & 63)
      var base = word
      while flips != 0 {
        if flips & 1 != 0 { lineSets[base] ^= bit }
        flips &>>= 1
        base &+= setWords
      }
    }
    self.tallies.pointee = tallies
    marks[colour] = marks[colour] ^ B(bit: cell)
  }

  /// What a window holding `first` marks of colour 0 and `second` of colour 1 adds to the
  /// tallies.
  private static func share(_ first: Int, _ second: Int, k: Int, weights: [Int]) -> Tallies {
    var share = Tallies()
    if first == 0 || second == 0 { share.openWindows = 1 }
    if second == 0 {
      share.first.weight = weights[first]
      share.first.fours = first == k - 1 ? 1 : 0
      share.first.threes = first == k - 2 ? 1 : 0
    }
    if first == 0 {
      share.second.weight = weights[second]
      share.second.fours = second == k - 1 ? 1 : 0
      share.second.threes = second == k - 2 ? 1 : 0
    }
    return share
  }

  /// What a window holding `mine` marks of a colour and `theirs` of the other adds to
  /// ``value(of:for:)`` of a cell in it, for that colour: twice the weight the colour's line
  /// would reach, and the weight of the other colour's line it would block.
  private static func orderShare(mine: Int, theirs: Int, k: Int, weights: [Int]) -> Int {
    // A window is complete only once a game is over; its cells are never ordered.
    let extend = { (marks: Int) in weights[min(marks + 1, k)] }
    var value = 0
    if theirs == 0 { value += 2 * extend(mine) }
    if mine == 0 { value += extend(theirs) }
    return value
  }

  // MARK: - Threats

  /// The empty cells of the windows where `colour` holds `k - 2` marks (`kind` 0) or `k - 1`
  /// (`kind` 1) and the other colour none, over all windows or, with `cell`, those through it.
  @inline(__always)
  private func cells(of colour: Int, kind: Int, through cell: Int? = nil) -> B {
    var result = B.zero
    if let cell {
      let alone = aloneMarks(of: colour)
      let marks = k &- 2 &+ kind
      for slot in starts[cell]..<starts[cell + 1] {
        let window = slots[slot]
        if alone[codes[window]] == marks {
          result = result | geometry.windows[window]
        }
      }
    } else {
      forEachWindow(of: colour, kind: kind) { window in
        result = result | geometry.windows[window]
      }
    }
    return result & empty
  }

  /// ``alone`` for `colour`: indexed by a window's code, the marks `colour` holds there when
  /// the other colour holds none, else -1.
  @inline(__always)
  private func aloneMarks(of colour: Int) -> UnsafeMutablePointer<Int> {
    alone + colour &* (k &+ 1) &* (k &+ 1)
  }

  /// Calls `body` with each window where `colour` holds `k - 2` marks (`kind` 0) or `k - 1`
  /// (`kind` 1) and the other colour none, in increasing order.
  @inline(__always)
  private func forEachWindow(of colour: Int, kind: Int, _ body: (Int) -> Void) {
    let base = lineSets + (colour &* 2 &+ kind) &* setWords
    for word in 0..<setWords {
      var bits = base[word]
      while bits != 0 {
        body(word &<< 6 &+ bits.trailingZeroBitCount)
        bits &= bits &- 1
      }
    }
  }

  /// The empty cells that would complete a line for `colour`.
  func threatCells(of colour: Int) -> B { cells(of: colour, kind: 1) }

  /// The threat cells of `colour` in the windows through `cell`.
  func threats(of colour: Int, through cell: Int) -> B {
    cells(of: colour, kind: 1, through: cell)
  }

  /// Cells where `colour` would make a four: the empty cells of its threes.
  func fourMakingCells(for colour: Int) -> B { cells(of: colour, kind: 0) }

  /// The cells that might start a threat for `colour`: the empty cells of windows the
  /// opponent has not entered that hold at least `k - 3` of its marks.
  func threatCandidates(for colour: Int) -> B {
    var result = B.zero
    let alone = aloneMarks(of: colour)
    let least = max(1, k - 3)
    for window in 0..<windowCount where alone[codes[window]] >= least {
      result = result | geometry.windows[window]
    }
    return result & empty
  }

  /// For a `colour` that has just played `cell` and has no four, the cells that make an
  /// open four (or two fours) for it, together with the cells that would then complete a
  /// line: the opponent must take one of them.
  func openFourDefences(of colour: Int, after cell: Int) -> B {
    var result = B.zero
    let alone = aloneMarks(of: colour)
    let empty = self.empty
    var seen = B.zero
    for slot in starts[cell]..<starts[cell + 1] {
      let window = slots[slot]
      guard alone[codes[window]] == k &- 2 else { continue }
      var rest = geometry.windows[window] & empty & ~seen
      seen = seen | rest
      while !rest.isZero {
        let next = rest.lowestIndex
        rest = rest.withoutLowest
        place(next, colour: colour)
        let completions = threats(of: colour, through: next)
        remove(next, colour: colour)
        if completions.nonzeroBitCount >= 2 {
          result = result | completions | B(bit: next)
        }
      }
    }
    return result
  }

  /// The cells where `colour` would make two threats at once, and the cells that stop them.
  ///
  /// Two threats at once are an open four or two fours. The stopping cells are those cells
  /// and the cells their threats would complete; both sets are empty when there is none.
  /// Such a move wins unless the opponent answers with fours of its own, so an opponent
  /// without a four must take one of the stopping cells or make a four.
  func openFours(of colour: Int) -> (makers: B, stops: B) {
    let empty = self.empty
    var count = 0
    forEachWindow(of: colour, kind: 0) { window in
      let cells = geometry.windows[window] & empty
      pairs[count] = cells.lowestIndex
      pairs[count + 1] = cells.withoutLowest.lowestIndex
      count += 2
    }
    var makers = B.zero
    for index in 0..<count {
      let cell = pairs[index]
      let partner = pairs[index ^ 1]
      if partners[cell] < 0 {
        partners[cell] = partner
      } else if partners[cell] != partner {
        makers = makers.inserting(cell)
      }
    }
    var stops = makers
    if !makers.isZero {
      for index in 0..<count where makers.contains(pairs[index]) {
        stops = stops.inserting(pairs[index ^ 1])
      }
    }
    for index in 0..<count { partners[pairs[index]] = -1 }
    return (makers, stops)
  }

  // MARK: - Ordering

  /// How much `move` builds `colour`'s lines and blocks the other colour's: twice the weight
  /// of each own window it would extend plus the weight of each opposing window it would
  /// block, judged on the current position.
  @inline(__always)
  func value(of move: Int, for colour: Int) -> Int {
    let stride = k &+ 1
    let table = orderShares + colour &* stride &* stride
    let codes = self.codes
    let slots = self.slots
    var value = 0
    for slot in starts[move]..<starts[move &+ 1] {
      let window = slots[slot]
      value &+= table[codes[window]]
    }
    return value
  }
}
