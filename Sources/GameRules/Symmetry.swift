/// One of the eight ways to turn or flip a board onto itself.
///
/// A square board has all eight; a rectangular board only those that keep its shape
/// (``isShapePreserving(rows:columns:)``).
public enum Symmetry: CaseIterable, Sendable {
  case identity
  case rotate90
  case rotate180
  case rotate270
  case mirrorLeftRight
  case mirrorTopBottom
  case transpose
  case antiTranspose

  /// Whether this symmetry maps a rows × columns board onto itself.
  public func isShapePreserving(rows: Int, columns: Int) -> Bool {
    switch self {
    case .identity, .rotate180, .mirrorLeftRight, .mirrorTopBottom: true
    case .rotate90, .rotate270, .transpose, .antiTranspose: rows == columns
    }
  }

  /// The symmetries of a rows × columns board.
  public static func of(rows: Int, columns: Int) -> [Symmetry] {
    allCases.filter { $0.isShapePreserving(rows: rows, columns: columns) }
  }

  /// Where `cell` goes on a rows × columns board.
  public func apply(to cell: Cell, rows: Int, columns: Int) -> Cell {
    let (r, c) = (cell.row, cell.column)
    let (lastRow, lastColumn) = (rows - 1, columns - 1)
    return switch self {
    case .identity: cell
    case .rotate90: Cell(row: c, column: lastRow - r)
    case .rotate180: Cell(row: lastRow - r, column: lastColumn - c)
    case .rotate270: Cell(row: lastColumn - c, column: r)
    case .mirrorLeftRight: Cell(row: r, column: lastColumn - c)
    case .mirrorTopBottom: Cell(row: lastRow - r, column: c)
    case .transpose: Cell(row: c, column: r)
    case .antiTranspose: Cell(row: lastColumn - c, column: lastRow - r)
    }
  }
}
