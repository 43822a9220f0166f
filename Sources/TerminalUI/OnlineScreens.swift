import GameCore
import GameProtocol
import GameRules
import NewGameCore
public import OnlineCore

extension OnlineControl {
  /// The key that presses the control on the terminal.
  var key: Character {
    switch self {
    case .resign, .leave: "q"
    case .confirmResign: "y"
    case .keepPlaying: "n"
    }
  }
}

extension GameScreen {
  /// The online game's screen: the title, the game and the connections, the board, the latest
  /// event and the controls.
  ///
  /// Before the server has shown the game, the board's place says what the client is doing.
  public init(_ state: OnlineGame.State, terminal: GameTerminalState) {
    var buttons = state.controls.map { control, isEnabled in
      ScreenButton(control.key, control.title, isEnabled: isEnabled)
    }
    if !state.isConfirmingResign { buttons.append(ScreenButton("?", "Help")) }
    let overlay: [String]? =
      if terminal.isShowingHelp {
        OnlineGameInput.help
      } else if state.board == nil {
        [state.title]
      } else {
        nil
      }
    self.init(
      title: state.title, subtitle: state.connectionLine, board: state.board ?? .classic,
      decorations: BoardDecorations(
        cursor: state.isBoardEnabled ? terminal.cursor : nil, lastMove: state.lastMove),
      message: state.statusLine, messageIsError: state.statusIsProblem, buttons: buttons,
      overlay: overlay)
  }
}

/// Turns keys and clicks on the online game's screen into the core's actions.
///
/// The keys are the Game screen's; undo, hints and the like are sent as typed commands, so that
/// the core says in its own words that an online game has none.
public enum OnlineGameInput {
  /// Handles `key` on the online game's screen laid out as `frame`.
  ///
  /// - Returns: The action for the core, if any; `terminal` holds the cursor and the help.
  public static func handle(
    _ key: Key, frame: Frame, state: OnlineGame.State, terminal: inout GameTerminalState
  ) -> OnlineGame.Action.View? {
    guard let command = GameKeys.command(for: key, frame: frame) else { return nil }
    return handle(command, state: state, terminal: &terminal)
  }

  /// Handles a command on the online game's screen.
  public static func handle(
    _ command: GameCommand, state: OnlineGame.State, terminal: inout GameTerminalState
  ) -> OnlineGame.Action.View? {
    if state.isConfirmingResign {
      switch command {
      case .confirm: return .resignConfirmed
      case .cancel, .newGame: return .resignCancelled
      default: return nil
      }
    }
    if terminal.isShowingHelp {
      // Any key closes the help; q still leaves.
      terminal.isShowingHelp = false
      return command == .quit ? .quitTapped : nil
    }
    switch command {
    case .moveCursor(let rows, let columns):
      guard let board = state.board else { return nil }
      terminal.cursor = GameKeys.moving(
        terminal.cursor, rows: rows, columns: columns, boardRows: board.rows,
        boardColumns: board.columns)
      return nil
    case .playAtCursor:
      return state.board == nil ? nil : .cellTapped(terminal.cursor)
    case .play(let cell):
      if state.board?.contains(cell) == true { terminal.cursor = cell }
      return .cellTapped(cell)
    case .digit(let digit):
      if let board = state.board, let cell = Cell(digit: digit, on: board) {
        terminal.cursor = cell
      }
      return .digitTyped(digit)
    case .quit:
      return .quitTapped
    case .newGame:
      // Once the game is over, n goes back to New game for another one.
      return state.link == .closed ? .quitTapped : .lineTyped("new")
    case .undo: return .lineTyped("undo")
    case .redo: return .lineTyped("redo")
    case .hint: return .lineTyped("hint")
    case .analysis: return .lineTyped("analysis")
    case .toggleHelp:
      terminal.isShowingHelp = true
      return nil
    case .confirm, .cancel:
      return nil
    }
  }

  /// The help overlay's lines.
  public static let help: [String] =
    GameKeys.playingKeys + [
      "  q  resign (asks first); leave a game that is over or watched",
      "  n  back to New game once the game is over",
      "  ?, F1  show or hide this help",
      "  Ctrl-Z  suspend    Ctrl-C  leave at once (the server holds",
      "          the seat for a while)",
      "",
      "Marks: [X] the cursor, (X) the last move, <X> the winning line",
    ]
}

