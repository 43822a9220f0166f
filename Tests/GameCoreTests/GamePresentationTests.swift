import GameCore
import GameRules
import TestSupport
import Testing

struct GamePresentationTests {
  private func state(_ moves: [Cell], settings: GameSettings = .hotSeat) throws
    -> GameFeature.State
  {
    GameFeature.State(
      settings: settings, game: try Game(start: .classic, moves: moves),
      startedAt: TestClock.epoch)
  }

  @Test
  func cellsCarryLabelsAndAccessibleNames() throws {
    let rows = try state([.b1, .a1]).rows
    #expect(rows.count == 3)
    #expect(rows[0].map(\.label) == ["O", "X", ""])
    #expect(rows[0][1].accessibleName == "Row 1, column 2, X")
    #expect(rows[2][2].accessibleName == "Row 3, column 3, empty")
    #expect(rows[0][0].isLastMove)
    #expect(!rows[0][0].isEnabled)
    #expect(rows[2][2].isEnabled)
  }

  @Test
  func theWinningLineIsHighlighted() throws {
    let finished = try state([.a1, .b1, .b2, .c1, .c3])
    let winning = finished.rows.flatMap { $0 }.filter(\.isWinning).map(\.cell)
    #expect(winning == [.a1, .b2, .c3])
    #expect(finished.rows.flatMap { $0 }.allSatisfy { !$0.isEnabled })
    #expect(finished.isGameOver)
  }

