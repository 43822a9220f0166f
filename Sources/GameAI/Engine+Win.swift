package import GameRules

extension Engine {
  /// What a proof-number search settled about whether the side to move forces a line.
  package struct WinProof: Sendable {
    /// Whether the side to move forces a line; `nil` when the search was stopped.
    package var moverWins: Bool?
    /// With `fastest`, the length of the fastest forced line when the side to move wins.
    package var plies: Int?
    package var nodes: Int
    /// The root's proof and disproof numbers when the search ended.
    package var proof: Int
    package var disproof: Int
  }

  /// Whether the side to move on `board` (up to 64 cells) forces a line in the real game,
  /// settled by a proof-number search with a table of `2^tableBits` slots, and with
  /// `fastest` how fast; `progress` is
  /// called every 2^18 positions or so with the count and the root's proof and disproof
  /// numbers.
  package static func proveWin(
    _ board: Board, tableBits: Int = 22, nodeLimit: Int? = nil, fastest: Bool = false,
    progress: ((_ nodes: Int, _ proof: Int, _ disproof: Int) -> Void)? = nil
  ) -> WinProof {
    precondition(board.cellCount <= 64, "the proof-number search needs a 64-bit board")
    let search = WinSearch(
      rows: board.rows, columns: board.columns, k: board.k,
      table: ProofNumberTable(bits: tableBits))
    search.onCheck = progress
    search.nodeLimit = nodeLimit
    let (mover, other) = search.geometry.position(of: board)
    let wins = search.attackerWins(attacker: mover, defender: other, attackerToMove: true)
    let numbers = search.rootNumbers
    var plies: Int?
    if fastest && wins == true {
      plies = search.fastestWin(attacker: mover, defender: other, attackerToMove: true)
    }
    return WinProof(
      moverWins: search.isAborted ? nil : wins, plies: plies, nodes: search.nodes,
      proof: numbers.proof, disproof: numbers.disproof)
  }
}

extension Engine {
  /// A forced win found by the threat searches alone (a line in one, a chain of fours,
  /// threats through open threes) for the side to move on `board`, the searches the
  /// large-board engine runs at its root.
  package struct ThreatWin: Sendable {
    /// The first move and the plies to the win, `nil` when none was found.
    package var win: (cell: Cell, plies: Int)?
    package var nodes: Int
  }

  /// The threat searches' forced win for the side to move on `board` within `budget`.
  package static func threatWin(_ board: Board, budget: Duration) -> ThreatWin {
    ThreatWinWork(board: board, deadline: .now + budget).run(cells: board.cellCount)
  }

  private struct ThreatWinWork: BitBoardWork {
    let board: Board
    let deadline: ContinuousClock.Instant

    func run<B: BitBoard>(on _: B.Type) -> ThreatWin {
      let geometry = Geometry<B>(board)
      let (mover, other) = geometry.position(of: board)
      let explorer = Explorer(
        geometry: geometry, deadline: deadline, tableBits: 4, rootIsO: board.toMove == .o)
      let found = explorer.forcedWin(mover: mover, other: other)
      return ThreatWin(
        win: found.map { (geometry.cell(at: $0.move), Score.mate - $0.score) },
        nodes: explorer.nodes)
    }
  }
}

extension Engine {
  /// What the large-board search's deepening alone read from a position: its move, its score
  /// and the positions it searched.
  package struct Deepening: Sendable {
    package var move: Cell
    package var score: Int
    package var nodes: Int
  }

  /// The large-board search's deepening alone, without the root's threat searches, from
  /// `board` to `depth` plies on a new table: what the benchmark times to measure the
  /// positions the search reads a second.
  package static func deepen(_ board: Board, to depth: Int) -> Deepening {
    DeepeningWork(board: board, depth: depth).run(cells: board.cellCount)
  }

  private struct DeepeningWork: BitBoardWork {
    let board: Board
    let depth: Int

    func run<B: BitBoard>(on _: B.Type) -> Deepening {
      let geometry = Geometry<B>(board)
      let (mover, other) = geometry.position(of: board)
      let explorer = Explorer(
        geometry: geometry, deadline: .now + .seconds(3_600), tableBits: 19,
        rootIsO: board.toMove == .o)
      let found = explorer.deepening(mover: mover, other: other, depth: depth)
      return Deepening(
        move: geometry.cell(at: found.move), score: found.score, nodes: explorer.nodes)
    }
  }
}
