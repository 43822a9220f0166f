import CGTK
public import GameCore
public import GameRules

/// A colour with components from 0 to 1.
nonisolated public struct RGBA: Equatable, Sendable {
  /// Red.
  public var red: Double
  /// Green.
  public var green: Double
  /// Blue.
  public var blue: Double
  /// Opacity.
  public var alpha: Double

  /// Creates a colour.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The same colour with its opacity multiplied by `factor`.
  func fading(_ factor: Double) -> RGBA {
    RGBA(red: red, green: green, blue: blue, alpha: alpha * factor)
  }
}

/// The theme's colours the board is drawn with.
nonisolated public struct BoardPalette: Equatable, Sendable {
  /// The board's surface.
  public var surface: RGBA
  /// Text and lines.
  public var foreground: RGBA
  /// X's marks.
  public var x: RGBA
  /// O's marks.
  public var o: RGBA
  /// Focus, the last move and the hint.
  public var accent: RGBA
  /// The winning cells and winning moves of the analysis.
  public var success: RGBA
  /// Losing moves of the analysis.
  public var failure: RGBA
  /// How strongly the grid lines show, from 0 to 1; high contrast shows them fully.
  public var lineStrength = 0.28

  /// GNOME's light colours, used where the theme names none.
  public static let light = BoardPalette(
    surface: RGBA(red: 1, green: 1, blue: 1),
    foreground: RGBA(red: 0, green: 0, blue: 0, alpha: 0.8),
    x: RGBA(red: 0.110, green: 0.443, blue: 0.847),
    o: RGBA(red: 0.753, green: 0.110, blue: 0.157),
    accent: RGBA(red: 0.110, green: 0.443, blue: 0.847),
    success: RGBA(red: 0.149, green: 0.635, blue: 0.412),
    failure: RGBA(red: 0.753, green: 0.110, blue: 0.157))
}

/// Everything the board shows at one moment: the core's cells plus hover, press, visible focus
/// and how far each new mark's placement has got.
nonisolated public struct BoardPicture: Equatable, Sendable {
  /// The core's cells, row by row.
  public var rows: [[CellPresentation]]
  /// The mark a person would place now, shown faintly under the pointer and on the hint.
  public var mover: Mark?
  /// Whether the computer is thinking.
  public var isThinking = false
  /// The cell under the pointer.
  public var hovered: Cell?
  /// The cell being pressed.
  public var pressed: Cell?
  /// The cell with visible keyboard focus.
  public var focused: Cell?
  /// How far the placement of a new mark has got, from 0 to 1; absent cells are complete.
  public var placement: [Cell: Double] = [:]

  /// Creates a picture.
  public init(rows: [[CellPresentation]], mover: Mark? = nil) {
    self.rows = rows
    self.mover = mover
  }

  var rowCount: Int { rows.count }
  var columnCount: Int { rows.first?.count ?? 0 }

  /// The two ends of the winning line, when its cells lie on one straight line.
  var winningEnds: (Cell, Cell)? {
    let cells = rows.joined().filter(\.isWinning).map(\.cell).sorted {
      ($0.row, $0.column) < ($1.row, $1.column)
    }
    guard let first = cells.first, let last = cells.last, cells.count > 1 else { return nil }
    let rowStep = (last.row - first.row).signum()
    let columnStep = (last.column - first.column).signum()
    for (index, cell) in cells.enumerated()
    where cell.row != first.row + index * rowStep
      || cell.column != first.column + index * columnStep
    {
      return nil
    }
    return (first, last)
  }
}

/// Where a board of `rows` × `columns` cells lies in a `width` × `height` area: square cells,
/// centred.
nonisolated public struct BoardGeometry: Equatable, Sendable {
  /// The side of a cell.
  public var cell: Double
  /// The left edge of the board.
  public var left: Double
  /// The top edge of the board.
  public var top: Double
  /// Rows.
  public var rows: Int
  /// Columns.
  public var columns: Int

  /// The geometry of a board in an area.
  public init(rows: Int, columns: Int, width: Double, height: Double) {
    self.rows = max(rows, 1)
    self.columns = max(columns, 1)
    cell = max(0, min(width / Double(self.columns), height / Double(self.rows)))
    left = (width - cell * Double(self.columns)) / 2
    top = (height - cell * Double(self.rows)) / 2
  }

  /// The centre of a cell.
  public func center(of cell: Cell) -> (x: Double, y: Double) {
    (left + (Double(cell.column) + 0.5) * self.cell, top + (Double(cell.row) + 0.5) * self.cell)
  }

  /// The cell at a point, if the point is on the board.
  public func cell(atX x: Double, y: Double) -> Cell? {
    guard cell > 0 else { return nil }
    let column = Int(((x - left) / cell).rounded(.down))
    let row = Int(((y - top) / cell).rounded(.down))
    guard (0..<rows).contains(row), (0..<columns).contains(column) else { return nil }
    return Cell(row: row, column: column)
  }
}