extension AppScreens {
  // MARK: - Online forms

  static func openGamesForm(_ state: OpenGames.State, focus: FormID?) -> FormScreen {
    var items = state.lines.enumerated().map { index, line in
      FormItem(id: .listedGame(index), label: line, kind: .button)
    }
    // As many games as the screen holds beside the rest of the form.
    items = Array(items.prefix(max(0, FormScreen.neededSize.height - 10)))
    items += [
      FormItem(id: .refreshGames, label: "Refresh", kind: .button, isEnabled: !state.isLoading),
      FormItem(id: .back, label: "Back", kind: .button),
    ]
    return FormScreen(
      title: state.title, notes: [state.note], items: items, focus: focus,
      message: state.errorMessage, messageIsError: state.errorMessage != nil,
      shortcuts: [
        ScreenButton(key: .tab, keyName: "Tab", "Next"),
        ScreenButton(key: .f1, keyName: "F1", "Help"),
        ScreenButton(key: .escape, keyName: "Esc", "Back"),
      ])
  }

  static func openGamesResponse(_ event: FormEvent) -> OpenGames.Action.View? {
    switch event {
    case .activate(.listedGame(let index)): .gameTapped(index)
    case .activate(.refreshGames), .key(.character("r")): .refreshTapped
    case .activate(.back), .key(.escape): .closeTapped
    default: nil
    }
  }

  /// New game on a server: the board of the game to create, and the ways to join or watch one.
  ///
  /// A game between people at one keyboard, or against the computer, is played signed in on
  /// this computer (an empty Server field); this form is the server's.
  static func onlineNewGameForm(_ state: NewGame.State, focus: FormID?) -> FormScreen {
    let choices: [(NewGame.Choice, String)] = [
      (.size, "Board"), (.k, "In a row to win"), (.startingRule, "First move"),
    ]
    var items = choices.map { choice, label in
      FormItem(
        id: .choice(choice), label: label, kind: .choice(state.value(of: choice)),
        isEnabled: state.isEnabled(choice))
    }
    items += [
      FormItem(id: .createOnline, label: "Create online game", kind: .button),
      FormItem(
        id: .inviteCode, label: "Invite code", kind: .text(state.inviteCode, isSecret: false)),
      FormItem(id: .joinOnline, label: "Join with code", kind: .button),
      FormItem(id: .watchOnline, label: "Watch", kind: .button),
      FormItem(id: .openGames, label: "Open games", kind: .button),
    ]
    if state.session != nil {
      // The account's record and rating on the server.
      items.append(FormItem(id: .stats, label: "Stats", kind: .button))
      items.append(FormItem(id: .recoveryCodes, label: "Recovery codes", kind: .button))
    }
    items += [
      FormItem(id: .signOut, label: state.signOutTitle, kind: .button),
      FormItem(id: .exit, label: "Exit", kind: .button),
    ]
    return FormScreen(
      title: state.title, notes: [state.accountLine], items: items, focus: focus,
      message: state.errorMessage ?? state.closedGameSentence,
      messageIsError: state.errorMessage != nil,
      shortcuts: [
        ScreenButton(key: .tab, keyName: "Tab", "Next"),
        ScreenButton(key: .left, keyName: "← →", "Change"),
        ScreenButton(key: .f1, keyName: "F1", "Help"),
        ScreenButton(key: .escape, keyName: "Esc", "Exit"),
      ])
  }

  static func onlineNewGameResponse(_ event: FormEvent, _ state: NewGame.State)
    -> NewGame.Action.View?
  {
    switch event {
    case .edit(.inviteCode, let value): .inviteCodeChanged(value)
    case .step(.choice(let choice), let step): .stepped(choice, by: step)
    // Enter in the code field joins (or, without an account, watches) that game.
    case .submit(from: .inviteCode): state.session == nil ? .watchTapped : .joinTapped
    case .activate(.createOnline), .submit: .createOnlineGameTapped
    case .activate(.joinOnline): .joinTapped
    case .activate(.watchOnline): .watchTapped
    case .activate(.openGames): .openGamesTapped
    case .activate(.stats): .statsTapped
    case .activate(.recoveryCodes): .recoveryCodesTapped
    case .activate(.signOut): .signOutTapped
    default: nil
    }
  }
}
