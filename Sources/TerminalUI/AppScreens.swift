public import AppCore
import GameCore
import GameRules
import LoginCore
import NewGameCore
import StatsCore
import TwoFactorCore

/// Which screen the app shows.
public enum AppScreenKind: Hashable, Sendable {
  case signIn
  case twoFactor
  case newGame
  case game
  case stats
}

/// What the terminal keeps about the app's screens besides the core's state.
public struct AppTerminalState: Hashable, Sendable {
  /// The screen last shown, to reset the focus when it changes.
  public var screen: AppScreenKind?
  /// The focused item of a form.
  public var focus: String?
  /// The game screen's cursor, help and notice.
  public var game = GameTerminalState(rows: 3, columns: 3)
  /// A line shown on Sign in, such as which accounts a demo client accepts.
  public var signInNote: String?

  /// Creates the state.
  public init(signInNote: String? = nil) { self.signInNote = signInNote }
}

/// What a key leads to anywhere in the app.
public enum AppResponse: Equatable, Sendable {
  /// Nothing for the core.
  case none
  /// An action for the core.
  case send(TicTacToe.Action)
  /// Leave the program.
  case exit
}

/// The app's screens for the terminal: which one is shown, how it looks, what keys do.
public enum AppScreens {
  /// The screen `state` shows.
  public static func kind(of state: TicTacToe.State) -> AppScreenKind {
    switch state {
    case .login(let login): login.twoFactor == nil ? .signIn : .twoFactor
    case .newGame(let newGame):
      newGame.game != nil ? .game : newGame.stats != nil ? .stats : .newGame
    }
  }

  /// Resets the focus and the cursor when the screen changed since the last call.
  public static func follow(_ state: TicTacToe.State, terminal: inout AppTerminalState) {
    let kind = kind(of: state)
    guard kind != terminal.screen else { return }
    terminal.screen = kind
    terminal.focus =
      switch kind {
      case .signIn: "userName"
      case .twoFactor: "code"
      case .newGame:
        if case .newGame(let newGame) = state, !newGame.canStart {
          newGame.xName.isEmpty ? "xName" : newGame.oName.isEmpty ? "oName" : "size"
        } else {
          "play"
        }
      case .stats: "back"
      case .game: nil
      }
    if case .newGame(let newGame) = state, let game = newGame.game {
      terminal.game = GameTerminalState(rows: game.board.rows, columns: game.board.columns)
    }
  }

  /// Lays out the screen for `state` on a `width` × `height` terminal.
  public static func frame(
    _ state: TicTacToe.State, terminal: AppTerminalState, width: Int, height: Int
  ) -> Frame {
    if case .newGame(let newGame) = state, let game = newGame.game {
      return GameScreen(game, terminal: terminal.game).frame(width: width, height: height)
    }
    return form(state, terminal: terminal).frame(width: width, height: height)
  }

  /// Handles `key` on the screen for `state`, laid out as `frame`.
  public static func handle(
    _ key: Key, state: TicTacToe.State, frame: Frame, terminal: inout AppTerminalState
  ) -> AppResponse {
    if key == .interrupt { return .exit }
    switch state {
    case .newGame(let newGame):
      if let game = newGame.game {
        switch GameInput.handle(key, frame: frame, state: game, terminal: &terminal.game) {
        case .none: return .none
        case .exit: return .exit
        case .send(let view): return .send(.newGame(.game(.view(view))))
        }
      }
      let form = form(state, terminal: terminal)
      let event = FormInput.handle(key, form: form, frame: frame, focus: &terminal.focus)
      if let stats = newGame.stats {
        return statsResponse(event, stats).map { .send(.newGame(.stats(.view($0)))) } ?? .none
      }
      return newGameResponse(event, newGame)
    case .login(let login):
      let form = form(state, terminal: terminal)
      let event = FormInput.handle(key, form: form, frame: frame, focus: &terminal.focus)
      if login.twoFactor != nil {
        return twoFactorResponse(event).map { .send(.login(.twoFactor(.view($0)))) } ?? .none
      }
      return signInResponse(event)
    }
  }

  // MARK: - Forms

  static func form(_ state: TicTacToe.State, terminal: AppTerminalState) -> FormScreen {
    switch state {
    case .login(let login):
      if let twoFactor = login.twoFactor {
        return twoFactorForm(twoFactor, focus: terminal.focus)
      }
      return signInForm(login, note: terminal.signInNote, focus: terminal.focus)
    case .newGame(let newGame):
      if let stats = newGame.stats { return statsForm(stats, focus: terminal.focus) }
      return newGameForm(newGame, focus: terminal.focus)
    }
  }

