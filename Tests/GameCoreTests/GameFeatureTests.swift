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

  @Test
  func aWinNamesTheWinnerSavesTheGameAndStopsTheBoard() async throws {
    let database = InMemoryDatabase()
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: database.client)
    }
    #expect(store.state.title == "Blob, place your X")
    for cell in [Cell.a1, .a2, .b1, .b2] {
      await store.send(.view(.cellTapped(cell))) { try $0.game.play(at: cell) }
    }
    #expect(store.state.title == "Blob, place your X")
    await store.send(.view(.cellTapped(.c1))) {
      try $0.game.play(at: .c1)
      $0.isSavingRecord = true
    }
    await store.receive(.recordSaved(1)) {
      $0.isSavingRecord = false
      $0.recordID = 1
    }
    #expect(store.state.title == "Winner! Congrats Blob!")
    #expect(!store.state.isBoardEnabled)
    #expect(store.state.highlightedCells == [.a1, .b1, .c1])
    #expect(store.state.resultSentence == "X wins with a1, b1, c1.")

    await store.send(.view(.cellTapped(.c3)))
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
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: database.client)
    }
    let moves: [Cell] = [.a1, .b2, .c1, .b1, .b3, .c2, .a2, .a3]
    for cell in moves {
      // Waiting for each move's save keeps the saves in order for the check below.
      await store.send(.view(.cellTapped(cell))) { try $0.game.play(at: cell) }.finish()
    }
    #expect(database.gamesInProgress[.guest]?.moves == moves)
    await store.send(.view(.cellTapped(.c3))) {
      try $0.game.play(at: .c3)
      $0.isSavingRecord = true
    }
    await store.receive(.recordSaved(1)) {
      $0.isSavingRecord = false
      $0.recordID = 1
    }
    #expect(store.state.title == "Tied game!")
    #expect(store.state.narration.last == "Tied game.")
    #expect(!store.state.isBoardEnabled)
    await store.finish()
    #expect(database.finishedGames.first?.result == .draw)
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func anOccupiedCellChangesNothing() async throws {
    let database = InMemoryDatabase()
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: database.client)
    }
    await store.send(.view(.cellTapped(.b2))) { try $0.game.play(at: .b2) }
    await store.send(.view(.cellTapped(.b2)))
    await store.finish()
  }

  @Test
  func theComputerAnswersAfterThePause() async throws {
    let clock = TestClock()
    let database = InMemoryDatabase()
    let store = TestStore(initialState: try makeState(.versusComputer)) {
      GameFeature(
        engine: .firstEmptyCell, clock: clock.client, random: .unimplemented,
        database: database.client)
    }
    await store.send(.view(.cellTapped(.b2))) {
      try $0.game.play(at: .b2)
      $0.isThinking = true
    }
    #expect(store.state.title == "Computer is thinking…")
    #expect(!store.state.isBoardEnabled)
    await store.send(.view(.cellTapped(.a1)))

    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(349))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.computerMoved(.a1)) {
      try $0.game.play(at: .a1)
      $0.isThinking = false
    }
    #expect(store.state.title == "Blob, place your X")
    await store.finish()
    #expect(database.gamesInProgress[.account(1)]?.moves == [.b2, .a1])
  }

  @Test
  func undoWhileTheComputerThinksCancelsItsMove() async throws {
    let clock = TestClock()
    let database = InMemoryDatabase()
    let store = TestStore(initialState: try makeState(.versusComputer)) {
      GameFeature(
        engine: .unimplemented, clock: clock.client, random: .unimplemented,
        database: database.client)
    }
    await store.send(.view(.cellTapped(.b2))) {
      try $0.game.play(at: .b2)
      $0.isThinking = true
    }
    await store.send(.view(.undoTapped)) {
      $0.game.undo()
      $0.isThinking = false
    }
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(clock.sleeperCount == 0)
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func undoAgainstTheComputerTakesBackItsReplyAndYourMove() async throws {
    let store = TestStore(initialState: try makeState(.versusComputer)) {
      GameFeature(
        engine: .firstEmptyCell, clock: .immediate, random: .unimplemented,
        database: InMemoryDatabase().client)
    }
    await store.send(.view(.cellTapped(.b2))) {
      try $0.game.play(at: .b2)
      $0.isThinking = true
    }
    await store.receive(.computerMoved(.a1)) {
      try $0.game.play(at: .a1)
      $0.isThinking = false
    }
    #expect(store.state.canUndo)
    await store.send(.view(.undoTapped)) {
      $0.game.undo()
      $0.game.undo()
    }
    #expect(store.state.game.moves.isEmpty)
    #expect(!store.state.canUndo)
    #expect(store.state.canRedo)

    await store.send(.view(.redoTapped)) {
      $0.game.redo()
      $0.game.redo()
    }
    #expect(store.state.game.moves == [.b2, .a1])
    await store.finish()
  }

  @Test
  func undoAndRedoInHotSeatStepOneMove() async throws {
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: InMemoryDatabase().client)
    }
    await store.send(.view(.cellTapped(.a1))) { try $0.game.play(at: .a1) }
    await store.send(.view(.cellTapped(.b1))) { try $0.game.play(at: .b1) }
    await store.send(.view(.undoTapped)) { $0.game.undo() }
    #expect(store.state.title == "Blob Jr, place your O")
    await store.send(.view(.redoTapped)) { $0.game.redo() }
    await store.send(.view(.redoTapped))
    await store.finish()
  }

  @Test
  func hintShowsTheEnginesMoveUntilTheNextMove() async throws {
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .firstEmptyCell, clock: .unimplemented, random: .unimplemented,
        database: InMemoryDatabase().client)
    }
    await store.send(.view(.hintTapped))
    await store.receive(.hintResponse(.a1)) { $0.hint = .a1 }
    #expect(store.state.rows[0][0].isHint)
    #expect(store.state.rows[0][0].accessibleDescription == "Suggested move")
    #expect(store.state.rows[0][1].accessibleDescription == "")
    #expect(store.state.highlightedCells == [.a1])
    await store.send(.view(.cellTapped(.b2))) {
      try $0.game.play(at: .b2)
      $0.hint = nil
    }
    await store.finish()
  }

  @Test
  func analysisShowsEveryMovesValueUntilTheNextMove() async throws {
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .firstEmptyCell, clock: .unimplemented, random: .unimplemented,
        database: InMemoryDatabase().client)
    }
    let draw = Evaluation(value: .draw, plies: 9)
    let analysis = Analysis(
      evaluation: draw,
      moves: Board.classic.emptyCells.map { MoveEvaluation(cell: $0, evaluation: draw) },
      best: [.a1])
    await store.send(.view(.analysisTapped))
    await store.receive(.analysisResponse(analysis)) { $0.analysis = analysis }
    #expect(store.state.rows[1][1].analysisText == "draw")
    #expect(store.state.rows[1][1].analysisCode == "D")
    #expect(store.state.rows[1][1].accessibleDescription == "draw")
    #expect(store.state.analysisSummary == "X to move: draw. Best: a1.")
    await store.send(.view(.analysisTapped)) { $0.analysis = nil }
    #expect(store.state.rows[1][1].analysisText == nil)
    await store.send(.view(.analysisTapped))
    await store.receive(.analysisResponse(analysis)) { $0.analysis = analysis }
    await store.send(.view(.cellTapped(.b2))) {
      try $0.game.play(at: .b2)
      $0.analysis = nil
    }
    await store.finish()
  }

  @Test(arguments: [
    (Evaluation(value: .win, plies: 3), "W3"),
    (Evaluation(value: .loss, plies: 12), "L12"),
    (Evaluation(value: .draw, plies: 9), "D"),
    (Evaluation(value: .draw, plies: 200, isExact: false), "D~"),
    (Evaluation(value: .win, plies: 7, isExact: false), "W7~"),
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
    let game = try record.game()
    let store = TestStore(
      initialState: GameFeature.State(
        settings: .versusComputer, game: game, startedAt: record.startedAt)
    ) {
      GameFeature(
        engine: .playing([.c3]), clock: .immediate, random: .unimplemented,
        database: InMemoryDatabase().client)
    }
    await store.send(.started) { $0.isThinking = true }
    await store.receive(.computerMoved(.c3)) {
      try $0.game.play(at: .c3)
      $0.isThinking = false
    }
    await store.finish()
  }

  @Test
  func playAgainAlternatesTheStarterWhenSet() async throws {
    var settings = GameSettings.hotSeat
    settings.startingRule = .alternate
    let database = InMemoryDatabase()
    let store = TestStore(initialState: try makeState(settings)) {
      GameFeature(
        engine: .unimplemented, clock: .immediate, random: .unimplemented,
        database: database.client)
    }
    await store.send(.view(.cellTapped(.a1))) { try $0.game.play(at: .a1) }
    await store.send(.view(.playAgainTapped)) {
      $0.game = Game(start: try Board(firstMover: .o))
    }
    #expect(store.state.title == "Blob Jr, place your O")
    await store.send(.view(.playAgainTapped)) {
      $0.game = Game(start: .classic)
    }
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func playAgainWithARandomStarterTossesACoin() async throws {
    var settings = GameSettings.hotSeat
    settings.startingRule = .random
    let store = TestStore(initialState: try makeState(settings)) {
      GameFeature(
        engine: .unimplemented, clock: .immediate, random: RandomClient { $0.upperBound - 1 },
        database: .unimplemented)
    }
    await store.send(.view(.playAgainTapped)) {
      $0.game = Game(start: try Board(firstMover: .o))
    }
    await store.finish()
  }

  @Test
  func quittingAGameInProgressAsksFirst() async throws {
    let database = InMemoryDatabase()
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: database.client)
    }
    await store.send(.view(.cellTapped(.a1))) { try $0.game.play(at: .a1) }
    await store.send(.view(.quitTapped)) { $0.isConfirmingQuit = true }
    #expect(!store.state.isBoardEnabled)
    await store.send(.view(.quitCancelled)) { $0.isConfirmingQuit = false }
    await store.send(.view(.quitTapped)) { $0.isConfirmingQuit = true }
    await store.send(.view(.quitConfirmed)) { $0.isConfirmingQuit = false }
    await store.receive(.delegate(.didQuit))
    await store.finish()
    #expect(database.gamesInProgress.isEmpty)
  }

  @Test
  func quittingBeforeTheFirstMoveLeavesAtOnce() async throws {
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: .unimplemented)
    }
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
    let store = TestStore(initialState: try makeState(settings)) {
      GameFeature(
        engine: .firstEmptyCell, clock: .immediate, random: .unimplemented,
        database: database.client)
    }
    await store.send(.started) { $0.isThinking = true }
    let moves: [Cell] = [.a1, .b1, .c1, .a2, .b2, .c2, .a3]
    for (index, cell) in moves.enumerated() {
      let isLast = index == moves.count - 1
      await store.receive(.computerMoved(cell)) {
        try $0.game.play(at: cell)
        $0.isThinking = !isLast
        $0.isSavingRecord = isLast
      }
    }
    await store.receive(.recordSaved(1)) {
      $0.isSavingRecord = false
      $0.recordID = 1
    }
    #expect(store.state.title == "Winner! Congrats Deep Blob!")
    await store.finish()
    #expect(database.finishedGames.first?.x.computer == .unbeatable)
  }

  @Test
  func aFailedSaveIsShown() async throws {
    var database = DatabaseClient.unimplemented
    database.saveGameInProgress = { _, _ in throw DatabaseError("The disk is full.") }
    let store = TestStore(initialState: try makeState()) {
      GameFeature(
        engine: .unimplemented, clock: .unimplemented, random: .unimplemented,
        database: database)
    }
    await store.send(.view(.cellTapped(.a1))) { try $0.game.play(at: .a1) }
    await store.receive(.saveFailed("The disk is full.")) {
      $0.errorMessage = "The disk is full."
    }
    await store.finish()
  }
}
