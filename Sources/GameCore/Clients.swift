public import DatabaseClient
public import GameRules

/// How good a move is for the side that plays it, as the engine sees it.
public enum MoveValue: Hashable, Sendable {
  /// The mover wins in this many plies under perfect play.
  case win(plies: Int)
  /// Perfect play ends in a draw.
  case draw
  /// The mover loses in this many plies under perfect play.
  case loss(plies: Int)
  /// The position was too large to solve: a score from -1 (lost) to 1 (won).
  case estimate(Double)
}

/// The computer player: moves for a difficulty, hints and analysis.
///
/// The live value wraps GameAI; tests use scripted values from TestSupport.
public struct EngineClient: Sendable {
  /// The move the computer plays on `board` at `difficulty`, or `nil` when none is legal.
  public var chooseMove:
    @concurrent @Sendable (_ board: Board, _ difficulty: Difficulty) async -> Cell?
  /// The best move for the side to move, or `nil` when none is legal.
  public var hint: @concurrent @Sendable (_ board: Board) async -> Cell?
  /// Every empty cell's value for the side to move.
  public var analyze: @concurrent @Sendable (_ board: Board) async -> [Cell: MoveValue]

  /// Creates a client from its endpoints.
  public init(
    chooseMove:
      @escaping @concurrent @Sendable (_ board: Board, _ difficulty: Difficulty) async -> Cell?,
    hint: @escaping @concurrent @Sendable (_ board: Board) async -> Cell?,
    analyze: @escaping @concurrent @Sendable (_ board: Board) async -> [Cell: MoveValue]
  ) {
    self.chooseMove = chooseMove
    self.hint = hint
    self.analyze = analyze
  }
}

/// The time: what it is now, and waiting (for the computer's thinking pause).
public struct ClockClient: Sendable {
  /// The current time in milliseconds since 1970.
  public var now: @Sendable () -> Timestamp
  /// Waits for a duration; throws `CancellationError` when the waiting task is cancelled.
  public var sleep: @Sendable (_ duration: Duration) async throws -> Void

  /// Creates a client from its endpoints.
  public init(
    now: @escaping @Sendable () -> Timestamp,
    sleep: @escaping @Sendable (_ duration: Duration) async throws -> Void
  ) {
    self.now = now
    self.sleep = sleep
  }
}

/// A source of random numbers, seeded in tests.
public struct RandomClient: Sendable {
  /// A random integer in `range`, which is not empty.
  public var int: @Sendable (_ range: Range<Int>) -> Int

  /// Creates a client from its endpoint.
  public init(int: @escaping @Sendable (_ range: Range<Int>) -> Int) {
    self.int = int
  }
}
