import GameCore
import GameRules
import LoginCore
import NewGameCore
import OnlineCore
import StatsCore
import TwoFactorCore

/// What the program is, as its About window and `--version` say.
public enum AppInfo {
  /// The program's name as players see it.
  public static let name = "Tic-Tac-Toe"
  /// The release.
  public static let version = "0.1.0"
  /// What it is, in one sentence.
  public static let summary =
    "The classic game on any board from 3×3 to 15×15, against a friend or a computer that "
    + "never loses."
  /// Who makes it.
  public static let developers = "The Tic-Tac-Toe developers"
  /// The copyright line.
  public static let copyright = "© 2026 The Tic-Tac-Toe developers"
}

/// What a window shows above a screen: its title, a line under it, and the button back.
public struct Heading: Equatable, Sendable {
  /// The screen's title.
  public var title: String
  /// A line under the title, such as who is signed in.
  public var subtitle: String?
  /// The name of the button that leaves the screen (``TicTacToe/Action/View/backTapped``), or
  /// `nil` on the first screen.
  public var back: String?

  /// Creates a heading.
  public init(title: String, subtitle: String?, back: String?) {
    self.title = title
    self.subtitle = subtitle
    self.back = back
  }
}

/// An entry of the desktop's primary menu.
public enum MenuItem: Hashable, Sendable, CaseIterable {
  case newGame
  case statistics
  case preferences
  case keyboardShortcuts
  case about

  /// The entry's label.
  public var title: String {
    switch self {
    case .newGame: "New Game"
    case .statistics: "Statistics"
    case .preferences: "Preferences"
    case .keyboardShortcuts: "Keyboard Shortcuts"
    case .about: "About Tic-Tac-Toe"
    }
  }
}

/// A window over the app's own, opened from the menu.
public enum Panel: Hashable, Sendable {
  case preferences
  case keyboardShortcuts
  case about

  /// The window's title.
  public var title: String {
    switch self {
    case .preferences: "Preferences"
    // The help key (F1) opens it too, so it is named for what it explains.
    case .keyboardShortcuts: "Keyboard help"
    case .about: "About Tic-Tac-Toe"
    }
  }
}

/// Light, dark, or as the desktop says.
public enum Appearance: String, Hashable, Sendable, CaseIterable {
  case system
  case light
  case dark

  /// The choice's label.
  public var title: String {
    switch self {
    case .system: "Follow the system"
    case .light: "Light"
    case .dark: "Dark"
    }
  }

  /// The preference's title.
  public static let title = "Appearance"
  /// What the preference does.
  public static let summary = "Light or dark colours, or whichever the desktop uses."
  /// The group of preferences it belongs to.
  public static let groupTitle = "Style"

  /// The value stored for `text`, which is what ``rawValue`` wrote; anything else (a damaged
  /// file, a newer version's value) follows the system.
  public init(stored text: String?) {
    self = text.flatMap { Appearance(rawValue: $0.trimmingWhitespace()) } ?? .system
  }

  /// The sentence shown when the choice could not be stored.
  public static func notSaved(_ reason: String) -> String {
    var reason = reason
    while reason.last == "." { reason.removeLast() }
    return "The appearance applies now but could not be saved: \(reason)."
  }
}

/// What a key does on the desktop, as the keyboard help lists it.
public enum DesktopCommand: Hashable, Sendable, CaseIterable {
  case moveBetweenCells
  case playCell
  case undo
  case redo
  case playAgain
  case pressButton
  case nextControl
  case help
  case preferences
  case menu

  /// The group the command is listed in.
  public var group: String {
    switch self {
    case .moveBetweenCells, .playCell: "Board"
    case .undo, .redo, .playAgain, .pressButton: "Game"
    case .nextControl, .help, .preferences, .menu: "General"
    }
  }

  /// What the key does.
  public var title: String {
    switch self {
    case .moveBetweenCells: "Move between cells with the arrow keys"
    case .playCell: "Play the cell that has the focus"
    case .undo: "Undo"
    case .redo: "Redo"
    case .playAgain:
      "Play again once the game is over, a new game (asked first) while it goes on; on New "
        + "game, start the game"
    case .pressButton: "Press a button by its underlined letter"
    case .nextControl: "Move between controls"
    case .help: "Show this help"
    case .preferences: "Preferences"
    case .menu: "Open the main menu"
    }
  }

  /// The groups in the order the help shows them.
  public static let groups = ["Board", "Game", "General"]
}

extension TicTacToe.State {
  /// The title, subtitle and back button above the screen shown.
  public var heading: Heading {
    switch destination {
    case .login(let login):
      if let twoFactor = login.twoFactor {
        return Heading(title: twoFactor.title, subtitle: nil, back: "Cancel")
      }
      return Heading(title: login.title, subtitle: nil, back: nil)
    case .newGame(let newGame):
      if let codes = recoveryCodes {
        return Heading(title: codes.title, subtitle: newGame.accountLine, back: "Done")
      }
      if let game = newGame.game {
        return Heading(title: game.matchTitle, subtitle: game.matchDescription, back: "Quit")
      }
      if let stats = newGame.stats {
        return Heading(title: stats.title, subtitle: newGame.accountLine, back: "Done")
      }
      if let online = newGame.online {
        // The opponent's connection is the line under the title; the way back gives the game
        // up (asking first) while it is under way.
        return Heading(
          title: online.playersLine ?? Self.onlineGameTitle, subtitle: online.connectionLine,
          back: online.isResignable ? OnlineControl.resign.title : OnlineControl.leave.title)
      }
      if let openGames = newGame.openGames {
        return Heading(title: openGames.title, subtitle: newGame.accountLine, back: "Back")
      }
      return Heading(
        title: newGame.title, subtitle: newGame.accountLine, back: newGame.signOutTitle)
    }
  }

  /// The title of an online game before the server has shown its players.
  public static let onlineGameTitle = "Online game"

  /// Whether New game shows one of its views of a server: an online game or the Open games list.
  public var isShowingServerView: Bool {
    guard screen == .newGame, let newGame = newGameState else { return false }
    return newGame.online != nil || newGame.openGames != nil
  }

  /// Whether a menu entry does something on the screen shown.
  public func isEnabled(_ item: MenuItem) -> Bool {
    switch item {
    // An online game is left with its own control (which may ask to resign), not the menu.
    case .newGame: [.newGame, .game, .stats].contains(screen) && !isShowingServerView
    case .statistics: screen == .newGame && !isShowingServerView
    case .preferences, .keyboardShortcuts, .about: true
    }
  }
}
