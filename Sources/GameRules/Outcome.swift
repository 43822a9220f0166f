/// How a game stands: still going, won along a line, or drawn.
public enum Outcome: Hashable, Sendable {
  /// Moves remain and nobody has a line.
  case inProgress
  /// `mark` has `k` or more in a row; `line` lists that row's cells in order.
  case win(Mark, line: [Cell])
  /// The board is full and nobody has a line.
  case draw

  /// Whether the game has ended.
  public var isOver: Bool { self != .inProgress }

  /// The winner, if there is one.
  public var winner: Mark? {
    if case .win(let mark, _) = self { return mark }
    return nil
  }

  /// The winning line's cells, empty unless the game was won.
  public var winningLine: [Cell] {
    if case .win(_, let line) = self { return line }
    return []
  }
}
