import DatabaseClient
public import GameCore
import GameRules

extension NewGame.State {
  /// The screen's title.
  public var title: String { "New game" }

  /// Why Let's play is not available yet, in one sentence, or `nil` when it is.
  public var validationMessage: String? {
    let settings = settings
    if settings.xName.isEmpty { return "Enter a name for X." }
    if settings.oName.isEmpty { return "Enter a name for O." }
    do {
      try Board.validate(rows: rows, columns: columns, k: k)
    } catch {
      return error.description
    }
    return nil
  }

  /// Whether Let's play starts a game.
  public var canStart: Bool { validationMessage == nil }

  /// Whether the computer's side can be chosen.
  public var isComputerMarkEnabled: Bool { mode == .versusComputer }

  /// Whether the difficulty matters.
  public var isDifficultyEnabled: Bool { mode != .hotSeat }

  /// The offer to resume, such as `Resume Blob vs Computer (3 moves played)?`.
  public var resumeMessage: String? {
    resumableGame.map { record in
      let moves = record.moves.count
      return "Resume \(record.x.name) vs \(record.o.name) (\(moves) move\(moves == 1 ? "" : "s") "
        + "played)?"
    }
  }

  /// The label of the button back to Sign in.
  public var signOutTitle: String { signedInName == nil ? "Back to Sign in" : "Sign out" }

  /// Who is playing, such as `Signed in as blob@example.com` or `Playing as a guest`.
  public var accountLine: String {
    signedInName.map { "Signed in as \($0)" } ?? "Playing as a guest"
  }
}

extension GameMode {
  /// The mode's label.
  public var title: String {
    switch self {
    case .hotSeat: "Two players"
    case .versusComputer: "Against the computer"
    case .computerVersusComputer: "Computer against computer"
    }
  }
}

extension StartingRule {
  /// The rule's label.
  public var title: String {
    switch self {
    case .x: "X starts"
    case .o: "O starts"
    case .alternate: "Take turns"
    case .random: "Random"
    }
  }
}
