import AppCore
import AuthenticationClient
import GameCore
import GameProtocol
import GameRules
import LoginCore
import NewGameCore
import OnlineCore
import TestSupport
import Testing

@testable import TerminalUI

struct OnlineScreensTests {
  private let session = Session(accountID: 7, userName: "ann", token: "T0KEN")

  private func app(_ destination: TicTacToe.Destination) -> TicTacToe.State {
    var state = TicTacToe.State()
    state.destination = destination
    return state
  }

  private func shown(_ state: TicTacToe.State, width: Int = 80, height: Int = 24)
    -> (frame: TerminalUI.Frame, terminal: AppTerminalState)
  {
    var terminal = AppTerminalState()
    AppScreens.follow(state, terminal: &terminal)
    return (AppScreens.frame(state, terminal: terminal, width: width, height: height), terminal)
  }

  private func press(_ keys: Key..., state: TicTacToe.State) -> [AppResponse] {
    var (frame, terminal) = shown(state)
    return keys.map { key in
      frame = AppScreens.frame(state, terminal: terminal, width: 80, height: 24)
      return AppScreens.handle(key, state: state, frame: frame, terminal: &terminal)
    }
  }

  /// ann (X) against bob (O) after `moves`, as `role` sees it.
  private func online(
    _ moves: [Cell], role: Mark? = .x, status: GameStatus = .playing, bobAway: UInt32? = nil
  ) -> TicTacToe.State {
    var newGame = NewGame.State(server: .example, session: role == nil ? nil : session)
    var game = OnlineGame.State(
      server: .example, intent: .join(code: "K7M2QX"), userName: "ann", token: "T0KEN")
    game.snapshot = GameSnapshot(
      code: "K7M2QX", rows: 3, columns: 3, k: 3, firstMover: .x,
      x: SeatedPlayer(name: "ann", rating: 1_200),
      o: SeatedPlayer(name: "bob", rating: 1_200, awaySeconds: bobAway), moves: moves,
      status: status, role: role)
    game.link = .live
    game.notices = [.shown]
    newGame.online = game
    return app(.newGame(newGame))
  }

  /// Back on New game from an online game, the focus is on Create online game, unless the
  /// game the invite code opened could not be shown: then it is on the code, to mend it.
  @Test func aRefusedCodeBringsTheFocusBackToIt() {
    var terminal = AppTerminalState()
    let playing = online([])
    AppScreens.follow(playing, terminal: &terminal)
    #expect(terminal.focus == nil)
    var newGame = NewGame.State(server: .example, session: session)
    newGame.inviteCode = "ZZZZZZ"
    newGame.closedGameSentence = "There is no game with the code ZZZZZZ; check the invite code."
    newGame.returnsToInviteCode = true
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .inviteCode)
    let frame = AppScreens.frame(
      app(.newGame(newGame)), terminal: terminal, width: 80, height: 24)
    #expect(frame.text.contains(" > Invite code      [ZZZZZZ_"))
    #expect(frame.text.contains(" There is no game with the code ZZZZZZ; check the invite code."))

