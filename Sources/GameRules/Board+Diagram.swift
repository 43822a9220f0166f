extension Board {
  /// The board as plain text: the column letters, then one line a row with its number and
  /// `X`, `O` or `.` for each cell.
  ///
  /// ```
  ///    a b c
  ///  1 X . O
  ///  2 . X .
  ///  3 . . O
  /// ```
  ///
  /// Plain mode, replays and the command line's analysis all print this one diagram.
  public var diagram: String {
    let labelWidth = String(rows).count
    let letters = (0..<columns).map { Cell(row: 0, column: $0).name.prefix(1) }
    var lines = [String(repeating: " ", count: labelWidth + 1) + letters.joined(separator: " ")]
    for row in 0..<rows {
      let label = String(row + 1)
      let marks = (0..<columns).map { self[row, $0]?.symbol ?? "." }
      lines.append(
        String(repeating: " ", count: labelWidth - label.count) + label + " "
          + marks.joined(separator: " "))
    }
    return lines.joined(separator: "\n")
  }
}
