import GameRules

extension Engine {
  /// A move as a player of the given skill (0 ≤ skill < 1) might choose it.
  ///
  /// The chances grow with skill: taking a win in one (always from Hard up), blocking the
  /// opponent's win in one, and playing its best move, found by looking a few moves ahead
  /// (more with skill) without the engine's long threat searches. Like people, lower levels
  /// overlook a line with a gap inside (`xx.xx`) more often than one open at its end
  /// (`xxxx.`). Otherwise the move is drawn among the cells near the play, weighted by how
  /// many lines they build or block, more sharply the higher the skill.
  func humanMove(
    _ board: Board, skill: Double, budget: Duration,
    using generator: inout some RandomNumberGenerator
  ) -> Cell? {
    let tactics = TacticsWork(board: board).run(cells: board.cellCount)
    // How much harder a line with a gap inside is to see than one open at its end.
    let gapPenalty = 0.5 + 0.5 * skill
    let takesWin = skill >= Difficulty.hard.skill ? 1 : 0.6 + 0.5 * skill
    if let win = Engine.noticed(
      tactics.wins, chance: takesWin,
      hiddenChance: skill >= Difficulty.hard.skill
        ? 1 : takesWin * gapPenalty, using: &generator)
    {
      return win
    }
    // Up to Medium, a block is seen about half the time; above, more often with skill.
    let blocks = 0.55 + 0.45 * max(0, skill - Difficulty.medium.skill)
    if let block = Engine.noticed(
      tactics.blocks, chance: blocks, hiddenChance: blocks * gapPenalty, using: &generator)
    {
      return block
    }
    // On a large board a win or block the player overlooked stays overlooked: it plays as if
    // the line were not there, rather than finding it again by reading ahead. On 3×3, where
    // every line is in plain sight, reading ahead may still find it.
    let isClassic = board.rows == 3 && board.columns == 3
    let overlooked = isClassic ? [] : (tactics.wins + tactics.blocks).map(\.cell)
    let playsBest = skill * skill
    if overlooked.isEmpty && Double.random(in: 0..<1, using: &generator) < playsBest {
      // Its best is that of a player who reads a few moves ahead: one ply for Easy, two for
      // Medium, three for Hard, and no long threat sequences. On 3×3 it is the perfect move.
      if isClassic {
        return perfectChoices(board, budget: budget).randomElement(using: &generator)
      }
      return SearchMove(
        engine: self, board: board, deadline: .now + budget * skill,
        maximumDepth: max(1, Int(4 * skill))
      ).run(cells: board.cellCount).cell
    }
    // Sharper preferences with skill: weight = (plausibility + 1) ^ (1 + ⌊3 skill⌋).
    let exponent = 1 + Int(3 * skill)
    var plausible = tactics.plausible.filter { !overlooked.contains($0.cell) }
    if plausible.isEmpty { plausible = tactics.plausible }
    let weights = plausible.map { candidate in
      (0..<exponent).reduce(1.0) { product, _ in product * Double(candidate.value + 1) }
    }
    let total = weights.reduce(0, +)
    guard total > 0 else { return board.emptyCells.randomElement(using: &generator) }
    var pick = Double.random(in: 0..<total, using: &generator)
    for (index, weight) in weights.enumerated() {
      pick -= weight
      if pick < 0 { return plausible[index].cell }
    }
    return plausible.last?.cell
  }

  /// A cell of `cells` that the player notices, if any: one in plain sight with probability
  /// `chance`, else one inside a gapped line with probability `hiddenChance`.
  private static func noticed(
    _ cells: [(cell: Cell, isHidden: Bool)], chance: Double, hiddenChance: Double,
    using generator: inout some RandomNumberGenerator
  ) -> Cell? {
    guard !cells.isEmpty else { return nil }
    let roll = Double.random(in: 0..<1, using: &generator)
    let plain = cells.filter { !$0.isHidden }
    if !plain.isEmpty, roll < chance { return plain.randomElement(using: &generator)?.cell }
    let hidden = cells.filter(\.isHidden)
    if !hidden.isEmpty, roll < hiddenChance {
      return hidden.randomElement(using: &generator)?.cell
    }
    return nil
  }

  private struct Tactics {
    /// Cells where the side to move wins at once, and whether each only fills a gap inside
    /// its line.
    var wins: [(cell: Cell, isHidden: Bool)]
    /// Cells where the opponent would win at once, and whether each only fills a gap inside
    /// its line.
    var blocks: [(cell: Cell, isHidden: Bool)]
    /// Cells near the play with how many lines each builds or blocks, in reading order.
    var plausible: [(cell: Cell, value: Int)]
  }

  private struct TacticsWork: BitBoardWork {
    let board: Board

    func run<B: BitBoard>(on _: B.Type) -> Tactics { Engine.tactics(B.self, board) }
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
    /// Whether no line that `cell` completes for `marks` has `cell` at one of its ends.
    func isHidden(_ cell: Int, for marks: B) -> Bool {
      for slot in geometry.windowStart[cell]..<geometry.windowStart[cell + 1] {
        let window = geometry.windows[geometry.windowIndices[slot]]
        let ends = window.indices
        if (window & marks).nonzeroBitCount == geometry.k - 1,
          cell == ends.first || cell == ends.last
        {
          return false
        }
      }
      return true
    }
    return Tactics(
      wins: wins.indices.map { (geometry.cell(at: $0), isHidden($0, for: mover)) },
      blocks: blocks.indices.map { (geometry.cell(at: $0), isHidden($0, for: other)) },
      plausible: values.map { (geometry.cell(at: $0.move), $0.value) })
  }
}
