public import GameRules
import Synchronization

/// The game engine: analyses positions, picks moves at any difficulty and solves boards.
///
/// On 3×3 every answer comes from a table of all positions built once. On boards of up to 64
/// cells the engine proves what it can within its time budget: an exact search with plies
/// when few cells are empty, and otherwise proof searches of wins and draws (threats,
/// maker-breaker reasoning, pairing strategies). Unbeatable's moves there pass a guard first:
/// a proof search bounded by positions rather than time finds moves after which the opponent
/// cannot complete a line at all, so that a loaded machine never costs a game that could be
/// held. What it cannot prove, and everything on larger boards, it estimates with a
/// deepening search, and marks as estimated. One instance can serve many threads: its state
/// is bounded caches of tables and of recent analyses, kept under locks, through which
/// consecutive searches of one board shape share what they learnt and a hint agrees with the
/// analysis of the same position. Long searches stop early when their task is cancelled.
public final class Engine: Sendable {
  /// How long ``analyze(_:)`` and ``bestMove(for:difficulty:using:)`` may think.
  public let timeBudget: Duration
  /// Whether the guard's proofs, too, stop within a move's budget.
  public let keepsToBudget: Bool
  /// Tables kept between searches.
  let tables = TableCache<TranspositionTable>()
  let proofTables = TableCache<ProofMemory>()
  /// Recent analyses, so that asking twice about one position gives one answer.
  private let recent = Mutex<[Board: Examination]>([:])
  private static let recentCapacity = 32
  /// The size of the tables of the estimating search on large boards.
  let explorerTableBits: Int
  /// The size of the tables of proof searches within a move's budget.
  let proofTableBits: Int
  /// Boards with at most this many empty cells are searched exactly, with plies.
  static let exactSearchEmpties = 16

  /// Creates an engine that thinks for at most `timeBudget` a move and, given
  /// `memoryLimit`, keeps its tables within that many bytes with the rest of the process.
  ///
  /// Without a limit the tables take up to about 150 MB.
  ///
  /// With `keepsToBudget`, as a tournament's time control needs, every part of a move's search
  /// stops within its budget, even the guard's proofs that Unbeatable's move holds on boards of
  /// up to 64 cells, which otherwise may take up to a second past a shorter budget.
  public init(
    timeBudget: Duration = .seconds(1), memoryLimit: Int? = nil, keepsToBudget: Bool = false
  ) {
    self.timeBudget = timeBudget
    self.keepsToBudget = keepsToBudget
    // The kept tables: up to four of each kind, 24 bytes a slot; about 40 MB for the rest,
    // the threat proof's tree of at most 10 MB among it.
    let bits = memoryLimit.map { limit in
      let perTable = max(0, limit - 40_000_000) / 8 / 24
      return perTable < 1 << 10 ? 10 : Int.bitWidth - 1 - perTable.leadingZeroBitCount
    }
    explorerTableBits = min(19, bits ?? 19)
    proofTableBits = min(20, bits ?? 20)
  }

  // MARK: - Analysis

  /// Every legal move's value for the side to move, the position's value and the best moves,
  /// strongest first.
  ///
  /// Proven values are marked exact; the others are estimates. Asked again about a recent
  /// position, the engine gives the same answer.
  public func analyze(_ board: Board) -> Analysis {
    guard board.outcome == .inProgress else { return Engine.finishedAnalysis(board) }
    if board.rows == 3 && board.columns == 3 { return Engine.classicAnalysis(board) }
    return examine(board, budget: timeBudget).analysis
  }

  /// An analysis and the moves the engine would choose from.
  struct Examination {
    var analysis: Analysis
    /// The best moves whose estimate is close to the strongest's, or all best moves where
    /// every move is proven without an estimate.
    var choices: [Cell]
    /// What the deepening search saw of the move it chose, where it chose the move to play.
    var search: SearchReport?
  }

  /// The examination of an unfinished position other than 3×3 within `budget`; with the
  /// engine's own budget, from the recent ones when it is there.
  func examine(_ board: Board, budget: Duration, forDisplay: Bool = true) -> Examination {
    guard budget == timeBudget && forDisplay else {
      if let known = recent.withLock({ $0[board] }) { return known }
      return freshExamination(board, budget: budget, forDisplay: forDisplay)
    }
    if let known = recent.withLock({ $0[board] }) { return known }
    let examination = freshExamination(board, budget: budget)
    recent.withLock { recent in
      if recent.count >= Engine.recentCapacity, let some = recent.keys.first {
        recent[some] = nil
      }
      recent[board] = examination
    }
    return examination
  }

