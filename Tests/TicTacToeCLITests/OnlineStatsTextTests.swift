import DatabaseClient
import GameProtocol
import GameRules
import TestSupport
import Testing

@testable import TicTacToeCLI

/// `stats --server` words a server's record as `stats` words this computer's.
struct OnlineStatsTextTests {
  let server = ServerAddress(host: "example.org", port: 7_000)

  func stats(_ name: String, wins: Int, losses: Int, draws: Int) -> PlayerStats {
    PlayerStats(
      userName: name, rating: 1_216, wins: wins, losses: losses, draws: draws, currentStreak: 2,
      bestStreak: 3)
  }

  @Test func aRecordReadsLikeThisComputersRecords() {
    #expect(
      OnlineFormatting.statsText(stats("ann", wins: 3, losses: 1, draws: 0), server: server) == """
        Stats for ann on example.org:7000: 4 games: 3 wins, 1 loss, 0 draws (win rate 75%).
        Rating: 1216.
        Current streak: 2 wins; best streak: 3 wins.
        """)
    // 1 of 8 is 12.5 %: rounded half up, as the local records round.
    #expect(
      OnlineFormatting.statsText(stats("ann", wins: 1, losses: 7, draws: 0), server: server)
        .hasPrefix(
          "Stats for ann on example.org:7000: 8 games: 1 win, 7 losses, 0 draws (win rate 13%)."))
  }

  @Test func noGamesYetAndAHostileName() {
    #expect(
      OnlineFormatting.statsText(stats("ann", wins: 0, losses: 0, draws: 0), server: server)
        == "No finished online games yet for ann on example.org:7000; rating 1216.")
    let text = OnlineFormatting.statsText(
      stats("a\u{1B}[2Jb", wins: 1, losses: 0, draws: 0), server: server)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func aListingFromAHostileServerPrintsNoControlCharacter() {
    let listing = GameListing(
      code: "\u{1B}]0;PWNED\u{7}\u{1B}[2J", isOpen: true, xName: "a\u{9B}31m", oName: nil,
      rows: 3, columns: 3, k: 3, moveCount: 0)
    let text = OnlineFormatting.listingText(listing)
    #expect(text.unicodeScalars.allSatisfy { $0.isPrintable })
    #expect(text.hasPrefix("\\u{1B}]0;PWNED\\u{7}\\u{1B}[2J  open"))
    let json = OnlineFormatting.gamesJSON([listing])
    #expect(json.unicodeScalars.allSatisfy { $0.isPrintable })
  }
}

/// The replay of a game its moves did not finish says how it ended and who won.
struct ReplayEndingTests {
  func replay(_ result: GameResult?) throws -> String {
    let record = GameRecord(
      id: 3, x: PlayerRecord(name: "ann"), o: PlayerRecord(name: "b\u{1B}[2Jo"),
      moves: [.b2, .a1], result: result, startedAt: 0, endedAt: 60_000)
    return try #require(RecordFormatting.replayText(record))
  }

  @Test func aResignationOrAForfeitNamesTheWinner() throws {
    #expect(
      try replay(.xWins).hasSuffix(
        "The game stopped here: ann (X) won, as b\\u{1B}[2Jo (O) resigned or did not come back "
          + "in time."))
    #expect(try replay(.oWins).contains("b\\u{1B}[2Jo (O) won, as ann (X) resigned"))
    #expect(try replay(.draw).hasSuffix("The game stopped here, counted a draw."))
    #expect(try replay(nil).hasSuffix("The game stopped here."))
  }
}
