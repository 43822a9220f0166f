import AppCore
import Architecture
import DatabaseClient
import GameCore
import GameRules
import TestSupport
import Testing

@testable import TerminalUI

/// Plain mode through the app's reducer: lines in, the core's sentences out, as a script or a
/// screen reader meets them.
@MainActor
struct PlainNarratorTests {
  /// A plain session without a terminal: the store, the narrator and what it said.
  @MainActor
  final class Transcript {
    let store: Store<TicTacToe>
    private var narrator = PlainNarrator()
    private var token: ObservationToken?
    private(set) var lines: [String] = []
    private(set) var errors: [String] = []

    init(
      _ request: GameRequest = GameRequest(xName: "Ada", oName: "Bob", mode: .hotSeat),
      database: InMemoryDatabase = InMemoryDatabase(), engine: EngineClient = .firstEmptyCell
    ) {
      store = Store(
        initialState: TicTacToe.State(launch: .game(request, session: nil, isStandalone: true))
      ) {
        TicTacToe(
          authentication: .unimplemented, database: database.client, engine: engine,
          clock: .immediate, random: .lowest, thinkingPause: .zero)
      }
      token = store.observe { [unowned self] state in
        let output = narrator.output(for: state)
        lines += output.lines
        errors += output.errors
      }
    }

    /// Starts the app and waits for it to settle; returns what it said.
    func start() async -> [String] {
      store.send(.started)
      await store.settled()
      return take()
    }

    /// Types a line, waits as plain mode does, and returns what was said.
    func type(_ line: String) async -> [String] {
      store.send(.view(.lineTyped(line)))
      await store.settled()
      return take()
    }

    private func take() -> [String] {
      defer { lines = [] }
      return lines
    }
  }

  private func board(_ moves: Cell...) throws -> String {
    try Game(start: .classic, moves: moves).board.diagram
  }

  @Test func eachMoveOnceThenTheBoardAndTitle() async throws {
    let plain = Transcript()
    #expect(await plain.start() == [Board.classic.diagram, "Ada, place your X"])
    #expect(await plain.type("b2") == ["X plays b2.", try board(.b2), "Bob, place your O"])
    #expect(await plain.type("").isEmpty)
  }

