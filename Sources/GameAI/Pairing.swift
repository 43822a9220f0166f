/// Finds pairing strategies for the breaker against the maker's open windows.
///
/// A pairing strategy is a set of disjoint pairs of empty cells such that every window the
/// maker can still complete holds one pair. The breaker then answers a move in a pair with its
/// partner and so keeps the maker off every line, whoever is to move.
///
/// Two cells share at most one line, so a pair covers windows of one line only. The finder
/// therefore lists, line by line, the ways to cover that line's open windows with pairs, and
/// then picks one way per line so that no two lines use the same cell: a small constraint
/// problem over the lines, solved by backtracking on the line with the fewest ways left, each
/// choice striking out the ways of the crossing lines that use its cells.
///
/// The ways of a line depend only on its length and on which of its cells each side holds, so
/// they are listed once per such pattern and kept.
package final class PairingFinder {
  private let k: Int
  private let lineCount: Int
  /// `cells[lineStart[line] + position]`: the bit index of each cell along the line.
  private let cells: UnsafeMutablePointer<Int>
  private let lineStart: UnsafeMutablePointer<Int>
  /// `crossings[cell * 4 + direction]`: the line through `cell` in each direction, with the
  /// cell's position along it packed as `line << 8 | position`, or -1.
  private let crossings: UnsafeMutablePointer<Int>
  /// The most ways to cover one line that the finder keeps.
  static let maximumWays = 64

  /// The listed ways of one pattern.
  private struct Pattern {
    /// How many ways; -1 when some open window cannot be covered.
    var count: Int
    /// Where the pattern's data start in the pools.
    var offset: Int
    var length: Int
  }

  /// By line length, the listed patterns: index `maker | breaker << length` for short lines.
  private var shortPatterns: [[Int32]]
  private var longPatterns: [[UInt32: Int32]]
  private var patterns: [Pattern] = []
  /// `waysPool[offset + way]`: a way's cells as positions along the line.
  private var waysPool: [UInt16] = []
  /// `pairsPool[offset + way]`: a way's pairs, positions packed four bits each, a pair a byte.
  private var pairsPool: [UInt64] = []
  /// `containingPool[offset * 16 + position]`: the ways that use that position.
  private var containingPool: [UInt64] = []

  // The current problem.
  private let activeLine: UnsafeMutablePointer<Int>
  private let activePattern: UnsafeMutablePointer<Int>
  /// The pool offset of each active line's pattern.
  private let activeOffset: UnsafeMutablePointer<Int>
  /// The slot of each line among the active ones, or -1.
  private let slotOfLine: UnsafeMutablePointer<Int>
  private var activeCount = 0
  /// Per search depth, which ways of each active line are still possible.
  private let alive: UnsafeMutablePointer<UInt64>
  private let chosenWay: UnsafeMutablePointer<Int>
  private var budget = 0
  package var steps = 0

  /// How many search steps one question may take before the finder gives up.
  package var stepLimit = 100

  package init(rows: Int, columns: Int, k: Int) {
    self.k = k
    var lines: [[Int]] = []
    var lineDirections: [Int] = []
    for (direction, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].enumerated() {
      for row in 0..<rows {
        for column in 0..<columns {
          // Start only where the previous cell along the direction is off the board.
          let previousRow = row - dr
          let previousColumn = column - dc
          if previousRow >= 0 && previousColumn >= 0 && previousColumn < columns { continue }
          var line: [Int] = []
          var (r, c) = (row, column)
          while r < rows && c >= 0 && c < columns {
            line.append(r * columns + c)
            r += dr
            c += dc
          }
          if line.count >= k {
            lines.append(line)
            lineDirections.append(direction)
          }
        }
      }
    }
    lineCount = lines.count
    let total = lines.reduce(0) { $0 + $1.count }
    cells = .allocate(capacity: max(1, total))
    lineStart = .allocate(capacity: lines.count + 1)
    crossings = .allocate(capacity: max(1, rows * columns * 4))
    crossings.initialize(repeating: -1, count: max(1, rows * columns * 4))
    var offset = 0
    for (index, line) in lines.enumerated() {
      lineStart[index] = offset
      for (position, cell) in line.enumerated() {
        cells[offset] = cell
        crossings[cell * 4 + lineDirections[index]] = index << 8 | position
        offset += 1
      }
    }
    lineStart[lines.count] = offset
    let longest = lines.map(\.count).max() ?? 0
    shortPatterns = (0...max(longest, 0)).map { length in
      length <= 8 && length >= k ? Array(repeating: -1, count: 1 << (2 * length)) : []
    }
    longPatterns = Array(repeating: [:], count: longest + 1)
    activeLine = .allocate(capacity: max(1, lines.count))
    activePattern = .allocate(capacity: max(1, lines.count))
    activeOffset = .allocate(capacity: max(1, lines.count))
    slotOfLine = .allocate(capacity: max(1, lines.count))
    slotOfLine.initialize(repeating: -1, count: max(1, lines.count))
    alive = .allocate(capacity: max(1, (lines.count + 1) * lines.count))
    chosenWay = .allocate(capacity: max(1, lines.count))
  }

  deinit {
    cells.deallocate()
    lineStart.deallocate()
    crossings.deallocate()
    activeLine.deallocate()
    activePattern.deallocate()
    activeOffset.deallocate()
    slotOfLine.deallocate()
    alive.deallocate()
    chosenWay.deallocate()
  }

  /// Whether the breaker has a pairing strategy against `maker`'s open windows.
  package func hasPairing(maker: UInt64, breaker: UInt64) -> Bool {
    for slot in 0..<activeCount { slotOfLine[activeLine[slot]] = -1 }
    activeCount = 0
    for line in 0..<lineCount {
      let start = lineStart[line]
      let length = lineStart[line + 1] - start
      var makerPositions: UInt32 = 0
      var breakerPositions: UInt32 = 0
      for position in 0..<length {
        let bit = UInt64(1) << UInt64(cells[start + position])
        if maker & bit != 0 { makerPositions |= 1 << UInt32(position) }
        if breaker & bit != 0 { breakerPositions |= 1 << UInt32(position) }
      }
      let index = pattern(length: length, maker: makerPositions, breaker: breakerPositions)
      let count = patterns[index].count
      // The lines marked so far are unmarked at the start of the next question.
      if count < 0 { return false }
      if count > 0 {
        slotOfLine[line] = activeCount
        activeLine[activeCount] = line
        activePattern[activeCount] = index
        activeOffset[activeCount] = patterns[index].offset
        alive[activeCount] = count == 64 ? ~0 : (1 << UInt64(count)) - 1
        activeCount += 1
      }
    }
    budget = stepLimit
    return waysPool.withUnsafeBufferPointer { ways in
      containingPool.withUnsafeBufferPointer { containing in
        solve(depth: 0, assigned: 0, ways: ways, containing: containing)
      }
    }
  }

  /// The pairs of a pairing strategy against `maker`'s open windows, if the finder finds one.
  package func pairing(maker: UInt64, breaker: UInt64) -> [(Int, Int)]? {
    guard hasPairing(maker: maker, breaker: breaker) else { return nil }
    var result: [(Int, Int)] = []
    for slot in 0..<activeCount {
      let line = activeLine[slot]
      let pattern = patterns[activePattern[slot]]
      var found = pairsPool[pattern.offset + chosenWay[slot]]
      while found != 0 {
        let a = Int(found & 15)
        let b = Int(found >> 4 & 15)
        found >>= 8
        result.append((cells[lineStart[line] + a], cells[lineStart[line] + b]))
      }
    }
    return result
  }

  // MARK: - One line

  /// The index of the listed ways of a line of `length` cells whose positions `maker` and
  /// `breaker` hold, listing them the first time.
  private func pattern(length: Int, maker: UInt32, breaker: UInt32) -> Int {
    let key = maker | breaker << UInt32(length)
    if length <= 8 {
      let known = shortPatterns[length][Int(key)]
      if known >= 0 { return Int(known) }
    } else if let known = longPatterns[length][key] {
      return Int(known)
    }
    let index = listWays(length: length, maker: maker, breaker: breaker)
    if length <= 8 {
      shortPatterns[length][Int(key)] = Int32(index)
    } else {
      longPatterns[length][key] = Int32(index)
    }
    return index
  }

  private func listWays(length: Int, maker: UInt32, breaker: UInt32) -> Int {
    let index = patterns.count
    let empty = ~(maker | breaker) & ((1 << UInt32(length)) - 1)
    let window: UInt32 = (1 << UInt32(k)) - 1
    var open: UInt32 = 0
    var impossible = false
    for first in 0...(length - k) where (window << UInt32(first)) & breaker == 0 {
      if ((window << UInt32(first)) & empty).nonzeroBitCount < 2 { impossible = true }
      open |= 1 << UInt32(first)
    }
    var ways: [(cells: UInt16, pairs: UInt64)] = []
    if !impossible && open != 0 {
      extend(&ways, open: open, used: 0, pairs: 0, empty: empty)
      if ways.isEmpty { impossible = true }
    }
    patterns.append(
      Pattern(count: impossible ? -1 : ways.count, offset: waysPool.count, length: length))
    let offset = waysPool.count
    for way in ways {
      waysPool.append(way.cells)
      pairsPool.append(way.pairs)
    }
    // Containing masks live at `offset * 16`, so each pattern has room for 16 positions.
    let needed = (offset + max(ways.count, 1)) * 16
    if containingPool.count < needed {
      containingPool.append(
        contentsOf: repeatElement(0, count: needed - containingPool.count))
    }
    for (way, entry) in ways.enumerated() {
      var rest = entry.cells
      while rest != 0 {
        let position = rest.trailingZeroBitCount
        rest &= rest &- 1
        containingPool[offset * 16 + position] |= 1 << UInt64(way)
      }
    }
    return index
  }

  /// Covers the open windows `open` (by their first position) from the first, avoiding the
  /// positions of `used`.
  private func extend(
    _ ways: inout [(cells: UInt16, pairs: UInt64)], open: UInt32, used: UInt16,
    pairs found: UInt64, empty: UInt32
  ) {
    guard ways.count < PairingFinder.maximumWays else { return }
    if open == 0 {
      // Keep only ways that are not a superset of one already kept.
      if ways.contains(where: { $0.cells & used == $0.cells }) { return }
      ways.append((used, found))
      return
    }
    let first = open.trailingZeroBitCount
    let free = empty & ~UInt32(used)
    // Pairs reaching furthest first: a pair at positions a < b covers the windows from this
    // one to a.
    var a = first + k - 2
    while a >= first {
      if free & (1 << UInt32(a)) != 0 {
        for b in (a + 1)..<(first + k) where free & (1 << UInt32(b)) != 0 {
          let rest = open & ~((1 << UInt32(a + 1)) - 1)
          extend(
            &ways, open: rest, used: used | 1 << UInt16(a) | 1 << UInt16(b),
            pairs: found << 8 | UInt64(a) | UInt64(b) << 4, empty: empty)
        }
      }
      a -= 1
    }
  }

  // MARK: - All lines

  /// Assigns a way to every active line not in `assigned`, the ways alive at `depth` given.
  private func solve(
    depth: Int, assigned: UInt64, ways: UnsafeBufferPointer<UInt16>,
    containing: UnsafeBufferPointer<UInt64>
  ) -> Bool {
    budget -= 1
    steps += 1
    if budget < 0 { return false }
    let row = depth * activeCount
    // The unassigned line with the fewest ways left.
    var chosen = -1
    var fewest = Int.max
    for slot in 0..<activeCount where assigned & (1 << UInt64(slot)) == 0 {
      let count = alive[row + slot].nonzeroBitCount
      if count < fewest {
        fewest = count
        chosen = slot
        if count <= 1 { break }
      }
    }
    if chosen < 0 { return true }
    if fewest == 0 { return false }
    let line = activeLine[chosen]
    let start = lineStart[line]
    let offset = activeOffset[chosen]
    let next = row + activeCount
    let nowAssigned = assigned | 1 << UInt64(chosen)
    var options = alive[row + chosen]
    while options != 0 {
      let way = options.trailingZeroBitCount
      options &= options &- 1
      chosenWay[chosen] = way
      for slot in 0..<activeCount { alive[next + slot] = alive[row + slot] }
      var possible = true
      var positions = ways[offset + way]
      // Strike out the ways of the crossing lines that use this way's cells.
      while positions != 0 && possible {
        let cell = cells[start + positions.trailingZeroBitCount]
        positions &= positions &- 1
        for direction in 0..<4 {
          let crossing = crossings[cell * 4 + direction]
          guard crossing >= 0 else { continue }
          let slot = slotOfLine[crossing >> 8]
          guard slot >= 0, nowAssigned & (1 << UInt64(slot)) == 0 else { continue }
          alive[next + slot] &= ~containing[activeOffset[slot] * 16 + (crossing & 255)]
          if alive[next + slot] == 0 {
            possible = false
            break
          }
        }
      }
      if possible
        && solve(depth: depth + 1, assigned: nowAssigned, ways: ways, containing: containing)
      {
        return true
      }
      if budget < 0 { return false }
    }
    return false
  }
}
