/// A fixed-size hash table of search results keyed by a position's two bitboards.
///
/// Each slot keeps the full key, so a hit is never a different position; a new result simply
/// replaces the old one in its slot. A slot fits in 24 bytes, so a probe touches one cache
/// line; the slots live in a ``SlotBuffer``.
///
/// A table is not synchronised: one search uses it at a time. It is `Sendable` so that a
/// ``TableCache`` can hand it from one search to the next, lending it to one at a time.
final class TranspositionTable: @unchecked Sendable {
  enum Bound: UInt8 {
    case exact = 1
    case lower = 2
    case upper = 3

    /// What a search's `best` score is, given the window `originalAlpha`…`beta` it was
    /// searched with: at most (`upper`), at least (`lower`) or exactly the node's score.
    @inline(__always)
    init(best: Int, originalAlpha: Int, beta: Int) {
      self = best <= originalAlpha ? .upper : best >= beta ? .lower : .exact
    }
  }

  struct Entry {
    /// The score to return at once for a node searched with the window `alpha`…`beta`, `ply`
    /// plies below the root, when this entry settles it: an exact score, or a bound that
    /// falls outside the window.
    @inline(__always)
    func cutoff(alpha: Int, beta: Int, ply: Int) -> Int? {
      let score = Score.toRoot(self.score, ply: ply)
      switch bound {
      case .exact: return score
      case .lower where score >= beta: return score
      case .upper where score <= alpha: return score
      default: return nil
      }
    }

    /// Score measured from the stored position.
    var score: Int
    var bound: Bound
    /// Best move found, in the stored position's frame, or -1.
    var move: Int
    /// Remaining depth searched; `Int(UInt8.max)` for a search to the end of the game.
    var depth: Int
  }

  private struct Slot {
    var mover: UInt64
    var other: UInt64
    var score: Int16
    /// 0 marks a free slot.
    var bound: UInt8
    var move: UInt8
    var depth: UInt8
  }

  private let slots: SlotBuffer<Slot>
  /// The table holds `2^bits` slots.
  var bits: Int { slots.bits }

  init(bits: Int) {
    slots = SlotBuffer(
      bits: bits, empty: Slot(mover: 0, other: 0, score: 0, bound: 0, move: 0, depth: 0))
  }

  private func slot(_ mover: UInt64, _ other: UInt64) -> Int {
    let hash = (mover &* 0x9E37_79B9_7F4A_7C15) ^ (other &* 0xC2B2_AE3D_27D4_EB4F)
    return Int(truncatingIfNeeded: hash ^ (hash >> 29)) & slots.mask
  }

  func probe(_ mover: UInt64, _ other: UInt64) -> Entry? {
    let slot = slots[slot(mover, other)]
    guard slot.mover == mover, slot.other == other, let bound = Bound(rawValue: slot.bound)
    else { return nil }
    return Entry(
      score: Int(slot.score), bound: bound, move: Int(slot.move) - 1, depth: Int(slot.depth))
  }

  func store(_ mover: UInt64, _ other: UInt64, _ entry: Entry) {
    slots[slot(mover, other)] = Slot(
      mover: mover, other: other, score: Int16(clamping: entry.score),
      bound: entry.bound.rawValue, move: UInt8(truncatingIfNeeded: entry.move + 1),
      depth: UInt8(clamping: entry.depth))
  }
}
