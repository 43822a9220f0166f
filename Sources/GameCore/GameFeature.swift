public import Architecture
public import DatabaseClient
public import GameAI
public import GameRules

/// The Game screen: moves, the computer's turn, undo, redo, hint, analysis, play again and quit.
///
/// Every change to the game is written to the records before it shows: a move's sentence and the
/// board that shows it follow the commit, so a move that was announced is never lost. A write
/// that fails stops the game.
public struct GameFeature: Reducer {
  /// The game on the board and what the screen shows around it.
  public struct State: Equatable, Sendable {
    /// The players and options chosen on New game.
    public var settings: GameSettings
    /// The game as stored: starting board, moves and what was undone.
    public var game: Game
    /// When the game began.
    public var startedAt: Timestamp
    /// What the game is doing now; see ``Phase``.
    public var phase = Phase.playing
    /// The engine's suggestion for the side to move, until the next move.
    public var hint: Cell?
    /// The engine's value of every legal move, shown on request until the next move.
    public var analysis: Analysis?
    /// The last thing said to the player about their last action, if it is still current.
    public private(set) var notice: Notice?

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
    public var record: GameRecord { record(of: game) }

    /// A game of these players as the records keep it.
    func record(of game: Game) -> GameRecord {
      let result: GameResult? =
        switch game.board.outcome {
        case .inProgress: nil
        case .win(.x, _): .xWins
        case .win(.o, _): .oWins
        case .draw: .draw
        }
      return GameRecord(
        x: settings.playerRecord(.x), o: settings.playerRecord(.o),
        rows: game.board.rows, columns: game.board.columns, k: game.board.k,
        firstMover: game.start.firstMover, moves: game.moves, result: result,
        startedAt: startedAt)
    }

    /// Says `kind` to the player; the same notice twice is said twice.
    public mutating func post(_ kind: Notice.Kind) {
      postedCount += 1
      notice = Notice(kind: kind, number: postedCount)
    }

    /// Forgets the notice: the player has moved on.
    public mutating func clearNotice() {
      notice = nil
    }

    /// How many notices were posted, so that a repeated notice is still a change of state.
    private var postedCount = 0
  }

  /// What the game is doing.
  ///
  /// Each phase allows only the actions that make sense in it.
  public enum Phase: Equatable, Sendable {
    /// Waiting for a person's move, or for ``Action/started`` when the computer starts.
    case playing
    /// The computer is choosing its move; the board takes no move meanwhile.
    case thinking
    /// Asking before a game in progress is abandoned.
    case confirming(Question)
    /// A change waits for the records; it shows once stored.
    case saving(Save)
    /// The game is over and recorded under this id.
    case finished(recordID: Int64)
    /// A write to the records failed: the game cannot go on.
    case stopped(SaveFailure)
  }

  /// What abandoning a game in progress leads to.
  public enum Question: Equatable, Sendable {
    /// Leave the game.
    case quit
    /// Leave it for a new game.
    case newGame
  }

  /// A change to the game that waits for the records.
  public struct Save: Equatable, Sendable {
    /// The game as it will be once stored.
    public var game: Game
    /// What to write.
    public var write: Write
    /// What to say once it is stored.
    public var notice: Notice.Kind?
    /// The message for the parent once it is stored, if the screen closes then.
    public var then: Delegate?
    /// Whether it is the last write before the program ends: nothing follows it.
    public var isFinal: Bool

    /// Creates a save.
    public init(
      game: Game, write: Write, notice: Notice.Kind? = nil, then: Delegate? = nil,
      isFinal: Bool = false
    ) {
      self.game = game
      self.write = write
      self.notice = notice
      self.then = then
      self.isFinal = isFinal
    }

    /// What a save writes.
    public enum Write: Equatable, Sendable {
      /// The game in progress, replacing the last one saved.
      case progress
      /// The finished game, forgetting the game in progress in the same transaction.
      case finished
      /// Forget the game in progress: it was taken back to its start.
      case clear
      /// Forget the game in progress: the player abandoned it.
      case abandon
    }
  }

