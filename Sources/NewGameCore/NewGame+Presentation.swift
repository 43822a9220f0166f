import AuthenticationClient
import DatabaseClient
public import GameCore
import GameProtocol
public import GameRules

extension NewGame.State {
  /// The screen's title.
  public var title: String { "New game" }

  /// Why no game can start yet, in one sentence, or `nil` when one can: first what the form
  /// lacks, which is why Let's play! is dimmed, then the game in progress another program holds,
  /// which Let's play! asks for again.
  public var validationMessage: String? { formProblem ?? blockingProblem }

  /// What the form lacks, in one sentence, or `nil` when it is complete.
  private var formProblem: String? {
    for mark in Mark.allCases {
      do {
        _ = try checkedName(settings.name(of: mark))
      } catch .empty {
        return "Enter a name for \(mark.symbol)."
      } catch {
        return "\(mark.symbol)'s name: \(error)"
      }
    }
    if let problem = NewGame.sharedNameProblem(settings) { return problem }
    // The account's records go with its name: a game whose people bear other names would be
    // counted as the account's.
    if let signedInName, settings.accountID != nil,
      let person = Mark.allCases.first(where: { !settings.isComputer($0) }),
      !Mark.allCases.contains(where: {
        !settings.isComputer($0) && isAccountName(settings.name(of: $0))
      })
    {
      let side = settings.isComputer(person.opponent) ? "Your side" : "One side"
      return "\(side) must be named \(signedInName.escapingControlCharacters), who is signed in; "
        + "sign out to play under other names."
    }
    do {
      try Board.validate(rows: settings.rows, columns: settings.columns, k: settings.k)
    } catch {
      return error.description
    }
    return nil
  }

  /// Whether Let's play does something: it starts a game, or, where another program held the
  /// game in progress, asks for it again and starts once it is free.
  public var canStart: Bool { formProblem == nil }

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
    case .difficulty:
      settings.difficulty.displayName(rows: settings.rows, columns: settings.columns, k: settings.k)
    case .size: "\(settings.rows)×\(settings.columns)"
    case .k: String(settings.k)
    case .startingRule: settings.startingRule.title
    }
  }

  /// Each named difficulty with its name on the chosen board: the top level reads
  /// `Strongest` where it cannot promise never to lose.
  public var difficultyOptions: [(difficulty: Difficulty, name: String)] {
    Difficulty.named.map { stop in
      (
        stop.difficulty,
        stop.difficulty.displayName(rows: settings.rows, columns: settings.columns, k: settings.k)
      )
    }
  }

  /// Why the computer's top level is called `Strongest` on the chosen board, when it is and
  /// the computer plays.
  public var difficultyNote: String? {
    guard isDifficultyEnabled, settings.difficulty == .unbeatable else { return nil }
    return Difficulty.strongestReason(rows: settings.rows, columns: settings.columns, k: settings.k)
  }

  /// The line lengths the board allows, for a control that picks one.
  public var kRange: ClosedRange<Int> {
    Board.kRange(rows: settings.rows, columns: settings.columns)
  }

  /// The offer to resume, such as `Resume Blob vs Computer (3 moves played)?`; names from the
  /// records are escaped.
  public var resumeMessage: String? {
    resumableGame.map { "Resume \(Self.described($0))?" }
  }

  /// The question asked before the game offered for resume is discarded.
  public var discardQuestion: String? {
    guard isConfirmingDiscard, let record = resumableGame else { return nil }
    return "Discard \(Self.described(record))? It cannot be resumed afterwards."
  }

  /// A game left unfinished, such as `Blob vs Computer (3 moves played)`.
  private static func described(_ record: GameRecord) -> String {
    let moves = record.moves.count
    return "\(record.x.name.escapingControlCharacters) vs "
      + "\(record.o.name.escapingControlCharacters) (\(moves) move\(moves == 1 ? "" : "s") "
      + "played)"
  }

  /// The heading of ``discardQuestion`` where a dialog asks it.
  public static let discardHeading = "Discard the unfinished game?"

  /// The answers to ``discardQuestion``: discard, or keep the game.
  public static let discardAnswers = (discard: "Discard", keep: "Keep it")

  /// The offer to resume as plain mode asks it, with the answers it takes.
  public var typedResumeQuestion: String? {
    resumeMessage.map { "\($0) Type resume, or new to start a new game instead." }
  }

  /// What plain mode says when its input ends before the offer to resume is answered.
  public var endOfInputSentence: String? {
    game == nil && resumableGame != nil ? "Input ended; \(Self.keptFarewell.lowercased())" : nil
  }

  /// What plain mode says on quitting at the offer to resume.
  static let keptFarewell = "The saved game is kept for next time."

  /// What plain mode says on quitting a game under way.
  static let unsavedFarewell = "The game was left unfinished and is not saved."

  /// Why the signed-in player must sign in again before the next game.
  public var endedSessionSentence: String {
    let name = (signedInName ?? "This player").escapingControlCharacters
    return "\(name)'s sign-in has ended: it is over 12 hours old, or the account's password or "
      + "two-factor was changed, or the account deleted, since; sign in again to play."
  }

  /// The label of the button back to Sign in.
  public var signOutTitle: String { signedInName == nil ? "Back to Sign in" : "Sign out" }

  /// Who is playing, such as `Signed in as blob@example.com`, `Signed in as ann on
  /// example.org:7457` or `Playing as a guest`.
  public var accountLine: String {
    let place = server.map { " on \($0)" } ?? ""
    return signedInName.map { "Signed in as \($0.escapingControlCharacters)\(place)" }
      ?? "Playing as a guest\(place)"
  }

  /// Whether the form offers online play: a server was chosen at Sign in.
  public var isOnline: Bool { server != nil }

  /// Who may start, as the form offers it: on a server, where the form creates one single
  /// game, taking turns means nothing (X would start), so it is not offered.
  public var startingRules: [StartingRule] {
    isOnline ? StartingRule.allCases.filter { $0 != .alternate } : StartingRule.allCases
  }

  /// What an online button asks of the server.
  public enum OnlineRequest: Equatable, Sendable {
    case create
    case join
    case watch
    case list
  }

  /// Why an online button does nothing now, in one sentence, or `nil` when it acts.
  public func onlineProblem(_ request: OnlineRequest) -> String? {
    guard server != nil else {
      return "Playing online needs a server: sign in with the Server field filled in."
    }
    switch request {
    case .list:
      return nil
    case .create:
      guard session != nil else {
        return "Creating a game needs an account on the server: sign in with it."
      }
      do {
        try Board.validate(rows: settings.rows, columns: settings.columns, k: settings.k)
      } catch {
        return error.description
      }
      return nil
    case .join, .watch:
      if request == .join, session == nil {
        return "Joining a game needs an account on the server: sign in with it, or watch."
      }
      let typed = inviteCode.trimmingWhitespace()
      guard !typed.isEmpty else {
        return request == .join
          ? "Type the invite code of the game to join."
          : "Type the invite code of the game to watch."
      }
      guard InviteCode.normalized(typed) != nil else {
        return "An invite code is \(InviteCode.length) letters and digits, such as K7M2QX."
      }
      return nil
    }
  }

  /// Whether an online button acts now.
  public func canRequest(_ request: OnlineRequest) -> Bool { onlineProblem(request) == nil }
}