    AppScreens.follow(playing, terminal: &terminal)
    newGame.returnsToInviteCode = false
    AppScreens.follow(app(.newGame(newGame)), terminal: &terminal)
    #expect(terminal.focus == .createOnline)
  }

  // MARK: - Sign in

  @Test func theServerFieldTakesTypingAndSaysWhereTheAccountsAre() {
    var login = Login.State(server: "example.org")
    login.userName = ""
    var (frame, terminal) = shown(app(.login(login)))
    #expect(frame.text.contains(" Accounts on example.org:7457."))
    #expect(frame.text.contains("   Server     [example.org                 ]"))
    terminal.focus = FormID.server
    frame = AppScreens.frame(app(.login(login)), terminal: terminal, width: 80, height: 24)
    #expect(
      AppScreens.handle(
        .character(":"), state: app(.login(login)), frame: frame, terminal: &terminal)
        == .send(.login(.view(.serverChanged("example.org:")))))
  }

  @Test func aNewServerIsTrustedOnlyWithY() {
    var login = Login.State(userName: "ann", server: "example.org")
    login.trustQuestion = Login.TrustQuestion(
      address: .example, fingerprint: Array(repeating: 0xab, count: 32), request: .signIn)
    let state = app(.login(login))
    let text = shown(state).frame.text
    #expect(text.contains("example.org:7457 is new to this computer."))
    #expect(text.contains("[y] Trust it  [n] Do not trust it"))
    #expect(
      press(.character("x"), .enter, .character("y"), .character("n"), .escape, state: state) == [
        .none, .none, .send(.login(.view(.trustConfirmed))),
        .send(.login(.view(.trustCancelled))), .send(.login(.view(.trustCancelled))),
      ])
  }

  /// The fingerprint to compare is shown whole however narrow the terminal: a word longer than
  /// a line goes on over the next.
  @Test func theFingerprintToCompareIsShownWholeOnANarrowTerminal() {
    var login = Login.State(userName: "ann", server: "example.org")
    login.trustQuestion = Login.TrustQuestion(
      address: .example, fingerprint: Array(repeating: 0xab, count: 32), request: .signIn)
    for width in [50, 60, 71] {
      let text = shown(app(.login(login)), width: width, height: 22).frame.text
      let joined = text.split(separator: "\n").map { $0.filter { $0 != " " } }
        .joined()
      #expect(joined.contains("SHA256:" + String(repeating: "ab", count: 32)), "\(width)")
    }
  }

  /// A refusal longer than the rows the form leaves is marked where it stops, never cut
  /// silently: its end is a command to copy.
  @Test func aRefusalTooLongForTheRowsLeftIsMarkedWhereItStops() {
    var login = Login.State(server: "example.org")
    let print = "SHA256:" + String(repeating: "cd", count: 32)
    login.errorMessage =
      "The server at tictactoe-games.example.org:7457 presented the fingerprint \(print), but another "
      + "was trusted before; nothing was sent to it. If its certificate really changed, trust "
      + "the new one with tictactoe games --server tictactoe-games.example.org:7457 "
      + "--server-fingerprint \(print)."
    let cut = shown(app(.login(login)), width: 50, height: 22).frame.text
    #expect(cut.split(separator: "\n").contains { $0.trimmingSuffixSpaces.hasSuffix("…") })
    let whole = shown(app(.login(login)), width: 50, height: 40).frame.text
    #expect(!whole.contains("…"))
  }

  @Test func aLongRefusalWrapsUnderTheForm() {
    var login = Login.State(server: "example.org")
    login.errorMessage =
      "The server at example.org:7457 presented the fingerprint SHA256:"
      + String(repeating: "ab", count: 32) + ", but another was trusted before."
    let lines = shown(app(.login(login))).frame.text.split(separator: "\n")
    #expect(lines.contains(" The server at example.org:7457 presented the fingerprint"))
    #expect(lines.contains { $0.hasPrefix(" SHA256:abab") })
    #expect(lines.contains(" another was trusted before."))
  }

  // MARK: - New game on a server

  @Test func newGameOnAServerOffersTheOnlineChoices() {
    let state = app(.newGame(NewGame.State(server: .example, session: session)))
    #expect(
      shown(state).frame.text == """
         New game
         Signed in as ann on example.org:7457

           Board            ‹ 3×3 ›
           In a row to win  ‹ 3 ›
           First move       ‹ X starts ›
         > < Create online game >
           Invite code      [                            ]
           < Join with code >
           < Watch >
           < Open games >
           < Stats >
           < Recovery codes >
           < Sign out >
           < Exit >


         [Tab] Next  [← →] Change  [F1] Help  [Esc] Exit
        """)
    #expect(
      press(.enter, .tab, .character("k"), .enter, .escape, state: state) == [
        .send(.newGame(.view(.createOnlineGameTapped))), .none,
        .send(.newGame(.view(.inviteCodeChanged("k")))), .send(.newGame(.view(.joinTapped))),
        .send(.view(.exitTapped)),
      ])
    // Stats, five fields below Create online game, shows the account's record on the server.
    #expect(
      press(.tab, .tab, .tab, .tab, .tab, .enter, state: state).last
        == .send(.newGame(.view(.statsTapped))))
  }

  @Test func theFormSaysThatTheGameLeftWasCancelledAndRefusalsComeFirst() {
    var newGame = NewGame.State(server: .example, session: session)
    newGame.closedGameSentence = "Game K7M2QX is cancelled; no one had joined."
    let form = AppScreens.onlineNewGameForm(newGame, focus: nil)
    #expect(form.message == "Game K7M2QX is cancelled; no one had joined.")
    #expect(!form.messageIsError)
    #expect(shown(app(.newGame(newGame))).frame.text.contains(" Game K7M2QX is cancelled"))
    newGame.errorMessage = "Type the invite code of the game to join."
    let refused = AppScreens.onlineNewGameForm(newGame, focus: nil)
    #expect(refused.message == "Type the invite code of the game to join.")
    #expect(refused.messageIsError)
  }

  @Test func aGuestOnAServerStartsInTheCodeFieldAndEnterWatches() {
    let state = app(.newGame(NewGame.State(server: .example, session: nil)))
    let (frame, terminal) = shown(state)
    #expect(terminal.focus == FormID.inviteCode)
    #expect(frame.text.contains(" Playing as a guest on example.org:7457"))
    #expect(!frame.text.contains("Recovery codes"))
    #expect(!frame.text.contains("Stats"))
    #expect(press(.enter, state: state) == [.send(.newGame(.view(.watchTapped)))])
  }

  @Test func openGamesListsTheGamesAsButtons() {
    var newGame = NewGame.State(server: .example, session: session)
    var list = OpenGames.State(server: .example, player: "ann")
    list.listings = [
      GameListing(
        code: "K7M2QX", isOpen: true, xName: "bob", oName: nil, rows: 3, columns: 3, k: 3,
        moveCount: 0),
      GameListing(
        code: "ABC234", isOpen: false, xName: String(repeating: "n", count: 24),
        oName: String(repeating: "m", count: 24), rows: 15, columns: 15, k: 5, moveCount: 100),
    ]
    newGame.openGames = list
    let state = app(.newGame(newGame))
    let (frame, terminal) = shown(state)
    #expect(terminal.focus == FormID.listedGame(0))
    let lines = frame.text.split(separator: "\n")
    #expect(
      lines.contains(" > < K7M2QX  bob (X) against O free, 3×3, 3 in a row, 0 moves · join >"))
    // A line too long for the screen is shortened, never wider than the terminal.
    #expect(lines.allSatisfy { $0.count <= 80 })
    #expect(lines.contains { $0.contains("ABC234") && $0.hasSuffix("… >") })
    #expect(
      press(.enter, .tab, .enter, .character("r"), .escape, state: state) == [
        .send(.newGame(.openGames(.view(.gameTapped(0))))), .none,
        .send(.newGame(.openGames(.view(.gameTapped(1))))),
        .send(.newGame(.openGames(.view(.refreshTapped)))),
        .send(.newGame(.openGames(.view(.closeTapped)))),
      ])
  }

  // MARK: - The online game

  @Test func aStatusLineWiderThanTheScreenIsCutWhereTheCutShows() {
    let size = FormScreen.neededSize
    let frame = shown(online([], status: .waiting), width: size.width, height: size.height).frame
    let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.columns <= size.width }, "\(frame.text)")
    #expect(
      lines.count > 1 && lines[1].hasPrefix(" Game K7M2QX on example.org:7457 · ")
        && lines[1].hasSuffix("…") && lines[1].columns == size.width, "\(frame.text)")
  }

  @Test func theGameShowsTheOpponentsConnection() {
    var state = online([.b2, .a1], bobAway: 60)
    state.newGameState?.online?.notices.append(.away(.o, seconds: 60))
    #expect(
      shown(state).frame.text == """
         ann, place your X
         Game K7M2QX on example.org:7457 · bob lost the connection.

             a   b   c
           ┌───┬───┬───┐
         1 │(O)│   │   │
           ├───┼───┼───┤
         2 │   │[X]│   │
           ├───┼───┼───┤
         3 │   │   │   │
           └───┴───┴───┘

         bob lost the connection; waiting 60 seconds.
         [q] Resign  [?] Help
        """)
    #expect(
      shown(online([.b2])).frame.text.contains(
        " Game K7M2QX on example.org:7457 · bob is connected."))
  }

  @Test func keysPlayTheCursorDigitsAndClicks() {
    let state = online([])
    // Enter plays where the cursor starts; → then Space plays c2; 7 picks a3; a click on a1.
    #expect(
      press(
        .enter, .right, .character(" "), .character("7"),
        .mouse(MouseEvent(button: 0, row: 5, column: 5)), state: state) == [
          .send(.newGame(.online(.view(.cellTapped(.b2))))), .none,
          .send(.newGame(.online(.view(.cellTapped(.c2))))),
          .send(.newGame(.online(.view(.digitTyped(7))))),
          .send(.newGame(.online(.view(.cellTapped(.a1))))),
        ])
  }

  @Test func undoAndHintAreAskedOfTheCoreWhichSaysTheyAreNotOnline() {
    #expect(
      press(.character("u"), .character("h"), .character("n"), state: online([.b2])) == [
        .send(.newGame(.online(.view(.lineTyped("undo"))))),
        .send(.newGame(.online(.view(.lineTyped("hint"))))),
        .send(.newGame(.online(.view(.lineTyped("new"))))),
      ])
  }

  @Test func resigningAsksAndOnlyYGivesTheGameUp() {
    var state = online([.b2])
    #expect(press(.character("q"), state: state) == [.send(.newGame(.online(.view(.quitTapped))))])
    state.newGameState?.online?.isConfirmingResign = true
    let text = shown(state).frame.text
    #expect(text.contains(" Resign this game? bob wins."))
    #expect(text.contains("[y] Resign  [n] Keep playing"))
    #expect(
      press(.character("q"), .enter, .character("n"), .character("y"), state: state) == [
        .none, .none, .send(.newGame(.online(.view(.resignCancelled)))),
        .send(.newGame(.online(.view(.resignConfirmed)))),
      ])
  }

  @Test func aSpectatorSeesNoCursorAndLeavesWithQ() {
    let state = online([.b2, .a1], role: nil)
    let text = shown(state).frame.text
    #expect(!text.contains("[ ]") && !text.contains("[X]"))
    #expect(text.contains(" Game K7M2QX on example.org:7457 · ann is connected; bob is connected."))
    #expect(text.contains("[q] Leave"))
    #expect(press(.character("q"), state: state) == [.send(.newGame(.online(.view(.quitTapped))))])
  }

  @Test func beforeTheServerAnswersTheScreenSaysItIsConnecting() {
    var newGame = NewGame.State(server: .example, session: session)
    newGame.online = OnlineGame.State(
      server: .example, intent: .join(code: "K7M2QX"), userName: "ann", token: "T0KEN")
    let state = app(.newGame(newGame))
    let text = shown(state).frame.text
    #expect(text.hasPrefix(" Connecting to example.org:7457…\n"))
    #expect(text.contains(" Game K7M2QX on example.org:7457 · connecting…"))
    // Keys for the board do nothing until there is one.
    #expect(press(.enter, .right, state: state) == [.none, .none])
  }

  @Test func leavingTheProgramDuringAGameSaysTheSeatIsHeld() {
    var state = online([.b2])
    state.isConfirmingExit = true
    let text = shown(state).frame.text
    #expect(
      text.contains(" Leave Tic-Tac-Toe? The server holds your seat for a while: join game K7M2QX"))
    #expect(text.contains("[y] Leave  [n] Stay"))
  }

  @Test func aTinyTerminalStillAnswersTheResignQuestion() {
    var state = online([.b2])
    state.newGameState?.online?.isConfirmingResign = true
    let (frame, _) = shown(state, width: 10, height: 5)
    #expect(frame.isTooSmall)
    var terminal = AppTerminalState()
    AppScreens.follow(state, terminal: &terminal)
    #expect(
      AppScreens.handle(.character("y"), state: state, frame: frame, terminal: &terminal)
        == .send(.newGame(.online(.view(.resignConfirmed)))))
  }

  @Test func aTinyTerminalStillAsksAndAnswersTheTrustQuestion() {
    var login = Login.State(userName: "ann", server: "example.org")
    login.trustQuestion = Login.TrustQuestion(
      address: .example, fingerprint: Array(repeating: 0xab, count: 32), request: .signIn)
    let state = app(.login(login))
    let (frame, _) = shown(state, width: 30, height: 8)
    #expect(frame.isTooSmall)
    #expect(frame.text.contains("example.org:7457 is new"))
    for (key, view) in [("y", Login.Action.View.trustConfirmed), ("n", .trustCancelled)] {
      var terminal = AppTerminalState()
      AppScreens.follow(state, terminal: &terminal)
      #expect(
        AppScreens.handle(
          .character(Character(key)), state: state, frame: frame, terminal: &terminal)
          == .send(.login(.view(view))))
    }
  }
}

extension Substring {
  fileprivate var trimmingSuffixSpaces: Substring {
    var text = self
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