  /// Why the game stopped: the records' sentence and what was not stored.
  public struct SaveFailure: Equatable, Sendable {
    /// The records' one sentence.
    public var reason: String
    /// The game as stored.
    public var stored: Game
    /// The game that could not be stored.
    public var unstored: Game
    /// What was being written.
    public var write: Save.Write
    /// Whether the database file was deleted or replaced while in use, so that nothing of the
    /// game is kept.
    public var isDatabaseGone: Bool

    /// Creates a failure.
    public init(
      reason: String, stored: Game, unstored: Game, write: Save.Write, isDatabaseGone: Bool = false
    ) {
      self.reason = reason
      self.stored = stored
      self.unstored = unstored
      self.write = write
      self.isDatabaseGone = isDatabaseGone
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
    /// The change waiting in ``Phase/saving(_:)`` is stored; a finished game with this id.
    case saved(recordID: Int64?)
    /// Writing the change failed.
    case saveFailed(DatabaseError)
    /// The input ended (Ctrl-D, or the end of a script): the engine stops, so that no move the
    /// player never saw is stored after they left, and the game in progress is written once
    /// more, so that "the unfinished game is saved" is said only while the records hold it.
    case inputEnded
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// A cell was chosen.
      case cellTapped(Cell)
      /// A digit was typed: 1 to 9 pick the cells of a 3×3 board in reading order.
      case digitTyped(Int)
      /// A line was typed in plain mode: a cell, a command or an answer.
      case lineTyped(String)
      /// Undo: against the computer, takes back its reply and your move.
      case undoTapped
      /// Redo what was undone.
      case redoTapped
      /// Ask the engine for the best move.
      case hintTapped
      /// Show (or hide) every legal move's value.
      case analysisTapped
      /// Start another game with the same players and settings now, even one in progress.
      case playAgainTapped
      /// A new game: play again once the game is over, else ask before abandoning this one.
      case newGameTapped
      /// Leave the game (asks first while a game is in progress).
      case quitTapped
      /// Yes, abandon the game in progress.
      case quitConfirmed
      /// No, keep playing.
      case quitCancelled
    }
  }

  /// What the parent must act on.
  public enum Delegate: Equatable, Sendable {
    /// Close the Game screen.
    case didQuit
    /// Close the Game screen for a new game.
    case didAskForNewGame
    /// The game stopped because a write failed; the sentence says what is not stored.
    case didStop(String)
  }

  private enum CancelID: Hashable, Sendable {
    case computerMove
    case hint
    case analysis
  }

  /// How long the computer seems to think before it moves, unless told otherwise.
  public static let naturalThinkingPause = Duration.milliseconds(350)

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
    thinkingPause: Duration = naturalThinkingPause
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
      state.clearNotice()
      return reduce(into: &state, view: view)

    case .started:
      return computerTurn(&state)

    case .computerMoved(let cell):
      guard state.phase == .thinking else { return .none }
      state.phase = .playing
      guard let cell, let next = try? state.game.playing(at: cell) else {
        state.post(.noMoveFound)
        return .none
      }
      return commit(&state, next)

    case .hintResponse(let cell):
      state.hint = cell
      if let cell { state.post(.hint(cell)) }
      return .none

    case .analysisResponse(let analysis):
      state.analysis = analysis
      state.post(.analysis)
      return .none

    case .saved(let recordID):
      guard case .saving(let save) = state.phase else { return .none }
      state.game = save.game
      state.hint = nil
      state.analysis = nil
      if let notice = save.notice {
        state.post(notice)
      } else if state.notice?.kind != .stillSaving {
        // A key refused meanwhile stays told until the next key: the save ended unseen.
        state.clearNotice()
      }
      if let recordID {
        state.phase = .finished(recordID: recordID)
      } else {
        state.phase = .playing
      }
      if let then = save.then { return .send(.delegate(then)) }
      if save.isFinal { return .none }
      return computerTurn(&state)

