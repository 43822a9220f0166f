import GameRules
import Testing

@testable import GameAI

/// The threat-space search through fours and open threes: its memory of failed positions
/// changes no answer.
struct ThreatSpaceMemoryTests {
  /// The search's answer for `colour` (the side not to move as if it were), as move and
  /// plies, with or without its memory; `nil` when it ran out of time.
  static func answer(
    _ threats: ThreatSearch<Bits256>, for colour: Int, remembering: Bool
  ) -> [Int]?? {
    threats.remembersThreats = remembering
    defer { threats.remembersThreats = true }
    let win = threats.threatSpaceWin(for: colour, until: .now + .seconds(1))
    return threats.threatStopped ? nil : .some(win.map { [$0.move, $0.plies] })
  }

  /// For both sides, after each stone of a 15×15 game, wherever the search without memory
  /// finishes within its time.
  @Test func remembersWithoutChangingAnAnswer() throws {
    var compared = 0
    var wins = 0
    for count in 12...20 {
      let board = try ChainOfFoursTests.board(after: count)
      let answers = ChainOfFoursTests.withThreats(board) { threats in
        (0...1).map { colour in
          [
            Self.answer(threats, for: colour, remembering: false),
            Self.answer(threats, for: colour, remembering: true),
          ]
        }
      }
      for (colour, pair) in (answers ?? []).enumerated() {
        guard case .some(let plain) = pair[0] else { continue }
        #expect(pair[1] == .some(plain), "after \(count) stones, colour \(colour)")
        compared += 1
        if plain != nil { wins += 1 }
      }
    }
    #expect(compared >= 5, "\(compared) compared")
    #expect(wins >= 2, "\(wins) wins")
  }

  /// Wins through open threes on a nearly empty board, read three threats deep or more.
  @Test(arguments: ThreatSpaceTests.winsThroughOpenThrees)
  func remembersADeepWin(x: [String], o: [String]) throws {
    let board = try gomoku(x: x, o: o)
    let answers = try #require(
      ChainOfFoursTests.withThreats(board) { threats in
        [
          Self.answer(threats, for: 0, remembering: false),
          Self.answer(threats, for: 0, remembering: true),
        ]
      })
    let plain = try #require(answers[0], "the search without memory ran out of time")
    let win = try #require(plain)
    #expect(win[1] >= 5, "a win in \(win[1]) plies")
    #expect(answers[1] == .some(plain))
  }
}
