/// A fixed-size hash table of search results keyed by a position's two bitboards.
///
/// Each slot keeps the full key, so a hit is never a different position; a new result simply
/// replaces the old one in its slot.
struct TranspositionTable {
  enum Bound: UInt32 {
    case exact = 1
    case lower = 2
    case upper = 3
  }

  struct Entry {
    /// Score measured from the stored position.
    var score: Int
    var bound: Bound
    /// Best move found, in the stored position's frame, or -1.
    var move: Int
    /// Remaining depth searched; `Int(UInt8.max)` for a search to the end of the game.
    var depth: Int
  }

  private var movers: [UInt64]
  private var others: [UInt64]
  /// Score (16 bits), bound (2 bits) and move + 1 (8 bits) packed together; 0 marks a free slot.
  private var data: [UInt32]
  private var depths: [UInt8]
  private let mask: Int

  init(bits: Int) {
    let size = 1 << bits
    movers = Array(repeating: 0, count: size)
    others = Array(repeating: 0, count: size)
    data = Array(repeating: 0, count: size)
    depths = Array(repeating: 0, count: size)
    mask = size - 1
  }

  private func slot(_ mover: UInt64, _ other: UInt64) -> Int {
    let hash = (mover &* 0x9E37_79B9_7F4A_7C15) ^ (other &* 0xC2B2_AE3D_27D4_EB4F)
    return Int(truncatingIfNeeded: (hash ^ (hash >> 29)) & UInt64(mask))
  }

  func probe(_ mover: UInt64, _ other: UInt64) -> Entry? {
    let index = slot(mover, other)
    let word = data[index]
    guard word != 0, movers[index] == mover, others[index] == other,
      let bound = Bound(rawValue: (word >> 16) & 3)
    else { return nil }
    return Entry(
      score: Int(Int16(truncatingIfNeeded: word & 0xffff)), bound: bound,
      move: Int((word >> 18) & 0xff) - 1, depth: Int(depths[index]))
  }

  mutating func store(_ mover: UInt64, _ other: UInt64, _ entry: Entry) {
    let index = slot(mover, other)
    movers[index] = mover
    others[index] = other
    data[index] =
      UInt32(UInt16(truncatingIfNeeded: entry.score)) | entry.bound.rawValue << 16
      | UInt32(entry.move + 1) << 18
    depths[index] = UInt8(clamping: entry.depth)
  }
}