    case .saveFailed(let error):
      guard case .saving(let save) = state.phase else { return .none }
      let failure = SaveFailure(
        reason: error.message, stored: state.game, unstored: save.game, write: save.write,
        isDatabaseGone: error.kind == .gone)
      state.phase = .stopped(failure)
      return .send(.delegate(.didStop(failure.sentence)))

    case .inputEnded:
      guard state.phase == .playing || state.phase == .thinking, !state.isGameOver,
        !state.game.moves.isEmpty
      else { return cancelEngine() }
      return .merge(
        cancelEngine(), save(&state, Save(game: state.game, write: .progress, isFinal: true)))

    case .delegate:
      return .none
    }
  }

  private func reduce(into state: inout State, view: Action.View) -> Effect<Action> {
    if case .stopped = state.phase { return .none }
    if case .confirming(let question) = state.phase {
      return answer(&state, question, view)
    }
    switch view {
    case .cellTapped(let cell):
      return play(&state, cell)

    case .digitTyped(let digit):
      guard let cell = Cell(digit: digit, on: state.board) else {
        state.post(.digitsNeedTheClassicBoard)
        return .none
      }
      return play(&state, cell)

    case .lineTyped(let line):
      return typed(&state, line)

    case .undoTapped:
      guard !isRefused(&state, .undo) else { return .none }
      // Against the computer, its reply and the person's move go back together.
      let (next, count) = state.game.stepping(
        { $0.undo() }, while: { state.settings.isComputer($0.board.toMove) && $0.canUndo })
      state.phase = .playing
      return .merge(cancelEngine(), commit(&state, next, notice: .undone(count)))

    case .redoTapped:
      guard !isRefused(&state, .redo) else { return .none }
      let (next, count) = state.game.stepping(
        { $0.redo() },
        while: { game in
          game.canRedo && state.settings.isComputer(game.board.toMove)
            && !game.board.outcome.isOver
        })
      return .merge(cancelEngine(), commit(&state, next, notice: .redone(count)))

    case .hintTapped:
      guard !isRefused(&state, .move) else { return .none }
      return ask(state, id: .hint) { engine, board in .hintResponse(await engine.hint(board)) }

    case .analysisTapped:
      guard state.analysis == nil else {
        state.analysis = nil
        return .cancel(id: CancelID.analysis)
      }
      guard !isRefused(&state, .analysis) else { return .none }
      return ask(state, id: .analysis) { engine, board in
        .analysisResponse(await engine.analyze(board))
      }

    case .playAgainTapped:
      if case .saving = state.phase {
        state.post(.stillSaving)
        return .none
      }
      return playAgain(&state)

    case .newGameTapped:
      if state.isGameOver {
        return reduce(into: &state, view: .playAgainTapped)
      }
      if state.isAbandoning {
        return ask(&state, .newGame)
      }
      return .send(.delegate(.didAskForNewGame))

    case .quitTapped:
      if state.isAbandoning {
        return ask(&state, .quit)
      }
      if case .saving(var save) = state.phase {
        save.then = .didQuit
        state.phase = .saving(save)
        return .none
      }
      return .merge(cancelEngine(), .send(.delegate(.didQuit)))

    case .quitConfirmed, .quitCancelled:
      return .none
    }
  }

  /// Posts why `request` does nothing now and returns `true`, or returns `false` when it acts.
  private func isRefused(_ state: inout State, _ request: State.Request) -> Bool {
    guard let refusal = state.refusal(of: request) else { return false }
    state.post(refusal)
    return true
  }

  /// Asks the engine about the board, replacing a question of the same kind still open.
  private func ask(
    _ state: State, id: CancelID,
    _ question: @escaping @concurrent @Sendable (EngineClient, Board) async -> Action
  ) -> Effect<Action> {
    let board = state.board
    return .run { [engine] send in await send(await question(engine, board)) }
      .cancellable(id: id, cancelInFlight: true)
  }

  // MARK: - Moves

  private func play(_ state: inout State, _ cell: Cell) -> Effect<Action> {
    guard !isRefused(&state, .move) else { return .none }
    do {
      return .merge(cancelEngine(), commit(&state, try state.game.playing(at: cell)))
    } catch {
      state.post(.refused(error))
      return .none
    }
  }

  /// Stores `next` and shows it once stored; the computer moves after when it is its turn.
  private func commit(
    _ state: inout State, _ next: Game, notice: Notice.Kind? = nil, then: Delegate? = nil
  ) -> Effect<Action> {
    let write: Save.Write =
      next.board.outcome.isOver ? .finished : next.moves.isEmpty ? .clear : .progress
    return save(&state, Save(game: next, write: write, notice: notice, then: then))
  }

  private func save(_ state: inout State, _ save: Save) -> Effect<Action> {
    state.phase = .saving(save)
    let record = state.record(of: save.game)
    let owner = state.settings.owner
    return .run { [database, clock] send in
      do {
        switch save.write {
        case .progress:
          try await database.saveGameInProgress(record, owner)
          await send(.saved(recordID: nil))
        case .finished:
          var finished = record
          finished.endedAt = clock.now()
          await send(.saved(recordID: try await database.finishGameInProgress(finished, owner)))
        case .clear, .abandon:
          try await database.clearGameInProgress(owner)
          await send(.saved(recordID: nil))
        }
      } catch {
        await send(.saveFailed(DatabaseError(error, or: "\(error)")))
      }
    }
  }

  /// Starts the computer's move when it is the computer's turn.
  private func computerTurn(_ state: inout State) -> Effect<Action> {
    guard state.phase == .playing, state.board.outcome == .inProgress,
      state.settings.isComputer(state.board.toMove)
    else { return .none }
    state.phase = .thinking
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

  private func cancelEngine() -> Effect<Action> {
    .merge(
      .cancel(id: CancelID.computerMove), .cancel(id: CancelID.hint),
      .cancel(id: CancelID.analysis))
  }

  private func playAgain(_ state: inout State) -> Effect<Action> {
    let wasAbandoned = state.isAbandoning
    let start = state.game.start
    let starter = state.settings.startingRule.firstMover(
      after: start.firstMover, random: random)
    let board: Board
    do {
      board = try Board(rows: start.rows, columns: start.columns, k: start.k, firstMover: starter)
    } catch {
      preconditionFailure("the dimensions of a board in play are valid: \(error)")
    }
    state.startedAt = clock.now()
    state.hint = nil
    state.analysis = nil
    state.phase = .playing
    guard wasAbandoned else {
      state.game = Game(start: board)
      return .merge(cancelEngine(), computerTurn(&state))
    }
    return .merge(
      cancelEngine(), save(&state, Save(game: Game(start: board), write: .abandon)))
  }

  // MARK: - Questions

  private func ask(_ state: inout State, _ question: Question) -> Effect<Action> {
    state.phase = .confirming(question)
    return cancelEngine()
  }

  private func answer(
    _ state: inout State, _ question: Question, _ view: Action.View
  ) -> Effect<Action> {
    switch view {
    case .quitConfirmed:
      state.phase = .playing
      let then: Delegate = question == .quit ? .didQuit : .didAskForNewGame
      return save(&state, Save(game: state.game, write: .abandon, then: then))
    case .quitCancelled:
      state.phase = .playing
      state.post(.keptPlaying)
      return computerTurn(&state)
    case .lineTyped(let line):
      switch Answer(line) {
      case .yes: return answer(&state, question, .quitConfirmed)
      case .no: return answer(&state, question, .quitCancelled)
      case nil:
        state.post(.answerYesOrNo)
        return .none
      }
    default:
      state.post(.answerYesOrNo)
      return .none
    }
  }

  // MARK: - Plain mode's lines

  private func typed(_ state: inout State, _ line: String) -> Effect<Action> {
    switch TypedCommand(line) {
    case .nothing: return .none
    case .cell(let cell): return play(&state, cell)
    case .digit(let digit): return reduce(into: &state, view: .digitTyped(digit))
    case .undo: return reduce(into: &state, view: .undoTapped)
    case .redo: return reduce(into: &state, view: .redoTapped)
    case .hint: return reduce(into: &state, view: .hintTapped)
    case .analysis:
      // Shown already (no move since): say it again rather than hide it.
      guard state.analysis == nil else {
        state.post(.analysis)
        return .none
      }
      return reduce(into: &state, view: .analysisTapped)
    case .newGame: return reduce(into: &state, view: .newGameTapped)
    case .quit: return reduce(into: &state, view: .quitTapped)
    case .help: state.post(.help)
    case .board: state.post(.board)
    case .unknown(let text): state.post(.unknownCommand(text))
    }
    return .none
  }
}

