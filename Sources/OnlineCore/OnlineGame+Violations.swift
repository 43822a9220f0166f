import AuthenticationClient
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
    guard InviteCode.normalized(snapshot.code) == snapshot.code else {
      return "The server at \(server) sent a game whose code \(snapshot.code.quotable) is not an "
        + "invite code."
    }
    for player in [snapshot.x, snapshot.o] {
      if let violation = player?.awaySeconds.flatMap(violation(awaySeconds:)) { return violation }
    }
    if let previous = self.snapshot, previous.code == snapshot.code,
      !snapshot.moves.starts(with: previous.moves)
    {
      return "The server at \(server) sent game \(snapshot.code) again with moves other than "
        + "those already played."
    }
    // A spectator has no side; a player has one, and sits in it under its own name.
    if isSpectator, snapshot.role != nil {
      return "The server at \(server) sent game \(snapshot.code) with a side for this "
        + "spectator."
    }
    if !isSpectator, !snapshot.isFinished {
      guard let role = snapshot.role else {
        return "The server at \(server) sent game \(snapshot.code) without this player's side."
      }
      if let userName, let seated = snapshot.player(role),
        UserName.key(seated.name) != UserName.key(userName)
      {
        return "The server at \(server) sent game \(snapshot.code) with "
          + "\(seated.name.escapingControlCharacters) in this player's seat."
      }
    }
    if self.snapshot == nil, case .create(let options) = intent {
      if snapshot.status != .waiting || snapshot.role != .x || snapshot.o != nil
        || !snapshot.moves.isEmpty
      {
        return "The server at \(server) answered the request for a new game with game "
          + "\(snapshot.code), which is not new."
      }
      let firstMover: Mark? =
        switch options.first {
        case .x: .x
        case .o: .o
        case .random: nil
        }
      if snapshot.rows != options.rows || snapshot.columns != options.columns
        || snapshot.k != options.k || firstMover.map({ $0 != snapshot.firstMover }) ?? false
      {
        return "The server at \(server) answered the request for a new game with a game of "
          + "other settings (\(snapshot.rows)×\(snapshot.columns), \(snapshot.k) in a row, "
          + "\(snapshot.firstMover.symbol) first)."
      }
    }
    // Nobody plays an empty seat, and a game waits for an opponent only before its moves.
    if snapshot.status == .waiting,
      snapshot.x == nil || snapshot.o != nil || !snapshot.moves.isEmpty
    {
      return "The server at \(server) sent game \(snapshot.code) as waiting for an opponent, "
        + "with its seats or moves saying otherwise."
    }
    // A finished game may have lost a seat's account since.
    if snapshot.status == .playing, snapshot.x == nil || snapshot.o == nil {
      return "The server at \(server) sent game \(snapshot.code) under way with a seat empty."
    }
    if !snapshot.isFinished, !isSpectator, let role = snapshot.role, snapshot.player(role) == nil {
      return "The server at \(server) sent game \(snapshot.code) with this player's own seat "
        + "empty."
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
    if let previous = self.snapshot, previous.code == snapshot.code {
      // The board, who starts, who sits where and this client's side stay what they were.
      let seated = [previous.x, previous.o].map { $0.map { UserName.key($0.name) } }
      let seatedNow = [snapshot.x, snapshot.o].map { $0.map { UserName.key($0.name) } }
      if snapshot.rows != previous.rows || snapshot.columns != previous.columns
        || snapshot.k != previous.k || snapshot.firstMover != previous.firstMover
        || snapshot.role != previous.role
        || zip(seated, seatedNow).contains(where: { $0 != nil && $0 != $1 })
      {
        return "The server at \(server) sent game \(snapshot.code) again with another board, "
          + "other players or this client on another side."
      }
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
    guard let board, let snapshot, let mover = mover(ofPly: ply) else { return nil }
    if snapshot.status == .waiting {
      return "The server at \(server) sent a move in game \(snapshot.code), which waits for an "
        + "opponent."
    }
    do {
      _ = try board.playing(at: cell)
    } catch {
      return "The server at \(server) sent a move that cannot be played: \(Self.fault(error))."
    }
    guard snapshot.player(mover) != nil else {
      return "The server at \(server) sent a move for \(mover.symbol), whose seat is empty."
    }
    if !isSpectator, mover == snapshot.role, pendingMove != cell {
      return "The server at \(server) sent a move at \(cell.name) for this player, who did not "
        + "make it."
    }
    return nil
  }

  /// Why the refusal of the move at `cell` cannot be, in one sentence, or `nil` when it can:
  /// the game as this client holds it says otherwise.
  ///
  /// Messages come in order, so the board is the server's up to the refusal, except for a
  /// move of the opponent's made while this player's own was on its way: a refusal of a move
  /// sent out of turn is believed.
  func violation(refusedMove refusal: Refusal, at cell: Cell) -> String? {
    guard let snapshot, let board else { return nil }
    let isOwnTurn =
      snapshot.status == .playing && snapshot.role != nil
      && mover(ofPly: snapshot.moves.count) == snapshot.role
    let contradicted: Bool
    switch refusal.code {
    case .cellOutOfBounds:
      // The client sends only cells of the board.
      contradicted = board.contains(cell)
    case .gameFull:
      contradicted = true
    case .notSignedIn:
      // Only a signed-in player sends moves, and the connection is the one signed in.
      contradicted = true
    case .notAPlayer:
      contradicted = snapshot.role != nil
    case .gameNotStarted:
      contradicted = snapshot.status == .playing
    case .gameOver:
      // The opponent may have resigned (or forfeited) while the move was on its way: the
      // server refuses the move at once and says how the game ended once that is stored.
      contradicted = false
    case .cellTaken:
      contradicted = isOwnTurn && board.contains(cell) && board[cell] == nil
    case .notYourTurn, .staleMove:
      contradicted = isOwnTurn
    default:
      contradicted = false
    }
    guard contradicted else { return nil }
    return "The server at \(server) refused the move at \(cell.name) with a reason this game "
      + "contradicts (\(refusal.code))."
  }

  /// Why the refusal of this player's resignation cannot be, in one sentence, or `nil` when it
  /// can: the player is seated, in a game under way.
  func violation(refusedResignation refusal: Refusal) -> String? {
    guard let snapshot else { return nil }
    let contradicted: Bool
    switch refusal.code {
    case .notAPlayer: contradicted = snapshot.role != nil
    case .gameNotStarted: contradicted = snapshot.status == .playing
    // As for a move: the game may have ended on its way (bob resigned first); the ending
    // follows.
    case .gameOver: contradicted = false
    case .notSignedIn: contradicted = true
    default: contradicted = false
    }
    guard contradicted else { return nil }
    return "The server at \(server) refused this player's resignation with a reason this game "
      + "contradicts (\(refusal.code))."
  }

  /// Why the refusal to cancel this player's game nobody joined cannot be, in one sentence, or
  /// `nil` when it can: the player made the game, which the server showed waiting.
  func violation(refusedCancellation refusal: Refusal) -> String? {
    guard let snapshot else { return nil }
    let contradicted: Bool
    switch refusal.code {
    case .notAPlayer: contradicted = snapshot.role == .x
    case .gameOver: contradicted = snapshot.status == .waiting
    case .noSuchGame, .notSignedIn: contradicted = true
    default: contradicted = false
    }
    guard contradicted else { return nil }
    return "The server at \(server) refused to cancel game \(snapshot.code) with a reason this "
      + "game contradicts (\(refusal.code))."
  }

  /// Why `end` cannot end the game as it stands, in one sentence, or `nil` when it can.
  func violation(ending end: GameEnd) -> String? {
    guard let board else { return nil }
    if end.reason != .completed, snapshot?.x == nil || snapshot?.o == nil {
      return "The server at \(server) ended a game nobody had joined with a winner."
    }
    if end.reason == .resigned, !isSpectator, let role = snapshot?.role, end.winner != role,
      !hasResigned
    {
      return "The server at \(server) said this player resigned, which it did not."
    }
    if let violation = violation(ending: end, on: board) { return violation }
    return violation(ratings: end)
  }

  /// Why the ratings after `end` cannot be, in one sentence, or `nil` when they can: one game
  /// moves each rating by 32 points at the most (33 as shown, rounded), the winner's up and the
  /// loser's down, and keeps their sum (within the rounding).
  private func violation(ratings end: GameEnd) -> String? {
    guard let x = snapshot?.x?.rating, let o = snapshot?.o?.rating else { return nil }
    let (xChange, oChange) = (Int(end.xRating) - Int(x), Int(end.oRating) - Int(o))
    let directions =
      switch end.winner {
      case .x: xChange >= 0 && oChange <= 0
      case .o: xChange <= 0 && oChange >= 0
      case nil: true
      }
    guard abs(xChange) > 33 || abs(oChange) > 33 || abs(xChange + oChange) > 2 || !directions
    else { return nil }
    return "The server at \(server) ended the game with ratings one game cannot give "
      + "(\(x) to \(end.xRating), \(o) to \(end.oRating))."
  }

  /// Why a player joining as `mark` cannot be, in one sentence, or `nil` when it can: the
  /// seat is this player's own, or another player's already.
  func violation(joined player: SeatedPlayer, as mark: Mark) -> String? {
    guard let snapshot else { return nil }
    if !player.name.contains(where: { !$0.isWhitespace }) {
      return "The server at \(server) said a player without a name joined."
    }
    if !isSpectator, let userName, mark != snapshot.role,
      UserName.key(player.name) == UserName.key(userName)
    {
      return "The server at \(server) said this player joined the other side of its own game."
    }
    if !isSpectator, mark == snapshot.role {
      return "The server at \(server) said another player took this player's own seat."
    }
    if let seated = snapshot.player(mark), seated.name != player.name {
      return "The server at \(server) said a player took the \(mark.symbol) seat, which was "
        + "already taken."
    }
    return nil
  }

  /// Why a seat cannot be held for `seconds`, in one sentence, or `nil` when it can: no server
  /// holds one longer than a day.
  func violation(awaySeconds seconds: UInt32) -> String? {
    guard seconds > ProtocolLimits.maximumReconnectGraceSeconds else { return nil }
    return "The server at \(server) said a seat is held for \(seconds) seconds, longer than the "
      + "day any server holds one."
  }

  /// Why the game's cancellation cannot be, in one sentence, or `nil` when it can: only a game
  /// nobody joined is cancelled.
  func violationOfCancellation() -> String? {
    guard let snapshot, snapshot.o != nil || !snapshot.moves.isEmpty else { return nil }
    return "The server at \(server) said game \(snapshot.code) was cancelled after it had begun."
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
