import GameRules
import Testing

@testable import GameAI

/// The threat-space search through fours and open threes: its memory of failed positions
/// changes no answer.
struct ThreatSpaceMemoryTests {
  /// The depth-first threat-space search's answer for `colour`, with or without its memory.
  ///
  /// The answer is a move and its plies, or none; `nil` when the search ran out of time. The
  /// side is searched as if it were to move. The memory lives in the depth-first search
  /// alone, so that is the search on trial: the whole threat-space search hands its time out
  /// in shares, and a longer deadline would change which of its searches answers.
  ///
  /// The search without memory has a second; the one with memory, which only skips
  /// positions, ten, so that a machine busy with other tests cannot make it run out where
  /// the plain search finished.
  static func answer(
    _ threats: ThreatSearch<Bits256>, for colour: Int, narrow: Bool, remembering: Bool
  ) -> [Int]?? {
    threats.remembersThreats = remembering
    defer { threats.remembersThreats = true }
    let win = threats.depthFirstWin(
      for: colour, until: .now + .seconds(remembering ? 10 : 1), blockMustThreaten: narrow)
    return threats.threatStopped ? nil : .some(win.map { [$0.move, $0.plies] })
  }

  /// The plain answer and, where it finished, the answer with memory.
  static func answers(
    _ threats: ThreatSearch<Bits256>, for colour: Int, narrow: Bool
  ) -> (plain: [Int]??, remembered: [Int]??) {
    let plain = answer(threats, for: colour, narrow: narrow, remembering: false)
    guard plain != nil else { return (nil, nil) }
    return (plain, answer(threats, for: colour, narrow: narrow, remembering: true))
  }

  /// For both sides and both kinds of depth-first search, after each stone of a 15×15 game,
  /// wherever the search without memory finishes within its time.
  @Test func remembersWithoutChangingAnAnswer() throws {
    var compared = 0
    var wins = 0
    for count in 12...20 {
      let board = try ChainOfFoursTests.board(after: count)
      let answers = ChainOfFoursTests.withThreats(board) { threats in
        [0, 1].flatMap { colour in
          [true, false].map { narrow in
            (colour, narrow, Self.answers(threats, for: colour, narrow: narrow))
          }
        }
      }
      for (colour, narrow, pair) in answers ?? [] {
        guard case .some(let plain) = pair.plain else { continue }
        #expect(
          pair.remembered == .some(plain),
          "after \(count) stones, colour \(colour), \(narrow ? "narrow" : "wide")")
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
        Self.answers(threats, for: 0, narrow: true)
      })
    let plain = try #require(answers.plain, "the search without memory ran out of time")
    let win = try #require(plain)
    #expect(win[1] >= 5, "a win in \(win[1]) plies")
    #expect(answers.remembered == .some(plain))
  }
}