extension NewGame.State {
  /// The label of a player's name field: `X player`.
  public func nameTitle(of mark: Mark) -> String { "\(mark.symbol) player" }

  /// The heading of the form's part about the server's games.
  public static let onlineSectionTitle = "Online"

  /// The label of the invite code field.
  public static let inviteCodeTitle = "Invite code"

  /// The label of the button that copies an online game's invite code, and what it says after.
  public static let copyInviteCode = (title: "Copy the invite code", done: "Invite code copied.")

  /// The headings of the form's parts.
  public static let sectionTitles = (players: "Players", opponent: "Opponent", board: "Board")

  /// The square boards the form offers, smallest first, with their labels (`3×3`).
  public static let sizeChoices: [(side: Int, title: String)] =
    (Board.minimumSide...Board.maximumSide).map { ($0, "\($0)×\($0)") }

  /// How a side the computer may take is named, for a control that picks it: `Computer plays X`.
  public static func computerMarkName(_ mark: Mark) -> String { "Computer plays \(mark.symbol)" }
}

extension NewGame.Choice {
  /// The choice's label.
  public var title: String {
    switch self {
    case .mode: "Mode"
    case .computerMark: "Computer plays"
    case .difficulty: "Difficulty"
    case .size: "Board size"
    case .k: "In a row to win"
    case .startingRule: "Who starts"
    }
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

extension NewGame {
  /// Why two people may not play under these names, or `nil`: one name (the same but for case
  /// and spaces around it) on both sides would make their records one, and a signed-in
  /// account would count both sides as its own.
  public static func sharedNameProblem(_ settings: GameSettings) -> String? {
    guard !settings.isComputer(.x), !settings.isComputer(.o),
      UserName.key(settings.xName) == UserName.key(settings.oName)
    else { return nil }
    return "X and O need different names; both are \(settings.xName.escapingControlCharacters)."
  }
}
