import GameRules

/// Every position reachable from `start`, found breadth first by playing legal moves.
func reachablePositions(from start: Board = .classic) -> [Board] {
  var seen: Set<Board> = [start]
  var frontier = [start]
  var all = [start]
  while !frontier.isEmpty {
    var next: [Board] = []
    for board in frontier where !board.outcome.isOver {
      for cell in board.emptyCells {
        guard let child = try? board.playing(at: cell) else { continue }
        if seen.insert(child).inserted {
          next.append(child)
          all.append(child)
        }
      }
    }
    frontier = next
  }
  return all
}
