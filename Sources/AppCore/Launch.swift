public import AuthenticationClient
public import GameCore
public import GameRules

/// How the app starts: at Sign in, or straight into a game that options describe.
public enum Launch: Equatable, Sendable {
  /// Sign in, with a user name and a game server (empty: this computer) filled in.
  case signIn(userName: String, server: String = "")
  /// A game from options, for a signed-in player or a guest. A standalone game (plain mode)
  /// plays games one after another and ends the app when the player quits.
  case game(GameRequest, session: Session?, isStandalone: Bool)
}

/// A game asked for by options (`tictactoe play --computer o --x Ada`): what is not given takes
/// the defaults, the same for every executable.
public struct GameRequest: Equatable, Sendable {
  /// X's name, checked by ``Name``.
  public var xName: String?
  /// O's name, checked by ``Name``.
  public var oName: String?
  /// Who plays; against the computer by default.
  public var mode: GameMode?
  /// The computer's side against a person; O by default.
  public var computerMark: Mark?
  /// The computer's strength; Unbeatable by default.
  public var difficulty: Difficulty?
  /// The board's rows and columns, checked; 3×3 by default.
  public var rows: Int?
  /// The board's columns; the rows' number by default.
  public var columns: Int?
  /// How many in a row win; ``Board/defaultK(rows:columns:)`` by default.
  public var k: Int?
  /// Who starts each game; X by default.
  public var startingRule: StartingRule?

  /// Creates a request; every part left out takes its default.
  public init(
    xName: String? = nil, oName: String? = nil, mode: GameMode? = nil,
    computerMark: Mark? = nil, difficulty: Difficulty? = nil, rows: Int? = nil,
    columns: Int? = nil, k: Int? = nil, startingRule: StartingRule? = nil
  ) {
    (self.xName, self.oName, self.mode, self.computerMark) = (xName, oName, mode, computerMark)
    (self.difficulty, self.startingRule) = (difficulty, startingRule)
    (self.rows, self.columns, self.k) = (rows, columns, k)
  }

  /// The game's settings: a signed-in player takes the first side a person plays; a side with
  /// no name is `Player X`, `Player O`, or the computer's name.
  public func settings(for session: Session?) -> GameSettings {
    let rows = self.rows ?? 3
    let columns = self.columns ?? rows
    var settings = GameSettings(
      xName: "", oName: "", mode: mode ?? .versusComputer, computerMark: computerMark ?? .o,
      difficulty: difficulty ?? .unbeatable, rows: rows, columns: columns,
      k: k ?? Board.defaultK(rows: rows, columns: columns), startingRule: startingRule ?? .x)
    settings.accountID = session?.accountID
    // The account's name given for O puts the account on O; X then takes the name given, or
    // that of a player with none.
    if let session {
      let key = UserName.key(session.userName)
      settings.placeAccount(
        xHasItsName: xName.map(UserName.key) == key, oHasItsName: oName.map(UserName.key) == key)
    }
    for mark in Mark.allCases {
      let given = mark == .x ? xName : oName
      let name: String =
        if let given {
          given
        } else if settings.isComputer(mark) {
          GameSettings.computerName(of: mark, mode: settings.mode)
        } else if let session, mark == settings.accountSide {
          session.userName
        } else {
          GameSettings.playerName(of: mark)
        }
      if mark == .x { settings.xName = name } else { settings.oName = name }
    }
    return settings
  }
}
