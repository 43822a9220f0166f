public import DatabaseClient
public import GameAI
public import GameRules

/// The computer player: moves for a difficulty, hints and analysis.
///
/// The live value wraps GameAI; tests use scripted values from TestSupport.
public struct EngineClient: Sendable {
  /// The move the computer plays on `board` at `difficulty`, or `nil` when none is legal.
  public var chooseMove:
    @concurrent @Sendable (_ board: Board, _ difficulty: Difficulty) async -> Cell?
  /// The best move for the side to move, or `nil` when none is legal.
  public var hint: @concurrent @Sendable (_ board: Board) async -> Cell?
  /// Every legal move's value for the side to move, the position's value and the best moves.
  public var analyze: @concurrent @Sendable (_ board: Board) async -> Analysis

  /// Creates a client from its endpoints.
  public init(
    chooseMove:
      @escaping @concurrent @Sendable (_ board: Board, _ difficulty: Difficulty) async -> Cell?,
    hint: @escaping @concurrent @Sendable (_ board: Board) async -> Cell?,
    analyze: @escaping @concurrent @Sendable (_ board: Board) async -> Analysis
  ) {
    self.chooseMove = chooseMove
    self.hint = hint
    self.analyze = analyze
  }
}

extension EngineClient {
  /// A client over GameAI's engine, choosing among equal moves with a generator seeded by `seed`.
  ///
  /// - Parameters:
  ///   - engine: The engine, with its time budget.
  ///   - seed: The seed of the generator behind the lower levels' mistakes and ties.
  /// - Returns: The client.
  public static func engine(_ engine: Engine, seed: UInt64) -> EngineClient {
    let generator = Generator(seed: seed)
    return EngineClient(
      chooseMove: { board, difficulty in
        await generator.move(engine, board: board, difficulty: difficulty)
      },
      hint: { board in engine.analyze(board).best.first },
      analyze: { board in engine.analyze(board) }
    )
  }
}

/// The seeded generator shared by successive moves.
private actor Generator {
  private var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  func move(_ engine: Engine, board: Board, difficulty: Difficulty) -> Cell? {
    engine.bestMove(for: board, difficulty: difficulty, using: &random)
  }
}

/// The time: what it is now, and waiting (for the computer's thinking pause).
public struct ClockClient: Sendable {
  /// The current time in milliseconds since 1970.
  public var now: @Sendable () -> Timestamp
  /// Waits for a duration; throws `CancellationError` when the waiting task is cancelled.
  public var sleep: @Sendable (_ duration: Duration) async throws -> Void
  /// A time as the player's wall clock showed it then, in the player's time zone.
  public var localTime: @Sendable (_ timestamp: Timestamp) -> LocalTime

  /// Creates a client from its endpoints.
  public init(
    now: @escaping @Sendable () -> Timestamp,
    sleep: @escaping @Sendable (_ duration: Duration) async throws -> Void,
    localTime: @escaping @Sendable (_ timestamp: Timestamp) -> LocalTime
  ) {
    self.now = now
    self.sleep = sleep
    self.localTime = localTime
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
