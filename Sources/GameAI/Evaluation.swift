public import GameRules

/// The result of a position under perfect play, for the side to move.
public enum GameValue: String, Sendable, Hashable, CaseIterable {
  case win
  case draw
  case loss
}

/// How a position or a move turns out: the value and how many moves until the game ends.
public struct Evaluation: Hashable, Sendable, CustomStringConvertible {
  /// Win, draw or loss for the side to move (or, for a move, for the side making it).
  public var value: GameValue
  /// Moves until the game ends when the winner wins as fast as it can and the loser loses as
  /// slowly as it can; for a draw, the number of empty cells.
  public var plies: Int
  /// Whether the value is proven; `false` when the engine could only estimate it.
  public var isExact: Bool
  /// Whether a proven win or loss has the length of perfect play; `false` where a proof found
  /// a forced line without showing that none is faster, so that `plies` is only the most the
  /// game can last.
  public var isFastest: Bool

  /// Creates an evaluation.
  public init(value: GameValue, plies: Int, isExact: Bool = true, isFastest: Bool = true) {
    self.value = value
    self.plies = plies
    self.isExact = isExact
    self.isFastest = isFastest
  }

  /// Whether the length is known: the value is proven, and where it is a win or a loss, its
  /// length is that of perfect play.
  public var hasExactLength: Bool { isExact && (isFastest || value == .draw) }

  /// `win in 3`, `draw`, `loss in 2`; a line found that may not be the fastest,
  /// `win in at most 7`; an estimate has no length: `win (estimate)`.
  public var description: String {
    guard isExact else { return "\(value.rawValue) (estimate)" }
    let bound = isFastest ? "" : "at most "
    return switch value {
    case .win: "win in \(bound)\(plies)"
    case .loss: "loss in \(bound)\(plies)"
    case .draw: "draw"
    }
  }

  /// Whether `self` is better than `other` for the side it belongs to: a win beats a draw beats
  /// a loss, a faster win beats a slower one and a slower loss beats a faster one.
  public func isBetter(than other: Evaluation) -> Bool { rank > other.rank }

  /// A number that orders evaluations from worst to best.
  var rank: Int {
    switch value {
    case .win: 1_000 - plies
    case .draw: 0
    case .loss: -1_000 + plies
    }
  }
}

/// One legal move and how it turns out for the side that makes it.
public struct MoveEvaluation: Hashable, Sendable {
  /// Where the move is played.
  public var cell: Cell
  /// The result for the side making the move, counting plies from before the move.
  public var evaluation: Evaluation

  /// Creates a move evaluation.
  public init(cell: Cell, evaluation: Evaluation) {
    self.cell = cell
    self.evaluation = evaluation
  }
}

/// A position's value, every legal move's value and the best moves.
public struct Analysis: Hashable, Sendable {
  /// The position's value for the side to move; a finished position has `plies` 0 and is a loss
  /// for the side to move when the other side won, a draw when drawn.
  public var evaluation: Evaluation
  /// Every legal move in reading order; empty when the game is over.
  public var moves: [MoveEvaluation]
  /// Every move whose evaluation is optimal: the fastest win, the slowest loss, or any draw.
  public var best: [Cell]

  /// Creates an analysis.
  public init(evaluation: Evaluation, moves: [MoveEvaluation], best: [Cell]) {
    self.evaluation = evaluation
    self.moves = moves
    self.best = best
  }
}

/// How far a long solve has come, reported now and then while it runs.
public struct SolveProgress: Hashable, Sendable {
  /// Positions searched so far.
  public var nodes: Int
  /// Time since the solve began.
  public var elapsed: Duration
  /// First moves whose value is settled.
  public var movesDone: Int
  /// First moves to settle (distinct up to symmetry).
  public var movesTotal: Int

  /// Creates a progress report.
  public init(nodes: Int, elapsed: Duration, movesDone: Int, movesTotal: Int) {
    self.nodes = nodes
    self.elapsed = elapsed
    self.movesDone = movesDone
    self.movesTotal = movesTotal
  }
}

/// The outcome of solving a position.
public struct SolveResult: Hashable, Sendable {
  /// The position's value for the side to move; `isExact` is `false` when the solve was
  /// cancelled or the board is too large to solve.
  public var evaluation: Evaluation
  /// Every optimal move.
  public var best: [Cell]
  /// Every legal move's value, in reading order, as far as it was settled.
  public var moves: [MoveEvaluation]
  /// Positions searched, or `nil` where they are not counted: the estimate of a board over 64
  /// cells, from the searches of a move.
  public var nodes: Int?
  /// Time taken.
  public var duration: Duration

  /// Creates a solve result.
  public init(
    evaluation: Evaluation, best: [Cell], moves: [MoveEvaluation], nodes: Int?, duration: Duration
  ) {
    self.evaluation = evaluation
    self.best = best
    self.moves = moves
    self.nodes = nodes
    self.duration = duration
  }
}

/// What the deepening search of a large board saw of the move it chose, for a tournament
/// manager's log.
public struct SearchReport: Hashable, Sendable {
  /// The plies it read ahead, or those of the forced win it found; 0 for a move it did not
  /// search, the only one left.
  public var depth: Int
  /// The chosen move's result for the side making it: proven where the search proved it,
  /// else an estimate.
  public var evaluation: Evaluation
  /// The estimate in the search's own units (within ±600; positive favours the mover), or
  /// `nil` where the result is proven.
  public var estimate: Int?
  /// Positions searched, threat searches included.
  public var nodes: Int

  /// Creates a report.
  public init(depth: Int, evaluation: Evaluation, estimate: Int?, nodes: Int) {
    self.depth = depth
    self.evaluation = evaluation
    self.estimate = estimate
    self.nodes = nodes
  }
}

/// A move the engine chose, with what its search saw of it where a search chose it.
public struct ChosenMove: Hashable, Sendable {
  /// Where to play.
  public var cell: Cell
  /// The deepening search's report, or `nil` where the move came from elsewhere: a table, a
  /// proof or a lower level's choice.
  public var search: SearchReport?

  /// Creates a chosen move.
  public init(cell: Cell, search: SearchReport? = nil) {
    self.cell = cell
    self.search = search
  }
}
