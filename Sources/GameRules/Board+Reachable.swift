extension Board {
  /// Every position reachable by play from this one, fewest moves first, each with one line of
  /// play that reaches it; this position comes first, with no moves.
  ///
  /// Each position is listed once, however many lines of play reach it: on 3×3, 5,478
  /// positions from the empty board.
  ///
  /// - Complexity: O(positions × cells); meant for small boards, whose positions fit in memory.
  public func reachablePositions() -> [(board: Board, moves: [Cell])] {
    var seen: Set<Board> = [self]
    var frontier: [(board: Board, moves: [Cell])] = [(self, [])]
    var all = frontier
    while !frontier.isEmpty {
      var next: [(board: Board, moves: [Cell])] = []
      for (board, moves) in frontier where board.outcome == .inProgress {
        for cell in board.emptyCells {
          guard let child = try? board.playing(at: cell), seen.insert(child).inserted else {
            continue
          }
          next.append((child, moves + [cell]))
        }
      }
      all += next
      frontier = next
    }
    return all
  }
}
