/// One of the two players' marks.
public enum Mark: String, Hashable, Sendable, CaseIterable {
  case x
  case o

  /// The other player's mark.
  public var opponent: Mark { self == .x ? .o : .x }

  /// The mark as players see it: `X` or `O`.
  public var symbol: String { self == .x ? "X" : "O" }
}
