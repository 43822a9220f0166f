public import GameRules

/// Milliseconds since 1970-01-01 00:00 UTC.
public typealias Timestamp = Int64

/// One side of a recorded game.
public struct PlayerRecord: Equatable, Sendable {
  /// The name shown in titles.
  public var name: String
  /// The signed-in account that played this side, if any.
  public var accountID: Int64?
  /// The computer's difficulty when the computer played this side; `nil` for a person.
  public var computer: Difficulty?

  /// Creates a player record.
  public init(name: String, accountID: Int64? = nil, computer: Difficulty? = nil) {
    self.name = name
    self.accountID = accountID
    self.computer = computer
  }

  /// Whether a person played this side.
  public var isPerson: Bool { computer == nil }
}

/// How a recorded game ended.
public enum GameResult: String, Equatable, Sendable, CaseIterable {
  case xWins
  case oWins
  case draw
}

/// A game as the records keep it: players, settings, moves, result and times.
///
/// A game in progress has no `result` and no `endedAt`.
public struct GameRecord: Equatable, Sendable, Identifiable {
  /// The database's id; `nil` until saved.
  public var id: Int64?
  /// Who played X.
  public var x: PlayerRecord
  /// Who played O.
  public var o: PlayerRecord
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// How many in a row win.
  public var k: Int
  /// Who moved first.
  public var firstMover: Mark
  /// The moves in the order played.
  public var moves: [Cell]
  /// The result, once the game is over.
  public var result: GameResult?
  /// When the first move could be made.
  public var startedAt: Timestamp
  /// When the game ended.
  public var endedAt: Timestamp?

  /// Creates a record.
  public init(
    id: Int64? = nil, x: PlayerRecord, o: PlayerRecord, rows: Int = 3, columns: Int = 3,
    k: Int = 3, firstMover: Mark = .x, moves: [Cell] = [], result: GameResult? = nil,
    startedAt: Timestamp, endedAt: Timestamp? = nil
  ) {
    self.id = id
    self.x = x
    self.o = o
    self.rows = rows
    self.columns = columns
    self.k = k
    self.firstMover = firstMover
    self.moves = moves
    self.result = result
    self.startedAt = startedAt
    self.endedAt = endedAt
  }

  /// The record's side for `mark`.
  public func player(_ mark: Mark) -> PlayerRecord { mark == .x ? x : o }

  /// Rebuilds the game by replaying the moves.
  ///
  /// - Throws: ``BoardError`` or ``MoveError`` when the record is inconsistent.
  public func game() throws -> Game {
    let start = try Board(rows: rows, columns: columns, k: k, firstMover: firstMover)
    return try Game(start: start, moves: moves)
  }
}
