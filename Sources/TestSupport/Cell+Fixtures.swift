public import GameRules

extension Cell {
  /// The top-left cell of a 3×3 board.
  public static let a1 = Cell(row: 0, column: 0)
  /// The top-middle cell.
  public static let b1 = Cell(row: 0, column: 1)
  /// The top-right cell.
  public static let c1 = Cell(row: 0, column: 2)
  /// The middle-left cell.
  public static let a2 = Cell(row: 1, column: 0)
  /// The centre cell.
  public static let b2 = Cell(row: 1, column: 1)
  /// The middle-right cell.
  public static let c2 = Cell(row: 1, column: 2)
  /// The bottom-left cell.
  public static let a3 = Cell(row: 2, column: 0)
  /// The bottom-middle cell.
  public static let b3 = Cell(row: 2, column: 1)
  /// The bottom-right cell.
  public static let c3 = Cell(row: 2, column: 2)
}
