/// How well the computer plays: one dial from 0 (weakest) to 1 (perfect) with named stops.
public struct Difficulty: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Where the dial stands, from 0 to 1.
  public let skill: Double

  /// Creates a difficulty, clamping `skill` to 0…1.
  public init(skill: Double) { self.skill = min(1, max(0, skill.isNaN ? 0 : skill)) }

  /// Plays plausible moves but often misses threats.
  public static let easy = Difficulty(skill: 0.25)
  /// Usually blocks and wins when it can, with occasional slips.
  public static let medium = Difficulty(skill: 0.5)
  /// Rarely errs and never misses a win in one.
  public static let hard = Difficulty(skill: 0.8)
  /// Perfect wherever the position can be solved.
  public static let unbeatable = Difficulty(skill: 1)

  /// The named stops, weakest first.
  public static let named: [(name: String, difficulty: Difficulty)] = [
    ("easy", .easy), ("medium", .medium), ("hard", .hard), ("unbeatable", .unbeatable),
  ]

  /// Parses `easy`, `medium`, `hard`, `unbeatable` (any case) or a number from 0 to 1.
  public init?(_ text: String) {
    let lowered = text.lowercased()
    if let stop = Difficulty.named.first(where: { $0.name == lowered }) {
      self = stop.difficulty
    } else if let skill = Double(text), skill >= 0, skill <= 1 {
      self.init(skill: skill)
    } else {
      return nil
    }
  }

  /// The stop's name in lowercase (`hard`), or the skill as a number (`0.6`).
  public var name: String {
    Difficulty.named.first { $0.difficulty == self }?.name ?? "\(skill)"
  }

  /// The name as shown to players: `Hard`, or `Skill 0.6`.
  public var displayName: String {
    guard let stop = Difficulty.named.first(where: { $0.difficulty == self }) else {
      return "Skill \(skill)"
    }
    return stop.name.prefix(1).uppercased() + stop.name.dropFirst()
  }

  public var description: String { name }

  public static func < (lhs: Difficulty, rhs: Difficulty) -> Bool { lhs.skill < rhs.skill }
}