extension GameFeature.State {
  /// Whether the board takes a person's move now.
  public var isBoardEnabled: Bool { refusal(of: .move) == nil }

  /// Whether the computer is choosing a move.
  public var isThinking: Bool { phase == .thinking }

  /// Whether the player is being asked before a game in progress is abandoned.
  public var isConfirmingQuit: Bool {
    if case .confirming = phase { return true }
    return false
  }

  /// Whether a change waits for the records.
  public var isSaving: Bool {
    if case .saving = phase { return true }
    return false
  }

  /// The finished game's id in the records, once saved.
  public var recordID: Int64? {
    if case .finished(let id) = phase { return id }
    return nil
  }

  /// Why the game stopped, if a write failed.
  public var failure: GameFeature.SaveFailure? {
    if case .stopped(let failure) = phase { return failure }
    return nil
  }

  /// Whether leaving now abandons a game in progress, which is asked about first.
  var isAbandoning: Bool {
    guard board.outcome == .inProgress, !game.moves.isEmpty else { return false }
    switch phase {
    case .playing, .thinking: return true
    case .confirming, .saving, .finished, .stopped: return false
    }
  }

  /// What a person may ask of the game, each refused with a notice when it cannot be done.
  enum Request {
    /// A move, or a hint for one.
    case move
    case undo
    case redo
    case analysis
  }

