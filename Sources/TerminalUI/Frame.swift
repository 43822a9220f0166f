public import GameRules

/// What a click on part of the screen means.
public enum HitTarget: Hashable, Sendable {
  /// A cell of the board.
  case cell(Cell)
  /// A button, which does what its key does.
  case key(Key)
  /// A field of a form, by its position.
  case field(Int)
}

/// A clickable stretch of one screen line.
public struct HitRegion: Hashable, Sendable {
  /// The screen row, from zero.
  public var row: Int
  /// The screen columns covered.
  public var columns: Range<Int>
  /// What a click there means.
  public var target: HitTarget

  /// Creates a region.
  public init(row: Int, columns: Range<Int>, target: HitTarget) {
    self.row = row
    self.columns = columns
    self.target = target
  }
}

/// A whole screen's worth of styled lines and the clickable regions on them.
public struct Frame: Hashable, Sendable {
  /// The lines from the top of the screen.
  public var lines: [StyledLine] = []
  /// The clickable regions, in screen coordinates.
  public var regions: [HitRegion] = []
  /// Whether the frame says the terminal is too small, so that keys other than quitting wait.
  public var isTooSmall = false

  /// Creates an empty frame.
  public init() {}

  /// Creates a frame of lines without clickable regions.
  public init(lines: [StyledLine]) { self.lines = lines }

  /// What a click at `row` and `column` hits, if anything.
  public func target(row: Int, column: Int) -> HitTarget? {
    regions.first { $0.row == row && $0.columns.contains(column) }?.target
  }

  /// The lines without styles, one per line: what the tests compare.
  public var text: String { lines.map(\.text).joined(separator: "\n") }

  /// The lines with escape sequences for `mode`, one per line.
  public func rendered(_ mode: ColorMode) -> String {
    lines.map { $0.rendered(mode) }.joined(separator: "\n")
  }

  /// Appends a line.
  mutating func append(_ line: StyledLine) { lines.append(line) }

  /// Appends a block of lines and its regions, shifted to start on the next line at `column`.
  mutating func append(_ block: Frame, indent column: Int) {
    let top = lines.count
    lines += block.lines.map { $0.indented(by: column) }
    regions += block.regions.map {
      HitRegion(
        row: $0.row + top,
        columns: ($0.columns.lowerBound + column)..<($0.columns.upperBound + column),
        target: $0.target)
    }
  }

  /// The widest line's width.
  var width: Int { lines.map(\.width).max() ?? 0 }

  /// The frame cut to a `width` × `height` screen.
  func clipped(width: Int, height: Int) -> Frame {
    var result = Frame()
    result.lines = lines.prefix(max(0, height)).map { $0.truncated(to: width) }
    result.regions = regions.filter { $0.row < height && $0.columns.lowerBound < width }
    return result
  }
}
