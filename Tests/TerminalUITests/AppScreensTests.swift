import AppCore
import AuthenticationClient
import DatabaseClient
import GameCore
import GameRules
import LoginCore
import NewGameCore
import StatsCore
import TestSupport
import Testing
import TwoFactorCore

@testable import TerminalUI

struct AppScreensTests {
  private func shown(
    _ state: TicTacToe.State, width: Int = 80, height: Int = 24
  ) -> (frame: Frame, terminal: AppTerminalState) {
    var terminal = AppTerminalState()
    AppScreens.follow(state, terminal: &terminal)
    return (
      AppScreens.frame(state, terminal: terminal, width: width, height: height), terminal
    )
  }

  private func press(
    _ keys: Key..., state: TicTacToe.State, width: Int = 80, height: Int = 24
  ) -> [AppResponse] {
    var (frame, terminal) = shown(state, width: width, height: height)
    return keys.map { key in
      frame = AppScreens.frame(state, terminal: terminal, width: width, height: height)
      return AppScreens.handle(key, state: state, frame: frame, terminal: &terminal)
    }
  }

  private func app(_ destination: TicTacToe.Destination) -> TicTacToe.State {
    var state = TicTacToe.State()
    state.destination = destination
    return state
  }

  private var failedSignIn: TicTacToe.State {
    var login = Login.State(userName: "ada@example.com", password: "secret")
    login.errorMessage = "Wrong user name or password."
    return app(.login(login))
  }

  private func inGame(_ moves: [Cell] = [], rows: Int = 3) throws -> TicTacToe.State {
    var newGame = NewGame.State(signedInName: "Ada", accountID: 1)
    let board = try Board(rows: rows, columns: rows, k: min(rows, 5))
    newGame.game = GameFeature.State(
      settings: GameSettings(xName: "Ada", oName: "Bob"),
      game: try Game(start: board, moves: moves), startedAt: 0)
    return app(.newGame(newGame))
  }

