public import Architecture
public import DatabaseClient
public import GameAI
public import GameRules

/// The Game screen: moves, the computer's turn, undo, redo, hint, play again and quit.
public struct GameFeature: Reducer {
  /// The game on the board and what the screen shows around it.
  public struct State: Equatable, Sendable {
    /// The players and options chosen on New game.
    public var settings: GameSettings
    /// The game: starting board, moves and what was undone.
    public var game: Game
    /// When the game began.
    public var startedAt: Timestamp
    /// Whether the computer is choosing a move; the board ignores input meanwhile.
    public var isThinking = false
    /// The engine's suggestion for the side to move, until the next move.
    public var hint: Cell?
    /// The engine's value of every legal move, shown on request until the next move.
    public var analysis: Analysis?
    /// Whether the player is being asked to confirm quitting a game in progress.
    public var isConfirmingQuit = false
    /// Whether the finished game is being written to the records.
    public var isSavingRecord = false
    /// Whether Quit was chosen while the record was being saved; the screen closes after.
    public var isQuitting = false
    /// The finished game's id in the records, once saved.
    public var recordID: Int64?
    /// A problem with the records, in one sentence.
    public var errorMessage: String?

    /// Creates the state of a fresh game for `settings`.
    ///
    /// - Parameters:
    ///   - settings: Valid settings (the board dimensions are checked by New game).
    ///   - firstMover: Who starts this game.
    ///   - startedAt: When the game begins.
    /// - Throws: ``BoardError`` when the dimensions are not supported.
    public init(settings: GameSettings, firstMover: Mark, startedAt: Timestamp)
      throws(BoardError)
    {
      let board = try Board(
        rows: settings.rows, columns: settings.columns, k: settings.k, firstMover: firstMover)
      self.init(settings: settings, game: Game(start: board), startedAt: startedAt)
    }

    /// Creates the state of a game already under way, such as a resumed one.
    public init(settings: GameSettings, game: Game, startedAt: Timestamp) {
      self.settings = settings
      self.game = game
      self.startedAt = startedAt
    }

    /// The board as it stands.
    public var board: Board { game.board }

    /// The game as the records keep it.
    public var record: GameRecord {
      let result: GameResult? =
        switch board.outcome {
        case .inProgress: nil
        case .win(.x, _): .xWins
        case .win(.o, _): .oWins
        case .draw: .draw
        }
      return GameRecord(
        x: settings.playerRecord(.x), o: settings.playerRecord(.o),
        rows: board.rows, columns: board.columns, k: board.k, firstMover: game.start.firstMover,
        moves: game.moves, result: result, startedAt: startedAt)
    }
  }

