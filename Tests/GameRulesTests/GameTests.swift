import GameRules
import Testing

struct GameTests {
  private func cells(_ names: String...) -> [Cell] { names.compactMap { Cell(name: $0) } }

  @Test func undoAndRedoStepThroughHistory() throws {
    var game = Game()
    for cell in cells("b2", "a1", "c3") { try game.play(at: cell) }
    let full = game.board
    #expect(game.undo() == Cell(name: "c3"))
    #expect(game.board.notation == "o../.x./...")
    #expect(game.canRedo)
    #expect(game.redo() == Cell(name: "c3"))
    #expect(game.board == full)
    #expect(!game.canRedo)
  }

  @Test func newMoveForgetsRedo() throws {
    var game = try Game(start: .classic, moves: cells("b2", "a1"))
    game.undo()
    try game.play(at: #require(Cell(name: "c3")))
    #expect(!game.canRedo)
    #expect(game.moves == cells("b2", "c3"))
  }

  @Test func undoOnEmptyGameDoesNothing() {
    var game = Game()
    #expect(game.undo() == nil)
    #expect(game.redo() == nil)
    #expect(game == Game())
  }

  @Test func illegalMoveLeavesTheGameUnchanged() throws {
    var game = try Game(start: .classic, moves: cells("b2"))
    let before = game
    #expect(throws: MoveError.occupied(Cell(row: 1, column: 1))) {
      try game.play(at: Cell(row: 1, column: 1))
    }
    #expect(game == before)
  }

  @Test func replayListsEveryPosition() throws {
    let game = try Game(start: .classic, moves: cells("a1", "b1", "b2", "c1", "c3"))
    let positions = game.positions
    #expect(positions.count == 6)
    #expect(positions.first == .classic)
    #expect(positions.last == game.board)
    #expect(positions[2].notation == "xo./.../...")
    #expect(game.board.outcome.winner == .x)
  }
}