  @Test func signInSnapshot() {
    #expect(
      shown(failedSignIn).frame.text == """
         Sign in
         Accounts on this computer; type a server to play online.

           Server     [                            ]
         > User name  [ada@example.com_            ]
           Password   [******                      ]
           < Sign in >
           < Create account >
           < Play as guest >

         Wrong user name or password.
         [Ctrl-G] Play as guest  [Tab] Next  [F1] Help  [Esc] Exit
        """)
  }

  /// The terminal's own notice (Ctrl-Z that cannot suspend) takes the message's place, in
  /// red, on a form and on the game screen, and the next key takes it away.
  @Test func aTerminalNoticeShowsUntilTheNextKey() throws {
    for state in [failedSignIn, try inGame([Cell(row: 1, column: 1)])] {
      var (_, terminal) = shown(state)
      terminal.notice = Terminal.cannotSuspendSentence
      var frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
      let line = try #require(frame.lines.first { $0.text.contains("Ctrl-Z cannot suspend") })
      #expect(line.rendered(.color).contains("\u{1B}[1;31m"))
      _ = AppScreens.handle(.right, state: state, frame: frame, terminal: &terminal)
      #expect(terminal.notice == nil)
      frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
      #expect(!frame.text.contains("Ctrl-Z"))
    }
  }

  @Test func signInInColour() {
    let lines = shown(failedSignIn).frame.lines.map { $0.rendered(.color) }
    #expect(
      lines[4]
        == " \u{1B}[1m> \u{1B}[0mUser name  \u{1B}[1;36m[ada@example.com_            ]\u{1B}[0m")
    #expect(lines[10] == " \u{1B}[1;31mWrong user name or password.\u{1B}[0m")
  }

  @Test func signInWhileTheRequestIsInFlight() {
    var login = Login.State(userName: "ada@example.com", password: "password")
    login.isRequestInFlight = true
    let text = shown(app(.login(login))).frame.text
    #expect(text.contains(" Signing in…"))
    // The disabled fields show no focus marker.
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix(" > ") })
  }

  @Test func twoFactorSnapshot() {
    var login = Login.State(userName: "ada@2fa.example")
    login.twoFactor = TwoFactor.State(
      challenge: TwoFactorChallenge(userName: "ada@2fa.example", token: "t"))
    #expect(
      shown(app(.login(login))).frame.text == """
         Two-factor authentication
         Enter the 6-digit code from your authenticator app, or a recovery code.

         > Code  [_                           ]
           < Verify >
           < Back >


         [F1] Help  [Esc] Back
        """)
  }

  @Test func newGameSnapshot() {
    #expect(
      shown(app(.newGame(NewGame.State(signedInName: "Ada", accountID: 1)))).frame.text == """
         New game
         Signed in as Ada

           X name           [Ada                         ]
           O name           [Computer                    ]
           Mode             ‹ Against the computer ›
           Computer plays   ‹ O ›
           Difficulty       ‹ Unbeatable ›
           Board            ‹ 3×3 ›
           In a row to win  ‹ 3 ›
           First move       ‹ X starts ›
         > < Let's play! >
           < Stats >
           < Sign out >
           < Exit >


         [Tab] Next  [← →] Change  [F1] Help  [Esc] Exit
        """)
  }

  @Test func guestNewGameFocusesTheMissingName() {
    let (frame, terminal) = shown(app(.newGame(NewGame.State())))
    #expect(terminal.focus == .xName)
    #expect(frame.text.contains(" > X name           [_ "))
    #expect(frame.text.contains(" Enter a name for X."))
  }

  @Test func anOfferToResumeTakesTheFocus() {
    var newGame = NewGame.State()
    newGame.resumableGame = GameRecord(
      x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: [.b2], startedAt: 0)
    let (frame, terminal) = shown(app(.newGame(newGame)))
    #expect(terminal.focus == .resume)
    #expect(frame.text.contains(" Resume Ann vs Bob (1 move played)?"))
    #expect(frame.text.contains(" > < Resume >"))
  }

  /// An offer that arrives after the screen was shown takes the focus; once the game is
  /// discarded, the focus goes to the form's first choice rather than nowhere.
  @Test func theFocusFollowsAnOfferToResumeComingAndGoing() {
    var newGame = NewGame.State(signedInName: "Ada", accountID: 1)
    var terminal = AppTerminalState()
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .play)
    newGame.resumableGame = GameRecord(
      x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: [.b2], startedAt: 0)
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .resume)
    terminal.focus = .discard
    newGame.resumableGame = nil
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .play)
  }

  @Test func statsSnapshotEscapesStoredNames() {
    var stats = StatsFeature.State(owner: .guest)
    stats.stats = Stats(
      tallies: [Tally(opponent: .person, wins: 2, losses: 1, draws: 0)], currentStreak: 1,
      bestStreak: 2,
      recentGames: [
        GameRecord(
          x: PlayerRecord(name: "\u{1B}]0;PWNED\u{7}"), o: PlayerRecord(name: "Bob"),
          moves: [.a1, .a2, .b1, .b2, .c1], result: .xWins, startedAt: 0, endedAt: 1)
      ])
    var newGame = NewGame.State(signedInName: "Ada", accountID: 1)
    newGame.stats = stats
    let frame = shown(app(.newGame(newGame))).frame
    let text = frame.text
    #expect(text.hasPrefix(" Stats\n"))
    #expect(text.contains(" Win rate: 67%"))
    #expect(text.contains(" Current streak: 1 · Best streak: 2"))
    #expect(text.contains(" > < Back >"))
    #expect(text.contains("\\u{1B}]0;PWNED\\u{7} vs Bob"))
    #expect(!frame.rendered(.color).contains("\u{1B}]0;"))
  }

  @Test func aLongRecentGameIsCutToTheSmallestFormAndItsReplaySaysItWhole() {
    var stats = StatsFeature.State(owner: .guest)
    let x = String(repeating: "X", count: 24)
    let o = String(repeating: "O", count: 24)
    stats.stats = Stats(
      tallies: [Tally(opponent: .person, wins: 1, losses: 0, draws: 0)],
      recentGames: [
        GameRecord(
          x: PlayerRecord(name: x), o: PlayerRecord(name: o), moves: [.a1, .a2, .b1, .b2, .c1],
          result: .xWins, startedAt: 0, endedAt: 1)
      ])
    stats.recentGameTimes = [LocalTime(1)]
    let whole = "1970-01-01 00:00 · \(x) vs \(o): \(x) won in 5 moves"
    #expect(stats.recentGameLines == [whole])
    var newGame = NewGame.State()
    newGame.stats = stats
    let size = FormScreen.neededSize
    let listed = shown(app(.newGame(newGame)), width: size.width, height: size.height).frame
    let lines = listed.text.split(separator: "\n")
    #expect(!listed.text.contains("Terminal too small"), "\(listed.text)")
    #expect(lines.allSatisfy { $0.count <= size.width }, "\(listed.text)")
    #expect(lines.contains("   < 1970-01-01 00:00 · \(x.prefix(23))… >"), "\(listed.text)")
    // The replay names the game in full in its title, wrapped.
    newGame.stats?.replay = StatsFeature.Replay(record: stats.stats!.recentGames[0])
    let replay = shown(app(.newGame(newGame)), width: size.width, height: size.height).frame
    #expect(
      replay.text.hasPrefix(
        " 1970-01-01 00:00 · \(x) vs\n \(o):\n \(x) won in 5 moves\n\n"),
      "\(replay.text)")
  }

  /// An account's reset asks for its password on the form (and the code once needed), with
  /// the focus in the field to fill in.
  @Test func anAccountsResetAsksForItsPasswordThenItsCode() {
    var stats = StatsFeature.State(owner: .account(1))
    stats.stats = Stats(tallies: [Tally(opponent: .person, wins: 1, losses: 0, draws: 0)])
    stats.userName = "Ada"
    stats.isConfirmingReset = true
    stats.resetCredentials = StatsFeature.ResetCredentials()
    var newGame = NewGame.State(signedInName: "Ada", accountID: 1)
    newGame.stats = stats
    var state = app(.newGame(newGame))
    var (frame, terminal) = shown(state)
    #expect(terminal.focus == .resetPassword)
    #expect(frame.text.contains(" > Password  [_"), "\(frame.text)")
    #expect(!frame.text.contains("Code"))
    #expect(
      press(.character("x"), .enter, state: state) == [
        .send(.newGame(.stats(.view(.resetPasswordChanged("x"))))),
        .send(.newGame(.stats(.view(.resetConfirmed)))),
      ])
    // The accounts asked for a code: its field appears and takes the focus.
    newGame.stats?.resetCredentials?.password = "secret"
    newGame.stats?.resetCredentials?.needsCode = true
    state = app(.newGame(newGame))
    AppScreens.follow(state, terminal: &terminal)
    #expect(terminal.focus == .resetCode)
    frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
    #expect(frame.text.contains("   Password  [******"), "\(frame.text)")
    #expect(frame.text.contains(" > Code      [_"), "\(frame.text)")
  }

  /// The guest's reset asks with the focus on Keep them: Enter on Reset stats, then Enter
  /// again, deletes nothing.
  @Test func theGuestsResetQuestionKeepsByDefault() {
    var stats = StatsFeature.State(owner: .guest)
    stats.stats = Stats(tallies: [Tally(opponent: .person, wins: 1, losses: 0, draws: 0)])
    var newGame = NewGame.State()
    newGame.stats = stats
    var (_, terminal) = shown(app(.newGame(newGame)))
    terminal.focus = .reset
    newGame.stats?.isConfirmingReset = true
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .resetCancelled)
    let state = app(.newGame(newGame))
    let frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
    #expect(frame.text.contains(" > < Keep them >"), "\(frame.text)")
    #expect(
      AppScreens.handle(.enter, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.stats(.view(.resetCancelled)))))
  }

  /// When the focused item goes away (a question answered, replaced by another), the focus
  /// goes to the form's likely next step rather than nowhere.
  @Test func theFocusNeverStaysOnAnItemThatWentAway() {
    var stats = StatsFeature.State(owner: .guest)
    stats.stats = Stats(tallies: [Tally(opponent: .person, wins: 1, losses: 0, draws: 0)])
    stats.isConfirmingReset = true
    var newGame = NewGame.State()
    newGame.stats = stats
    var (_, terminal) = shown(app(.newGame(newGame)))
    terminal.focus = .resetConfirmed
    newGame.stats?.isConfirmingReset = false
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .back)
    // Making new recovery codes asks first: the question's safe answer takes the focus.
    var state = app(.newGame(NewGame.State(session: Session(accountID: 1, userName: "Ada"))))
    var codes = RecoveryCodes.State(session: Session(accountID: 1, userName: "Ada"))
    codes.remaining = .codes(2)
    state.recoveryCodes = codes
    AppScreens.follow(state, terminal: &terminal)
    terminal.focus = .newCodes
    state.recoveryCodes?.isConfirming = true
    AppScreens.follow(state, terminal: &terminal)
    #expect(terminal.focus == .newCodesCancelled)
  }

  /// A replayed 15×15 game fits wherever the game itself fits, with its keys shown.
  @Test func aLargeBoardsReplayFitsWhereItsGameFits() {
    var stats = StatsFeature.State(owner: .guest)
    let record = GameRecord(
      x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), rows: 15, columns: 15, k: 5,
      moves: [.a1, .a2], startedAt: 0, endedAt: 1)
    stats.stats = Stats(tallies: [], recentGames: [record])
    stats.recentGameTimes = [LocalTime(1)]
    stats.replay = StatsFeature.Replay(record: record)
    var newGame = NewGame.State()
    newGame.stats = stats
    let size = GameScreen.neededSize(rows: 15, columns: 15)
    for (width, height) in [(size.width, size.height), (80, 24)] {
      let frame = shown(app(.newGame(newGame)), width: width, height: height).frame
      #expect(!frame.isTooSmall, "\(width)×\(height)")
      #expect(frame.text.contains("[→] Forward a move  [Esc] Close"), "\(width)×\(height)")
      #expect(frame.text.contains("Move 0 of 2"), "\(width)×\(height)")
    }
  }

  @Test func wideCharactersCountTwoColumnsSoNothingPassesTheEdge() {
    #expect("山田".columns == 4)
    #expect("Ann·é".columns == 5)
    #expect("👍🏽".columns == 2)
    #expect("한국어".prefix(columns: 5) == "한국")
    #expect("한국어".suffix(columns: 3) == "어")
    // A Japanese name in a field keeps the field's box where the others' are.
    var newGame = NewGame.State()
    newGame.settings.xName = "山田太郎"
    let size = FormScreen.neededSize
    let form = shown(app(.newGame(newGame)), width: size.width, height: size.height).frame
    let fields = form.lines.map { $0.spans.map(\.text).joined() }.filter { $0.hasSuffix("]") }
    #expect(fields.count == 2, "\(form.text)")
    #expect(Set(fields.map(\.columns)).count == 1, "\(fields)")
    // A name longer than its field shows its end, marked as cut, in wide letters as in narrow.
    newGame.settings.xName = String(repeating: "漢", count: 24)
    newGame.settings.oName = String(repeating: "B", count: 40) + "END"
    let long = shown(app(.newGame(newGame)), width: size.width, height: size.height).frame
    #expect(long.text.contains("[…漢漢漢漢漢漢漢漢漢漢漢漢漢 ]"), "\(long.text)")
    #expect(long.text.contains("[…BBBBBBBBBBBBBBBBBBBBBBBBEND]"), "\(long.text)")
    // Recent games with wide names are cut to the terminal's columns, not its characters.
    var stats = StatsFeature.State(owner: .guest)
    let name = String(repeating: "山", count: 24)
    stats.stats = Stats(
      tallies: [Tally(opponent: .person, wins: 1, losses: 0, draws: 0)],
      recentGames: [
        GameRecord(
          x: PlayerRecord(name: name), o: PlayerRecord(name: name),
          moves: [.a1, .a2, .b1, .b2, .c1], result: .xWins, startedAt: 0, endedAt: 1)
      ])
    stats.recentGameTimes = [LocalTime(1)]
    newGame.stats = stats
    let listed = shown(app(.newGame(newGame)), width: size.width, height: size.height).frame
    #expect(!listed.text.contains("Terminal too small"), "\(listed.text)")
    #expect(listed.lines.allSatisfy { $0.width <= size.width }, "\(listed.text)")
    #expect(
      listed.text.contains("   < 1970-01-01 00:00 · \(String(repeating: "山", count: 11))… >"),
      "\(listed.text)")
  }

  @Test func aServerAccountsStatsShowTheRatingAndOfferNoReset() {
    var stats = StatsFeature.State(
      serverAccount: StatsFeature.ServerAccount(server: "example.org:7457", userName: "ann"))
    stats.stats = Stats(tallies: [Tally(opponent: .person, wins: 3, losses: 1, draws: 1)])
    stats.rating = 1_216
    var newGame = NewGame.State(signedInName: "ann", accountID: 1)
    newGame.stats = stats
    let text = shown(app(.newGame(newGame))).frame.text
    #expect(text.hasPrefix(" Stats on example.org:7457\n"))
    #expect(text.contains(" Rating: 1216"))
    #expect(text.contains(" People: 3 wins, 1 loss, 1 draw"))
    #expect(text.contains("< Back >"))
    #expect(!text.contains("Reset"))
  }

  @Test func typingEditsTheFocusedField() {
    #expect(
      press(.character("!"), .backspace, state: failedSignIn) == [
        .send(.login(.view(.userNameChanged("ada@example.com!")))),
        .send(.login(.view(.userNameChanged("ada@example.co")))),
      ])
    // Ctrl-U clears the field at once, rather than a Backspace for each character.
    #expect(
      press(.control("u"), state: failedSignIn) == [.send(.login(.view(.userNameChanged(""))))])
  }

  /// A paste of thousands of characters fills a field to its end and no further, so that no
  /// keystroke waits on the length of the ones before.
  @Test func aFieldTakesNoMoreThanItsLengthFromAPaste() {
    let full = String(repeating: "a", count: FormInput.maximumFieldLength)
    let state = app(.login(Login.State(userName: full, password: "")))
    #expect(press(.character("b"), state: state) == [.none])
    let almost = app(.login(Login.State(userName: String(full.dropLast()), password: "")))
    #expect(
      press(.character("b"), state: almost) == [
        .send(.login(.view(.userNameChanged(String(full.dropLast()) + "b"))))
      ])
  }

  /// A paste arrives as one key: a field takes its text, cut at the field's length, and its
  /// line end does not submit the form.
  @Test func aFieldTakesAPasteWhole() {
    let full = String(repeating: "a", count: FormInput.maximumFieldLength)
    let state = app(.login(Login.State(userName: "ad", password: "")))
    #expect(
      press(.paste("a@example.com"), .paste(""), .paste(full), state: state) == [
        .send(.login(.view(.userNameChanged("ada@example.com")))), .none,
        .send(.login(.view(.userNameChanged("ad" + full.dropLast(2))))),
      ])
  }

  /// Nothing but a field acts on a paste: a pasted "yes" does not answer "Leave?".
  @Test func aPasteAnswersNoQuestion() throws {
    var state = app(.newGame(NewGame.State(signedInName: "Ada", accountID: 1)))
    state.isConfirmingExit = true
    #expect(press(.paste("yes"), .paste("y"), state: state) == [.none, .none])
    let game = try inGame()
    #expect(press(.paste("5"), .paste("q"), state: game) == [.none, .none])
  }

  @Test func tabMovesToThePasswordAndEnterSignsIn() {
    var (frame, terminal) = shown(failedSignIn)
    #expect(
      AppScreens.handle(.tab, state: failedSignIn, frame: frame, terminal: &terminal) == .none)
    #expect(terminal.focus == .password)
    frame = AppScreens.frame(failedSignIn, terminal: terminal, width: 80, height: 24)
    #expect(
      AppScreens.handle(.character("x"), state: failedSignIn, frame: frame, terminal: &terminal)
        == .send(.login(.view(.passwordChanged("secretx")))))
    #expect(
      AppScreens.handle(.enter, state: failedSignIn, frame: frame, terminal: &terminal)
        == .send(.login(.view(.signInTapped))))
  }

  @Test func enterOnAnEmptySignInNeverPlaysAsAGuest() {
    #expect(
      press(.enter, state: app(.login(Login.State()))) == [.send(.login(.view(.signInTapped)))])
  }

  @Test func guestIsOneKeyAwayEscapeLeavesAndCtrlCLeavesAtOnce() {
    #expect(
      press(.control("g"), .escape, .interrupt, .suspend, state: TicTacToe.State()) == [
        .send(.login(.view(.playAsGuestTapped))), .send(.view(.exitTapped)), .exit(130),
        .suspend,
      ])
  }

  @Test func clickingAButtonPressesIt() {
    // Line 8 holds "< Play as guest >" two columns in from the margin.
    #expect(
      press(.mouse(MouseEvent(button: 0, row: 8, column: 5)), state: TicTacToe.State()) == [
        .send(.login(.view(.playAsGuestTapped)))
      ])
  }

  @Test func choicesStepThroughTheCore() {
    let state = app(.newGame(NewGame.State(signedInName: "Ada", accountID: 1)))
    var (frame, terminal) = shown(state)
    terminal.focus = .choice(.size)
    frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
    #expect(
      AppScreens.handle(.right, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.stepped(.size, by: 1)))))
    #expect(
      AppScreens.handle(.left, state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.stepped(.size, by: -1)))))
    terminal.focus = .choice(.difficulty)
    #expect(
      AppScreens.handle(.character(" "), state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.view(.stepped(.difficulty, by: 1)))))
    // Esc on New game asks before leaving.
    #expect(
      AppScreens.handle(.escape, state: state, frame: frame, terminal: &terminal)
        == .send(.view(.exitTapped)))
  }

  @Test func theExitQuestionTakesYesOrNo() {
    var state = app(.newGame(NewGame.State(signedInName: "Ada", accountID: 1)))
    state.isConfirmingExit = true
    let text = shown(state).frame.text
    #expect(text.contains(" Leave Tic-Tac-Toe?"))
    #expect(text.hasSuffix(" [y] Leave  [n] Stay"))
    #expect(
      press(.character("y"), .character("x"), .escape, state: state) == [
        .send(.view(.exitConfirmed)), .none, .send(.view(.exitCancelled)),
      ])
  }

  @Test func discardingTheUnfinishedGameIsAskedFirst() {
    var form = NewGame.State()
    form.resumableGame = GameRecord(
      x: PlayerRecord(name: "Ann"), o: PlayerRecord(name: "Bob"), moves: [.a1, .b2],
      startedAt: 0)
    form.isConfirmingDiscard = true
    let state = app(.newGame(form))
    let text = shown(state).frame.text
    #expect(text.contains(" Discard Ann vs Bob (2 moves played)? It cannot be resumed afterwards."))
    #expect(text.hasSuffix(" [y] Discard  [n] Keep it"))
    // Only y discards: Enter and Space, which press buttons, keep the game, as n and Esc do.
    #expect(
      press(.character("y"), .character("x"), .enter, .character(" "), .escape, state: state)
        == [
          .send(.newGame(.view(.discardConfirmed))), .none,
          .send(.newGame(.view(.discardCancelled))), .send(.newGame(.view(.discardCancelled))),
          .send(.newGame(.view(.discardCancelled))),
        ])
    // On a terminal too small, the question still shows first and y still answers it.
    #expect(shown(state, width: 30, height: 10).frame.text.hasPrefix("Discard Ann vs Bob"))
    #expect(
      press(.character("y"), state: state, width: 30, height: 10)
        == [.send(.newGame(.view(.discardConfirmed)))])
  }

  @Test func gameKeysReachTheGameFeature() throws {
    let state = try inGame()
    #expect(state.screen == .game)
    #expect(
      press(.character("5"), .character("q"), state: state) == [
        .send(.newGame(.game(.view(.digitTyped(5))))),
        .send(.newGame(.game(.view(.quitTapped)))),
      ])
    #expect(shown(state).frame.text.hasPrefix(" Ada, place your X\n"))
  }

  @Test func theSizeNeededIsOneFigurePerBoard() throws {
    let screens: [TicTacToe.State] = [
      TicTacToe.State(), app(.newGame(NewGame.State())), try inGame(),
      app(
        .newGame(
          {
            var stats = NewGame.State()
            stats.stats = StatsFeature.State(owner: .guest)
            return stats
          }())),
    ]
    let figures = Set(screens.map { "\(AppScreens.neededSize($0))" })
    #expect(figures.count == 1)
    for state in screens {
      let text = shown(state, width: 44, height: 10).frame.text
      #expect(text.contains("Need 50×22, have 44×10."), "\(state.screen)")
    }
    #expect(AppScreens.neededSize(try inGame(rows: 15)) == (width: 51, height: 24))
  }

  @Test func whileTooSmallOnlyQuitAndAnswersAct() throws {
    let state = try inGame([.b2])
    #expect(
      press(
        .character("5"), .enter, .control("g"), .character("u"), .character("q"), state: state,
        width: 30, height: 10)
        == [.none, .none, .none, .none, .send(.view(.exitTapped))])
    var asking = state
    asking.isConfirmingExit = true
    let text = shown(asking, width: 30, height: 10).frame.text
    #expect(text.contains("Leave Tic-Tac-Toe?"))
    #expect(
      press(.character("y"), state: asking, width: 30, height: 10) == [.send(.view(.exitConfirmed))]
    )
    var quitting = state
    quitting.newGameState?.game?.phase = .confirming(.quit)
    #expect(
      press(.character("n"), .character("q"), state: quitting, width: 30, height: 10) == [
        .send(.newGame(.game(.view(.quitCancelled)))), .none,
      ])
    // The answers read as on the full screen: a new game is not a quit.
    var renewing = state
    renewing.newGameState?.game?.phase = .confirming(.newGame)
    let asked = shown(renewing, width: 45, height: 10).frame.text
    #expect(asked.contains("[y] New game [n] Keep playing"), "\(asked)")
  }

  @Test func formsHaveHelpOnF1() {
    var (frame, terminal) = shown(TicTacToe.State())
    #expect(
      AppScreens.handle(.f1, state: TicTacToe.State(), frame: frame, terminal: &terminal) == .none)
    frame = AppScreens.frame(TicTacToe.State(), terminal: terminal, width: 80, height: 24)
    #expect(frame.text.contains("Keys"))
    #expect(
      AppScreens.handle(
        .character("?"), state: TicTacToe.State(), frame: frame, terminal: &terminal) == .none)
    #expect(!terminal.isShowingFormHelp)
  }

  @Test func createAccountAsksForThePasswordAgainInItsOwnField() {
    var login = Login.State(userName: "ada", password: "correct horse")
    var terminal = AppTerminalState()
    AppScreens.follow(app(.login(login)), terminal: &terminal)
    login.repeatedPassword = ""
    let state = app(.login(login))
    AppScreens.follow(state, terminal: &terminal)
    #expect(terminal.focus == .repeatedPassword)
    let text = AppScreens.frame(state, terminal: terminal, width: 80, height: 24).text
    #expect(text.contains(" > Repeat     [_ "))
    #expect(text.contains(" Type the password again to create the account."))
    #expect(
      press(.character("c"), .enter, state: state) == [
        .send(.login(.view(.repeatedPasswordChanged("c")))),
        .send(.login(.view(.createAccountTapped))),
      ])
  }

  @Test func recoveryCodesScreen() {
    var state = app(.newGame(NewGame.State(session: Session(accountID: 1, userName: "Ada"))))
    #expect(shown(state).frame.text.contains("   < Recovery codes >"))
    var codes = RecoveryCodes.State(session: Session(accountID: 1, userName: "Ada"))
    codes.remaining = .codes(2)
    state.recoveryCodes = codes
    #expect(state.screen == .recoveryCodes)
    #expect(
      shown(state).frame.text == """
         Recovery codes
         2 recovery codes left.

           < Make new codes >
         > < Back >


         [Tab] Next  [F1] Help  [Esc] Back
        """)
    #expect(
      press(.escape, state: state) == [.send(.recoveryCodes(.view(.closeTapped)))])
  }

  /// New codes are shown once: on every size the forms fit, the note wraps and every code
  /// shows.
  @Test func newRecoveryCodesShowOnEverySizeTheFormsFit() {
    var state = app(.newGame(NewGame.State(session: Session(accountID: 1, userName: "Ada"))))
    var codes = RecoveryCodes.State(session: Session(accountID: 1, userName: "Ada"))
    let made = (1...8).map { "code\($0)-abcde" }
    codes.remaining = .codes(8)
    codes.newCodes = made
    state.recoveryCodes = codes
    for (width, height) in [
      (FormScreen.neededSize.width, FormScreen.neededSize.height), (80, 24), (120, 40),
    ] {
      let frame = shown(state, width: width, height: height).frame
      #expect(!frame.isTooSmall, "\(width)×\(height)")
      #expect(made.allSatisfy { frame.text.contains($0) }, "\(width)×\(height)")
      #expect(frame.text.contains("shown again."), "\(width)×\(height)")
    }
  }

  /// On a terminal too small for a form (one wider than the forms' least size), the question
  /// of the moment is still asked, so that q (leave?) shows what it asks.
  @Test func aFormTooSmallForItsTerminalStillAsksTheQuestion() {
    var form = FormScreen(
      title: "Wide", body: [StyledLine(String(repeating: "x", count: 100))], items: [],
      focus: nil)
    form.question = "Leave? [y] Leave [n] Stay"
    let frame = form.frame(width: 60, height: 22)
    #expect(frame.isTooSmall)
    #expect(frame.text.contains("Leave? [y] Leave [n] Stay"))
    // On a tiny terminal the question comes first, answers and all.
    var state = app(.newGame(NewGame.State()))
    state.isConfirmingExit = true
    let tiny = shown(state, width: 20, height: 6).frame
    #expect(tiny.isTooSmall)
    #expect(tiny.text.split(separator: "\n").joined(separator: " ").contains("[y] Leave [n] Stay"))
  }
}