  @Test func theComputersMoveComesBeforeTheBoard() async throws {
    let plain = Transcript(GameRequest(xName: "Ada", mode: .versusComputer))
    _ = await plain.start()
    #expect(
      await plain.type("b2") == [
        "X plays b2.", "Computer is thinking…", "O plays a1.", try board(.b2, .a1),
        "Ada, place your X",
      ])
  }

  @Test func theResultAfterTheBoard() async throws {
    let plain = Transcript()
    _ = await plain.start()
    for cell in ["a1", "b1", "b2", "c1"] { _ = await plain.type(cell) }
    #expect(
      await plain.type("c3") == [
        "X plays c3.", try board(.a1, .b1, .b2, .c1, .c3), "X wins with a1, b2, c3.",
      ])
  }

  @Test func refusalsUndoAndHintsAreTheCoresSentences() async throws {
    let plain = Transcript()
    _ = await plain.start()
    #expect(await plain.type("undo") == ["There is no move to undo."])
    #expect(await plain.type("undo") == ["There is no move to undo."])
    _ = await plain.type("a1")
    _ = await plain.type("b2")
    #expect(await plain.type("b2") == ["b2 is taken."])
    #expect(await plain.type("z9") == ["z9 is not on the board."])
    #expect(
      await plain.type("undo") == ["One move taken back.", try board(.a1), "Bob, place your O"])
    #expect(
      await plain.type("redo") == [
        "O plays b2.", "One move played again.", try board(.a1, .b2), "Ada, place your X",
      ])
    #expect(await plain.type("redo") == ["There is no move to redo."])
    #expect(await plain.type("hint") == ["Hint: b1."])
    #expect(await plain.type("dance").first?.hasPrefix("Unknown command \"dance\".") == true)
  }

  @Test func theQuitQuestionTakesYesOrNoAndNoIsSaid() async throws {
    let plain = Transcript()
    _ = await plain.start()
    _ = await plain.type("b2")
    #expect(await plain.type("quit") == ["Quit this game? It will not be saved. Type yes or no."])
    #expect(await plain.type("b1") == ["Quit this game? It will not be saved. Type yes or no."])
    // Answered, the question gives way to whose turn it is.
    #expect(await plain.type("no") == ["The game goes on.", "Bob, place your O"])
    _ = await plain.type("quit")
    #expect(await plain.type("yes").isEmpty)
    #expect(plain.store.state.termination == .finished)
  }

  @Test func newInTheMiddleOfAGameAsksFirst() async throws {
    let plain = Transcript()
    _ = await plain.start()
    _ = await plain.type("b2")
    #expect(
      await plain.type("new") == ["Start a new game? This one will not be saved. Type yes or no."])
    #expect(await plain.type("yes") == [Board.classic.diagram, "Ada, place your X"])
    // With X to move again when the question comes, the new board still says whose turn it is.
    _ = await plain.type("b2")
    _ = await plain.type("a1")
    _ = await plain.type("new")
    #expect(await plain.type("yes") == [Board.classic.diagram, "Ada, place your X"])
  }

  @Test func theSavedGameIsOfferedFirst() async throws {
    let record = GameRecord.unfinishedAnnAgainstBob
    let database = InMemoryDatabase(gamesInProgress: [.guest: record])
    let plain = Transcript(GameRequest(mode: .versusComputer), database: database)
    let question =
      "Resume Ann vs Bob (2 moves played)? Type resume, or new to start a new game instead."
    #expect(await plain.start() == [question])
    #expect(await plain.type("c3") == [question])
    #expect(database.gamesInProgress[.guest] == record)
    #expect(
      await plain.type("resume") == [
        "X plays b2.", "O plays a1.", try board(.b2, .a1), "Ann, place your X",
      ])
  }

  @Test func analysisIsSaidOnceAndAgainWhenAsked() async throws {
    let plain = Transcript()
    _ = await plain.start()
    let said = await plain.type("analysis")
    #expect(said.count == 2)
    #expect(said.first == "X to move: draw. Best: a1.")
    #expect(await plain.type("e") == said)
  }

  @Test func largeBoardsAreSummedUpAndShownOnRequest() async throws {
    let plain = Transcript(GameRequest(xName: "Ada", oName: "Bob", mode: .hotSeat, rows: 15))
    #expect(
      await plain.start() == [
        "15×15 board, 0 moves played; type board to see it.", "Ada, place your X",
      ])
    #expect(
      await plain.type("h8") == [
        "X plays h8.", "15×15 board, 1 move played; type board to see it.", "Bob, place your O",
      ])
    let shown = await plain.type("board")
    #expect(shown.first?.hasPrefix("   a b c d e f g h i j k l m n o") == true)
    #expect(shown.last == "Bob, place your O")
  }

  @Test func aFailedSaveEndsTheAppWithoutClaimingTheMove() async throws {
    let database = InMemoryDatabase()
    var client = database.client
    client.saveGameInProgress = { _, _ in throw DatabaseError("The disk is full.") }
    let store = Store(
      initialState: TicTacToe.State(
        launch: .game(GameRequest(mode: .hotSeat), session: nil, isStandalone: true))
    ) {
      TicTacToe(
        authentication: .unimplemented, database: client, engine: .unimplemented,
        clock: .immediate, random: .lowest, thinkingPause: .zero)
    }
    var narrator = PlainNarrator()
    var said: [String] = []
    let token = store.observe { said += narrator.output(for: $0).lines }
    store.send(.started)
    await store.settled()
    store.send(.view(.lineTyped("b2")))
    await store.settled()
    #expect(!said.contains("X plays b2."))
    #expect(
      store.state.termination
        == .failed("The disk is full; the game stopped, and X's move b2 is not stored."))
    #expect(store.state.game?.endOfInputSentence == nil)
    token.cancel()
  }
}
