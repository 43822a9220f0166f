import GameProtocol
import GameRules

/// What the server sends is checked against the rules before it is shown: a server that sends
/// a game, a move or an ending that cannot be is not followed, and its fault is said.
extension OnlineGame.State {
  /// Why `snapshot` cannot be a game, in one sentence, or `nil` when it can.
  func violation(in snapshot: GameSnapshot) -> String? {
    // The code typed may differ in case, spaces and hyphens from the one the server keeps.
    if let code, InviteCode.normalized(snapshot.code) != InviteCode.normalized(code) {
      return "The server at \(server) sent game \(snapshot.code.quotable) when game "
        + "\(code.quotable) was asked for."
    }
    let start: Board
    do {
      start = try Board(
        rows: snapshot.rows, columns: snapshot.columns, k: snapshot.k,
        firstMover: snapshot.firstMover)
    } catch {
      return "The server at \(server) sent a game on a board that cannot be "
        + "(\(snapshot.rows)×\(snapshot.columns), \(snapshot.k) in a row)."
    }
    let game: Game
    do {
      game = try Game(start: start, moves: snapshot.moves)
    } catch {
      return "The server at \(server) sent a game whose moves cannot be played: "
        + "\(Self.fault(error))."
    }
    switch snapshot.status {
    case .waiting, .playing:
      guard !game.board.outcome.isOver else {
        return "The server at \(server) sent a game that goes on after its end on the board."
      }
    case .finished(let end):
      if let violation = violation(ending: end, on: game.board) { return violation }
    }
    return nil
  }

  /// Why move number `ply` at `cell` cannot follow the moves seen, in one sentence, or `nil`
  /// when it can.
  func violation(moved cell: Cell, ply: Int) -> String? {
    let played = moves.count
    if ply < played, moves[ply] != cell {
      return "The server at \(server) sent move \(ply + 1) as \(cell.name) after it was "
        + "\(moves[ply].name)."
    }
    guard ply <= played else {
      return "The server at \(server) sent move \(ply + 1) after \(played) "
        + "move\(played == 1 ? "" : "s"); the moves between are missing."
    }
    guard ply == played else { return nil }
    guard let board else { return nil }
    do {
      _ = try board.playing(at: cell)
    } catch {
      return "The server at \(server) sent a move that cannot be played: \(Self.fault(error))."
    }
    return nil
  }

  /// Why `end` cannot end the game as it stands, in one sentence, or `nil` when it can.
  func violation(ending end: GameEnd) -> String? {
    guard let board else { return nil }
    return violation(ending: end, on: board)
  }

  /// Why `end` cannot end a game standing at `board`, in one sentence, or `nil` when it can: a
  /// completed game needs a line or a full board with that winner, a resigned or forfeited one
  /// a winner and a board still in play.
  private func violation(ending end: GameEnd, on board: Board) -> String? {
    let follows: Bool
    switch end.reason {
    case .completed:
      follows = board.outcome.isOver && board.outcome.winner == end.winner
    case .forfeit, .resigned:
      follows = !board.outcome.isOver && end.winner != nil
    }
    guard follows else {
      return "The server at \(server) ended the game with a result its moves do not give."
    }
    return nil
  }

  /// A rule a move broke, as a clause.
  private static func fault(_ error: MoveError) -> String {
    switch error {
    case .occupied(let cell): "\(cell.name) is taken"
    case .outOfBounds(let cell): "\(cell.name) is not on the board"
    case .gameOver: "the game was already over"
    }
  }
}
