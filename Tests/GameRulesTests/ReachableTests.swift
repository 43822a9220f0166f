import GameRules
import Testing

struct ReachableTests {
  @Test func everyThreeByThreePositionOnceWithALineOfPlayToIt() throws {
    let all = Board.classic.reachablePositions()
    #expect(all.count == 5_478)
    #expect(Set(all.map(\.board)).count == all.count)
    #expect(all.first?.board == .classic && all.first?.moves == [])
    var fewest = 0
    for (board, moves) in all {
      // Fewest moves first, and each line of play reaches its position.
      #expect(moves.count >= fewest)
      fewest = moves.count
      #expect(board.markCount == moves.count)
      var replayed = Board.classic
      for cell in moves { try replayed.play(at: cell) }
      #expect(replayed == board)
    }
  }

  @Test func aFinishedBoardReachesOnlyItself() throws {
    let won = try Board(notation: "XXX/OO./...")
    #expect(won.reachablePositions().map(\.board) == [won])
    // 4×4 with three in a row from a crowded position: every child is listed once.
    let crowded = try Board(notation: "XO.X/OX../..../....", k: 3)
    let all = crowded.reachablePositions()
    #expect(Set(all.map(\.board)).count == all.count)
    #expect(all.allSatisfy { $0.board.markCount == crowded.markCount + $0.moves.count })
  }
}
