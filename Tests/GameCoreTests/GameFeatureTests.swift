import ArchitectureTesting
import DatabaseClient
import GameAI
import GameCore
import GameRules
import TestSupport
import Testing

@MainActor
struct GameFeatureTests {
  private func makeState(_ settings: GameSettings = .hotSeat, firstMover: Mark = .x) throws
    -> GameFeature.State
  {
    try GameFeature.State(settings: settings, firstMover: firstMover, startedAt: TestClock.epoch)
  }

  private func store(
    _ state: GameFeature.State, engine: EngineClient = .unimplemented,
    clock: ClockClient = .immediate, random: RandomClient = .unimplemented,
    database: DatabaseClient
  ) -> TestStore<GameFeature> {
    TestStore(initialState: state) {
      GameFeature(engine: engine, clock: clock, random: random, database: database)
    }
  }

  /// Plays `cell` for a person and receives its save: the move shows only once stored.
  private func play(
    _ cell: Cell, on store: TestStore<GameFeature>, then phase: GameFeature.Phase = .playing,
    recordID: Int64? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    alsoOnceStored: @escaping (inout GameFeature.State) -> Void = { _ in }
  ) async throws {
    let next = try store.state.game.playing(at: cell)
    let write: GameFeature.Save.Write = next.board.outcome.isOver ? .finished : .progress
    await store.send(
      .view(.cellTapped(cell)),
      assert: {
        $0.clearNotice()
        $0.phase = .saving(GameFeature.Save(game: next, write: write))
      }, sourceLocation: sourceLocation)
    await store.receive(
      .saved(recordID: recordID),
      assert: {
        $0.game = next
        $0.phase = recordID.map { .finished(recordID: $0) } ?? phase
        alsoOnceStored(&$0)
      }, sourceLocation: sourceLocation)
  }

  /// Receives the computer's move and its save.
  private func receiveComputer(
    _ cell: Cell, on store: TestStore<GameFeature>, then phase: GameFeature.Phase = .playing,
    recordID: Int64? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let next = try store.state.game.playing(at: cell)
    let write: GameFeature.Save.Write = next.board.outcome.isOver ? .finished : .progress
    await store.receive(
      .computerMoved(cell),
      assert: { $0.phase = .saving(GameFeature.Save(game: next, write: write)) },
      sourceLocation: sourceLocation)
    await store.receive(
      .saved(recordID: recordID),
      assert: {
        $0.clearNotice()
        $0.game = next
        $0.phase = recordID.map { .finished(recordID: $0) } ?? phase
      }, sourceLocation: sourceLocation)
  }

  /// Sends `view`, which stores `next` before it shows, and receives the save.
  private func commit(
    _ view: GameFeature.Action.View, _ next: Game, _ write: GameFeature.Save.Write,
    saying notice: Notice.Kind, on store: TestStore<GameFeature>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await store.send(
      .view(view),
      assert: {
        $0.clearNotice()
        $0.phase = .saving(GameFeature.Save(game: next, write: write, notice: notice))
      }, sourceLocation: sourceLocation)
    await store.receive(
      .saved(recordID: nil),
      assert: {
        $0.game = next
        $0.phase = .playing
        $0.post(notice)
      }, sourceLocation: sourceLocation)
  }

