import DatabaseClient
public import GameCore
import GameRules

extension NewGame.State {
  /// The screen's title.
  public var title: String { "New game" }

  /// Why Let's play is not available yet, in one sentence, or `nil` when it is.
  public var validationMessage: String? {
    if let blockingProblem { return blockingProblem }
    for mark in Mark.allCases {
      do {
        _ = try Name.validated(settings.name(of: mark))
      } catch .empty {
        return "Enter a name for \(mark.symbol)."
      } catch {
        return "\(mark.symbol)'s name: \(error)"
      }
    }
    do {
      try Board.validate(rows: settings.rows, columns: settings.columns, k: settings.k)
    } catch {
      return error.description
    }
    return nil
  }

  /// Whether Let's play starts a game.
  public var canStart: Bool { validationMessage == nil }

  /// Whether the computer's side can be chosen.
  public var isComputerMarkEnabled: Bool { settings.mode == .versusComputer }

  /// Whether the difficulty matters.
  public var isDifficultyEnabled: Bool { settings.mode != .hotSeat }

  /// Whether a choice takes input now.
  public func isEnabled(_ choice: NewGame.Choice) -> Bool {
    switch choice {
    case .computerMark: isComputerMarkEnabled
    case .difficulty: isDifficultyEnabled
    case .mode, .size, .k, .startingRule: true
    }
  }

  /// A choice's value as shown: `Against the computer`, `O`, `Hard`, `3×3`, `3`, `X starts`.
  public func value(of choice: NewGame.Choice) -> String {
    switch choice {
    case .mode: settings.mode.title
    case .computerMark: settings.computerMark.symbol
    case .difficulty: settings.difficulty.displayName
    case .size: "\(settings.rows)×\(settings.columns)"
    case .k: String(settings.k)
    case .startingRule: settings.startingRule.title
    }
  }

  /// The line lengths the board allows, for a control that picks one.
  public var kRange: ClosedRange<Int> {
    Board.kRange(rows: settings.rows, columns: settings.columns)
  }

  /// The offer to resume, such as `Resume Blob vs Computer (3 moves played)?`; names from the
  /// records are escaped.
  public var resumeMessage: String? {
    resumableGame.map { record in
      let moves = record.moves.count
      return "Resume \(record.x.name.escapingControlCharacters) vs "
        + "\(record.o.name.escapingControlCharacters) (\(moves) move\(moves == 1 ? "" : "s") "
        + "played)?"
    }
  }

  /// The offer to resume as plain mode asks it, with the answers it takes.
  public var typedResumeQuestion: String? {
    resumeMessage.map { "\($0) Type resume, or new to start a new game instead." }
  }

  /// The label of the button back to Sign in.
  public var signOutTitle: String { signedInName == nil ? "Back to Sign in" : "Sign out" }

  /// Who is playing, such as `Signed in as blob@example.com` or `Playing as a guest`.
  public var accountLine: String {
    signedInName.map { "Signed in as \($0.escapingControlCharacters)" } ?? "Playing as a guest"
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
