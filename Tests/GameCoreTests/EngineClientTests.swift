import GameAI
import GameCore
import GameRules
import TestSupport
import Testing

struct EngineClientTests {
  @Test
  func theEngineClientTakesAWinInOne() async throws {
    let engine = EngineClient.engine(Engine(), seed: 1)
    let board = try Board(notation: "xx./oo./...")
    #expect(await engine.chooseMove(board, .unbeatable) == .c1)
    #expect(await engine.hint(board) == .c1)
    #expect(await engine.analyze(board).best == [.c1])
  }

  @Test
  func theEngineClientHasNoMoveOnAFinishedBoard() async throws {
    let engine = EngineClient.engine(Engine(), seed: 1)
    let board = try Board(notation: "xxx/oo./...")
    #expect(await engine.chooseMove(board, .easy) == nil)
  }
}
