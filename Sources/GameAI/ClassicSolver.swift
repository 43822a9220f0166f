/// An exact search of 3×3 positions that needs nothing built beforehand: a depth-aware
/// alpha-beta over nine-bit boards, with a small table on the stack keyed by the least of the
/// eight images of the position.
///
/// It is what solving a 3×3 board from a cold start uses; analysis uses ``ClassicTable``,
/// which answers every position once built.
struct ClassicSolver {
  /// The eight lines, as nine-bit masks in reading order.
  private static let lines: InlineArray<8, UInt16> = [
    0b000_000_111, 0b000_111_000, 0b111_000_000, 0b001_001_001, 0b010_010_010, 0b100_100_100,
    0b100_010_001, 0b001_010_100,
  ]

  /// Results by position: `key << 14 | bound << 12 | (score + 2048)`, 0 for a free slot.
  private var table = InlineArray<512, UInt32>(repeating: 0)
  /// Positions searched.
  private(set) var nodes = 0

  private static let full: UInt16 = 0b111_111_111
  /// The centre, then the corners, then the edges: the usual order of strength.
  private static let order: InlineArray<9, Int> = [4, 0, 2, 6, 8, 1, 3, 5, 7]

  /// Whether `marks` hold a line through `cell`.
  @inline(__always)
  private static func completes(_ marks: UInt16, at cell: Int) -> Bool {
    for index in 0..<8 {
      let line = lines[index]
      if line & (1 << UInt16(cell)) != 0 && marks & line == line { return true }
    }
    return false
  }

  // MARK: - Symmetries

  @inline(__always)
  private static func mirrored(_ bits: UInt16) -> UInt16 {
    (bits & 0b001_001_001) << 2 | (bits & 0b100_100_100) >> 2 | bits & 0b010_010_010
  }

  @inline(__always)
  private static func transposed(_ bits: UInt16) -> UInt16 {
    // Cells 1 and 3, 2 and 6, 5 and 7 trade places; 0, 4 and 8 stay.
    var result = bits & 0b100_010_001
    result |= (bits & 0b000_000_010) << 2 | (bits & 0b000_001_000) >> 2
    result |= (bits & 0b000_000_100) << 4 | (bits & 0b001_000_000) >> 4
    result |= (bits & 0b000_100_000) << 2 | (bits & 0b010_000_000) >> 2
    return result
  }

  /// The least key over the eight images of the position.
  @inline(__always)
  static func key(_ mover: UInt16, _ other: UInt16) -> UInt32 {
    var best = UInt32.max
    var (a, b) = (mover, other)
    for step in 0..<8 {
      best = min(best, UInt32(a) << 9 | UInt32(b))
      // Alternating a mirror and a transposition walks through all eight symmetries.
      if step & 1 == 0 {
        (a, b) = (mirrored(a), mirrored(b))
      } else {
        (a, b) = (transposed(a), transposed(b))
      }
    }
    return best
  }

  // MARK: - Search

  /// The exact score (``Score``) for the side to move of a position with no line yet.
  mutating func score(mover: UInt16, other: UInt16) -> Int {
    search(mover, other, ply: 0, alpha: -Score.infinity, beta: Score.infinity)
  }

  /// The exact score for `mover` of playing `cell` (0 to 8 in reading order).
  mutating func score(of cell: Int, mover: UInt16, other: UInt16) -> Int {
    let after = mover | 1 << UInt16(cell)
    if ClassicSolver.completes(after, at: cell) { return Score.win(in: 1) }
    if after | other == ClassicSolver.full { return 0 }
    return Score.parent(of: score(mover: other, other: after))
  }

  private mutating func search(
    _ mover: UInt16, _ other: UInt16, ply: Int, alpha: Int, beta: Int
  ) -> Int {
    nodes += 1
    let empty = ClassicSolver.full & ~(mover | other)
    // A win in one ends the search at once.
    var rest = empty
    while rest != 0 {
      let cell = rest.trailingZeroBitCount
      rest &= rest &- 1
      if ClassicSolver.completes(mover | 1 << UInt16(cell), at: cell) {
        return Score.win(in: ply + 1)
      }
    }
    if empty.nonzeroBitCount == 1 { return 0 }
    let key = ClassicSolver.key(mover, other)
    let slot = Int(key & 511)
    let entry = table[slot]
    var alpha = alpha
    var beta = beta
    if entry != 0 && entry >> 14 == key {
      let score = Score.toRoot(Int(entry & 4095) - 2048, ply: ply)
      switch entry >> 12 & 3 {
      case 1: return score
      case 2: alpha = max(alpha, score)
      default: beta = min(beta, score)
      }
      if alpha >= beta { return score }
    }
    let originalAlpha = alpha
    var best = -Score.infinity
    // The centre, then the corners, then the edges.
    for index in 0..<9 {
      let cell = ClassicSolver.order[index]
      guard empty & (1 << UInt16(cell)) != 0 else { continue }
      let score = -search(
        other, mover | 1 << UInt16(cell), ply: ply + 1, alpha: -beta, beta: -alpha)
      if score > best {
        best = score
        if score > alpha {
          alpha = score
          if alpha >= beta { break }
        }
      }
    }
    let bound: UInt32 = best <= originalAlpha ? 3 : best >= beta ? 2 : 1
    table[slot] = key << 14 | bound << 12 | UInt32(Score.toNode(best, ply: ply) + 2048)
    return best
  }
}
