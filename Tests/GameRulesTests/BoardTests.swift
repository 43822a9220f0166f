import GameRules
import Testing

struct BoardTests {
  @Test func emptyClassicBoardHasXToMove() {
    let board = Board.classic
    #expect(board.toMove == .x)
    #expect(board.outcome == .inProgress)
    #expect(board.emptyCells.count == 9)
    #expect(board.notation == ".../.../...")
  }

  @Test func playingAlternatesAndLeavesTheOriginalAlone() throws {
    let board = Board.classic
    let next = try board.playing(at: Cell(row: 1, column: 1))
    #expect(board.isEmpty)
    #expect(next[1, 1] == .x)
    #expect(next.toMove == .o)
  }

  @Test func occupiedSquareIsRejected() throws {
    var board = try Board.classic.playing(at: Cell(row: 0, column: 0))
    let before = board
    #expect(throws: MoveError.occupied(Cell(row: 0, column: 0))) {
      try board.play(at: Cell(row: 0, column: 0))
    }
    #expect(board == before)
    #expect(MoveError.occupied(Cell(row: 0, column: 0)).description == "a1 is taken.")
  }

  @Test func cellOffTheBoardIsRejected() {
    var board = Board.classic
    #expect(throws: MoveError.outOfBounds(Cell(row: 3, column: 0))) {
      try board.play(at: Cell(row: 3, column: 0))
    }
    #expect(board.isEmpty)
  }

  @Test func moveAfterTheGameIsOverIsRejected() throws {
    var board = try Board(notation: "xxx/oo./...")
    #expect(board.outcome.winner == .x)
    let before = board
    #expect(throws: MoveError.gameOver) { try board.play(at: Cell(row: 2, column: 2)) }
    #expect(board == before)
  }

  @Test func winReportsTheLineInOrder() throws {
    var board = Board.classic
    for name in ["a1", "a2", "b2", "a3", "c3"] {
      try board.play(at: #require(Cell(name: name)))
    }
    #expect(board.outcome == .win(.x, line: ["a1", "b2", "c3"].compactMap { Cell(name: $0) }))
  }

  @Test func fullBoardWithoutLineIsDraw() throws {
    let board = try Board(notation: "xox/xoo/oxx")
    #expect(board.outcome == .draw)
    #expect(board.isFull)
  }

  @Test func sizesOutsideThreeToFifteenAreRejected() {
    #expect(throws: BoardError.sizeOutOfRange(rows: 2, columns: 3)) {
      try Board(rows: 2, columns: 3, k: 3)
    }
    #expect(throws: BoardError.sizeOutOfRange(rows: 16, columns: 16)) { try Board(size: 16) }
    #expect(throws: BoardError.lineLengthOutOfRange(k: 5, rows: 4, columns: 4)) {
      try Board(rows: 4, columns: 4, k: 5)
    }
    #expect(throws: BoardError.lineLengthOutOfRange(k: 2, rows: 3, columns: 3)) {
      try Board(rows: 3, columns: 3, k: 2)
    }
  }

  @Test func defaultLineLengthIsTheShorterSideUpToFive() throws {
    #expect(try Board(size: 3).k == 3)
    #expect(try Board(size: 4).k == 4)
    #expect(try Board(size: 15).k == 5)
    #expect(Board.defaultK(rows: 3, columns: 4) == 3)
  }

  @Test func oCanMoveFirst() throws {
    let board = try Board(rows: 3, columns: 3, k: 3, firstMover: .o)
    #expect(board.toMove == .o)
    #expect(try board.playing(at: Cell(row: 0, column: 0))[0, 0] == .o)
  }

  /// Plays `k` marks for X along a direction from `start`, with O answering far away.
  private func lineWin(
    size: Int, k: Int, start: Cell, step: (Int, Int)
  ) throws -> Board {
    var board = try Board(rows: size, columns: size, k: k)
    let line = (0..<k).map {
      Cell(row: start.row + $0 * step.0, column: start.column + $0 * step.1)
    }
    var spares = board.cells.filter { cell in
      !line.contains(cell)
        && line.allSatisfy { abs($0.row - cell.row) + abs($0.column - cell.column) > 1 }
    }
    for (index, cell) in line.enumerated() {
      try board.play(at: cell)
      if index < k - 1 {
        // Spread O's marks so they never make a line of their own.
        let spare = spares.removeFirst()
        spares.removeAll { abs($0.row - spare.row) <= 1 && abs($0.column - spare.column) <= 1 }
        try board.play(at: spare)
      }
    }
    return board
  }

  @Test(arguments: [(5, 4), (15, 5)])
  func winsAlongEveryDirection(size: Int, k: Int) throws {
    let starts: [(Cell, (Int, Int))] = [
      (Cell(row: 1, column: 0), (0, 1)),
      (Cell(row: 0, column: 1), (1, 0)),
      (Cell(row: 0, column: 0), (1, 1)),
      (Cell(row: 0, column: size - 1), (1, -1)),
    ]
    for (start, step) in starts {
      let board = try lineWin(size: size, k: k, start: start, step: step)
      let expected = (0..<k).map {
        Cell(row: start.row + $0 * step.0, column: start.column + $0 * step.1)
      }
      #expect(board.outcome == .win(.x, line: expected), "direction \(step)")
    }
  }

  @Test func shortLineDoesNotWin() throws {
    let board = try Board(notation: "xxx../...../oo.../...../.o...", k: 4)
    #expect(board.outcome == .inProgress)
  }

  @Test func overlinesCount() throws {
    // X completes five in a row with k = 4 by filling the gap in the middle.
    var board = try Board(notation: "xx.xx/ooo../o..../...../.....", k: 4)
    try board.play(at: Cell(row: 0, column: 2))
    #expect(board.outcome.winner == .x)
    #expect(board.outcome.winningLine.count == 5)
  }

  @Test func symmetriesMapTheBoardOntoItself() throws {
    let board = try Board(notation: "xo./.x./...")
    for symmetry in Symmetry.allCases {
      let image = board.transformed(by: symmetry)
      #expect(image.markCount == board.markCount)
      #expect(image.count(of: .x) == 2)
    }
    #expect(board.transformed(by: .rotate90).notation == "..x/.xo/...")
    #expect(board.transformed(by: .mirrorLeftRight).notation == ".ox/.x./...")
    #expect(board.transformed(by: .transpose).notation == "x../ox./...")
    #expect(Symmetry.of(rows: 3, columns: 4).count == 4)
    #expect(Symmetry.of(rows: 4, columns: 4).count == 8)
  }
}
