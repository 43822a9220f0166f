public import DatabaseClient
public import GameRules

/// Who plays: two people, a person against the computer, or the computer against itself.
public enum GameMode: Hashable, Sendable, CaseIterable {
  /// Two people at one keyboard.
  case hotSeat
  /// A person against the computer.
  case versusComputer
  /// The computer against itself, to watch.
  case computerVersusComputer
}

/// Who makes the first move of each game.
public enum StartingRule: Hashable, Sendable, CaseIterable {
  /// X always starts.
  case x
  /// O always starts.
  case o
  /// The sides take turns starting, X first.
  case alternate
  /// A coin toss before each game.
  case random
}

/// Everything chosen on the New game screen.
public struct GameSettings: Equatable, Sendable {
  /// X's name, trimmed.
  public var xName: String
  /// O's name, trimmed.
  public var oName: String
  /// Who plays.
  public var mode: GameMode
  /// The computer's side when ``mode`` is ``GameMode/versusComputer``.
  public var computerMark: Mark
  /// The computer's strength.
  public var difficulty: Difficulty
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// How many in a row win.
  public var k: Int
  /// Who starts each game.
  public var startingRule: StartingRule
  /// The signed-in account, or `nil` for a guest.
  public var accountID: Int64?

  /// Creates settings; the defaults are a classic hot-seat game.
  public init(
    xName: String, oName: String, mode: GameMode = .hotSeat, computerMark: Mark = .o,
    difficulty: Difficulty = .unbeatable, rows: Int = 3, columns: Int = 3, k: Int = 3,
    startingRule: StartingRule = .x, accountID: Int64? = nil
  ) {
    self.xName = xName
    self.oName = oName
    self.mode = mode
    self.computerMark = computerMark
    self.difficulty = difficulty
    self.rows = rows
    self.columns = columns
    self.k = k
    self.startingRule = startingRule
    self.accountID = accountID
  }

  /// Whether the computer plays `mark`.
  public func isComputer(_ mark: Mark) -> Bool {
    switch mode {
    case .hotSeat: false
    case .versusComputer: mark == computerMark
    case .computerVersusComputer: true
    }
  }

  /// The name of the player of `mark`.
  public func name(of mark: Mark) -> String { mark == .x ? xName : oName }

  /// Whose records the games go to.
  public var owner: RecordOwner { accountID.map(RecordOwner.account) ?? .guest }

  /// The side that starts the first game.
  public var firstGameStarter: Mark { startingRule == .o ? .o : .x }

  /// The record of `mark`'s player: the account goes to the first side a person plays.
  func playerRecord(_ mark: Mark) -> PlayerRecord {
    let accountSide: Mark? =
      switch mode {
      case .hotSeat: .x
      case .versusComputer: computerMark.opponent
      case .computerVersusComputer: nil
      }
    return PlayerRecord(
      name: name(of: mark),
      accountID: mark == accountSide ? accountID : nil,
      computer: isComputer(mark) ? difficulty : nil)
  }
}
