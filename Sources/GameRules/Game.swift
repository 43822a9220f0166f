/// A game: the starting board plus the moves played, with undo, redo and replay.
///
/// The history is part of the value, so undoing is just stepping back and a finished game can be
/// replayed move by move from ``positions``.
public struct Game: Hashable, Sendable {
  /// The board before the first move.
  public let start: Board
  /// The moves played so far, in order.
  public private(set) var moves: [Cell] = []
  /// Moves taken back by ``undo()``, the next one to redo last.
  public private(set) var undone: [Cell] = []
  /// The board after ``moves``.
  public private(set) var board: Board

  /// Starts a game on `start`, usually an empty board.
  public init(start: Board = .classic) {
    self.start = start
    board = start
  }

  /// Replays `moves` from `start`.
  ///
  /// - Throws: ``MoveError`` for the first illegal move.
  public init(start: Board, moves: [Cell]) throws(MoveError) {
    self.init(start: start)
    for move in moves { try play(at: move) }
  }

  /// The most recent move, if any.
  public var lastMove: Cell? { moves.last }

  /// Whether there is a move to take back.
  public var canUndo: Bool { !moves.isEmpty }

  /// Whether there is a taken-back move to play again.
  public var canRedo: Bool { !undone.isEmpty }

  /// Plays `cell` for the side to move; a new move forgets what was undone.
  ///
  /// - Throws: ``MoveError``; the game is then unchanged.
  public mutating func play(at cell: Cell) throws(MoveError) {
    try board.play(at: cell)
    moves.append(cell)
    undone.removeAll()
  }

  /// Returns the game after the side to move plays `cell`.
  ///
  /// - Throws: ``MoveError`` when the move is illegal.
  public func playing(at cell: Cell) throws(MoveError) -> Game {
    var next = self
    try next.play(at: cell)
    return next
  }

  /// Takes back the last move and returns it, or returns `nil` when there is none.
  ///
  /// - Complexity: O(moves × k), since the board is rebuilt from the start.
  @discardableResult
  public mutating func undo() -> Cell? {
    guard let move = moves.popLast() else { return nil }
    undone.append(move)
    board = Game.replaying(moves, from: start)
    return move
  }

  /// Plays the last taken-back move again and returns it, or returns `nil` when there is none.
  @discardableResult
  public mutating func redo() -> Cell? {
    guard let move = undone.popLast() else { return nil }
    // A move that was legal before undo is legal again on the same board.
    Game.apply(move, to: &board)
    moves.append(move)
    return move
  }

  /// Every board of the game from the start to now: `moves.count + 1` boards.
  public var positions: [Board] {
    var current = start
    return [start]
      + moves.map { move in
        Game.apply(move, to: &current)
        return current
      }
  }

  private static func replaying(_ moves: [Cell], from start: Board) -> Board {
    var current = start
    for move in moves { apply(move, to: &current) }
    return current
  }

  /// Plays a recorded move, which was legal when it was recorded.
  private static func apply(_ move: Cell, to board: inout Board) {
    guard (try? board.play(at: move)) != nil else {
      preconditionFailure("a recorded move \(move.name) was illegal")
    }
  }
}
