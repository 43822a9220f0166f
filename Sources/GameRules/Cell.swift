/// A square of the board, named like a spreadsheet cell: column letter, then row number.
///
/// Rows and columns count from zero here; names count rows from one, so `a1` is the top-left
/// cell (row 0, column 0) and `c3` the bottom-right cell of a 3×3 board.
public struct Cell: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The row, counted from zero at the top.
  public var row: Int
  /// The column, counted from zero at the left.
  public var column: Int

  /// Creates a cell from zero-based coordinates.
  public init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }

  /// Parses a cell name such as `b2` or `B2` (letters `a`…`o`, rows 1…15).
  ///
  /// Returns `nil` when the text is not a cell name; bounds are the board's business.
  public init?(name: some StringProtocol) {
    let characters = Array(name.lowercased())
    guard characters.count >= 2, characters.count <= 3,
      let letter = characters.first?.asciiValue, letter >= 97, letter < 97 + 26,
      let number = Int(String(characters.dropFirst())), number >= 1,
      characters[1] != "0"
    else { return nil }
    self.init(row: number - 1, column: Int(letter) - 97)
  }

  /// The cell's name, such as `b2`.
  public var name: String {
    guard column >= 0, column < 26, row >= 0, row < Int.max else { return "(\(row), \(column))" }
    let letter = Character(Unicode.Scalar(UInt8(97 + column)))
    return "\(letter)\(row + 1)"
  }

  public var description: String { name }

  public static func < (lhs: Cell, rhs: Cell) -> Bool {
    (lhs.row, lhs.column) < (rhs.row, rhs.column)
  }
}

extension Cell {
  /// The cell a digit 1 to 9 names on a 3×3 board, in reading order (1 is a1, 5 b2, 9 c3);
  /// `nil` for another digit or another board.
  public init?(digit: Int, on board: Board) {
    guard board.rows == 3, board.columns == 3, (1...9).contains(digit) else { return nil }
    self.init(row: (digit - 1) / 3, column: (digit - 1) % 3)
  }
}