  /// Whether an exact search of `board` has a chance within a move's budget: up to 64 cells
  /// and at most 25 empty ones (the empty 5×5 board takes seconds; emptier large boards, far
  /// longer).
  static func mightSolve(_ board: Board) -> Bool {
    board.cellCount <= 64 && board.cellCount - board.markCount <= 25
  }

  static func finishedAnalysis(_ board: Board) -> Analysis {
    let value: GameValue = board.outcome == .draw ? .draw : .loss
    return Analysis(
      evaluation: Evaluation(value: value, plies: 0, isExact: true), moves: [], best: [])
  }

  /// The analysis of a 3×3 position, from the table of all positions.
  private static func classicAnalysis(_ board: Board) -> Analysis {
    let geometry = ClassicTable.geometry
    let (mover, other) = geometry.position(of: board)
    let scores = board.emptyCells.map { cell in
      (
        cell: cell,
        score: ClassicTable.score(of: geometry.index(of: cell), mover: mover, other: other)
      )
    }
    return exactAnalysis(board, scores)
  }

  /// An analysis where every move's score is exact: the best are all moves of the top score.
  private static func exactAnalysis(_ board: Board, _ scores: [(cell: Cell, score: Int)])
    -> Analysis
  {
    let empties = board.emptyCells.count
    let moves = scores.map { move in
      MoveEvaluation(
        cell: move.cell,
        evaluation: Score.evaluation(move.score, emptyCells: empties, isExact: true))
    }
    let top = scores.map(\.score).max() ?? 0
    return Analysis(
      evaluation: Score.evaluation(top, emptyCells: empties, isExact: true), moves: moves,
      best: scores.filter { $0.score == top }.map(\.cell))
  }

  /// What the engine knows of one move after its searches.
  struct MoveFacts {
    var cell: Cell
    /// The proven score, if any.
    var proven: Int?
    /// Whether the opponent is proven unable to win after the move.
    var isSafe: Bool
    /// The estimated score, if the estimating search reached the move.
    var estimate: Int?

    /// The move's standing: proven wins, then moves that cannot lose, then unknown moves,
    /// then proven losses.
    var tier: Int {
      if let proven {
        if proven >= Score.provenThreshold { return 3 }
        if proven <= -Score.provenThreshold { return 0 }
        return 2
      }
      return isSafe ? 2 : 1
    }

    /// Orders moves within a tier: faster wins and slower losses, then the higher estimate.
    var key: (Int, Int, Int) {
      let provenPart = proven.map { tier == 2 ? 0 : $0 } ?? 0
      return (tier, provenPart, estimate ?? -Score.infinity)
    }
  }

