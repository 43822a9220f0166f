public import GameRules

/// What to mark on a board besides its marks.
public struct BoardDecorations: Hashable, Sendable {
  /// The cursor's cell, or `nil` to hide it (while the computer thinks, after the game).
  public var cursor: Cell?
  /// The most recent move.
  public var lastMove: Cell?
  /// The cell a hint suggests.
  public var hint: Cell?

  /// Creates decorations.
  public init(cursor: Cell? = nil, lastMove: Cell? = nil, hint: Cell? = nil) {
    self.cursor = cursor
    self.lastMove = lastMove
    self.hint = hint
  }
}

/// How the board is drawn: with lines between all cells, or compact for large boards.
public enum BoardLayout: Hashable, Sendable, CaseIterable {
  /// Box lines around every cell; two screen lines per row.
  case grid
  /// A frame around the board and dots for empty cells; one screen line per row.
  case compact

  /// The columns a board of `columns` columns and `rows` rows takes in this layout.
  public func width(rows: Int, columns: Int) -> Int {
    let label = String(rows).count + 1
    return switch self {
    case .grid: label + 4 * columns + 1
    case .compact: label + 3 * columns + 2
    }
  }

  /// The lines a board of `rows` rows takes in this layout, with its column letters.
  public func height(rows: Int) -> Int {
    switch self {
    case .grid: 2 * rows + 2
    case .compact: rows + 3
    }
  }
}

/// Draws a board as lines of styled text with its cells clickable.
///
/// Every decoration is visible without colour: the cursor as `[X]`, the last move as `(X)`,
/// the winning line as `<X>` and a hint as `+`. Colour adds to that, never replaces it.
public enum BoardRenderer {
  /// The styles of the board's parts.
  enum Styles {
    static let x = TextStyle(foreground: .cyan, isBold: true)
    static let o = TextStyle(foreground: .yellow, isBold: true)
    static let grid = TextStyle.dim
    static let label = TextStyle.dim
    static let hint = TextStyle(foreground: .green, isBold: true)
    static let winning = TextStyle(foreground: .black, background: .green, isBold: true)
  }

  /// Draws `board` in `layout`.
  ///
  /// - Returns: The lines, starting with the column letters, and a region per cell, in
  ///   coordinates relative to the first line and column.
  public static func render(
    _ board: Board, decorations: BoardDecorations = BoardDecorations(), layout: BoardLayout
  ) -> Frame {
    let labelWidth = String(board.rows).count
    let left = labelWidth + 1
    var frame = Frame()

    var header = StyledLine(String(repeating: " ", count: left + 1))
    for column in 0..<board.columns {
      let letter = Cell(row: 0, column: column).name.prefix(1)
      header.append(layout == .grid ? " \(letter)  " : " \(letter) ", Styles.label)
    }
    frame.append(StyledLine(header.text.trimmingTrailingWhitespace(), Styles.label))

    let margin = String(repeating: " ", count: left)
    frame.append(horizontal(margin, board, layout, "┌", "┬", "┐"))
    for row in 0..<board.rows {
      let label = String(row + 1)
      var line = StyledLine(String(repeating: " ", count: labelWidth - label.count))
      line.append(label + " ", Styles.label)
      line.append("│", Styles.grid)
      for column in 0..<board.columns {
        let cell = Cell(row: row, column: column)
        frame.regions.append(
          HitRegion(
            row: frame.lines.count, columns: (line.width)..<(line.width + 3), target: .cell(cell)))
        line.append(cellText(board, cell, decorations, layout))
        if layout == .grid || column == board.columns - 1 { line.append("│", Styles.grid) }
      }
      frame.append(line)
      if layout == .grid, row < board.rows - 1 {
        frame.append(horizontal(margin, board, layout, "├", "┼", "┤"))
      }
    }
    frame.append(horizontal(margin, board, layout, "└", "┴", "┘"))
    return frame
  }

  private static func horizontal(
    _ margin: String, _ board: Board, _ layout: BoardLayout, _ start: String, _ middle: String,
    _ end: String
  ) -> StyledLine {
    let body =
      switch layout {
      case .grid:
        Array(repeating: "───", count: board.columns).joined(separator: middle)
      case .compact:
        String(repeating: "─", count: 3 * board.columns)
      }
    var line = StyledLine(margin)
    line.append(start + body + end, Styles.grid)
    return line
  }

  /// The three characters of one cell with their style.
  static func cellText(
    _ board: Board, _ cell: Cell, _ decorations: BoardDecorations, _ layout: BoardLayout
  ) -> StyledLine {
    let mark = board[cell]
    let isWinning = board.outcome.winningLine.contains(cell)
    var symbol = mark?.symbol ?? (layout == .grid ? " " : "·")
    var style: TextStyle =
      switch mark {
      case .x: Styles.x
      case .o: Styles.o
      case nil: Styles.grid
      }
    if mark == nil, decorations.hint == cell {
      symbol = "+"
      style = Styles.hint
    }
    var (open, close) = (" ", " ")
    if decorations.cursor == cell {
      (open, close) = ("[", "]")
      style.isReversed = true
      style.isDim = false
    } else if isWinning {
      (open, close) = ("<", ">")
      style = Styles.winning
    } else if decorations.lastMove == cell {
      (open, close) = ("(", ")")
      style.isUnderlined = true
    }
    return StyledLine(open + symbol + close, style)
  }
}
