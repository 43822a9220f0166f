import GameRules
import Testing

struct NotationTests {
  @Test func everyReachablePositionRoundTrips() throws {
    let positions = Board.classic.reachablePositions().map(\.board)
    #expect(positions.count == 5_478)
    for board in positions {
      let parsed = try Board(notation: board.notation)
      #expect(parsed == board, "\(board.notation)")
      #expect(parsed.outcome == board.outcome || parsed.outcome.winner == board.outcome.winner)
    }
  }

  @Test func notationAcceptsOnlyReachablePositions() {
    // Of all 3^9 fillings, exactly the reachable ones parse.
    let reachable = Set(Board.classic.reachablePositions().map(\.board).map(\.notation))
    var accepted = 0
    for code in 0..<19_683 {
      var digits = code
      var rows: [String] = []
      for _ in 0..<3 {
        var row = ""
        for _ in 0..<3 {
          row.append(["." as Character, "x", "o"][digits % 3])
          digits /= 3
        }
        rows.append(row)
      }
      let text = rows.joined(separator: "/")
      if (try? Board(notation: text)) != nil {
        accepted += 1
        #expect(reachable.contains(text), "\(text) parsed but is not reachable")
      }
    }
    #expect(accepted == 5_478)
  }

  @Test func caseAndWhitespaceAreIgnored() throws {
    let board = try Board(notation: " X.o / .x. / ..O ")
    #expect(board.notation == "x.o/.x./..o")
    #expect(board.toMove == .x)
  }

  @Test func rectangularBoardsParse() throws {
    let board = try Board(notation: "x.../..o./....")
    #expect(board.rows == 3)
    #expect(board.columns == 4)
    #expect(board.k == 3)
  }

  @Test(arguments: [
    ("", NotationError.empty),
    ("x.o/.x/..o", .raggedRows(row: 2, expected: 3, found: 2)),
    ("x.o/.q./..o", .badCharacter("q", row: 2, column: 2)),
    ("xx/oo", .board(.sizeOutOfRange(rows: 2, columns: 2))),
    ("xxx/.../...", .impossibleCounts(x: 3, o: 0)),
    ("ooo/x../x..", .impossibleCounts(x: 2, o: 3)),
    ("xxx/ooo/x.o", .bothSidesWin),
    ("xxx/oo./o..", .playedAfterWin(.x)),
    ("ooo/xx./x.x", .playedAfterWin(.o)),
    ("xxx/o.o/xxx/o.o/o..", .tooManyLines(.x)),
  ])
  func everyWayToBeWrongHasItsOwnMessage(text: String, expected: NotationError) {
    #expect(throws: expected) { try Board(notation: text) }
  }

  @Test func messagesAreDistinctSentences() {
    let errors: [NotationError] = [
      .empty, .raggedRows(row: 2, expected: 3, found: 2), .badCharacter("q", row: 1, column: 1),
      .board(.sizeOutOfRange(rows: 2, columns: 2)), .impossibleCounts(x: 3, o: 0), .bothSidesWin,
      .playedAfterWin(.x), .tooManyLines(.x),
    ]
    let messages = errors.map(\.description)
    #expect(Set(messages).count == messages.count)
    for message in messages { #expect(message.hasSuffix(".")) }
  }

  @Test func kTooLongForTheBoardIsRejected() {
    #expect(throws: NotationError.board(.lineLengthOutOfRange(k: 4, rows: 3, columns: 3))) {
      try Board(notation: ".../.../...", k: 4)
    }
  }

  @Test func doubleLineThroughOneLastMoveIsReachable() throws {
    // A last move in a1 completes the top row and the left column at once.
    let board = try Board(notation: "xxx/xoo/xoo")
    #expect(board.outcome.winner == .x)
  }
}
