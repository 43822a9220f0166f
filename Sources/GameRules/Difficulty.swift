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

  /// Parses `easy`, `medium`, `hard`, `unbeatable` (any case), `strongest` (the top level's
  /// name on the boards where it cannot promise never to lose) or a number from 0 to 1.
  public init?(_ text: String) {
    let lowered = text.lowercased()
    if let stop = Difficulty.named.first(where: { $0.name == lowered }) {
      self = stop.difficulty
    } else if lowered == Difficulty.strongestName.lowercased() {
      self = .unbeatable
    } else if let skill = Double(decimal: text), skill >= 0, skill <= 1 {
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

// MARK: - What the top level promises

extension Difficulty {
  /// Whether the top level can promise never to lose on a board of this shape: the game is a
  /// draw under perfect play and the engine proves positions of it within a move's budget.
  ///
  /// These are the shapes whose empty board the engine proves a draw in well under a second
  /// on a two-core machine (the benchmark's `--deep` run checks every one): 3×3 with three in
  /// a row; four in a row with a side of 3, on 4×4 to 4×7 and on 5×5; five in a row with a
  /// side of 3 or 4 or on at most 49 cells (7×7 at most); six or more in a row on boards of up
  /// to 64 cells. Elsewhere the first player wins with perfect play (three in a row beyond
  /// 3×3, four in a row from 5×6 and 4×9, five in a row on 15×15), so the second player cannot
  /// hold, or the engine cannot prove every position in time.
  public static func promisesNeverLosing(rows: Int, columns: Int, k: Int) -> Bool {
    let shorter = min(rows, columns)
    let longer = max(rows, columns)
    let cells = rows * columns
    guard cells <= 64 else { return false }
    switch k {
    case ...3: return rows == 3 && columns == 3
    case 4: return shorter == 3 || (shorter == 4 && longer <= 7) || (rows == 5 && columns == 5)
    case 5: return shorter <= 4 || cells <= 49
    default: return true
    }
  }

  /// Whether the first player is known to win a board of this shape with perfect play.
  static func firstPlayerWins(rows: Int, columns: Int, k: Int) -> Bool {
    let shorter = min(rows, columns)
    let longer = max(rows, columns)
    switch k {
    case ...3: return !(rows == 3 && columns == 3)
    case 4: return (shorter >= 5 && longer >= 6) || (shorter == 4 && longer >= 9)
    case 5: return rows == 15 && columns == 15
    default: return false
    }
  }

  /// The name shown to players on a board of this shape: the top level is `Unbeatable` where
  /// it can promise never to lose (``promisesNeverLosing(rows:columns:k:)``) and `Strongest`
  /// elsewhere; the other levels keep ``displayName``.
  public func displayName(rows: Int, columns: Int, k: Int) -> String {
    isStrongest(rows: rows, columns: columns, k: k) ? Self.strongestName : displayName
  }

  /// The top level's name where it cannot promise never to lose.
  public static let strongestName = "Strongest"

  /// Whether this is the top level on a board where it is named ``strongestName``.
  public func isStrongest(rows: Int, columns: Int, k: Int) -> Bool {
    self == .unbeatable && !Difficulty.promisesNeverLosing(rows: rows, columns: columns, k: k)
  }

  /// Why the top level is called `Strongest` on a board of this shape, in one sentence, or
  /// `nil` where it is `Unbeatable`.
  public static func strongestReason(rows: Int, columns: Int, k: Int) -> String? {
    guard !promisesNeverLosing(rows: rows, columns: columns, k: k) else { return nil }
    let board = "\(rows)×\(columns) with \(k) in a row"
    if firstPlayerWins(rows: rows, columns: columns, k: k) {
      return "On \(board) the first player wins with perfect play, so the computer cannot "
        + "promise never to lose when it moves second; it plays its strongest."
    }
    return "On \(board) the computer plays its strongest, but cannot prove every position "
      + "within a move's time, so it cannot promise never to lose."
  }
}

extension Double {
  /// The number written in `text` as ASCII digits with at most a decimal point, such as `0.5`
  /// or `.25`; `nil` for anything else, where `Double(_:)` would also read hexadecimal (`0x10`
  /// is 16), exponents, `nan` and `inf`.
  public init?(decimal text: some StringProtocol) {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Double(text)
    else { return nil }
    self = value
  }
}
