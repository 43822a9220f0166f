import AppCore
import AuthenticationClient
import DatabaseClient
import GameCore
import GameRules
import LoginCore
import NewGameCore
import StatsCore
import Testing
import TwoFactorCore

@testable import TerminalUI

struct AppScreensTests {
  private func shown(
    _ state: TicTacToe.State, note: String? = nil
  ) -> (frame: Frame, terminal: AppTerminalState) {
    var terminal = AppTerminalState(signInNote: note)
    AppScreens.follow(state, terminal: &terminal)
    return (AppScreens.frame(state, terminal: terminal, width: 80, height: 24), terminal)
  }

  private func press(_ keys: Key..., state: TicTacToe.State) -> [AppResponse] {
    var (frame, terminal) = shown(state)
    _ = frame
    return keys.map { key in
      frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
      return AppScreens.handle(key, state: state, frame: frame, terminal: &terminal)
    }
  }

  private var failedSignIn: TicTacToe.State {
    var login = Login.State(userName: "ada@example.com", password: "secret")
    login.errorMessage = "Wrong user name or password."
    return .login(login)
  }

  @Test func signInSnapshot() {
    #expect(
      shown(failedSignIn, note: "Demo: any name with @.").frame.text == """
         Sign in
         Demo: any name with @.

         > User name  [ada@example.com_            ]
           Password   [******                      ]
           < Sign in >
           < Create account >
           < Play as guest >

         Wrong user name or password.
         [Ctrl-G] Play as guest  [Tab] Next  [Esc] Exit
        """)
  }

  @Test func signInInColour() {
    let lines = shown(failedSignIn).frame.lines.map { $0.rendered(.color) }
    #expect(
      lines[2]
        == " \u{1B}[1m> \u{1B}[0mUser name  \u{1B}[1;36m[ada@example.com_            ]\u{1B}[0m")
    #expect(lines[8] == " \u{1B}[1;31mWrong user name or password.\u{1B}[0m")
  }

  @Test func signInWhileTheRequestIsInFlight() {
    var login = Login.State(userName: "ada@example.com", password: "password")
    login.isRequestInFlight = true
    let text = shown(.login(login)).frame.text
    #expect(text.contains(" Signing in…"))
    // The disabled fields show no focus marker.
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix(" > ") })
  }

  @Test func twoFactorSnapshot() {
    var login = Login.State(userName: "ada@2fa.example")
    login.twoFactor = TwoFactor.State(
      challenge: TwoFactorChallenge(userName: "ada@2fa.example", token: "t"))
    #expect(
      shown(.login(login)).frame.text == """
         Two-factor authentication
         Enter the 6-digit code from your authenticator app, or a recovery code.

         > Code  [_                           ]
           < Verify >
           < Back >


         [Esc] Back
        """)
  }

  @Test func newGameSnapshot() {
    #expect(
      shown(.newGame(NewGame.State(signedInName: "Ada", accountID: 1))).frame.text == """
         New game
         Signed in as Ada

           X name           [Ada                         ]
           O name           [Computer                    ]
           Mode             ‹ Against the computer ›
           Computer plays   ‹ O ›
           Difficulty       ‹ Hard ›
           Board            ‹ 3×3 ›
           In a row to win  ‹ 3 ›
           First move       ‹ X starts ›
         > < Let's play! >
           < Stats >
           < Sign out >
           < Exit >


         [Tab] Next  [← →] Change  [Esc] Exit
        """)
  }

  @Test func guestNewGameFocusesTheMissingName() {
    let (frame, terminal) = shown(.newGame(NewGame.State()))
    #expect(terminal.focus == "xName")
    #expect(frame.text.contains(" > X name           [_ "))
    #expect(frame.text.contains(" Enter a name for X."))
  }

  @Test func statsSnapshot() {
    var stats = StatsFeature.State(owner: .guest)
    stats.stats = Stats(
      tallies: [Tally(opponent: .person, wins: 2, losses: 1, draws: 0)], currentStreak: 1,
      bestStreak: 2, recentGames: [])
    var newGame = NewGame.State(signedInName: "Ada", accountID: 1)
    newGame.stats = stats
    let text = shown(.newGame(newGame)).frame.text
    #expect(text.hasPrefix(" Stats\n"))
    #expect(text.contains(" Win rate: 67%"))
    #expect(text.contains(" Current streak: 1 · Best streak: 2"))
    #expect(text.contains(" > < Back >"))
  }

  @Test func typingEditsTheFocusedField() {
    #expect(
      press(.character("!"), .backspace, state: failedSignIn) == [
        .send(.login(.view(.userNameChanged("ada@example.com!")))),
        .send(.login(.view(.userNameChanged("ada@example.co")))),
      ])
  }

  @Test func tabMovesToThePasswordAndEnterSignsIn() {
    var (frame, terminal) = shown(failedSignIn)
    #expect(
      AppScreens.handle(.tab, state: failedSignIn, frame: frame, terminal: &terminal) == .none)
    #expect(terminal.focus == "password")
    frame = AppScreens.frame(failedSignIn, terminal: terminal, width: 80, height: 24)
    #expect(
      AppScreens.handle(.character("x"), state: failedSignIn, frame: frame, terminal: &terminal)
        == .send(.login(.view(.passwordChanged("secretx")))))
    #expect(
      AppScreens.handle(.enter, state: failedSignIn, frame: frame, terminal: &terminal)
        == .send(.login(.view(.signInTapped))))
  }

  @Test func guestIsOneKeyAwayAndEscapeLeaves() {
    #expect(
      press(.control("g"), .escape, .interrupt, state: .login(Login.State())) == [
        .send(.login(.view(.playAsGuestTapped))), .exit, .exit,
      ])
  }

  @Test func clickingAButtonPressesIt() {
    // Line 6 holds "< Play as guest >" two columns in from the margin.
    #expect(
      press(.mouse(MouseEvent(button: 0, row: 6, column: 5)), state: .login(Login.State())) == [
        .send(.login(.view(.playAsGuestTapped)))
      ])
  }

  @Test func choicesStepWithTheArrows() {
    let state = TicTacToe.State.newGame(NewGame.State(signedInName: "Ada", accountID: 1))
    var (frame, terminal) = shown(state)
    terminal.focus = "size"
    frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
    #expect(
      AppScreens.handle(.right, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.sizeChanged(4)))))
    // The size stays within the board's limits.
    #expect(
      AppScreens.handle(.left, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.sizeChanged(3)))))
    terminal.focus = "difficulty"
    #expect(
      AppScreens.handle(.right, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.difficultyChanged(.unbeatable)))))
    terminal.focus = "mode"
    #expect(
      AppScreens.handle(.right, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.modeChanged(.computerVersusComputer)))))
    #expect(
      AppScreens.handle(.escape, state: state, frame: frame, terminal: &terminal) == .exit)
  }

  @Test func gameKeysReachTheGameFeature() throws {
    var newGame = NewGame.State(signedInName: "Ada", accountID: 1)
    newGame.game = GameFeature.State(
      settings: GameSettings(xName: "Ada", oName: "Bob"), game: Game(), startedAt: 0)
    let state = TicTacToe.State.newGame(newGame)
    #expect(AppScreens.kind(of: state) == .game)
    #expect(
      press(.character("5"), .character("q"), state: state) == [
        .send(.newGame(.game(.view(.cellTapped(Cell(row: 1, column: 1)))))),
        .send(.newGame(.game(.view(.quitTapped)))),
      ])
    #expect(shown(state).frame.text.hasPrefix(" Ada, place your X\n"))
  }
}
