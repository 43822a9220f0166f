/// A set of cells of one board, one bit a cell in reading order.
///
/// The engine picks the narrowest type that holds the board: `UInt64` up to 64 cells, `UInt128`
/// up to 128 and ``Bits256`` up to the largest board, so small boards pay for one word only.
protocol BitBoard: Equatable, Sendable {
  /// The empty set.
  static var zero: Self { get }
  /// The set holding only `index`.
  init(bit index: Int)
  static func | (lhs: Self, rhs: Self) -> Self
  static func & (lhs: Self, rhs: Self) -> Self
  static func ^ (lhs: Self, rhs: Self) -> Self
  static prefix func ~ (value: Self) -> Self
  /// The number of cells in the set.
  var nonzeroBitCount: Int { get }
  /// The lowest cell in the set; meaningless for the empty set.
  var lowestIndex: Int { get }
  /// The set without its lowest cell.
  var withoutLowest: Self { get }
}

extension BitBoard {
  /// Whether the set holds no cell.
  var isZero: Bool { self == .zero }

  /// Whether the set holds `index`.
  func contains(_ index: Int) -> Bool { !(self & Self(bit: index)).isZero }

  /// The set with `index` added.
  func inserting(_ index: Int) -> Self { self | Self(bit: index) }

  /// The cells in the set, lowest first.
  var indices: [Int] {
    var result: [Int] = []
    var rest = self
    while !rest.isZero {
      result.append(rest.lowestIndex)
      rest = rest.withoutLowest
    }
    return result
  }

  /// The set of the first `count` cells.
  static func firstCells(_ count: Int) -> Self {
    var result = Self.zero
    for index in 0..<count { result = result.inserting(index) }
    return result
  }
}

extension BitBoard where Self: FixedWidthInteger {
  static var zero: Self { 0 }
  init(bit index: Int) { self = 1 << index }
  var lowestIndex: Int { trailingZeroBitCount }
  var withoutLowest: Self { self & (self &- 1) }
}

extension UInt64: BitBoard {}
extension UInt128: BitBoard {}

/// A 256-bit set for boards of more than 128 cells (up to 15×15).
struct Bits256: BitBoard {
  var words: (UInt64, UInt64, UInt64, UInt64)

  static let zero = Bits256(words: (0, 0, 0, 0))

  init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

  init(bit index: Int) {
    let bit = UInt64(1) << UInt64(index & 63)
    switch index >> 6 {
    case 0: words = (bit, 0, 0, 0)
    case 1: words = (0, bit, 0, 0)
    case 2: words = (0, 0, bit, 0)
    default: words = (0, 0, 0, bit)
    }
  }

  static func == (lhs: Bits256, rhs: Bits256) -> Bool {
    lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
      && lhs.words.3 == rhs.words.3
  }

  static func | (lhs: Bits256, rhs: Bits256) -> Bits256 {
    Bits256(
      words: (
        lhs.words.0 | rhs.words.0, lhs.words.1 | rhs.words.1, lhs.words.2 | rhs.words.2,
        lhs.words.3 | rhs.words.3
      ))
  }

  static func & (lhs: Bits256, rhs: Bits256) -> Bits256 {
    Bits256(
      words: (
        lhs.words.0 & rhs.words.0, lhs.words.1 & rhs.words.1, lhs.words.2 & rhs.words.2,
        lhs.words.3 & rhs.words.3
      ))
  }

  static func ^ (lhs: Bits256, rhs: Bits256) -> Bits256 {
    Bits256(
      words: (
        lhs.words.0 ^ rhs.words.0, lhs.words.1 ^ rhs.words.1, lhs.words.2 ^ rhs.words.2,
        lhs.words.3 ^ rhs.words.3
      ))
  }

  static prefix func ~ (value: Bits256) -> Bits256 {
    Bits256(words: (~value.words.0, ~value.words.1, ~value.words.2, ~value.words.3))
  }

  var nonzeroBitCount: Int {
    words.0.nonzeroBitCount + words.1.nonzeroBitCount + words.2.nonzeroBitCount
      + words.3.nonzeroBitCount
  }

  var lowestIndex: Int {
    if words.0 != 0 { return words.0.trailingZeroBitCount }
    if words.1 != 0 { return 64 + words.1.trailingZeroBitCount }
    if words.2 != 0 { return 128 + words.2.trailingZeroBitCount }
    return 192 + words.3.trailingZeroBitCount
  }

  var withoutLowest: Bits256 {
    var copy = self
    if copy.words.0 != 0 {
      copy.words.0 &= copy.words.0 &- 1
    } else if copy.words.1 != 0 {
      copy.words.1 &= copy.words.1 &- 1
    } else if copy.words.2 != 0 {
      copy.words.2 &= copy.words.2 &- 1
    } else {
      copy.words.3 &= copy.words.3 &- 1
    }
    return copy
  }
}

/// Work on one board, written once for every bit-board type.
protocol BitBoardWork {
  associatedtype Output
  /// Does the work with `B` as the bit-board type.
  func run<B: BitBoard>(on _: B.Type) -> Output
}

extension BitBoardWork {
  /// Does the work on the narrowest bit-board type that holds `cellCount` cells: the one
  /// place that picks a width.
  func run(cells cellCount: Int) -> Output {
    switch cellCount {
    case ...64: run(on: UInt64.self)
    case ...128: run(on: UInt128.self)
    default: run(on: Bits256.self)
    }
  }
}