/// Draws a ``BoardPicture`` with cairo: the surface, the grid lines, the highlights, the marks,
/// the analysis and the winning line, all sized from the cell so they scale with the window.
nonisolated public enum BoardPainter {
  /// Paints `picture` on `context` (a `cairo_t`) over a `width` × `height` area.
  public static func paint(
    _ picture: BoardPicture, palette: BoardPalette, on context: OpaquePointer, width: Double,
    height: Double
  ) {
    let geometry = BoardGeometry(
      rows: picture.rowCount, columns: picture.columnCount, width: width, height: height)
    guard geometry.cell >= 2, picture.rowCount > 0 else { return }
    cairo_save(context)
    defer { cairo_restore(context) }
    paintSurface(geometry, palette, context)
    for cell in picture.rows.joined() {
      paintBackground(of: cell, picture, geometry, palette, context)
    }
    let lines = palette.lineStrength * (picture.isThinking ? 0.65 : 1)
    paintLines(geometry, palette.foreground.fading(lines), context)
    for cell in picture.rows.joined() {
      paintContent(of: cell, picture, geometry, palette, context)
    }
    if let (first, last) = picture.winningEnds {
      paintWinningLine(from: first, to: last, geometry, palette, context)
    }
    if let focused = picture.focused {
      let inset = geometry.cell * 0.07
      CairoDrawing.setColor(context, palette.accent)
      cairo_set_line_width(context, max(2, geometry.cell * 0.035))
      roundedRectangle(context, inset: inset, cell: focused, geometry)
      cairo_stroke(context)
    }
  }

  private static func paintSurface(
    _ geometry: BoardGeometry, _ palette: BoardPalette, _ context: OpaquePointer
  ) {
    CairoDrawing.setColor(context, palette.surface)
    let radius = min(12, geometry.cell * 0.12)
    CairoDrawing.addRoundedRectangle(
      context, x: geometry.left, y: geometry.top, width: geometry.cell * Double(geometry.columns),
      height: geometry.cell * Double(geometry.rows), radius: radius)
    cairo_fill(context)
  }

  /// The lines between cells; small boards leave a margin at the ends, as drawn on paper.
  private static func paintLines(
    _ geometry: BoardGeometry, _ color: RGBA, _ context: OpaquePointer
  ) {
    let cell = geometry.cell
    let isSmall = max(geometry.rows, geometry.columns) <= 5
    let margin = isSmall ? cell * 0.1 : 0
    let right = geometry.left + cell * Double(geometry.columns)
    let bottom = geometry.top + cell * Double(geometry.rows)
    CairoDrawing.setColor(context, color)
    cairo_set_line_width(context, max(1, cell * (isSmall ? 0.035 : 0.045)))
    cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
    for column in 1..<geometry.columns {
      let x = geometry.left + Double(column) * cell
      cairo_move_to(context, x, geometry.top + margin)
      cairo_line_to(context, x, bottom - margin)
    }
    for row in 1..<geometry.rows {
      let y = geometry.top + Double(row) * cell
      cairo_move_to(context, geometry.left + margin, y)
      cairo_line_to(context, right - margin, y)
    }
    cairo_stroke(context)
  }

  private static func paintBackground(
    of cell: CellPresentation, _ picture: BoardPicture, _ geometry: BoardGeometry,
    _ palette: BoardPalette, _ context: OpaquePointer
  ) {
    var tints: [RGBA] = []
    if cell.isWinning { tints.append(palette.success.fading(0.22)) }
    if cell.isLastMove && !cell.isWinning { tints.append(palette.accent.fading(0.14)) }
    if cell.isEnabled && picture.pressed == cell.cell {
      tints.append(palette.foreground.fading(0.14))
    } else if cell.isEnabled && picture.hovered == cell.cell {
      tints.append(palette.foreground.fading(0.06))
    }
    let inset = geometry.cell * 0.06
    for tint in tints {
      CairoDrawing.setColor(context, tint)
      roundedRectangle(context, inset: inset, cell: cell.cell, geometry)
      cairo_fill(context)
    }
  }

  private static func paintContent(
    of cell: CellPresentation, _ picture: BoardPicture, _ geometry: BoardGeometry,
    _ palette: BoardPalette, _ context: OpaquePointer
  ) {
    if let mark = Mark.allCases.first(where: { $0.symbol == cell.label }) {
      let progress = easeOut(picture.placement[cell.cell] ?? 1)
      paintMark(
        mark, in: cell.cell, progress: progress, color: color(of: mark, palette), geometry, context)
      return
    }
    if cell.isHint {
      let inset = geometry.cell * 0.12
      CairoDrawing.setColor(context, palette.accent)
      cairo_set_line_width(context, max(1.5, geometry.cell * 0.03))
      var dashes = [max(3, geometry.cell * 0.08), max(2, geometry.cell * 0.05)]
      cairo_set_dash(context, &dashes, 2, 0)
      roundedRectangle(context, inset: inset, cell: cell.cell, geometry)
      cairo_stroke(context)
      cairo_set_dash(context, nil, 0, 0)
    }
    if let text = cell.analysisCode {
      paintAnalysis(
        text: geometry.cell >= 96 ? cell.analysisText ?? text : text, code: text, in: cell.cell,
        geometry, palette, context)
    } else if let mover = picture.mover, cell.isEnabled,
      cell.isHint || picture.hovered == cell.cell || picture.focused == cell.cell
    {
      // The mark that a click or Enter would place, faintly.
      let strength = cell.isHint ? 0.45 : 0.22
      paintMark(
        mover, in: cell.cell, progress: 1, color: color(of: mover, palette).fading(strength),
        geometry, context)
    }
  }

  /// X as two strokes, O as a ring; `progress` below 1 draws them partly, as while placing.
  private static func paintMark(
    _ mark: Mark, in cell: Cell, progress: Double, color: RGBA, _ geometry: BoardGeometry,
    _ context: OpaquePointer
  ) {
    let (x, y) = geometry.center(of: cell)
    let size = geometry.cell
    CairoDrawing.setColor(context, color)
    cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
    cairo_set_line_width(context, max(2, size * 0.1))
    switch mark {
    case .x:
      let half = size * 0.25
      let first = min(1, progress * 2)
      let second = max(0, progress * 2 - 1)
      cairo_move_to(context, x - half, y - half)
      cairo_line_to(context, x - half + 2 * half * first, y - half + 2 * half * first)
      if second > 0 {
        cairo_move_to(context, x + half, y - half)
        cairo_line_to(context, x + half - 2 * half * second, y - half + 2 * half * second)
      }
    case .o:
      let start = -Double.pi / 2
      cairo_new_sub_path(context)
      cairo_arc(context, x, y, size * 0.26, start, start + 2 * Double.pi * max(progress, 0.001))
    }
    cairo_stroke(context)
  }

  private static func paintAnalysis(
    text: String, code: String, in cell: Cell, _ geometry: BoardGeometry,
    _ palette: BoardPalette, _ context: OpaquePointer
  ) {
    let color: RGBA =
      switch code.first {
      case "W": palette.success
      case "L": palette.failure
      default: palette.foreground.fading(0.75)
      }
    guard let layout = pango_cairo_create_layout(context) else { return }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    let font = pango_font_description_from_string("Sans Bold")
    defer { pango_font_description_free(font) }
    // A size from the cell, then smaller until the text fits inside it.
    var size = geometry.cell * (text.count > 3 ? 0.2 : 0.26)
    var width: Int32 = 0
    var height: Int32 = 0
    pango_layout_set_text(layout, text, -1)
    for _ in 0..<8 {
      pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
      pango_layout_set_font_description(layout, font)
      pango_layout_get_pixel_size(layout, &width, &height)
      let fit = min(
        geometry.cell * 0.7 / Double(max(width, 1)), geometry.cell * 0.5 / Double(max(height, 1)))
      guard fit < 1 else { break }
      size *= max(fit, 0.5)
    }
    let (x, y) = geometry.center(of: cell)
    CairoDrawing.setColor(context, color)
    cairo_move_to(context, x - Double(width) / 2, y - Double(height) / 2)
    pango_cairo_show_layout(context, layout)
  }

  private static func paintWinningLine(
    from first: Cell, to last: Cell, _ geometry: BoardGeometry, _ palette: BoardPalette,
    _ context: OpaquePointer
  ) {
    let start = geometry.center(of: first)
    let end = geometry.center(of: last)
    let length = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y))
      .squareRoot()
    guard length > 0 else { return }
    // Past the centres of the end cells, so the line reads as crossing them.
    let reach = geometry.cell * 0.32 / length
    let dx = (end.x - start.x) * reach
    let dy = (end.y - start.y) * reach
    CairoDrawing.setColor(context, palette.foreground)
    cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
    cairo_set_line_width(context, max(3, geometry.cell * 0.06))
    cairo_move_to(context, start.x - dx, start.y - dy)
    cairo_line_to(context, end.x + dx, end.y + dy)
    cairo_stroke(context)
  }

  // MARK: - Helpers

  private static func color(of mark: Mark, _ palette: BoardPalette) -> RGBA {
    mark == .x ? palette.x : palette.o
  }

  private static func easeOut(_ progress: Double) -> Double {
    let clamped = min(max(progress, 0), 1)
    return 1 - (1 - clamped) * (1 - clamped) * (1 - clamped)
  }

  private static func roundedRectangle(
    _ context: OpaquePointer, inset: Double, cell: Cell, _ geometry: BoardGeometry
  ) {
    let side = geometry.cell - 2 * inset
    CairoDrawing.addRoundedRectangle(
      context, x: geometry.left + Double(cell.column) * geometry.cell + inset,
      y: geometry.top + Double(cell.row) * geometry.cell + inset, width: side, height: side,
      radius: min(8, side * 0.15))
  }

}