  private static let nextShortcut = ScreenButton(key: .tab, keyName: "Tab", "Next")
  private static let exitShortcut = ScreenButton(key: .escape, keyName: "Esc", "Exit")

  static func signInForm(_ state: Login.State, note: String?, focus: String?) -> FormScreen {
    let enabled = state.isFormEnabled
    return FormScreen(
      title: state.title, notes: note.map { [$0] } ?? [],
      items: [
        FormItem(
          id: "userName", label: "User name", kind: .text(state.userName, isSecret: false),
          isEnabled: enabled),
        FormItem(
          id: "password", label: "Password", kind: .text(state.password, isSecret: true),
          isEnabled: enabled),
        FormItem(id: "signIn", label: "Sign in", kind: .button, isEnabled: state.canSubmit),
        FormItem(
          id: "createAccount", label: "Create account", kind: .button,
          isEnabled: state.canSubmit),
        FormItem(id: "guest", label: "Play as guest", kind: .button, isEnabled: enabled),
      ],
      focus: focus,
      message: state.showsProgress ? "Signing in…" : state.errorMessage,
      messageIsError: !state.showsProgress && state.errorMessage != nil,
      shortcuts: [
        ScreenButton(key: .control("g"), keyName: "Ctrl-G", "Play as guest"), nextShortcut,
        exitShortcut,
      ])
  }

  private static func signInResponse(_ event: FormEvent) -> AppResponse {
    let view: Login.Action.View
    switch event {
    case .edit("userName", let value): view = .userNameChanged(value)
    case .edit("password", let value): view = .passwordChanged(value)
    case .activate("signIn"): view = .signInTapped
    case .activate("createAccount"): view = .createAccountTapped
    case .activate("guest"), .key(.control("g")): view = .playAsGuestTapped
    case .key(.escape): return .exit
    default: return .none
    }
    return .send(.login(.view(view)))
  }

  static func twoFactorForm(_ state: TwoFactor.State, focus: String?) -> FormScreen {
    FormScreen(
      title: state.title, notes: [state.prompt],
      items: [
        FormItem(
          id: "code", label: "Code", kind: .text(state.code, isSecret: false),
          isEnabled: state.isFormEnabled),
        FormItem(id: "verify", label: "Verify", kind: .button, isEnabled: state.canSubmit),
        FormItem(id: "back", label: "Back", kind: .button),
      ],
      focus: focus,
      message: state.showsProgress ? "Checking the code…" : state.errorMessage,
      messageIsError: !state.showsProgress && state.errorMessage != nil,
      shortcuts: [ScreenButton(key: .escape, keyName: "Esc", "Back")])
  }

  private static func twoFactorResponse(_ event: FormEvent) -> TwoFactor.Action.View? {
    switch event {
    case .edit("code", let value): .codeChanged(value)
    case .activate("verify"): .submitTapped
    case .activate("back"), .key(.escape): .cancelTapped
    default: nil
    }
  }

  static func newGameForm(_ state: NewGame.State, focus: String?) -> FormScreen {
    var items = [
      FormItem(id: "xName", label: "X name", kind: .text(state.xName, isSecret: false)),
      FormItem(id: "oName", label: "O name", kind: .text(state.oName, isSecret: false)),
      FormItem(id: "mode", label: "Mode", kind: .choice(state.mode.title)),
      FormItem(
        id: "computer", label: "Computer plays", kind: .choice(state.computerMark.symbol),
        isEnabled: state.isComputerMarkEnabled),
      FormItem(
        id: "difficulty", label: "Difficulty", kind: .choice(state.difficulty.displayName),
        isEnabled: state.isDifficultyEnabled),
      FormItem(id: "size", label: "Board", kind: .choice("\(state.rows)×\(state.columns)")),
      FormItem(id: "k", label: "In a row to win", kind: .choice(String(state.k))),
      FormItem(id: "first", label: "First move", kind: .choice(state.startingRule.title)),
      FormItem(id: "play", label: "Let's play!", kind: .button, isEnabled: state.canStart),
    ]
    if state.resumableGame != nil {
      items += [
        FormItem(id: "resume", label: "Resume", kind: .button),
        FormItem(id: "discard", label: "Discard the unfinished game", kind: .button),
      ]
    }
    items += [
      FormItem(id: "stats", label: "Stats", kind: .button),
      FormItem(id: "signOut", label: state.signOutTitle, kind: .button),
      FormItem(id: "exit", label: "Exit", kind: .button),
    ]
    let problem = state.errorMessage ?? state.validationMessage
    return FormScreen(
      title: state.title, notes: [state.accountLine] + [state.resumeMessage].compactMap { $0 },
      items: items, focus: focus, message: problem, messageIsError: problem != nil,
      shortcuts: [nextShortcut, ScreenButton(key: .left, keyName: "← →", "Change"), exitShortcut])
  }

