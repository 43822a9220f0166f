import GameRules
import Testing

@testable import TerminalUI

struct GameScreenTests {
  static let buttons = [
    ScreenButton("u", "Undo"), ScreenButton("r", "Redo", isEnabled: false),
    ScreenButton("h", "Hint"), ScreenButton("n", "New game"), ScreenButton("q", "Quit"),
    ScreenButton("?", "Help"),
  ]
  static let gameOverButtons = [
    ScreenButton("u", "Undo"), ScreenButton("n", "Play again"), ScreenButton("q", "Quit"),
  ]

  static func game(_ moves: String...) throws -> Game {
    try Game(start: .classic, moves: moves.compactMap { Cell(name: $0) })
  }

  static func screens() throws -> [String: GameScreen] {
    let empty = GameScreen(
      title: "Ada, place your X", board: .classic,
      decorations: BoardDecorations(cursor: Cell(row: 1, column: 1)), buttons: buttons)
    let mid = try game("b2", "a1", "c1")
    let midGame = GameScreen(
      title: "Bob, place your O", subtitle: "Ada (X) vs Bob (O)", board: mid.board,
      decorations: BoardDecorations(
        cursor: Cell(row: 2, column: 0), lastMove: mid.lastMove, hint: Cell(row: 2, column: 1)),
      message: "Ada plays c1.", buttons: buttons)
    let won = try game("a1", "b1", "b2", "c1", "c3")
    let win = GameScreen(
      title: "Winner! Congrats Ada!", board: won.board,
      decorations: BoardDecorations(lastMove: won.lastMove), message: "X wins with a1, b2, c3.",
      buttons: gameOverButtons)
    let tied = try game("a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3")
    let tie = GameScreen(
      title: "Tied game!", board: tied.board,
      decorations: BoardDecorations(lastMove: tied.lastMove),
      message: "Ada plays c3. Tied game.", buttons: gameOverButtons)
    let thinking = GameScreen(
      title: "Computer is thinking…", board: mid.board,
      decorations: BoardDecorations(lastMove: mid.lastMove), buttons: buttons)
    let seven = GameScreen(
      title: "Ada, place your X", board: try Board(size: 7),
      decorations: BoardDecorations(cursor: Cell(row: 3, column: 3)), buttons: buttons)
    return [
      "empty": empty, "midGame": midGame, "win": win, "tie": tie, "thinking": thinking,
      "seven": seven,
    ]
  }

  private func frame(_ name: String, width: Int = 80, height: Int = 24) throws -> Frame {
    let screen = try #require(try Self.screens()[name])
    return screen.frame(width: width, height: height)
  }

  /// On the narrowest screen the forms and games are shown on (50 columns), the help and a
  /// long status line wrap rather than lose their ends.
  @Test func helpAndALongStatusWrapOnTheNarrowestScreen() throws {
    let board = try Board(size: 4)
    let help = GameScreen(
      title: "Ada, place your X", board: board, buttons: Self.buttons, overlay: GameKeys.help)
    let helpText = help.frame(width: 50, height: 26).text
    #expect(helpText.split(separator: "\n").allSatisfy { $0.count <= 50 }, "\(helpText)")
    #expect(helpText.contains("\n   the winning line,\n"), "\(helpText)")
    #expect(helpText.contains("play where the\n     cursor is\n"), "\(helpText)")
    let status = "Digits pick cells only on a 3×3 board; name the cell instead, such as b2."
    let screen = GameScreen(
      title: "Ada, place your X", board: board, message: status, messageIsError: true,
      buttons: Self.buttons)
    let text = screen.frame(width: 50, height: 22).text
    #expect(text.contains(" Digits pick cells only on a 3×3 board; name the\n"), "\(text)")
    #expect(text.contains(" cell instead, such as b2.\n"), "\(text)")
    #expect(text.contains("[?] Help"), "\(text)")
  }

