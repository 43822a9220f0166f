package import GameRules

extension Engine {
  /// What the proof search settled about each move of a position.
  package struct ProvenMoves {
    /// By bit index: the move's exact score (``Score``), where proven.
    package var scores: [Int: Int] = [:]
    /// The moves after which the opponent is proven unable to win: they draw or win.
    package var safe: Set<Int> = []
    /// Whether the side to move is proven unable to win at all.
    package var moverCannotWin = false
    /// Distinct moves up to symmetry, and how many of them are settled.
    package var movesTotal = 0
    package var movesDone = 0
    package var nodes = 0
    /// Whether the search stopped before settling every move.
    package var isAborted = false
  }

  /// How many positions the depth-first prover may visit on one question of a solve before
  /// the question goes to the proof-number search.
  package static let depthFirstBudget = 1 << 22

  /// The size of the proof tables of searches within a move's budget.
  package static let proofTableBits = 20

  /// Proves what it can of every move of `board` (up to 64 cells) before `deadline`: wins,
  /// draws and losses, and which moves keep the opponent from winning.
  ///
  /// A win or loss carries the length of the forced line found; with `fastest`, that of the
  /// fastest forced line, found by proving wins within ever longer limits. With
  /// `proofNumberBits`, the real game's questions go to a proof-number search with a table of
  /// `2^proofNumberBits` slots, made when first needed (``WinSearch``), which finds a forced line where the depth-first prover gets lost among
  /// the attacker's weaker moves: each such question goes to it once the depth-first prover
  /// has visited `depthFirstBudget` positions without settling it.
  ///
  /// Each question is first asked of the maker-breaker game, where a defender's win settles
  /// it at a fraction of the cost, and of the real game only when the maker wins there. Moves
  /// that lead to positions symmetric to each other are settled once; the most promising are
  /// settled first.
  package func provenMoves(
    _ board: Board, deadline: ContinuousClock.Instant?, tableBits: Int? = nil,
    fastest: Bool = false, proofNumberBits: Int? = nil,
    depthFirstBudget: Int = Engine.depthFirstBudget,
    progress: ((_ nodes: Int, _ done: Int, _ total: Int) -> Void)? = nil
  ) -> ProvenMoves {
    var result = ProvenMoves()
    let tableBits = tableBits ?? proofTableBits
    let makerBreaker = proofTables.borrow(
      .init(
        rows: board.rows, columns: board.columns, k: board.k, kind: .proof(.makerBreaker),
        bits: tableBits))
    let real = proofTables.borrow(
      .init(
        rows: board.rows, columns: board.columns, k: board.k, kind: .proof(.real),
        bits: tableBits))
    // An aborted proof stores nothing it has not settled, so the tables stay sound.
    defer {
      proofTables.giveBack(
        makerBreaker,
        for: .init(
          rows: board.rows, columns: board.columns, k: board.k, kind: .proof(.makerBreaker),
          bits: tableBits))
      proofTables.giveBack(
        real,
        for: .init(
          rows: board.rows, columns: board.columns, k: board.k, kind: .proof(.real),
          bits: tableBits))
    }
    let breakers = Prover(
      rows: board.rows, columns: board.columns, k: board.k, rules: .makerBreaker,
      memory: makerBreaker, deadline: deadline)
    let provers = Prover(
      rows: board.rows, columns: board.columns, k: board.k, rules: .real, memory: real,
      deadline: deadline)
    // Made when first needed: most solves never ask the real game.
    var winSearch: WinSearch?
    let geometry = breakers.geometry
    let (mover, other) = geometry.position(of: board)
    var done = 0
    var total = 0
    var winSearchNodes = 0
    func nodes() -> Int { breakers.nodes + provers.nodes + winSearchNodes }
    var report: ((Int) -> Void)?
    if let progress {
      var reported = 0
      // The provers hold this closure, and must not be kept alive by it.
      report = { [unowned breakers, unowned provers] _ in
        let nodes = breakers.nodes + provers.nodes + winSearchNodes
        guard nodes - reported >= 1 << 20 else { return }
        reported = nodes
        progress(nodes, done, total)
      }
      breakers.onCheck = report
      provers.onCheck = report
    }
    func proofNumberSearch() -> WinSearch? {
      guard let bits = proofNumberBits else { return nil }
      if let winSearch { return winSearch }
      let search = WinSearch(
        rows: board.rows, columns: board.columns, k: board.k,
        table: ProofNumberTable(bits: bits))
      search.onCheck = { nodes, _, _ in
        winSearchNodes = nodes
        report?(nodes)
      }
      winSearch = search
      return search
    }
    func finished() -> ProvenMoves {
      winSearchNodes = winSearch?.nodes ?? 0
      result.nodes = nodes()
      result.isAborted =
        breakers.isAborted || provers.isAborted || (winSearch?.isAborted ?? false)
        || isCancelled
      return result
    }

    var isCancelled = false
    /// Whether `attacker` forces a line: maker-breaker first, then the real game. Without
    /// `length`, a win found by the proof-number search carries the length of its proof, not
    /// the fastest.
    func wins(attacker: UInt64, defender: UInt64, attackerToMove: Bool, length: Bool = true)
      -> Prover.Outcome?
    {
      let quick = breakers.outcome(
        attacker: attacker, defender: defender, attackerToMove: attackerToMove)
      guard quick == .defenderHolds || quick == nil else {
        if proofNumberBits != nil {
          // The depth-first prover first, within a budget: it settles most positions at a
          // fraction of the cost; what it cannot goes to the proof-number search.
          provers.resume(nodeLimit: provers.nodes + depthFirstBudget)
          defer { provers.resume(nodeLimit: nil) }
          if let outcome = provers.outcome(
            attacker: attacker, defender: defender, attackerToMove: attackerToMove)
          {
            guard case .attackerWins = outcome else { return outcome }
            if let plies = provers.fastestWin(
              attacker: attacker, defender: defender, attackerToMove: attackerToMove)
            {
              return .attackerWins(plies: plies)
            }
          }
          if Task.isCancelled {
            isCancelled = true
            return nil
          }
          provers.resume(nodeLimit: nil)
          guard let winSearch = proofNumberSearch(),
            let wins = winSearch.attackerWins(
              attacker: attacker, defender: defender, attackerToMove: attackerToMove)
          else { return nil }
          guard wins else { return .defenderHolds }
          guard length else {
            return winSearch.proofLength(
              attacker: attacker, defender: defender, attackerToMove: attackerToMove
            ).map { .attackerWins(plies: $0) }
          }
          return winSearch.fastestWin(
            attacker: attacker, defender: defender, attackerToMove: attackerToMove
          ).map { .attackerWins(plies: $0) }
        }
        let outcome = provers.outcome(
          attacker: attacker, defender: defender, attackerToMove: attackerToMove)
        guard fastest, case .attackerWins = outcome else { return outcome }
        return provers.fastestWin(
          attacker: attacker, defender: defender, attackerToMove: attackerToMove
        ).map { .attackerWins(plies: $0) }
      }
      return quick
    }

    let symmetries = breakers.symmetries
    var groups: [UInt128: [Int]] = [:]
    var order: [UInt128] = []
    let empty = geometry.full & ~(mover | other)
    for move in Engine.promisingFirst(geometry, empty, mover: mover, other: other) {
      let least = symmetries.canonical(mover | 1 << UInt64(move), other)
      let key = UInt128(least.mover) << 64 | UInt128(least.other)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(move)
    }
    total = order.count
    result.movesTotal = total
    // Only whether the mover can win at all: each move's length is found below.
    guard
      let rootWin = wins(attacker: mover, defender: other, attackerToMove: true, length: false)
    else {
      return finished()
    }
    result.moverCannotWin = rootWin == .defenderHolds
    // On the empty board the opponent, moving second, is no better off than the mover was
    // moving first (the board is the same for both, and an extra mark never hurts its
    // owner), so it cannot win after any first move either: every move draws.
    let opponentCannotWin = result.moverCannotWin && mover == 0 && other == 0
    for key in order {
      guard let moves = groups[key], let move = moves.first else { continue }
      let after = mover | 1 << UInt64(move)
      var score: Int?
      var isSafe = false
      if geometry.completesWindow(after, at: move) {
        score = Score.win(in: 1)
      } else if after | other == geometry.full {
        score = 0
      } else {
        var moverCannotWin = result.moverCannotWin
        if !moverCannotWin {
          guard let outcome = wins(attacker: after, defender: other, attackerToMove: false)
          else { break }
          if case .attackerWins(let plies) = outcome { score = Score.win(in: plies + 1) }
          moverCannotWin = outcome == .defenderHolds
        }
        if score == nil && opponentCannotWin {
          isSafe = true
          score = 0
        }
        if score == nil {
          guard let outcome = wins(attacker: other, defender: after, attackerToMove: true)
          else { break }
          switch outcome {
          case .attackerWins(let plies): score = Score.loss(in: plies + 1)
          case .defenderHolds:
            isSafe = true
            if moverCannotWin { score = 0 }
          }
        }
      }
      for move in moves {
        if let score { result.scores[move] = score }
        if isSafe || (score ?? -1) >= 0 { result.safe.insert(move) }
      }
      done += 1
      result.movesDone = done
      winSearchNodes = winSearch?.nodes ?? 0
      progress?(nodes(), done, total)
    }
    return finished()
  }

  /// The cells of `empty`, those building or blocking the most lines first.
  static func promisingFirst(
    _ geometry: Geometry<UInt64>, _ empty: UInt64, mover: UInt64, other: UInt64
  ) -> [Int] {
    var scored: [(move: Int, value: Int)] = []
    var rest = empty
    while rest != 0 {
      let move = rest.trailingZeroBitCount
      rest &= rest &- 1
      var value = 0
      for slot in geometry.windowStart[move]..<geometry.windowStart[move + 1] {
        let window = geometry.windows[geometry.windowIndices[slot]]
        let own = (window & mover).nonzeroBitCount
        let theirs = (window & other).nonzeroBitCount
        if theirs == 0 { value += 2 << (2 * own) }
        if own == 0 { value += 1 << (2 * theirs) }
      }
      scored.append((move, value))
    }
    return scored.sorted { $0.value > $1.value || ($0.value == $1.value && $0.move < $1.move) }
      .map(\.move)
  }
}