  /// What can happen on the Game screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The screen appeared (or a game was resumed): the computer moves if it is its turn.
    case started
    /// The engine chose a move (`nil`: it found none).
    case computerMoved(Cell?)
    /// The engine's hint arrived.
    case hintResponse(Cell?)
    /// The engine's analysis of the position arrived.
    case analysisResponse(Analysis)
    /// The finished game was saved with this id.
    case recordSaved(Int64)
    /// Writing to the records failed.
    case saveFailed(String)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// A cell was chosen.
      case cellTapped(Cell)
      /// Undo: against the computer, takes back its reply and your move.
      case undoTapped
      /// Redo what was undone.
      case redoTapped
      /// Ask the engine for the best move.
      case hintTapped
      /// Show (or hide) every legal move's value.
      case analysisTapped
      /// Start another game with the same players and settings.
      case playAgainTapped
      /// Leave the game (asks first while a game is in progress).
      case quitTapped
      /// Yes, abandon the game in progress.
      case quitConfirmed
      /// No, keep playing.
      case quitCancelled
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// Close the Game screen.
      case didQuit
    }
  }

  private enum CancelID: Hashable, Sendable {
    case computerMove
    case hint
    case analysis
    case saveProgress
  }

  /// The engine that plays for the computer and gives hints.
  public var engine: EngineClient
  /// The clock for the thinking pause and the records' times.
  public var clock: ClockClient
  /// The coin for a random starter.
  public var random: RandomClient
  /// Where games are saved.
  public var database: DatabaseClient
  /// How long the computer seems to think before it moves.
  public var thinkingPause: Duration

  /// Creates the feature with its clients.
  public init(
    engine: EngineClient, clock: ClockClient, random: RandomClient, database: DatabaseClient,
    thinkingPause: Duration = .milliseconds(350)
  ) {
    self.engine = engine
    self.clock = clock
    self.random = random
    self.database = database
    self.thinkingPause = thinkingPause
  }

  /// Reduces an action of the Game screen.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .view(let view):
      return reduce(into: &state, view: view)

    case .started:
      return computerTurn(&state)

    case .computerMoved(let cell):
      guard state.isThinking else { return .none }
      state.isThinking = false
      guard let cell, (try? state.game.play(at: cell)) != nil else {
        state.errorMessage = "The computer could not find a move."
        return .none
      }
      return afterMove(&state)

    case .hintResponse(let cell):
      state.hint = cell
      return .none

    case .analysisResponse(let analysis):
      state.analysis = analysis
      return .none

    case .recordSaved(let id):
      state.isSavingRecord = false
      state.recordID = id
      return state.isQuitting ? .send(.delegate(.didQuit)) : .none

    case .saveFailed(let message):
      state.isSavingRecord = false
      state.errorMessage = message
      return state.isQuitting ? .send(.delegate(.didQuit)) : .none

    case .delegate:
      return .none
    }
  }

  private func reduce(into state: inout State, view: Action.View) -> Effect<Action> {
    switch view {
    case .cellTapped(let cell):
      guard state.isBoardEnabled, (try? state.game.play(at: cell)) != nil else { return .none }
      return afterMove(&state)

    case .undoTapped:
      guard state.canUndo else { return .none }
      state.isThinking = false
      state.hint = nil
      state.analysis = nil
      repeat {
        state.game.undo()
      } while state.settings.isComputer(state.board.toMove) && state.game.canUndo
      return .merge(
        .cancel(id: CancelID.computerMove), .cancel(id: CancelID.hint),
        .cancel(id: CancelID.analysis), saveProgress(state))

    case .redoTapped:
      guard state.canRedo else { return .none }
      repeat {
        state.game.redo()
      } while state.game.canRedo && state.settings.isComputer(state.board.toMove)
        && !state.board.outcome.isOver
      return afterMove(&state)

    case .hintTapped:
      guard state.canHint else { return .none }
      let board = state.board
      return .run { [engine] send in
        await send(.hintResponse(await engine.hint(board)))
      }
      .cancellable(id: CancelID.hint, cancelInFlight: true)

    case .analysisTapped:
      guard state.analysis == nil else {
        state.analysis = nil
        return .cancel(id: CancelID.analysis)
      }
      guard state.canAnalyze else { return .none }
      let board = state.board
      return .run { [engine] send in
        await send(.analysisResponse(await engine.analyze(board)))
      }
      .cancellable(id: CancelID.analysis, cancelInFlight: true)

    case .playAgainTapped:
      let wasAbandoned = !state.board.outcome.isOver && !state.game.moves.isEmpty
      let starter: Mark =
        switch state.settings.startingRule {
        case .x: .x
        case .o: .o
        case .alternate: state.game.start.firstMover.opponent
        case .random: random.int(0..<2) == 0 ? .x : .o
        }
      let start = state.game.start
      let board: Board
      do {
        board = try Board(rows: start.rows, columns: start.columns, k: start.k, firstMover: starter)
      } catch {
        preconditionFailure("the dimensions of a board in play are valid: \(error)")
      }
      state.game = Game(start: board)
      state.startedAt = clock.now()
      state.isThinking = false
      state.hint = nil
      state.analysis = nil
      state.isConfirmingQuit = false
      state.recordID = nil
      state.errorMessage = nil
      let cancellations = Effect<Action>.merge(
        .cancel(id: CancelID.computerMove), .cancel(id: CancelID.hint),
        .cancel(id: CancelID.analysis), .cancel(id: CancelID.saveProgress))
      return .merge(
        cancellations, wasAbandoned ? clearProgress(state) : .none, computerTurn(&state))

    case .quitTapped:
      if state.board.outcome == .inProgress && !state.game.moves.isEmpty {
        state.isConfirmingQuit = true
        return .none
      }
      if state.isSavingRecord {
        state.isQuitting = true
        return .none
      }
      return .merge(
        .cancel(id: CancelID.computerMove), .cancel(id: CancelID.hint), .send(.delegate(.didQuit)))

    case .quitConfirmed:
      guard state.isConfirmingQuit else { return .none }
      state.isConfirmingQuit = false
      state.isThinking = false
      let owner = state.settings.owner
      return .merge(
        .cancel(id: CancelID.computerMove), .cancel(id: CancelID.hint),
        .cancel(id: CancelID.saveProgress),
        .run { [database] send in
          // The game was abandoned on purpose, so it is not offered for resume; a failure to
          // forget it only means it is offered once more.
          try? await database.clearGameInProgress(owner)
          await send(.delegate(.didQuit))
        })

    case .quitCancelled:
      state.isConfirmingQuit = false
      return .none
    }
  }

  /// Records a move just played and starts the computer's turn when it is due.
  private func afterMove(_ state: inout State) -> Effect<Action> {
    state.hint = nil
    state.analysis = nil
    let cancelHint = Effect<Action>.merge(
      .cancel(id: CancelID.hint), .cancel(id: CancelID.analysis))
    guard state.board.outcome.isOver else {
      return .merge(cancelHint, saveProgress(state), computerTurn(&state))
    }
    state.isSavingRecord = true
    let record = state.record
    let owner = state.settings.owner
    return .merge(
      cancelHint, .cancel(id: CancelID.saveProgress),
      .run { [database, clock] send in
        do {
          var finished = record
          finished.endedAt = clock.now()
          let id = try await database.saveFinishedGame(finished)
          try await database.clearGameInProgress(owner)
          await send(.recordSaved(id))
        } catch {
          await send(.saveFailed(Self.message(for: error)))
        }
      })
  }

  /// Starts the computer's move when it is the computer's turn.
  private func computerTurn(_ state: inout State) -> Effect<Action> {
    guard state.board.outcome == .inProgress, state.settings.isComputer(state.board.toMove)
    else { return .none }
    state.isThinking = true
    let board = state.board
    let difficulty = state.settings.difficulty
    return .run { [engine, clock, thinkingPause] send in
      do {
        try await clock.sleep(thinkingPause)
      } catch {
        return
      }
      await send(.computerMoved(await engine.chooseMove(board, difficulty)))
    }
    .cancellable(id: CancelID.computerMove, cancelInFlight: true)
  }

  private func saveProgress(_ state: State) -> Effect<Action> {
    // A game taken back to its start has nothing worth resuming.
    guard !state.game.moves.isEmpty else {
      return clearProgress(state).cancellable(id: CancelID.saveProgress, cancelInFlight: true)
    }
    let record = state.record
    let owner = state.settings.owner
    return .run { [database] send in
      do {
        // A save replaced by a newer one before it began must not overwrite it.
        try Task.checkCancellation()
        try await database.saveGameInProgress(record, owner)
      } catch is CancellationError {
        // A newer move replaced this save.
      } catch {
        await send(.saveFailed(Self.message(for: error)))
      }
    }
    .cancellable(id: CancelID.saveProgress, cancelInFlight: true)
  }

  private func clearProgress(_ state: State) -> Effect<Action> {
    let owner = state.settings.owner
    return .run { [database] send in
      do {
        try Task.checkCancellation()
        try await database.clearGameInProgress(owner)
      } catch is CancellationError {
        // A newer save replaced this one.
      } catch {
        await send(.saveFailed(Self.message(for: error)))
      }
    }
  }

  private static func message(for error: any Error) -> String {
    (error as? DatabaseError)?.message ?? "The game could not be saved."
  }
}