  @Test
  func narrationTellsEachMoveAndTheResult() throws {
    let finished = try state([.a1, .b1, .b2, .c1, .c3])
    #expect(
      finished.narration == [
        "X plays a1.", "O plays b1.", "X plays b2.", "O plays c1.", "X plays c3.",
        "X wins with a1, b2, c3.",
      ])
  }

  @Test
  func titlesNameThePlayerToMove() throws {
    #expect(try state([]).title == "Blob, place your X")
    #expect(try state([.a1]).title == "Blob Jr, place your O")
    #expect(try state([.a1], settings: .versusComputer).title == "Computer is thinking…")
    var asking = try state([.a1], settings: .versusComputer)
    asking.phase = .confirming(.quit)
    #expect(asking.title == "Computer's turn", "its move waits for the answer")
    #expect(try state([.a1, .b1, .b2, .c1, .c3]).title == "Winner! Congrats Blob!")
  }

  @Test
  func undoNeedsAPersonsMoveToTakeBack() throws {
    var settings = GameSettings.versusComputer
    settings.computerMark = .x
    #expect(try !state([.a1], settings: settings).canUndo)
    #expect(try state([.a1, .b2], settings: settings).canUndo)
    #expect(try !state([]).canUndo)
    #expect(try state([.a1]).canUndo)
  }

  @Test
  func aFailureSaysWhichMovesAreNotStored() throws {
    let stored = try Game(start: .classic, moves: [.a1])
    let failure = { (unstored: Game, write: GameFeature.Save.Write) in
      GameFeature.SaveFailure(
        reason: "The database /tmp/t is full (disk full).", stored: stored, unstored: unstored,
        write: write
      ).sentence
    }
    #expect(
      failure(try stored.playing(at: .b2), .progress)
        == "The database /tmp/t is full (disk full); the game stopped, and O's move b2 is not "
        + "stored.")
    #expect(
      failure(try Game(start: .classic, moves: [.a1, .b2, .c3]), .progress)
        == "The database /tmp/t is full (disk full); the game stopped, and O's move b2 and X's "
        + "move c3 are not stored.")
    #expect(
      failure(Game(start: .classic), .clear)
        == "The database /tmp/t is full (disk full); the game stopped, and taking back a move is "
        + "not stored.")
    #expect(
      failure(stored, .abandon)
        == "The database /tmp/t is full (disk full); the game stopped, and the abandoned game is "
        + "still saved.")
  }

  @Test
  func namesFromTheRecordsAreShownEscaped() throws {
    var settings = GameSettings.hotSeat
    settings.xName = "\u{1B}]0;PWNED\u{7}"
    let title = try state([], settings: settings).title
    #expect(!title.unicodeScalars.contains { $0.value < 0x20 })
    #expect(title == "\\u{1B}]0;PWNED\\u{7}, place your X")
  }

  @Test
  func largeBoardsAreSummedUpAfterEachMoveInPlainMode() throws {
    var settings = GameSettings.hotSeat
    (settings.rows, settings.columns, settings.k) = (15, 15, 5)
    let start = try Board(rows: 15, columns: 15, k: 5)
    let game = GameFeature.State(
      settings: settings, game: try Game(start: start, moves: [.a1, .b2]), startedAt: 0)
    #expect(game.boardForTyping == "15×15 board, 2 moves played; type board to see it.")
    #expect(game.sentences(for: .board).first == game.board.diagram)
    #expect(try state([.a1]).boardForTyping == (try Board.classic.playing(at: .a1)).diagram)
  }

  @Test
  func endOfInputClaimsASaveOnlyForASavedGame() throws {
    #expect(try state([.a1]).endOfInputSentence == "Input ended; the unfinished game is saved.")
    #expect(try state([]).endOfInputSentence == nil)
    #expect(try state([.a1, .b1, .b2, .c1, .c3]).endOfInputSentence == nil)
    var saving = try state([.a1])
    saving.phase = .saving(GameFeature.Save(game: saving.game, write: .progress))
    #expect(saving.endOfInputSentence == nil)
  }

  @Test
  func theWindowTitleNamesTheMatchAndItsBoard() throws {
    #expect(try state([]).matchTitle == "Blob vs Blob Jr")
    #expect(try state([]).matchDescription == "3×3, 3 in a row")
    var settings = GameSettings.versusComputer
    settings.difficulty = .easy
    #expect(try state([], settings: settings).matchDescription == "3×3, 3 in a row, Easy")
    // The top level is named as New game names it: Unbeatable only where it holds.
    settings.difficulty = .unbeatable
    #expect(try state([], settings: settings).matchDescription == "3×3, 3 in a row, Unbeatable")
    let large = GameFeature.State(
      settings: settings, game: Game(start: try Board(rows: 15, columns: 15, k: 5)),
      startedAt: TestClock.epoch)
    #expect(large.matchDescription == "15×15, 5 in a row, Strongest")
    var hostile = GameSettings.hotSeat
    hostile.xName = "A\u{1b}[2J"
    #expect(try !state([], settings: hostile).matchTitle.contains("\u{1b}"))
  }

  @Test
  func theQuestionSplitsIntoHeadingDetailAndAnswer() throws {
    var quitting = try state([.a1])
    quitting.phase = .confirming(.quit)
    #expect(quitting.quitConfirmationHeading == "Quit this game?")
    #expect(quitting.quitConfirmationAnswer == "Quit game")
    #expect(quitting.quitConfirmationMessage == "Quit this game? It will not be saved.")
    quitting.phase = .confirming(.newGame)
    #expect(quitting.quitConfirmationMessage == "Start a new game? This one will not be saved.")
    #expect(quitting.quitConfirmationAnswer == "New game")
  }

  @Test
  func aToastSaysTheLatestNoticeThenTheResult() throws {
    var playing = try state([.a1])
    #expect(playing.toast == nil)
    playing.post(.refused(.occupied(.a1)))
    let refused = try #require(playing.toast)
    #expect(refused.text == MoveError.occupied(.a1).description)
    playing.post(.refused(.occupied(.a1)))
    #expect(playing.toast?.key != refused.key, "said twice, shown twice")
    playing.post(.analysis)
    #expect(playing.toast == nil, "the analysis has its own line")
    playing.post(.undone(1))
    #expect(playing.toast?.text == "One move taken back.")
    playing.phase = .confirming(.quit)
    #expect(playing.toast == nil, "the question is asked instead")

    var won = try state([.a1, .b1, .b2, .c1, .c3])
    #expect(won.toast == nil, "not before the game is saved")
    won.phase = .finished(recordID: 4)
    #expect(won.toast?.text == "X wins with a1, b2, c3.")
    var next = won
    next.phase = .finished(recordID: 5)
    #expect(next.toast?.key != won.toast?.key, "each game's result shows")
  }
}