  /// The examination of a position other than 3×3 within `timeBudget`; with `forDisplay`,
  /// with an estimate of every move, else only what choosing a move needs.
  private func freshExamination(
    _ board: Board, budget timeBudget: Duration, forDisplay: Bool = true
  ) -> Examination {
    let start = ContinuousClock.now
    let cells = board.emptyCells
    let empties = cells.count
    var facts = cells.map { MoveFacts(cell: $0, proven: nil, isSafe: false) }
    var moverCannotWin = false
    if board.cellCount <= 64 {
      let deadline = start + timeBudget * 0.6
      // Unbeatable's move: first the moves proven to hold by the guard, whose search is
      // bounded by positions rather than by the clock, so that however loaded the machine,
      // the move chosen is one proven not to lose.
      let holding = forDisplay ? [] : guardedMoves(board, budget: timeBudget)
      var mayWin = true
      if empties <= Engine.exactSearchEmpties {
        let exact = exactScores(board, deadline: deadline, progress: nil)
        if !exact.isAborted {
          let analysis = Engine.exactAnalysis(
            board, exact.scores.compactMap { cell, score in score.map { (cell, $0) } })
          // Where the best is a draw, every move the guard found is one of the best.
          guard !holding.isEmpty && analysis.evaluation.value == .draw else {
            return Examination(analysis: analysis, choices: analysis.best)
          }
          mayWin = false
        }
      }
      if !holding.isEmpty,
        let pressing = pressingExamination(
          board, holding: holding, mayWin: mayWin, start: start, budget: timeBudget)
      {
        return pressing
      }
      if empties > Engine.exactSearchEmpties {
        let proven = provenMoves(board, deadline: deadline)
        let geometry = Geometry<UInt64>(board)
        moverCannotWin = proven.moverCannotWin
        facts = cells.map { cell in
          let index = geometry.index(of: cell)
          return MoveFacts(
            cell: cell, proven: proven.scores[index], isSafe: proven.safe.contains(index))
        }
      }
      if !holding.isEmpty {
        // The mover may have a win the proofs look for; short of a proven win, only the
        // guard's moves are chosen, since the others hold only while later proofs finish in
        // time.
        let geometry = Geometry<UInt64>(board)
        let hasWin = facts.contains { $0.tier == 3 }
        for index in facts.indices {
          if holding.contains(geometry.index(of: facts[index].cell)) {
            facts[index].isSafe = true
          } else if !hasWin && facts[index].tier == 2 {
            facts[index].proven = nil
            facts[index].isSafe = false
          }
        }
      }
    }
    var choice: Cell?
    var search: SearchReport?
    if !facts.contains(where: { $0.tier >= 2 }) {
      // Nothing is proven to hold: the deepening search, with its threat searches, chooses,
      // passing over proven losses.
      let losing = facts.filter { $0.tier == 0 }.map(\.cell)
      let chosen = SearchMove(
        engine: self, board: board, avoiding: losing,
        deadline: start + timeBudget * (forDisplay ? 0.8 : 1)
      ).run(cells: board.cellCount)
      choice = chosen.cell
      search = chosen.search
    }
    // Estimates: to rank the moves that hold (a short look when every move is proven), and
    // for display those of the unproven moves.
    let allProven = facts.allSatisfy { $0.proven != nil }
    let needsEstimate = facts.filter { $0.tier == 2 || (forDisplay && $0.tier == 1) }.map(\.cell)
    if !needsEstimate.isEmpty {
      let short = allProven || !forDisplay
      let deadline = short ? min(start + timeBudget, .now + timeBudget * 0.1) : start + timeBudget
      let estimates = Estimates(
        engine: self, board: board, moves: needsEstimate, deadline: deadline,
        maximumDepth: short ? 3 : nil
      ).run(cells: board.cellCount)
      for index in facts.indices {
        facts[index].estimate = estimates[facts[index].cell]
      }
    }
    if !forDisplay, board.markCount >= Engine.openingMarks, facts.contains(where: { $0.tier == 2 }),
      !facts.contains(where: { $0.tier == 3 })
    {
      // Past the opening, the deepening search with its threat searches chooses among the
      // moves proven to hold: the strongest attack that cannot lose.
      let losing = facts.filter { $0.tier < 2 }.map(\.cell)
      let chosen = SearchMove(
        engine: self, board: board, avoiding: losing, deadline: start + timeBudget
      ).run(cells: board.cellCount)
      choice = chosen.cell
      search = chosen.search
    }
    var examination = Engine.examination(
      board, facts, moverCannotWin: moverCannotWin, choice: choice)
    // The report belongs to the move to play only where the search's choice is that move.
    if let choice, examination.choices == [choice] { examination.search = search }
    return examination
  }

  /// Until this many marks are on the board, the top level picks among the moves that hold
  /// whose estimates are close to the strongest's, so that games differ.
  static let openingMarks = 4