  /// A key that arrives while a move is being saved says it did nothing, until the next key.
  ///
  /// Two keys in one read (a paste, key repeat, a slow disk) do this. The actions are reduced
  /// one by one, so that no save can finish between the keys.
  @Test
  func aKeyPressedWhileAMoveIsSavedSaysItDidNothing() throws {
    let feature = GameFeature(
      engine: .unimplemented, clock: .immediate, random: .unimplemented,
      database: InMemoryDatabase().client)
    var state = try makeState()
    let next = try state.game.playing(at: .a1)
    _ = feature.reduce(into: &state, action: .view(.cellTapped(.a1)))
    #expect(state.phase == .saving(GameFeature.Save(game: next, write: .progress)))
    _ = feature.reduce(into: &state, action: .view(.cellTapped(.b1)))
    #expect(state.notice?.kind == .stillSaving)
    _ = feature.reduce(into: &state, action: .saved(recordID: nil))
    #expect(state.game == next && state.phase == .playing)
    #expect(state.notice?.kind == .stillSaving)
    #expect(
      state.line(for: .stillSaving) == "That did nothing: the last move was still being saved.")
    #expect(state.board[.b1] == nil)
    _ = feature.reduce(into: &state, action: .view(.cellTapped(.b1)))
    #expect(state.notice == nil, "the next key takes the sentence away")
  }

  @Test
  func aWinIsStoredBeforeItShowsAndStopsTheBoard() async throws {
    let database = InMemoryDatabase()
    let store = store(try makeState(), database: database.client)
    #expect(store.state.title == "Blob, place your X")
    for cell in [Cell.a1, .a2, .b1, .b2] { try await play(cell, on: store) }
    #expect(database.gamesInProgress[.guest]?.moves == [.a1, .a2, .b1, .b2])
    let won = try store.state.game.playing(at: .c1)
    await store.send(.view(.cellTapped(.c1))) {
      $0.phase = .saving(GameFeature.Save(game: won, write: .finished))
    }
    // Until the records have it, the winning move does not show.
    #expect(store.state.board[.c1] == nil)
    #expect(store.state.title == "Blob, place your X")
    await store.receive(.saved(recordID: 1)) {
      $0.game = won
      $0.phase = .finished(recordID: 1)
    }
    #expect(store.state.title == "Winner! Congrats Blob!")
    #expect(!store.state.isBoardEnabled)
    #expect(store.state.highlightedCells == [.a1, .b1, .c1])
    #expect(store.state.resultSentence == "X wins with a1, b1, c1.")
    #expect(store.state.statusLine == "X wins with a1, b1, c1.")

    await store.send(.view(.cellTapped(.c3))) { $0.post(.refused(.gameOver)) }
    #expect(store.state.statusLine == "The game is over.")
    await store.finish()

    let saved = try #require(database.finishedGames.first)
    #expect(saved.result == .xWins)
    #expect(saved.endedAt == TestClock.epoch)
    #expect(saved.moves == [.a1, .a2, .b1, .b2, .c1])
    #expect(saved.x == PlayerRecord(name: "Blob"))
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func aFullBoardWithoutALineIsATie() async throws {
    let database = InMemoryDatabase()
    let store = store(try makeState(), database: database.client)
    let moves: [Cell] = [.a1, .b2, .c1, .b1, .b3, .c2, .a2, .a3]
    for cell in moves { try await play(cell, on: store) }
    #expect(database.gamesInProgress[.guest]?.moves == moves)
    let tied = try store.state.game.playing(at: .c3)
    await store.send(.view(.cellTapped(.c3))) {
      $0.phase = .saving(GameFeature.Save(game: tied, write: .finished))
    }
    await store.receive(.saved(recordID: 1)) {
      $0.game = tied
      $0.phase = .finished(recordID: 1)
    }
    #expect(store.state.title == "Tied game!")
    #expect(store.state.narration.last == "Tied game.")
    #expect(!store.state.isBoardEnabled)
    await store.finish()
    #expect(database.finishedGames.first?.result == .draw)
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func refusedMovesAreSaidAndChangeNothing() async throws {
    let store = store(try makeState(), database: InMemoryDatabase().client)
    try await play(.b2, on: store)
    await store.send(.view(.cellTapped(.b2))) { $0.post(.refused(.occupied(.b2))) }
    #expect(store.state.statusLine == "b2 is taken.")
    #expect(store.state.statusIsProblem)
    // The same refusal again is said again.
    await store.send(.view(.cellTapped(.b2))) { $0.post(.refused(.occupied(.b2))) }
    await store.send(.view(.cellTapped(Cell(row: 9, column: 9)))) {
      $0.post(.refused(.outOfBounds(Cell(row: 9, column: 9))))
    }
    #expect(store.state.statusLine == "j10 is not on the board.")
    await store.send(.view(.redoTapped)) { $0.post(.nothingToRedo) }
    #expect(store.state.statusLine == "There is no move to redo.")
    await store.finish()
  }

  @Test
  func digitsNameCellsOnlyOnTheClassicBoard() async throws {
    let store = store(try makeState(), database: InMemoryDatabase().client)
    let next = try store.state.game.playing(at: .c3)
    await store.send(.view(.digitTyped(9))) {
      $0.phase = .saving(GameFeature.Save(game: next, write: .progress))
    }
    await store.receive(.saved(recordID: nil)) {
      $0.game = next
      $0.phase = .playing
    }
    var settings = GameSettings.hotSeat
    (settings.rows, settings.columns, settings.k) = (7, 7, 5)
    let large = self.store(try makeState(settings), database: .unimplemented)
    await large.send(.view(.digitTyped(5))) { $0.post(.digitsNeedTheClassicBoard) }
    #expect(large.state.statusLine?.hasPrefix("Digits pick cells only on a 3×3 board") == true)
    await store.finish()
    await large.finish()
  }

  @Test
  func theComputerAnswersAfterThePauseAndMovesMeanwhileAreRefused() async throws {
    let clock = TestClock()
    let database = InMemoryDatabase()
    let store = store(
      try makeState(.versusComputer), engine: .firstEmptyCell, clock: clock.client,
      database: database.client)
    try await play(.b2, on: store, then: .thinking)
    #expect(store.state.title == "Computer is thinking…")
    #expect(!store.state.isBoardEnabled)
    await store.send(.view(.cellTapped(.a1))) { $0.post(.notYourTurn) }
    #expect(store.state.statusLine == "It is not your turn.")
    await store.send(.view(.hintTapped)) { $0.post(.notYourTurn) }

    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(349))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .milliseconds(1))
    try await receiveComputer(.a1, on: store)
    #expect(store.state.title == "Blob, place your X")
    #expect(store.state.statusLine == "O plays a1.")
    await store.finish()
    #expect(database.gamesInProgress[.account(1)]?.moves == [.b2, .a1])
  }

  /// A game against the computer after the player's b2, with the computer thinking on a test
  /// clock.
  private func computerThinkingAfterB2() async throws -> (
    store: TestStore<GameFeature>, clock: TestClock, database: InMemoryDatabase
  ) {
    let clock = TestClock()
    let database = InMemoryDatabase()
    let store = store(
      try makeState(.versusComputer), clock: clock.client, database: database.client)
    try await play(.b2, on: store, then: .thinking)
    return (store, clock, database)
  }

  @Test
  func undoWhileTheComputerThinksCancelsItsMove() async throws {
    let (store, clock, database) = try await computerThinkingAfterB2()
    var undone = store.state.game
    undone.undo()
    await commit(.undoTapped, undone, .clear, saying: .undone(1), on: store)
    #expect(store.state.statusLine == "One move taken back.")
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(clock.sleeperCount == 0)
    #expect(database.gamesInProgress.isEmpty)
  }

  /// The input ending while the computer thinks (Ctrl-D) stops it: the game is written once
  /// more as it stands, with the player's move and no reply the player never saw.
  @Test
  func theInputEndingWhileTheComputerThinksCancelsItsMoveAndWritesTheGame() async throws {
    let (store, clock, database) = try await computerThinkingAfterB2()
    store.exhaustivity = .off
    await store.send(.inputEnded)
    await store.receive(.saved(recordID: nil))
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(clock.sleeperCount == 0)
    #expect(store.state.phase == .playing)
    #expect(store.state.endOfInputSentence == "Input ended; the unfinished game is saved.")
    #expect(database.gamesInProgress[.account(1)]?.moves == [.b2])
  }

  /// A database deleted while the game was open: the last write says so, and nothing claims
  /// the game is saved.
  @Test
  func theInputEndingWithTheDatabaseGoneSaysNothingIsKept() async throws {
    let database = InMemoryDatabase()
    var client = database.client
    let store = store(try makeState(), database: client)
    try await play(.b2, on: store)
    client.saveGameInProgress = { _, _ in
      throw DatabaseError("The database was deleted.", kind: .gone)
    }
    let gone = self.store(store.state, database: client)
    gone.exhaustivity = .off
    await gone.send(.inputEnded)
    await gone.receive(
      .delegate(
        .didStop("The database was deleted; the game stopped, and nothing of the game is kept.")))
    #expect(gone.state.endOfInputSentence == nil)
    await gone.finish()
  }

  @Test
  func undoAgainstTheComputerTakesBackItsReplyAndYourMoveAndSaysSo() async throws {
    let store = store(
      try makeState(.versusComputer), engine: .firstEmptyCell,
      database: InMemoryDatabase().client)
    try await play(.b2, on: store, then: .thinking)
    try await receiveComputer(.a1, on: store)
    #expect(store.state.canUndo)
    var undone = store.state.game
    undone.undo()
    undone.undo()
    await commit(.undoTapped, undone, .clear, saying: .undone(2), on: store)
    #expect(store.state.statusLine == "2 moves taken back.")
    #expect(store.state.game.moves.isEmpty)
    #expect(!store.state.canUndo)
    #expect(store.state.canRedo)

    var redone = undone
    redone.redo()
    redone.redo()
    await commit(.redoTapped, redone, .progress, saying: .redone(2), on: store)
    #expect(store.state.game.moves == [.b2, .a1])
    #expect(store.state.statusLine == "2 moves played again.")
    await store.finish()
  }

  @Test
  func undoAndRedoInHotSeatStepOneMove() async throws {
    let store = store(try makeState(), database: InMemoryDatabase().client)
    await store.send(.view(.undoTapped)) { $0.post(.nothingToUndo) }
    #expect(store.state.statusLine == "There is no move to undo.")
    // Where only the computer has moved, Undo says why it takes nothing back.
    var computers = store.state
    computers.settings.mode = .computerVersusComputer
    computers.game = try Game(start: computers.game.start, moves: [.b2])
    #expect(
      computers.line(for: .nothingToUndo)
        == "Undo takes back only a person's moves; the computer's stay.")
    try await play(.a1, on: store)
    try await play(.b1, on: store)
    var undone = store.state.game
    undone.undo()
    await commit(.undoTapped, undone, .progress, saying: .undone(1), on: store)
    #expect(store.state.title == "Blob Jr, place your O")
    var redone = undone
    redone.redo()
    await commit(.redoTapped, redone, .progress, saying: .redone(1), on: store)
    await store.send(.view(.redoTapped)) { $0.post(.nothingToRedo) }
    await store.finish()
  }

  @Test
  func hintShowsTheEnginesMoveUntilTheNextMove() async throws {
    let store = store(
      try makeState(), engine: .firstEmptyCell, database: InMemoryDatabase().client)
    await store.send(.view(.hintTapped))
    await store.receive(.hintResponse(.a1)) {
      $0.hint = .a1
      $0.post(.hint(.a1))
    }
    #expect(store.state.statusLine == "Hint: a1.")
    #expect(store.state.rows[0][0].isHint)
    #expect(store.state.rows[0][0].accessibleDescription == "Suggested move")
    #expect(store.state.rows[0][1].accessibleDescription == "")
    #expect(store.state.highlightedCells == [.a1])
    try await play(.b2, on: store) { $0.hint = nil }
    await store.finish()
  }

  @Test
  func analysisShowsEveryMovesValueUntilTheNextMove() async throws {
    let store = store(
      try makeState(), engine: .firstEmptyCell, database: InMemoryDatabase().client)
    let draw = Evaluation(value: .draw, plies: 9)
    let analysis = Analysis(
      evaluation: draw,
      moves: Board.classic.emptyCells.map { MoveEvaluation(cell: $0, evaluation: draw) },
      best: [.a1])
    await store.send(.view(.analysisTapped))
    await store.receive(.analysisResponse(analysis)) {
      $0.analysis = analysis
      $0.post(.analysis)
    }
    #expect(store.state.rows[1][1].analysisText == "draw")
    #expect(store.state.rows[1][1].analysisCode == "D")
    #expect(store.state.rows[1][1].accessibleDescription == "draw")
    #expect(store.state.analysisSummary == "X to move: draw. Best: a1.")
    #expect(store.state.statusLine == "X to move: draw. Best: a1.")
    await store.send(.view(.analysisTapped)) {
      $0.clearNotice()
      $0.analysis = nil
    }
    #expect(store.state.rows[1][1].analysisText == nil)
    await store.send(.view(.analysisTapped))
    await store.receive(.analysisResponse(analysis)) {
      $0.analysis = analysis
      $0.post(.analysis)
    }
    try await play(.b2, on: store) { $0.analysis = nil }
    await store.finish()
  }

  @Test(arguments: [
    (Evaluation(value: .win, plies: 3), "W3"),
    (Evaluation(value: .loss, plies: 12), "L12"),
    (Evaluation(value: .draw, plies: 9), "D"),
    (Evaluation(value: .draw, plies: 200, isExact: false), "D~"),
    (Evaluation(value: .win, plies: 7, isExact: false), "W~"),
    (Evaluation(value: .loss, plies: 214, isExact: false), "L~"),
  ])
  func analysisCodesFitSmallCells(evaluation: Evaluation, code: String) throws {
    var state = try makeState()
    state.analysis = Analysis(
      evaluation: evaluation, moves: [MoveEvaluation(cell: .a1, evaluation: evaluation)],
      best: [.a1])
    #expect(state.rows[0][0].analysisCode == code)
    #expect(code.count <= 4)
    #expect(state.rows[0][1].analysisCode == nil)
  }

  @Test
  func aResumedGameContinuesWithTheComputersMove() async throws {
    let record = GameRecord(
      x: PlayerRecord(name: "Blob", accountID: 1),
      o: PlayerRecord(name: "Computer", computer: .unbeatable), moves: [.b2],
      startedAt: TestClock.epoch)
    let store = store(
      GameFeature.State(
        settings: .versusComputer, game: try record.game(), startedAt: record.startedAt),
      engine: .playing([.c3]), database: InMemoryDatabase().client)
    await store.send(.started) { $0.phase = .thinking }
    try await receiveComputer(.c3, on: store)
    await store.finish()
  }

  @Test
  func playAgainAlternatesTheStarterWhenSet() async throws {
    var settings = GameSettings.hotSeat
    settings.startingRule = .alternate
    let database = InMemoryDatabase()
    let store = store(try makeState(settings), database: database.client)
    try await play(.a1, on: store)
    // Play again in the middle of a game starts over at once, forgetting the saved game.
    let fresh = Game(start: try Board(firstMover: .o))
    await store.send(.view(.playAgainTapped)) {
      $0.phase = .saving(GameFeature.Save(game: fresh, write: .abandon))
    }
    await store.receive(.saved(recordID: nil)) {
      $0.game = fresh
      $0.phase = .playing
    }
    #expect(store.state.title == "Blob Jr, place your O")
    await store.send(.view(.playAgainTapped)) { $0.game = Game(start: .classic) }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func playAgainWithARandomStarterTossesACoin() async throws {
    var settings = GameSettings.hotSeat
    settings.startingRule = .random
    let store = store(
      try makeState(settings), random: RandomClient { $0.upperBound - 1 },
      database: .unimplemented)
    await store.send(.view(.playAgainTapped)) {
      $0.game = Game(start: try Board(firstMover: .o))
    }
    await store.finish()
  }

  @Test
  func quittingAGameInProgressAsksFirst() async throws {
    let database = InMemoryDatabase()
    let store = store(try makeState(), clock: .unimplemented, database: database.client)
    try await play(.a1, on: store)
    await store.send(.view(.quitTapped)) { $0.phase = .confirming(.quit) }
    #expect(!store.state.isBoardEnabled)
    #expect(store.state.statusLine == "Quit this game? It will not be saved.")
    #expect(store.state.controls.map(\.control) == [.confirm, .keepPlaying])
    await store.send(.view(.quitCancelled)) {
      $0.phase = .playing
      $0.post(.keptPlaying)
    }
    #expect(store.state.statusLine == "The game goes on.")
    await store.send(.view(.quitTapped)) {
      $0.clearNotice()
      $0.phase = .confirming(.quit)
    }
    let game = store.state.game
    await store.send(.view(.quitConfirmed)) {
      $0.phase = .saving(GameFeature.Save(game: game, write: .abandon, then: .didQuit))
    }
    await store.receive(.saved(recordID: nil)) { $0.phase = .playing }
    await store.receive(.delegate(.didQuit))
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func aNewGameAsksWhileOneGoesOnAndPlaysAgainOnceItIsOver() async throws {
    let store = store(try makeState(), database: InMemoryDatabase().client)
    try await play(.a1, on: store)
    await store.send(.view(.newGameTapped)) { $0.phase = .confirming(.newGame) }
    #expect(store.state.statusLine == "Start a new game? This one will not be saved.")
    #expect(
      store.state.typedQuestion == "Start a new game? This one will not be saved. Type yes or no.")
    await store.send(.view(.lineTyped("maybe"))) { $0.post(.answerYesOrNo) }
    let game = store.state.game
    await store.send(.view(.lineTyped("yes"))) {
      $0.clearNotice()
      $0.phase = .saving(GameFeature.Save(game: game, write: .abandon, then: .didAskForNewGame))
    }
    await store.receive(.saved(recordID: nil)) { $0.phase = .playing }
    await store.receive(.delegate(.didAskForNewGame))

    for cell in [Cell.b1, .a2, .b2] { try await play(cell, on: store) }
    try await play(.a3, on: store, recordID: 1)
    #expect(store.state.isGameOver)
    await store.send(.view(.newGameTapped)) {
      $0.game = Game(start: .classic)
      $0.phase = .playing
    }
    await store.finish()
  }

  @Test
  func quittingBeforeTheFirstMoveLeavesAtOnce() async throws {
    let store = store(try makeState(), clock: .unimplemented, database: .unimplemented)
    await store.send(.view(.quitTapped))
    await store.receive(.delegate(.didQuit))
    await store.finish()
  }

  @Test
  func theComputerPlaysItselfToTheEnd() async throws {
    var settings = GameSettings.versusComputer
    settings.mode = .computerVersusComputer
    settings.xName = "Deep Blob"
    let database = InMemoryDatabase()
    let store = store(
      try makeState(settings), engine: .firstEmptyCell, database: database.client)
    await store.send(.started) { $0.phase = .thinking }
    let moves: [Cell] = [.a1, .b1, .c1, .a2, .b2, .c2, .a3]
    for (index, cell) in moves.enumerated() {
      let isLast = index == moves.count - 1
      try await receiveComputer(cell, on: store, then: .thinking, recordID: isLast ? 1 : nil)
    }
    #expect(store.state.title == "Winner! Congrats Deep Blob!")
    await store.finish()
    #expect(database.finishedGames.first?.x.computer == .unbeatable)
    // Listed with the watching account's games; the stats score it for no one.
    #expect(database.finishedGames.first?.x.accountID == 1)
    #expect(database.finishedGames.first?.o.accountID == nil)
  }

  @Test
  func aFailedSaveStopsTheGameAndSaysWhatIsNotStored() async throws {
    var database = InMemoryDatabase().client
    database.saveGameInProgress = { record, _ in
      guard record.moves.count < 2 else { throw DatabaseError("The disk is full.") }
    }
    let store = store(try makeState(), clock: .unimplemented, database: database)
    try await play(.a1, on: store)
    let next = try store.state.game.playing(at: .b2)
    await store.send(.view(.cellTapped(.b2))) {
      $0.phase = .saving(GameFeature.Save(game: next, write: .progress))
    }
    let failure = GameFeature.SaveFailure(
      reason: "The disk is full.", stored: store.state.game, unstored: next, write: .progress)
    await store.receive(.saveFailed(DatabaseError("The disk is full."))) {
      $0.phase = .stopped(failure)
    }
    let sentence = "The disk is full; the game stopped, and O's move b2 is not stored."
    #expect(failure.sentence == sentence)
    await store.receive(.delegate(.didStop(sentence)))
    #expect(store.state.board[.b2] == nil)
    #expect(store.state.statusLine == sentence)
    #expect(store.state.controls.isEmpty)
    // Nothing more happens to a stopped game.
    await store.send(.view(.cellTapped(.c3)))
    await store.finish()
  }

  @Test
  func aFailedFinishSaysTheWinningMoveIsNotStored() async throws {
    var database = InMemoryDatabase().client
    database.finishGameInProgress = { _, _ in throw DatabaseError("The database is read-only.") }
    let store = store(
      GameFeature.State(
        settings: .hotSeat, game: try Game(start: .classic, moves: [.a1, .a2, .b1, .b2]),
        startedAt: TestClock.epoch),
      database: database)
    let won = try store.state.game.playing(at: .c1)
    await store.send(.view(.cellTapped(.c1))) {
      $0.phase = .saving(GameFeature.Save(game: won, write: .finished))
    }
    let failure = GameFeature.SaveFailure(
      reason: "The database is read-only.", stored: store.state.game, unstored: won,
      write: .finished)
    await store.receive(.saveFailed(DatabaseError("The database is read-only."))) {
      $0.phase = .stopped(failure)
    }
    await store.receive(
      .delegate(
        .didStop("The database is read-only; the game stopped, and X's move c1 is not stored.")))
    await store.finish()
  }

  @Test
  func plainModeLinesAreReadByTheCore() async throws {
    let store = store(try makeState(), database: InMemoryDatabase().client)
    let next = try store.state.game.playing(at: .b2)
    await store.send(.view(.lineTyped(" 5 \r"))) {
      $0.phase = .saving(GameFeature.Save(game: next, write: .progress))
    }
    await store.receive(.saved(recordID: nil)) {
      $0.game = next
      $0.phase = .playing
    }
    await store.send(.view(.lineTyped("B2"))) { $0.post(.refused(.occupied(.b2))) }
    await store.send(.view(.lineTyped("dance"))) { $0.post(.unknownCommand("dance")) }
    #expect(store.state.statusLine?.hasPrefix("Unknown command \"dance\". Type a cell") == true)
    let hostile = String(repeating: "\u{1B}[2J", count: 20_000)
    await store.send(.view(.lineTyped(hostile))) { $0.post(.unknownCommand(hostile)) }
    let said = try #require(store.state.statusLine)
    #expect(!said.unicodeScalars.contains("\u{1B}"))
    #expect(said.count < 200)
    await store.send(.view(.lineTyped("board"))) { $0.post(.board) }
    #expect(
      store.state.sentences(for: .board) == [store.state.board.diagram, "Blob Jr, place your O"])
    await store.send(.view(.lineTyped("quit"))) {
      $0.clearNotice()
      $0.phase = .confirming(.quit)
    }
    await store.send(.view(.lineTyped("no"))) {
      $0.phase = .playing
      $0.post(.keptPlaying)
    }
    await store.send(.view(.lineTyped(""))) { $0.clearNotice() }
    await store.finish()
  }

  @Test
  func theFooterOffersOnlyWhatWorks() throws {
    let playing = try makeState()
    #expect(
      playing.controls.map(\.control) == [.undo, .redo, .hint, .analysis, .newGame, .quit])
    #expect(playing.controls.map(\.isEnabled) == [false, false, true, true, true, true])
    let over = GameFeature.State(
      settings: .hotSeat, game: try Game(start: .classic, moves: [.a1, .a2, .b1, .b2, .c1]),
      startedAt: 0)
    #expect(over.controls.map(\.control) == [.playAgain, .quit])
  }
}
