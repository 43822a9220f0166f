public import GameCore
public import GameProtocol

extension GameOptions {
  /// The online game that New game's settings (or the command line's, through the same
  /// ``GameSettings``) describe: the board and who starts.
  ///
  /// Names, mode and difficulty do not travel: online, each side is a person with an account.
  /// An online game is a single game, so taking turns starts with X, as its first game would.
  ///
  /// - Parameter settings: The settings of the form or the options.
  public init(_ settings: GameSettings) {
    let first: FirstMover =
      switch settings.startingRule {
      case .x, .alternate: .x
      case .o: .o
      case .random: .random
      }
    self.init(rows: settings.rows, columns: settings.columns, k: settings.k, first: first)
  }
}
