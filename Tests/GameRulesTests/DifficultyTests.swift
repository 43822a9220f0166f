import GameRules
import Testing

struct DifficultyNameTests {
  @Test func aDifficultyIsANameOrADecimalFrom0To1() {
    #expect(Difficulty("Hard") == .hard)
    #expect(Difficulty("0.6") == Difficulty(skill: 0.6))
    #expect(Difficulty(".25") == .easy)
    #expect(Difficulty("1") == .unbeatable)
    // The top level's name on the boards where it cannot promise never to lose.
    #expect(Difficulty("Strongest") == .unbeatable)
    #expect(Difficulty("strongest") == .unbeatable)
    // What Double would read besides: a sign, hexadecimal, exponents, nan.
    for text in ["-0", "+0.5", "0x0.8", "1e-1", "nan", "1.5", "", " 0.5", "0.5."] {
      #expect(Difficulty(text) == nil, "\(text)")
    }
  }

  @Test func theTopLevelIsUnbeatableOnlyWhereItCanPromiseIt() {
    let top = Difficulty.unbeatable
    #expect(top.displayName(rows: 3, columns: 3, k: 3) == "Unbeatable")
    #expect(top.displayName(rows: 7, columns: 7, k: 5) == "Unbeatable")
    #expect(top.displayName(rows: 4, columns: 7, k: 4) == "Unbeatable")
    #expect(top.displayName(rows: 15, columns: 15, k: 5) == "Strongest")
    #expect(top.displayName(rows: 4, columns: 4, k: 3) == "Strongest")
    #expect(top.displayName(rows: 8, columns: 8, k: 5) == "Strongest")
    #expect(top.displayName(rows: 9, columns: 9, k: 8) == "Strongest")
    for level in [Difficulty.easy, .medium, .hard, Difficulty(skill: 0.6)] {
      #expect(level.displayName(rows: 15, columns: 15, k: 5) == level.displayName)
    }
  }

  @Test func theHelpSaysWhyTheTopLevelIsOnlyTheStrongest() throws {
    #expect(Difficulty.strongestReason(rows: 3, columns: 3, k: 3) == nil)
    let gomoku = try #require(Difficulty.strongestReason(rows: 15, columns: 15, k: 5))
    #expect(gomoku.contains("15×15 with 5 in a row the first player wins with perfect play"))
    // The first player's win is no reason the computer could lose when it moves first.
    #expect(gomoku.contains("cannot promise never to lose when it moves second"))
    let large = try #require(Difficulty.strongestReason(rows: 10, columns: 10, k: 6))
    #expect(large.contains("cannot prove every position"))
  }

  @Test func everyShapeHasOneNameAndAReasonExactlyWhenStrongest() throws {
    for rows in Board.minimumSide...Board.maximumSide {
      for columns in Board.minimumSide...Board.maximumSide {
        for k in Board.kRange(rows: rows, columns: columns) {
          let promised = Difficulty.promisesNeverLosing(rows: rows, columns: columns, k: k)
          let name = Difficulty.unbeatable.displayName(rows: rows, columns: columns, k: k)
          #expect(name == (promised ? "Unbeatable" : "Strongest"))
          let reason = Difficulty.strongestReason(rows: rows, columns: columns, k: k)
          #expect((reason == nil) == promised, "\(rows)×\(columns) k \(k)")
          #expect(
            Difficulty.promisesNeverLosing(rows: columns, columns: rows, k: k) == promised,
            "a turned board is the same game")
        }
      }
    }
  }
}
