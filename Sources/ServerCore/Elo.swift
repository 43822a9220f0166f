public import GameRules

/// Elo ratings: every account starts at 1200 and a game moves both ratings by up to 32 points.
public enum Elo {
  /// A new account's rating.
  public static let initialRating = 1_200.0

  /// The most a single game moves a rating.
  public static let factor = 32.0

  /// The ratings after a game.
  ///
  /// - Parameters:
  ///   - x: X's rating before the game.
  ///   - o: O's rating before the game.
  ///   - winner: The winner, or `nil` for a draw.
  /// - Returns: X's and O's new ratings; together they keep the sum.
  public static func ratings(x: Double, o: Double, winner: Mark?) -> (x: Double, o: Double) {
    let expectedX = 1 / (1 + pow10((o - x) / 400))
    let scoreX: Double =
      switch winner {
      case .x: 1
      case .o: 0
      case nil: 0.5
      }
    let change = factor * (scoreX - expectedX)
    return (x + change, o - change)
  }

  /// A rating as shown: rounded to a whole number.
  public static func shown(_ rating: Double) -> Int { Int(rating.rounded()) }

  /// 10 to the power `exponent`, without Foundation.
  private static func pow10(_ exponent: Double) -> Double {
    // e^(exponent · ln 10) by range reduction and a Taylor series: exact enough for ratings.
    let ln10 = 2.302_585_092_994_046
    var power = exponent * ln10
    var halvings = 0
    while abs(power) > 0.5 {
      power /= 2
      halvings += 1
    }
    var term = 1.0
    var sum = 1.0
    for index in 1...20 {
      term *= power / Double(index)
      sum += term
    }
    for _ in 0..<halvings { sum *= sum }
    return sum
  }
}
