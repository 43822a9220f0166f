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