  /// Why `request` does nothing now, or `nil` when it acts.
  func refusal(of request: Request) -> Notice.Kind? {
    if board.outcome.isOver { return .refused(.gameOver) }
    switch (phase, request) {
    case (.saving, _): return .stillSaving
    case (.confirming, _): return .answerYesOrNo
    case (.finished, _): return .refused(.gameOver)
    case (.stopped, _): return .stopped
    case (.playing, .undo), (.thinking, .undo): return hasPersonsMove ? nil : .nothingToUndo
    case (.thinking, _): return .notYourTurn
    case (.playing, .move): return settings.isComputer(board.toMove) ? .notYourTurn : nil
    case (.playing, .redo): return game.canRedo ? nil : .nothingToRedo
    case (.playing, .analysis): return nil
    }
  }

  /// Whether a person made one of the moves, so Undo has something to take back.
  private var hasPersonsMove: Bool {
    let starter = game.start.firstMover
    return game.moves.indices.contains { index in
      !settings.isComputer(index.isMultiple(of: 2) ? starter : starter.opponent)
    }
  }
}

extension Game {
  /// The game after `step`, repeated while `more` holds, and how many steps were taken.
  fileprivate func stepping(
    _ step: (inout Game) -> Void, while more: (Game) -> Bool
  ) -> (game: Game, count: Int) {
    var game = self
    var count = 0
    repeat {
      step(&game)
      count += 1
    } while more(game)
    return (game, count)
  }
}

/// An answer to a yes-or-no question, as typed.
package enum Answer {
  case yes
  case no

  package init?(_ line: String) {
    switch line.trimmingWhitespace().lowercased() {
    case "y", "yes", "q", "quit": self = .yes
    case "n", "no": self = .no
    default: return nil
    }
  }
}
