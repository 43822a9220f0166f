import GameRules

extension Engine {
  /// A move as a player of the given skill (0 ≤ skill < 1) might choose it.
  ///
  /// The chances grow with skill: taking a win in one (always from Hard up), blocking the
  /// opponent's win in one, and playing the engine's best move. Otherwise the move is drawn
  /// among the cells near the play, weighted by how many lines they build or block, more
  /// sharply the higher the skill.
  func humanMove(
    _ board: Board, skill: Double, using generator: inout some RandomNumberGenerator
  ) -> Cell? {
    let tactics: Tactics =
      switch board.cellCount {
      case ...64: Engine.tactics(UInt64.self, board)
      case ...128: Engine.tactics(UInt128.self, board)
      default: Engine.tactics(Bits256.self, board)
      }
    let takesWin = skill >= Difficulty.hard.skill ? 1 : 0.6 + 0.5 * skill
    if !tactics.wins.isEmpty, Double.random(in: 0..<1, using: &generator) < takesWin {
      return tactics.wins.randomElement(using: &generator)
    }
    let blocks = 0.4 + 0.6 * skill
    if !tactics.blocks.isEmpty, Double.random(in: 0..<1, using: &generator) < blocks {
      return tactics.blocks.randomElement(using: &generator)
    }
    let playsBest = skill * skill
    if Double.random(in: 0..<1, using: &generator) < playsBest {
      return perfectChoices(board, budget: timeBudget * skill).randomElement(using: &generator)
    }
    // Sharper preferences with skill: weight = (plausibility + 1) ^ (1 + ⌊3 skill⌋).
    let exponent = 1 + Int(3 * skill)
    let weights = tactics.plausible.map { candidate in
      (0..<exponent).reduce(1.0) { product, _ in product * Double(candidate.value + 1) }
    }
    let total = weights.reduce(0, +)
    guard total > 0 else { return board.emptyCells.randomElement(using: &generator) }
    var pick = Double.random(in: 0..<total, using: &generator)
    for (index, weight) in weights.enumerated() {
      pick -= weight
      if pick < 0 { return tactics.plausible[index].cell }
    }
    return tactics.plausible.last?.cell
  }

  private struct Tactics {
    /// Cells where the side to move wins at once.
    var wins: [Cell]
    /// Cells where the opponent would win at once.
    var blocks: [Cell]
    /// Cells near the play with how many lines each builds or blocks, in reading order.
    var plausible: [(cell: Cell, value: Int)]
  }

  private static func tactics<B: BitBoard>(_: B.Type, _ board: Board) -> Tactics {
    let geometry = Geometry<B>(board)
    let (mover, other) = geometry.position(of: board)
    let empty = geometry.full & ~(mover | other)
    let wins = geometry.threats(of: mover, against: other) & empty
    let blocks = geometry.threats(of: other, against: mover) & empty
    let explorer = Explorer(geometry: geometry, deadline: .now, tableBits: 0)
    let candidates = explorer.candidates(mover: mover, other: other)
    let values = explorer.plausibility(candidates, mover: mover, other: other)
    return Tactics(
      wins: wins.indices.map(geometry.cell(at:)),
      blocks: blocks.indices.map(geometry.cell(at:)),
      plausible: values.map { (geometry.cell(at: $0.move), $0.value) })
  }
}