  /// Puts the facts together: each move's evaluation, the position's, the best moves and the
  /// moves to choose from.
  ///
  /// `choice`, when given, is the move the deepening search chose: where no move is proven to
  /// hold, the best move and the one to play; among moves that hold, the one to play.
  static func examination(
    _ board: Board, _ facts: [MoveFacts], moverCannotWin: Bool, choice: Cell? = nil
  ) -> Examination {
    let ranked = facts.sorted { $0.key > $1.key || ($0.key == $1.key && $0.cell < $1.cell) }
    guard let top = ranked.first else {
      let none = Analysis(evaluation: Evaluation(value: .draw, plies: 0), moves: [], best: [])
      return Examination(analysis: none, choices: [])
    }
    var best: [MoveFacts]
    switch top.tier {
    case 2 where top.proven != nil || moverCannotWin:
      // Every move that holds is as good as any other; the strongest first.
      best = ranked.filter { $0.tier == 2 }
    case 3, 0:
      best = ranked.filter { $0.tier == top.tier && $0.proven == top.proven }
    default:
      best = ranked.filter { $0.key == top.key }
    }
    var choices = best
    if let choice, top.tier <= 1, let chosen = facts.first(where: { $0.cell == choice }) {
      // The search settles on the first forced win it finds, and the estimates may prove
      // others, some by a shorter line: each is a win, so all are named, the shortest first.
      let wins = ranked.filter { $0.tier <= 1 && ($0.estimate ?? 0) >= Score.provenThreshold }
      best = wins.isEmpty ? [chosen] : wins
      choices = best.contains { $0.cell == choice } ? [chosen] : [best[0]]
    }
    // Among moves that hold, the search's choice, or those whose estimate is close to the
    // strongest's.
    if top.tier == 2, let choice, facts.contains(where: { $0.cell == choice && $0.tier == 2 }) {
      return Examination(
        analysis: analysis(board, facts, best: best, top: top, moverCannotWin: moverCannotWin),
        choices: [choice])
    }
    if top.tier == 2, let strongest = top.estimate {
      let margin = max(12, abs(strongest) / 16)
      choices = best.filter { ($0.estimate ?? -Score.infinity) >= strongest - margin }
    }
    return Examination(
      analysis: analysis(board, facts, best: best, top: top, moverCannotWin: moverCannotWin),
      choices: choices.map(\.cell))
  }

  /// The analysis of the facts, given the best moves and the top one.
  private static func analysis(
    _ board: Board, _ facts: [MoveFacts], best: [MoveFacts], top: MoveFacts,
    moverCannotWin: Bool
  ) -> Analysis {
    let empties = board.emptyCells.count
    let moves = facts.map { fact in
      MoveEvaluation(cell: fact.cell, evaluation: evaluation(of: fact, empties: empties))
    }
    let allProven = facts.allSatisfy { $0.proven != nil }
    var value = evaluation(of: top, empties: empties)
    switch top.tier {
    case 3: value.isExact = true
    case 2: value.isExact = top.proven != nil && (moverCannotWin || allProven)
    case 0: value.isExact = allProven
    default:
      // A win the estimating search proved settles the position too, and so does every move
      // proven, by one search or the other.
      value.isExact =
        (top.estimate ?? 0) >= Score.provenThreshold
        || facts.allSatisfy { $0.proven != nil || Score.isProven($0.estimate ?? 0) }
    }
    if value.isExact && top.tier == 2 { value = Evaluation(value: .draw, plies: empties) }
    return Analysis(evaluation: value, moves: moves, best: best.map(\.cell))
  }

  /// A move's evaluation: its proven value, or its estimate within what is proven of it.
  private static func evaluation(of fact: MoveFacts, empties: Int) -> Evaluation {
    if let proven = fact.proven {
      return Score.evaluation(proven, emptyCells: empties, isExact: true).asFoundLine
    }
    // The estimating search's scores past the threshold are wins and losses it proved: a line
    // in one, a chain of fours, a threat-space win, a loss where every reply was read.
    let score = fact.estimate ?? 0
    var estimate = Score.evaluation(score, emptyCells: empties, isExact: Score.isProven(score))
      .asFoundLine
    if fact.isSafe && estimate.value == .loss {
      estimate = Evaluation(value: .draw, plies: empties, isExact: false)
    }
    return estimate
  }

  /// The large-board search's move, passing over `avoiding`.
  struct SearchMove: BitBoardWork {
    let engine: Engine
    let board: Board
    var avoiding: [Cell] = []
    let deadline: ContinuousClock.Instant
    /// For a short-sighted player: how many plies it reads at most.
    var maximumDepth: Int?

    func run<B: BitBoard>(on _: B.Type) -> ChosenMove {
      engine.withExplorer(B.self, board, deadline: deadline) { explorer, geometry, mover, other in
        let avoided = avoiding.reduce(B.zero) { $0.inserting(geometry.index(of: $1)) }
        let best = explorer.bestMove(
          mover: mover, other: other, avoiding: avoided, maximumDepth: maximumDepth)
        let isProven = Score.isProven(best.score)
        let report = SearchReport(
          depth: best.depth,
          // A forced line the search found, perhaps not the fastest.
          evaluation: Score.evaluation(
            best.score, emptyCells: board.emptyCells.count, isExact: isProven
          ).asFoundLine,
          estimate: isProven ? nil : best.score, nodes: explorer.nodes)
        return ChosenMove(cell: geometry.cell(at: best.move), search: report)
      }
    }
  }