  @Test func emptyBoardWithCursor() throws {
    #expect(
      try frame("empty").text == """
         Ada, place your X

             a   b   c
           ┌───┬───┬───┐
         1 │   │   │   │
           ├───┼───┼───┤
         2 │   │[ ]│   │
           ├───┼───┼───┤
         3 │   │   │   │
           └───┴───┴───┘


         [u] Undo  [r] Redo  [h] Hint  [n] New game  [q] Quit  [?] Help
        """)
  }

  @Test func midGameShowsLastMoveHintAndMessage() throws {
    #expect(
      try frame("midGame").text == """
         Bob, place your O
         Ada (X) vs Bob (O)

             a   b   c
           ┌───┬───┬───┐
         1 │ O │   │(X)│
           ├───┼───┼───┤
         2 │   │ X │   │
           ├───┼───┼───┤
         3 │[ ]│ + │   │
           └───┴───┴───┘

         Ada plays c1.
         [u] Undo  [r] Redo  [h] Hint  [n] New game  [q] Quit  [?] Help
        """)
  }

  @Test func midGameInColour() throws {
    let expected = #"""
       \e[1mBob, place your O\e[0m
       \e[2mAda (X) vs Bob (O)\e[0m

       \e[2m    a   b   c\e[0m
         \e[2m┌───┬───┬───┐\e[0m
       \e[2m1 │\e[0m\e[1;33m O \e[0m\e[2m│   │\e[0m\e[1;4;36m(X)\e[0m\e[2m│\e[0m
         \e[2m├───┼───┼───┤\e[0m
       \e[2m2 │   │\e[0m\e[1;36m X \e[0m\e[2m│   │\e[0m
         \e[2m├───┼───┼───┤\e[0m
       \e[2m3 │\e[0m\e[7m[ ]\e[0m\e[2m│\e[0m\e[1;32m + \e[0m\e[2m│   │\e[0m
         \e[2m└───┴───┴───┘\e[0m

       Ada plays c1.
       \e[1m[u]\e[0m Undo  \e[2m[r] Redo\e[0m  \e[1m[h]\e[0m Hint  \e[1m[n]\e[0m New game  \e[1m[q]\e[0m Quit  \e[1m[?]\e[0m Help
      """#
    #expect(try frame("midGame").rendered(.color) == expected.replacing("\\e", with: "\u{1B}"))
  }

  @Test func winHighlightsTheLine() throws {
    #expect(
      try frame("win").text == """
         Winner! Congrats Ada!

             a   b   c
           ┌───┬───┬───┐
         1 │<X>│ O │ O │
           ├───┼───┼───┤
         2 │   │<X>│   │
           ├───┼───┼───┤
         3 │   │   │<X>│
           └───┴───┴───┘

         X wins with a1, b2, c3.
         [u] Undo  [n] Play again  [q] Quit
        """)
  }

  @Test func winningLineInColourAndMonochrome() throws {
    let row = try #require(try frame("win").lines.dropFirst(6).first)
    #expect(
      row.rendered(.color).replacing("\u{1B}", with: "\\e")
        == " \\e[2m2 │   │\\e[0m\\e[1;30;42m<X>\\e[0m\\e[2m│   │\\e[0m")
    #expect(
      row.rendered(.monochrome).replacing("\u{1B}", with: "\\e")
        == " \\e[2m2 │   │\\e[0m\\e[1m<X>\\e[0m\\e[2m│   │\\e[0m")
    #expect(row.rendered(.none) == " 2 │   │<X>│   │")
  }

  @Test func tieMarksTheLastMove() throws {
    #expect(
      try frame("tie").text == """
         Tied game!

             a   b   c
           ┌───┬───┬───┐
         1 │ X │ O │ X │
           ├───┼───┼───┤
         2 │ X │ O │ O │
           ├───┼───┼───┤
         3 │ O │ X │(X)│
           └───┴───┴───┘

         Ada plays c3. Tied game.
         [u] Undo  [n] Play again  [q] Quit
        """)
  }

  @Test func thinkingHidesTheCursor() throws {
    let text = try frame("thinking").text
    #expect(text.hasPrefix(" Computer is thinking…\n"))
    #expect(!text.contains("[" + "X]") && !text.contains("[ ]"))
    #expect(text.contains(" 1 │ O │   │(X)│"))
  }

  @Test func sevenBySevenUsesTheGrid() throws {
    #expect(
      try frame("seven").text == """
         Ada, place your X

             a   b   c   d   e   f   g
           ┌───┬───┬───┬───┬───┬───┬───┐
         1 │   │   │   │   │   │   │   │
           ├───┼───┼───┼───┼───┼───┼───┤
         2 │   │   │   │   │   │   │   │
           ├───┼───┼───┼───┼───┼───┼───┤
         3 │   │   │   │   │   │   │   │
           ├───┼───┼───┼───┼───┼───┼───┤
         4 │   │   │   │[ ]│   │   │   │
           ├───┼───┼───┼───┼───┼───┼───┤
         5 │   │   │   │   │   │   │   │
           ├───┼───┼───┼───┼───┼───┼───┤
         6 │   │   │   │   │   │   │   │
           ├───┼───┼───┼───┼───┼───┼───┤
         7 │   │   │   │   │   │   │   │
           └───┴───┴───┴───┴───┴───┴───┘


         [u] Undo  [r] Redo  [h] Hint  [n] New game  [q] Quit  [?] Help
        """)
  }

  @Test func sevenBySevenTurnsCompactWhenShort() throws {
    let text = try frame("seven", width: 80, height: 15).text
    #expect(text.contains(" 4 │ ·  ·  · [·] ·  ·  · │"))
    #expect(!text.contains("┼"))
  }

  @Test func everyBoardUpToFifteenFitsEightyByTwentyFour() throws {
    for rows in Board.minimumSide...Board.maximumSide {
      for columns in Board.minimumSide...Board.maximumSide {
        let board = try Board(rows: rows, columns: columns, k: 3)
        let screen = GameScreen(
          title: "Ada, place your X", subtitle: "Ada (X) vs Computer (O)", board: board,
          decorations: BoardDecorations(cursor: Cell(row: rows - 1, column: columns - 1)),
          message: "Computer plays a1.", buttons: Self.buttons)
        let frame = screen.frame(width: 80, height: 24)
        #expect(!frame.text.contains("too small"), "\(rows)×\(columns)")
        #expect(frame.lines.count <= 24)
        #expect(frame.lines.allSatisfy { $0.width <= 80 })
        #expect(
          frame.text.contains("[ ]") || frame.text.contains("[·]"),
          "\(rows)×\(columns) shows its cursor")
        #expect(frame.text.contains("[?] Help"))
      }
    }
  }

  @Test func fifteenByFifteenIsCompact() throws {
    let screen = GameScreen(
      title: "Ada, place your X", board: try Board(size: 15),
      decorations: BoardDecorations(cursor: Cell(row: 7, column: 7)), buttons: Self.buttons)
    let lines = screen.frame(width: 80, height: 24).lines.map(\.text)
    #expect(lines[2] == "      a  b  c  d  e  f  g  h  i  j  k  l  m  n  o")
    #expect(lines[3] == "    ┌─────────────────────────────────────────────┐")
    #expect(lines[11] == "  8 │ ·  ·  ·  ·  ·  ·  · [·] ·  ·  ·  ·  ·  ·  · │")
    #expect(lines[19] == "    └─────────────────────────────────────────────┘")
  }

  @Test func tooSmallTerminalSaysSo() throws {
    #expect(
      try frame("seven", width: 30, height: 12).text == """
        Terminal too small
        Need 26×17, have 30×12.
        Enlarge the window, or press q
        to quit.
        """)
    let tiny = try frame("empty", width: 12, height: 3).text
    #expect(tiny == "Terminal too\nsmall\nNeed 14×16,…")
    // At 10×5, the cut is marked where the rows end.
    let smallest = ScreenLayout.tooSmall(needed: (50, 22), width: 10, height: 5).text
    #expect(smallest.split(separator: "\n").count == 5)
    #expect(smallest.hasSuffix("…"), "\(smallest)")
    #expect(smallest.split(separator: "\n").allSatisfy { $0.count <= 10 }, "\(smallest)")
  }

  @Test func helpOverlayReplacesTheBoard() throws {
    var screen = try #require(try Self.screens()["empty"])
    screen.overlay = GameKeys.help
    let text = screen.frame(width: 80, height: 24).text
    #expect(text.contains("  u  undo        r  redo    h  hint"))
    #expect(!text.contains("┌"))
  }

  /// On the smallest screen a game fits, the help is cut where the room ends and says so: the
  /// status line and the buttons stay in view.
  @Test func helpTallerThanTheScreenIsCutAboveTheButtons() throws {
    var screen = try #require(try Self.screens()["empty"])
    screen.overlay = GameKeys.help
    let lines = screen.frame(width: 50, height: 22).lines.map(\.text)
    #expect(lines.count == 22)
    #expect(lines.contains(" … (a taller window shows the rest)"), "\(lines)")
    #expect(lines.last?.contains("[?] Help") == true, "\(lines)")
    // With room for all of it, nothing is cut.
    let tall = screen.frame(width: 50, height: 40).text
    #expect(!tall.contains("a taller window") && tall.contains("+ the hint"), "\(tall)")
  }

  @Test func narrowTerminalWrapsTheButtons() throws {
    let lines = try frame("empty", width: 32, height: 24).lines.map(\.text)
    #expect(
      Array(lines.suffix(3)) == [
        " [u] Undo  [r] Redo  [h] Hint", " [n] New game  [q] Quit", " [?] Help",
      ])
  }

  @Test func clicksHitCellsAndEnabledButtons() throws {
    let frame = try frame("midGame")
    // Row 2 of the board is line 7; b2's three columns start at 8.
    #expect(frame.target(row: 7, column: 8) == .cell(Cell(row: 1, column: 1)))
    #expect(frame.target(row: 7, column: 10) == .cell(Cell(row: 1, column: 1)))
    #expect(frame.target(row: 7, column: 11) == nil)
    #expect(frame.target(row: 6, column: 8) == nil)
    #expect(frame.target(row: 9, column: 4) == .cell(Cell(row: 2, column: 0)))
    let buttons = frame.lines.count - 1
    #expect(frame.target(row: buttons, column: 1) == .key(.character("u")))
    #expect(frame.target(row: buttons, column: 8) == .key(.character("u")))
    // Redo is disabled, so a click on it does nothing.
    #expect(frame.target(row: buttons, column: 12) == nil)
    #expect(frame.target(row: buttons, column: 45) == .key(.character("q")))
  }
}
