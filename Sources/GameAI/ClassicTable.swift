/// The exact score of every position of the classic 3×3 game, computed once.
///
/// The table is keyed by the side to move's marks and the other side's marks (nine bits each),
/// so it serves either side and either first mover. Building it walks the 5,478 reachable
/// positions once; every later answer is a lookup.
enum ClassicTable {
  static let geometry = Geometry<UInt64>(rows: 3, columns: 3, k: 3)

  /// Scores from the side to move's point of view, by `mover | other << 9`.
  static let scores: [UInt32: Int16] = {
    var scores: [UInt32: Int16] = [:]
    _ = score(mover: 0, other: 0, into: &scores)
    return scores
  }()

  private static func score(mover: UInt64, other: UInt64, into scores: inout [UInt32: Int16])
    -> Int
  {
    let key = UInt32(mover | other << 9)
    if let known = scores[key] { return Int(known) }
    let empty = geometry.full & ~(mover | other)
    var best = empty == 0 ? 0 : -Score.infinity
    var rest = empty
    while rest != 0 {
      let move = rest.trailingZeroBitCount
      rest &= rest &- 1
      let after = mover | 1 << UInt64(move)
      let value: Int
      if geometry.completesWindow(after, at: move) {
        value = Score.win(in: 1)
      } else if after | other == geometry.full {
        value = 0
      } else {
        value = Score.parent(of: score(mover: other, other: after, into: &scores))
      }
      best = max(best, value)
    }
    scores[key] = Int16(best)
    return best
  }

  /// The exact score for the side to move of an unfinished position.
  static func score(mover: UInt64, other: UInt64) -> Int {
    guard let score = scores[UInt32(mover | other << 9)] else {
      preconditionFailure("every 3×3 position reachable by play is in the table")
    }
    return Int(score)
  }

  /// The exact score for `mover` of playing `move`.
  static func score(of move: Int, mover: UInt64, other: UInt64) -> Int {
    let after = mover | 1 << UInt64(move)
    if geometry.completesWindow(after, at: move) { return Score.win(in: 1) }
    if after | other == geometry.full { return 0 }
    return Score.parent(of: score(mover: other, other: after))
  }
}
