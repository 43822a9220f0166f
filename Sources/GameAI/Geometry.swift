import GameRules

/// The lines of one board shape: every run of `k` cells (a window) and which windows pass
/// through each cell.
struct Geometry<B: BitBoard>: Sendable {
  let rows: Int
  let columns: Int
  let k: Int
  let cellCount: Int
  /// Every cell of the board.
  let full: B
  /// Every run of `k` cells along a row, a column or a diagonal.
  let windows: [B]
  /// `windowIndices[windowStart[cell]..<windowStart[cell + 1]]` are the windows through `cell`.
  let windowStart: [Int]
  let windowIndices: [Int]

  init(rows: Int, columns: Int, k: Int) {
    self.rows = rows
    self.columns = columns
    self.k = k
    cellCount = rows * columns
    full = B.firstCells(rows * columns)
    var windows: [B] = []
    var through = Array(repeating: [Int](), count: rows * columns)
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
      for row in 0..<rows {
        for column in 0..<columns {
          let endRow = row + dr * (k - 1)
          let endColumn = column + dc * (k - 1)
          guard endRow < rows, endColumn >= 0, endColumn < columns else { continue }
          var window = B.zero
          for step in 0..<k {
            let cell = (row + dr * step) * columns + column + dc * step
            window = window.inserting(cell)
            through[cell].append(windows.count)
          }
          windows.append(window)
        }
      }
    }
    self.windows = windows
    var start = [0]
    var indices: [Int] = []
    for list in through {
      indices += list
      start.append(indices.count)
    }
    windowStart = start
    windowIndices = indices
  }

  init(_ board: Board) { self.init(rows: board.rows, columns: board.columns, k: board.k) }

  /// Whether `marks`, which include `cell`, hold a full window through `cell`.
  func completesWindow(_ marks: B, at cell: Int) -> Bool {
    for slot in windowStart[cell]..<windowStart[cell + 1] {
      let window = windows[windowIndices[slot]]
      if window & marks == window { return true }
    }
    return false
  }

  /// Whether `marks` hold any full window.
  func hasWindow(_ marks: B) -> Bool {
    windows.contains { $0 & marks == $0 }
  }

  /// The empty cells where `own` would complete a window not blocked by `other`.
  func threats(of own: B, against other: B) -> B {
    var result = B.zero
    for window in windows where (window & other).isZero {
      let owned = window & own
      if owned.nonzeroBitCount == k - 1 { result = result | (window ^ owned) }
    }
    return result
  }

  /// The bit index of `cell`.
  func index(of cell: Cell) -> Int { cell.row * columns + cell.column }

  /// The cell of bit `index`.
  func cell(at index: Int) -> Cell { Cell(row: index / columns, column: index % columns) }

  /// The marks of the side to move and of the other side.
  func position(of board: Board) -> (mover: B, other: B) {
    var mover = B.zero
    var other = B.zero
    let side = board.toMove
    for row in 0..<rows {
      for column in 0..<columns {
        guard let mark = board[row, column] else { continue }
        let bit = row * columns + column
        if mark == side { mover = mover.inserting(bit) } else { other = other.inserting(bit) }
      }
    }
    return (mover, other)
  }
}

/// The symmetries of one board shape as permutations of 64-bit boards, applied a byte at a time
/// through lookup tables.
struct SymmetryTables: Sendable {
  /// `permutations[s][cell]` is where symmetry `s` sends `cell`.
  let permutations: [[Int]]
  /// `inverses[s][cell]` is the cell that symmetry `s` sends to `cell`.
  let inverses: [[Int]]
  private let byteCount: Int
  /// `tables[(s * byteCount + byte) * 256 + value]` is the image of `value` in byte `byte`.
  private let tables: [UInt64]

  init(rows: Int, columns: Int) {
    let cellCount = rows * columns
    precondition(cellCount <= 64, "symmetry tables need a 64-bit board")
    let symmetries = Symmetry.of(rows: rows, columns: columns)
    var permutations: [[Int]] = []
    var inverses: [[Int]] = []
    for symmetry in symmetries {
      var permutation = Array(repeating: 0, count: cellCount)
      var inverse = Array(repeating: 0, count: cellCount)
      for index in 0..<cellCount {
        let cell = Cell(row: index / columns, column: index % columns)
        let image = symmetry.apply(to: cell, rows: rows, columns: columns)
        let target = image.row * columns + image.column
        permutation[index] = target
        inverse[target] = index
      }
      permutations.append(permutation)
      inverses.append(inverse)
    }
    let byteCount = (cellCount + 7) / 8
    var tables = Array(repeating: UInt64(0), count: symmetries.count * byteCount * 256)
    for (symmetry, permutation) in permutations.enumerated() {
      for byte in 0..<byteCount {
        for value in 0..<256 {
          var image: UInt64 = 0
          for bit in 0..<8 where value & (1 << bit) != 0 {
            let index = byte * 8 + bit
            if index < cellCount { image |= 1 << UInt64(permutation[index]) }
          }
          tables[(symmetry * byteCount + byte) * 256 + value] = image
        }
      }
    }
    self.permutations = permutations
    self.inverses = inverses
    self.byteCount = byteCount
    self.tables = tables
  }

  /// The number of symmetries.
  var count: Int { permutations.count }

  /// The image of `bits` under symmetry `symmetry`.
  func apply(_ symmetry: Int, to bits: UInt64) -> UInt64 {
    var result: UInt64 = 0
    var rest = bits
    var base = symmetry * byteCount * 256
    while rest != 0 {
      result |= tables[base + Int(rest & 0xff)]
      rest >>= 8
      base += 256
    }
    return result
  }

  /// The least image of the pair under all symmetries and the symmetry that gives it.
  func canonical(_ mover: UInt64, _ other: UInt64) -> (mover: UInt64, other: UInt64, symmetry: Int)
  {
    var best = (mover: mover, other: other, symmetry: 0)
    for symmetry in 1..<count {
      let image = apply(symmetry, to: mover)
      guard image <= best.mover else { continue }
      let otherImage = apply(symmetry, to: other)
      if image < best.mover || otherImage < best.other {
        best = (image, otherImage, symmetry)
      }
    }
    return best
  }
}