  /// Estimated scores of `moves` from the large-board search.
  private struct Estimates: BitBoardWork {
    let engine: Engine
    let board: Board
    let moves: [Cell]
    let deadline: ContinuousClock.Instant
    let maximumDepth: Int?

    func run<B: BitBoard>(on _: B.Type) -> [Cell: Int] {
      engine.withExplorer(B.self, board, deadline: deadline) { explorer, geometry, mover, other in
        let indices = moves.map(geometry.index(of:))
        let ordered = explorer.orderedMoves(
          indices.reduce(B.zero) { $0.inserting($1) }, mover: mover, other: other)
        let scores = explorer.scores(
          of: ordered, mover: mover, other: other, maximumDepth: maximumDepth)
        var result: [Cell: Int] = [:]
        for (index, score) in scores { result[geometry.cell(at: index)] = score }
        return result
      }
    }
  }

  /// Runs `body` with a large-board search of `board`, on a table kept between calls.
  ///
  /// - Returns: What `body` returns.
  func withExplorer<B: BitBoard, Result>(
    _: B.Type, _ board: Board, deadline: ContinuousClock.Instant,
    _ body: (Explorer<B>, Geometry<B>, _ mover: B, _ other: B) -> Result
  ) -> Result {
    let geometry = Geometry<B>(board)
    let (mover, other) = geometry.position(of: board)
    let key = TableCache<TranspositionTable>.Key(
      rows: board.rows, columns: board.columns, k: board.k, kind: .estimate,
      bits: explorerTableBits)
    let table = tables.borrow(key)
    defer { tables.giveBack(table, for: key) }
    let explorer = Explorer(
      geometry: geometry, deadline: deadline, table: table, rootIsO: board.toMove == .o)
    return body(explorer, geometry, mover, other)
  }

  /// The outcome of an exact search over the moves of a board of up to 64 cells.
  package struct ExactScores {
    /// Every empty cell in reading order with its exact score, `nil` where unsettled.
    package var scores: [(cell: Cell, score: Int?)]
    package var nodes: Int
    /// Whether the search stopped before settling every move.
    package var isAborted: Bool
  }

  /// Exact scores of every empty cell of a board of up to 64 cells, settling moves that lead
  /// to positions symmetric to each other once.
  ///
  /// The search stops at `deadline` or when the task is cancelled.
  package func exactScores(
    _ board: Board, deadline: ContinuousClock.Instant?, tableBits: Int? = nil,
    progress: ((_ nodes: Int, _ done: Int, _ total: Int) -> Void)?
  ) -> ExactScores {
    let key = TableCache<TranspositionTable>.Key(
      rows: board.rows, columns: board.columns, k: board.k, kind: .exact,
      bits: tableBits ?? Solver.defaultTableBits(cells: board.cellCount))
    let table = tables.borrow(key)
    // An aborted solve stores nothing it has not settled, so its table stays sound.
    defer { tables.giveBack(table, for: key) }
    let solver = Solver(
      rows: board.rows, columns: board.columns, k: board.k, deadline: deadline, table: table)
    let geometry = solver.geometry
    let (mover, other) = geometry.position(of: board)
    let cells = board.emptyCells
    // Group the moves by the least image of the position they lead to, most promising first.
    var groups: [UInt128: [Int]] = [:]
    var order: [UInt128] = []
    for cell in cells {
      let move = geometry.index(of: cell)
      let least = solver.symmetries.canonical(mover | 1 << UInt64(move), other)
      let key = UInt128(least.mover) << 64 | UInt128(least.other)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(move)
    }
    let total = order.count
    var done = 0
    if let progress {
      var reported = 0
      solver.onCheck = { nodes in
        guard nodes - reported >= 1 << 20 else { return }
        reported = nodes
        progress(nodes, done, total)
      }
    }
    var scores: [Int: Int] = [:]
    for key in order {
      guard let moves = groups[key], let first = moves.first,
        let score = solver.exactScore(of: first, mover: mover, other: other)
      else { break }
      for move in moves { scores[move] = score }
      done += 1
      progress?(solver.nodes, done, total)
    }
    return ExactScores(
      scores: cells.map { ($0, scores[geometry.index(of: $0)]) }, nodes: solver.nodes,
      isAborted: solver.isAborted)
  }
}
