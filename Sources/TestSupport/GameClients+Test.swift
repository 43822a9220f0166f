public import DatabaseClient
import GameAI
public import GameCore
public import GameRules

extension EngineClient {
  /// An engine whose every endpoint fails the test when called.
  public static let unimplemented = EngineClient(
    chooseMove: { _, _ in
      TestSupport.unimplemented("EngineClient.chooseMove")
      return nil
    },
    hint: { _ in
      TestSupport.unimplemented("EngineClient.hint")
      return nil
    },
    analyze: { _ in
      TestSupport.unimplemented("EngineClient.analyze")
      return Analysis(evaluation: Evaluation(value: .draw, plies: 0), moves: [], best: [])
    }
  )

  /// An engine that always plays (and hints) the first empty cell in reading order.
  public static let firstEmptyCell = EngineClient(
    chooseMove: { board, _ in board.emptyCells.first },
    hint: { board in board.emptyCells.first },
    analyze: { board in
      let draw = Evaluation(value: .draw, plies: board.emptyCells.count)
      return Analysis(
        evaluation: draw,
        moves: board.emptyCells.map { MoveEvaluation(cell: $0, evaluation: draw) },
        best: Array(board.emptyCells.prefix(1)))
    }
  )

  /// An engine that plays the given cells in order, then none; hints and analysis fail the test.
  public static func playing(_ cells: [Cell]) -> EngineClient {
    let moves = Moves(cells)
    var engine = EngineClient.unimplemented
    engine.chooseMove = { _, _ in await moves.next() }
    return engine
  }
}

private actor Moves {
  private var cells: [Cell]

  init(_ cells: [Cell]) { self.cells = cells }

  func next() -> Cell? { cells.isEmpty ? nil : cells.removeFirst() }
}

extension ClockClient {
  /// A clock fixed at ``TestClock/epoch`` whose sleeps end at once (unless cancelled), in
  /// ``TestClock/timeZoneOffset``'s time zone.
  public static let immediate = ClockClient(
    now: { TestClock.epoch },
    sleep: { _ in try Task.checkCancellation() },
    localTime: TestClock.localTime
  )

  /// A clock whose every endpoint fails the test when called.
  public static let unimplemented = ClockClient(
    now: {
      TestSupport.unimplemented("ClockClient.now")
      return 0
    },
    sleep: { _ in
      TestSupport.unimplemented("ClockClient.sleep")
      throw UnimplementedError(endpoint: "ClockClient.sleep")
    },
    localTime: { timestamp in
      TestSupport.unimplemented("ClockClient.localTime")
      return LocalTime(timestamp)
    }
  )
}

extension RandomClient {
  /// A random source that always answers the lowest value of the range.
  public static let lowest = RandomClient { $0.lowerBound }

  /// A random source that fails the test when called.
  public static let unimplemented = RandomClient { range in
    TestSupport.unimplemented("RandomClient.int")
    return range.lowerBound
  }
}

extension GameSettings {
  /// Blob (X) against Blob Jr (O) at one keyboard on a classic board.
  public static let hotSeat = GameSettings(xName: "Blob", oName: "Blob Jr")

  /// Blob (X) against the computer (O) at Unbeatable, signed in as account 1.
  public static let versusComputer = GameSettings(
    xName: "Blob", oName: "Computer", mode: .versusComputer, computerMark: .o, accountID: 1)
}

extension GameRecord {
  /// Ann (X) against Bob (O) at one keyboard, left unfinished after b2 and a1.
  public static let unfinishedAnnAgainstBob = GameRecord(
    x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: [.b2, .a1],
    startedAt: TestClock.epoch - 60_000)
}
