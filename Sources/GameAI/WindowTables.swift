/// The windows of a board of up to 64 cells in the buffers that the proof searches read at
/// every position, and the pass over them that each position begins with.
final class WindowTables {
  let k: Int
  let windows: UnsafeMutablePointer<UInt64>
  let windowCount: Int
  /// The windows through each cell: `slots[starts[cell]..<starts[cell + 1]]`.
  let starts: UnsafeMutablePointer<Int>
  let slots: UnsafeMutablePointer<Int>
  /// `weights[e]`: an open window's share of the Erdős–Selfridge potential with `e` empty
  /// cells left, scaled so that a full window weighs `1 << k`.
  let weights: UnsafeMutablePointer<Int>

  init(_ geometry: Geometry<UInt64>) {
    k = geometry.k
    windowCount = geometry.windows.count
    windows = .allocate(capacity: max(1, windowCount))
    windows.initialize(from: geometry.windows, count: windowCount)
    starts = .allocate(capacity: geometry.windowStart.count)
    starts.initialize(from: geometry.windowStart, count: geometry.windowStart.count)
    slots = .allocate(capacity: max(1, geometry.windowIndices.count))
    slots.initialize(from: geometry.windowIndices, count: geometry.windowIndices.count)
    weights = .allocate(capacity: k + 1)
    for empty in 0...k { weights[empty] = 1 << (k - empty) }
  }

  deinit {
    windows.deallocate()
    starts.deallocate()
    slots.deallocate()
    weights.deallocate()
  }

  /// What one pass over the windows finds.
  struct Scan {
    /// Cells where the attacker would complete a line.
    var attackerFours: UInt64 = 0
    /// Cells where the defender would complete a line (when the defender's lines count).
    var defenderFours: UInt64 = 0
    /// Empty cells of the attacker's open windows.
    var attackerCells: UInt64 = 0
    /// Empty cells of the defender's open windows (when the defender's lines count).
    var defenderCells: UInt64 = 0
    /// The Erdős–Selfridge potential of the attacker's open windows.
    var potential = 0
  }

  /// One pass over the windows; with `defenderLines`, the defender's open windows are read
  /// too (the real game, where the defender can also complete a line).
  @inline(__always)
  func scan(_ attacker: UInt64, _ defender: UInt64, defenderLines: Bool) -> Scan {
    var result = Scan()
    let need = k - 1
    for index in 0..<windowCount {
      let window = windows[index]
      let theirs = window & defender
      let own = window & attacker
      if theirs == 0 {
        let count = own.nonzeroBitCount
        if count == need { result.attackerFours |= window ^ own }
        result.attackerCells |= window
        result.potential += weights[k - count]
      } else if defenderLines && own == 0 {
        if theirs.nonzeroBitCount == need { result.defenderFours |= window ^ theirs }
        result.defenderCells |= window
      }
    }
    let empty = ~(attacker | defender)
    result.attackerCells &= empty
    result.defenderCells &= empty
    return result
  }

  /// The cells of `cells` by how much they weigh in the attacker's open windows and, with
  /// `defenderLines`, the defender's, heaviest first.
  @inline(__always)
  func ordered(_ cells: UInt64, _ attacker: UInt64, _ defender: UInt64, defenderLines: Bool)
    -> MoveList
  {
    var list = MoveList()
    var rest = cells
    while rest != 0 {
      let cell = rest.trailingZeroBitCount
      rest &= rest &- 1
      var value = 0
      for slot in starts[cell]..<starts[cell + 1] {
        let window = windows[slots[slot]]
        if window & defender == 0 {
          value += weights[k - (window & attacker).nonzeroBitCount]
        } else if defenderLines && window & attacker == 0 {
          value += weights[k - (window & defender).nonzeroBitCount]
        }
      }
      list.insert(cell, value: value)
    }
    return list
  }
}