  private static func newGameResponse(_ event: FormEvent, _ state: NewGame.State) -> AppResponse {
    let view: NewGame.Action.View
    switch event {
    case .edit("xName", let value): view = .xNameChanged(value)
    case .edit("oName", let value): view = .oNameChanged(value)
    case .step("mode", let step): view = .modeChanged(cycle(GameMode.allCases, state.mode, step))
    case .step("computer", _): view = .computerMarkChanged(state.computerMark.opponent)
    case .step("difficulty", let step):
      let stops = Difficulty.named.map(\.difficulty)
      let index =
        stops.firstIndex(of: state.difficulty)
        ?? stops.lastIndex { $0.skill <= state.difficulty.skill } ?? 0
      view = .difficultyChanged(stops[min(max(index + step, 0), stops.count - 1)])
    case .step("size", let step):
      view = .sizeChanged(min(max(state.rows + step, Board.minimumSide), Board.maximumSide))
    case .step("k", let step):
      view = .kChanged(min(max(state.k + step, 3), max(state.rows, state.columns)))
    case .step("first", let step):
      view = .startingRuleChanged(cycle(StartingRule.allCases, state.startingRule, step))
    case .activate("play"): view = .letsPlayTapped
    case .activate("resume"): view = .resumeTapped
    case .activate("discard"): view = .discardResumeTapped
    case .activate("stats"): view = .statsTapped
    case .activate("signOut"): view = .signOutTapped
    case .activate("exit"), .key(.escape), .key(.character("q")): return .exit
    default: return .none
    }
    return .send(.newGame(.view(view)))
  }

  private static func cycle<T: Equatable>(_ all: [T], _ current: T, _ step: Int) -> T {
    let index = all.firstIndex(of: current) ?? 0
    return all[(index + step + all.count) % all.count]
  }

  static func statsForm(_ state: StatsFeature.State, focus: String?) -> FormScreen {
    var body: [StyledLine] = []
    var items: [FormItem] = []
    var message = state.errorMessage
    if let board = state.replayBoard {
      body += BoardRenderer.render(board, layout: board.rows <= 5 ? .grid : .compact).lines
      body.append(StyledLine(state.replayProgressText ?? ""))
      items = [
        FormItem(id: "replayBack", label: "Back a move", kind: .button),
        FormItem(id: "replayForward", label: "Forward a move", kind: .button),
        FormItem(id: "replayClose", label: "Close the replay", kind: .button),
      ]
    } else {
      if state.isLoading { body.append("Loading…") }
      body += state.tallyLines.map { StyledLine($0) }
      body.append(StyledLine("Win rate: \(state.winRateText)"))
      body.append(StyledLine(state.streakText))
      items = state.recentGameLines.enumerated().map { index, line in
        FormItem(id: "recent\(index)", label: line, kind: .button)
      }
      if state.isConfirmingReset {
        message = state.resetConfirmationMessage
        items += [
          FormItem(id: "resetConfirmed", label: "Reset", kind: .button),
          FormItem(id: "resetCancelled", label: "Keep my stats", kind: .button),
        ]
      } else {
        items += [
          FormItem(id: "reset", label: "Reset stats", kind: .button, isEnabled: !state.isEmpty),
          FormItem(id: "back", label: "Back", kind: .button),
        ]
      }
    }
    return FormScreen(
      title: state.title, body: body, items: items, focus: focus, message: message,
      messageIsError: state.errorMessage != nil,
      shortcuts: [nextShortcut, ScreenButton(key: .escape, keyName: "Esc", "Back")])
  }

  private static func statsResponse(_ event: FormEvent, _ state: StatsFeature.State)
    -> StatsFeature.Action.View?
  {
    if state.replay != nil {
      switch event {
      case .activate("replayBack"), .key(.left): return .replayBackTapped
      case .activate("replayForward"), .key(.right): return .replayForwardTapped
      case .activate("replayClose"), .key(.escape): return .replayClosed
      default: return nil
      }
    }
    switch event {
    case .activate("reset"): return .resetTapped
    case .activate("resetConfirmed"): return .resetConfirmed
    case .activate("resetCancelled"): return .resetCancelled
    case .activate("back"), .key(.escape):
      return state.isConfirmingReset ? .resetCancelled : .closeTapped
    case .activate(let id) where id.hasPrefix("recent"):
      return Int(id.dropFirst("recent".count)).map { .recentGameTapped($0) }
    default: return nil
    }
  }
}
