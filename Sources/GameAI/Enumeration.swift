public import GameRules

/// How many positions and games a board allows, counted by walking every line of play.
public struct PositionCounts: Equatable, Sendable {
  /// Distinct positions reachable by play, the starting one included.
  public var positions: Int
  /// Distinct reachable positions, counting positions that are images of each other under the
  /// board's symmetries once.
  public var positionsUpToSymmetry: Int
  /// Reachable positions where the game is over.
  public var terminalPositions: Int
  /// Finished positions won by X.
  public var xWinPositions: Int
  /// Finished positions won by O.
  public var oWinPositions: Int
  /// Finished positions that are drawn.
  public var drawPositions: Int
  /// Complete games: sequences of moves from the start to a finished position.
  public var games: Int
  /// Complete games won by X.
  public var xWinGames: Int
  /// Complete games won by O.
  public var oWinGames: Int
  /// Complete games that end drawn.
  public var drawGames: Int
  /// `positionsByMarks[n]` is the number of reachable positions with `n` marks on the board.
  public var positionsByMarks: [Int]
}

/// Why a board cannot be enumerated.
public enum EnumerationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The board has more cells than ``Enumeration/maximumCells``.
  case tooLarge(rows: Int, columns: Int)

  public var description: String {
    switch self {
    case .tooLarge(let rows, let columns):
      "A \(rows)×\(columns) board is too large to count; counting works on boards of up to \(Enumeration.maximumCells) cells."
    }
  }
}

/// Counts every position and game reachable from a board.
public enum Enumeration {
  /// The most cells a board may have to be counted.
  public static let maximumCells = 16

  /// Counts the positions and games reachable from `start` (usually an empty board).
  ///
  /// - Throws: ``EnumerationError/tooLarge(rows:columns:)`` for boards of more than
  ///   ``maximumCells`` cells.
  /// - Complexity: proportional to the number of reachable positions times the number of cells.
  public static func count(_ start: Board) throws(EnumerationError) -> PositionCounts {
    guard start.cellCount <= maximumCells else {
      throw .tooLarge(rows: start.rows, columns: start.columns)
    }
    let geometry = Geometry<UInt64>(start)
    let symmetries = SymmetryTables(rows: start.rows, columns: start.columns)
    var x: UInt64 = 0
    var o: UInt64 = 0
    for cell in start.cells {
      switch start[cell] {
      case .x: x |= 1 << UInt64(geometry.index(of: cell))
      case .o: o |= 1 << UInt64(geometry.index(of: cell))
      case nil: break
      }
    }
    var counts = PositionCounts(
      positions: 0, positionsUpToSymmetry: 0, terminalPositions: 0, xWinPositions: 0,
      oWinPositions: 0, drawPositions: 0, games: 0, xWinGames: 0, oWinGames: 0, drawGames: 0,
      positionsByMarks: Array(repeating: 0, count: start.cellCount + 1))
    // Positions with the same number of marks form a layer; each maps to how many move
    // sequences reach it. Keys pack X's marks in the low half and O's in the high half.
    var layer: [UInt32: Int] = [UInt32(x | o << 16): 1]
    var marks = start.markCount
    var xToMove = start.toMove == .x
    while !layer.isEmpty {
      var next: [UInt32: Int] = [:]
      var canonical = Set<UInt32>()
      for (key, paths) in layer {
        let x = UInt64(key & 0xffff)
        let o = UInt64(key >> 16)
        counts.positions += 1
        counts.positionsByMarks[marks] += 1
        let least = symmetries.canonical(x, o)
        canonical.insert(UInt32(least.mover | least.other << 16))
        let xWins = geometry.hasWindow(x)
        let oWins = geometry.hasWindow(o)
        let empty = geometry.full & ~(x | o)
        guard !xWins, !oWins, empty != 0 else {
          counts.terminalPositions += 1
          counts.games += paths
          if xWins {
            counts.xWinPositions += 1
            counts.xWinGames += paths
          } else if oWins {
            counts.oWinPositions += 1
            counts.oWinGames += paths
          } else {
            counts.drawPositions += 1
            counts.drawGames += paths
          }
          continue
        }
        var rest = empty
        while rest != 0 {
          let bit = rest & (0 &- rest)
          rest &= rest &- 1
          let child = xToMove ? (x | bit) | o << 16 : x | (o | bit) << 16
          next[UInt32(child), default: 0] += paths
        }
      }
      counts.positionsUpToSymmetry += canonical.count
      layer = next
      marks += 1
      xToMove.toggle()
    }
    return counts
  }
}
