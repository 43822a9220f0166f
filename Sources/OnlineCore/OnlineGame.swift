public import Architecture
public import GameCore
public import GameProtocol
public import GameRules
public import OnlineClient

/// An online game on a client: create, join or watch it, play moves the server judges, and
/// come back by itself after a dropped connection, resuming at the last move it saw.
///
/// The server is the authority: the client shows what the server committed and sends what the
/// player typed, and says what the server answers.
public struct OnlineGame: Reducer {
  /// What the player asked for.
  public enum Intent: Equatable, Sendable {
    /// Create a game with these options and wait for an opponent.
    case create(GameOptions)
    /// Take the free seat of a game, or one's own seat again.
    case join(code: String)
    /// Watch a game.
    case watch(code: String)

    /// The invite code the player gave, if any.
    public var code: String? {
      switch self {
      case .create: nil
      case .join(let code), .watch(let code): code
      }
    }
  }

  /// The connection to the server.
  public enum Link: Equatable, Sendable {
    /// Connecting; `attempt` counts from 1 since the last working connection.
    case connecting(attempt: Int)
    /// Connected, signing in again with the session token.
    case resuming(attempt: Int)
    /// Signed in (or watching), asking for the game.
    case joining(attempt: Int)
    /// The game is shown and kept up to date.
    case live
    /// Waiting before the next attempt.
    case waiting(attempt: Int)
    /// Given up, or the game is over and the connection closed.
    case closed
  }

  /// Something to tell the player, in the order it happened.
  public enum Notice: Equatable, Sendable {
    /// The player's own game that waits for an opponent was shown (created, or joined again
    /// by its code): the code to give.
    case created(code: String)
    /// The game was shown: the board as it stands.
    case shown
    /// A player took the free seat.
    case joined(name: String, mark: Mark)
    /// A move was committed.
    case moved(ply: Int)
    /// A request was refused.
    case refused(Refusal, cell: Cell?)
    /// A player's connection dropped; the seat is held this long.
    case away(Mark, seconds: Int)
    /// A player came back.
    case back(Mark)
    /// The game ended.
    case ended(GameEnd)
    /// This client lost the server and tries again.
    case reconnecting
    /// This client's connection failed (the reason, a sentence) before any game was shown, and
    /// it tries again.
    case retrying(String)
    /// This client is back.
    case reconnected
    /// The player's move was on its way when the connection dropped, and the game shown on
    /// coming back does not have it: it is to be played again.
    case moveLost(Cell)
    /// A move (or, with `resigning`, the resignation) was asked for while the connection is
    /// down; it was not sent.
    case notConnected(resigning: Bool = false)
    /// A move was asked for while the player's last one was still on its way to the server.
    case stillSending
    /// This client stopped: the reason in one sentence.
    case stopped(String)
    /// The player asked to give up: the question waits for yes or no.
    case askedToResign
    /// The player answered no: the game goes on.
    case keptPlaying
    /// A question waits for yes or no, and something else came.
    case answerYesOrNo
    /// Plain mode asked for help.
    case help
    /// Plain mode asked to see the board.
    case board
    /// Undo, redo, hints, analysis and new games belong to games on one computer.
    case notOnline
    /// A digit was typed on a board other than 3×3.
    case digitsNeedTheClassicBoard
    /// Plain mode typed something that is not a cell or a command.
    case unknownCommand(String)
    /// Plain mode's input ended: the client left, and the server holds the seat.
    case inputEnded
    /// The game nobody had joined was cancelled: by this player leaving it, or (for a
    /// spectator) by its creator or by the server once its creator was away too long.
    case cancelled(code: String)
    /// The player left their game nobody had joined without the server's word that it is
    /// cancelled: it did not answer in time, or the connection dropped first.
    case notCancelled(code: String)

    /// Whether this is why the client stopped.
    var isStop: Bool {
      if case .stopped = self { return true }
      return false
    }
  }

  /// Why the player leaves a game of theirs that nobody joined, while the server cancels it.
  public enum Leaving: Equatable, Sendable {
    /// Quit or back: the screen closes once the server has answered.
    case quit
    /// Plain mode's input ended: the client stops once the server has answered.
    case inputEnded
  }

  /// The game and the connection.
  public struct State: Equatable, Sendable {
    /// The server.
    public var server: ServerAddress
    /// What the player asked for.
    public var intent: Intent
    /// The account's name, or `nil` for a spectator without one.
    public var userName: String?
    /// The token that signs this client in again after a drop.
    public var token: String?
    /// The connection.
    public var link: Link = .connecting(attempt: 1)
    /// The game as the server last showed it, with every move seen since.
    public var snapshot: GameSnapshot?
    /// The move sent and not yet answered.
    public var pendingMove: Cell?
    /// The move that was on its way when the connection dropped, until the game shown on
    /// coming back says whether the server has it.
    public var unconfirmedMove: Cell?
    /// Everything to tell the player, oldest first.
    public var notices: [Notice] = []
    /// Whether the connection was live before the last drop, so coming back is news.
    public var hasBeenLive = false
    /// Whether the player is asked before giving the game up.
    public var isConfirmingResign = false
    /// Whether the server has ended the player's session (a password or two-factor changed
    /// elsewhere): leaving the game leads back to Sign in.
    public var hasSessionEnded = false
    /// Whether another client of the account took the player's seat: the game is its now.
    public var hasLostTheSeat = false
    /// Whether this client sent a resignation, so that a game lost by one can be believed.
    public var hasResigned = false
    /// Whether the game ended while this client watched it, so that the ratings the snapshot
    /// holds are those from before the game (a game shown already over holds the new ones).
    public var sawTheEnd = false
    /// Whether plain mode's input ended before the server showed the game: the client leaves
    /// once the server has answered, so that a refused code is still said.
    public var isInputEnded = false
    /// Whether plain mode typed `quit` before the server showed the game: the quit is answered
    /// once it has (the player's game nobody joined is cancelled), and lines typed meanwhile
    /// are not.
    public var isQuitPending = false
    /// Why the player leaves while the server cancels their game nobody joined, if they do.
    public var leaving: Leaving?

    /// Creates the state of a game about to connect.
    public init(server: ServerAddress, intent: Intent, userName: String?, token: String?) {
      self.server = server
      self.intent = intent
      self.userName = userName
      self.token = token
    }

    /// The invite code, once known.
    public var code: String? { snapshot?.code ?? intent.code }

    /// The moves seen so far.
    public var moves: [Cell] { snapshot?.moves ?? [] }

    /// Whether the game is over.
    public var isOver: Bool {
      if case .finished = snapshot?.status { return true }
      return false
    }

    /// Whether this client only watches: it has no seat and cannot move.
    public var isSpectator: Bool {
      if case .watch = intent { return true }
      return false
    }

    /// Whether the player's own game is under way, so that leaving gives it up.
    ///
    /// A client that stopped (a server that broke the rules, a connection given up) leaves
    /// without a word to the server, which holds the seat.
    public var isResignable: Bool {
      snapshot?.role != nil && snapshot?.status == .playing && link != .closed
    }

    /// Whether the player created the game shown and nobody has joined it, so that leaving it
    /// cancels it on the server.
    public var isCancellable: Bool {
      !isSpectator && snapshot?.role == .x && snapshot?.status == .waiting
    }

    /// The board as it stands, once the server showed the game.
    public var board: Board? {
      guard let snapshot,
        let start = try? Board(
          rows: snapshot.rows, columns: snapshot.columns, k: snapshot.k,
          firstMover: snapshot.firstMover)
      else { return nil }
      return (try? Game(start: start, moves: snapshot.moves))?.board
    }
  }

  /// What can happen.
  public enum Action: Equatable, Sendable {
    /// Start: connect.
    case started
    /// The connection reported something.
    case link(LinkEvent)
    /// The wait before reconnecting is over.
    case reconnectDue
    /// The server took too long to answer the cancellation: the client leaves as it would
    /// without one.
    case cancellationOverdue
    /// The player did something.
    case view(View)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// A cell was chosen.
      case cellTapped(Cell)
      /// A digit was typed: 1 to 9 pick the cells of a 3×3 board in reading order.
      case digitTyped(Int)
      /// A line was typed in plain mode: a cell, a command or an answer.
      case lineTyped(String)
      /// Leave the game: asks first while the player's game is under way (giving it up).
      case quitTapped
      /// Yes, give the game up.
      case resignConfirmed
      /// No, keep playing.
      case resignCancelled
      /// Plain mode's input ended: leave, and let the server hold the seat.
      case inputEnded
    }
  }

  /// What the parent must act on.
  public enum Delegate: Equatable, Sendable {
    /// Close the game's screen: the player left, or no game could be shown.
    case didQuit
  }

  private enum CancelID: Hashable, Sendable {
    case connection
    case reconnect
    case cancellation
  }

  /// How long the player waits for the server to cancel their game before leaving without it:
  /// the server then drops the game once its creator has been away for the reconnect grace.
  public static let cancellationTimeout: Duration = .seconds(10)

  /// The server connection.
  public var link: ServerLink
  /// The clock for the waits between attempts.
  public var clock: ClockClient
  /// How long to wait between attempts.
  public var backoff: Backoff

  /// Creates the feature with its clients.
  public init(link: ServerLink, clock: ClockClient, backoff: Backoff = Backoff()) {
    self.link = link
    self.clock = clock
    self.backoff = backoff
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      state.link = .connecting(attempt: 1)
      return connect()

    case .link(.opened):
      let attempt = state.link.attempt
      if let token = state.token {
        state.link = .resuming(attempt: attempt)
        return sending(.resumeSession(token: token))
      }
      state.link = .joining(attempt: attempt)
      return sending(request(for: state))

    case .link(.message(let message)):
      let effect = receive(message, state: &state)
      // A game that ended (a forfeit, the opponent's resignation) has nothing left to resign.
      if !state.isResignable { state.isConfirmingResign = false }
      return effect

    case .link(.closed(let reason, let isPermanent)):
      return dropped(reason: reason, isPermanent: isPermanent, state: &state)

    case .reconnectDue:
      guard case .waiting(let attempt) = state.link else { return .none }
      state.link = .connecting(attempt: attempt)
      return connect()

    case .cancellationOverdue:
      return leftUnanswered(&state)

    case .view(let view):
      return reduce(into: &state, view: view)

    case .delegate:
      return .none
    }
  }

  // MARK: - The player

  private func reduce(into state: inout State, view: Action.View) -> Effect<Action> {
    if state.leaving != nil {
      // Leaving already: the server's answer about the cancellation closes the game.
      return .none
    }
    if case .lineTyped = view, state.isQuitPending || (state.link == .closed && !state.isOver) {
      // The player has left (or leaves once the game is shown), or the client stopped: what
      // is typed after that is not answered.
      return .none
    }
    if state.isConfirmingResign {
      switch view {
      case .resignConfirmed:
        state.isConfirmingResign = false
        guard let code = state.code, state.link == .live else {
          state.notices.append(.notConnected(resigning: true))
          return .none
        }
        state.hasResigned = true
        return sending(.resign(code: code))
      case .resignCancelled:
        state.isConfirmingResign = false
        state.notices.append(.keptPlaying)
        return .none
      case .lineTyped(let line):
        switch Answer(line) {
        case .yes: return reduce(into: &state, view: .resignConfirmed)
        case .no: return reduce(into: &state, view: .resignCancelled)
        case nil:
          state.notices.append(.answerYesOrNo)
          return .none
        }
      case .inputEnded:
        state.isConfirmingResign = false
        return reduce(into: &state, view: .inputEnded)
      case .cellTapped, .digitTyped, .quitTapped:
        state.notices.append(.answerYesOrNo)
        return .none
      }
    }
    switch view {
    case .cellTapped(let cell):
      return play(cell, state: &state)

    case .digitTyped(let digit):
      guard let board = state.board, let cell = Cell(digit: digit, on: board) else {
        state.notices.append(.digitsNeedTheClassicBoard)
        return .none
      }
      return play(cell, state: &state)

    case .lineTyped(let line):
      return typed(line, state: &state)

    case .quitTapped:
      if state.isCancellable, state.link == .live { return cancel(&state, leaving: .quit) }
      if state.isCancellable, let code = state.code, !state.hasLostTheSeat {
        // Nothing can reach the server to cancel it: it drops the game after the grace.
        state.notices.append(.notCancelled(code: code))
      }
      guard state.isResignable else { return leave(&state, then: .didQuit) }
      state.isConfirmingResign = true
      state.notices.append(.askedToResign)
      return .none

    case .resignConfirmed, .resignCancelled:
      return .none

    case .inputEnded:
      // A spectator types nothing that matters: without input it goes on watching.
      guard state.link != .closed, !state.isSpectator else { return .none }
      guard state.snapshot != nil else {
        // The server has not answered yet: a refused code must still be said.
        state.isInputEnded = true
        return .none
      }
      if state.isCancellable, state.link == .live { return cancel(&state, leaving: .inputEnded) }
      guard state.link == .live || state.isOver else {
        // Whether the seat is held is the server's to say, and it cannot be reached.
        return stop(state.unreachableAtTheEnd, state: &state)
      }
      state.notices.append(.inputEnded)
      return leave(&state, then: nil)
    }
  }

  /// Asks the server to cancel the player's game nobody joined; the answer closes the game.
  private func cancel(_ state: inout State, leaving: Leaving) -> Effect<Action> {
    guard let code = state.code else { return .none }
    state.leaving = leaving
    return .merge(
      sending(.cancelGame(code: code)),
      .run { [clock] send in
        do {
          try await clock.sleep(Self.cancellationTimeout)
          await send(.cancellationOverdue)
        } catch {}
      }
      .cancellable(id: CancelID.cancellation, cancelInFlight: true))
  }

  /// Leaves without the server's answer to the cancellation, saying that the game may still be
  /// there: the server holds the seat, and drops the game once the grace is over.
  private func leftUnanswered(_ state: inout State) -> Effect<Action> {
    guard let leaving = state.leaving else { return .none }
    state.leaving = nil
    if let code = state.code { state.notices.append(.notCancelled(code: code)) }
    return leave(&state, then: leaving == .quit ? .didQuit : nil)
  }

  /// Leaves as without a cancellation, when the server could not or did not cancel the game:
  /// the server holds the seat, and drops the game once the grace is over.
  private func leftWithoutCancelling(_ state: inout State) -> Effect<Action> {
    guard let leaving = state.leaving else { return .none }
    state.leaving = nil
    switch leaving {
    case .quit: return leave(&state, then: .didQuit)
    case .inputEnded:
      state.notices.append(.inputEnded)
      return leave(&state, then: nil)
    }
  }

  /// The refusal a spectator gets for trying to move.
  private static let spectatorRefusal = Refusal(.notAPlayer, request: moveRequest)

  private func play(_ cell: Cell, state: inout State) -> Effect<Action> {
    if state.isSpectator {
      state.notices.append(.refused(Self.spectatorRefusal, cell: cell))
      return .none
    }
    if state.isOver {
      state.notices.append(.refused(Refusal(.gameOver, request: Self.moveRequest), cell: cell))
      return .none
    }
    if state.link == .closed, let stop = state.notices.last(where: \.isStop) {
      // This client stopped for good: why, again, rather than "not connected just now".
      state.notices.append(stop)
      return .none
    }
    guard let snapshot = state.snapshot, state.link == .live else {
      state.notices.append(.notConnected())
      return .none
    }
    guard snapshot.role != nil else {
      state.notices.append(.refused(Self.spectatorRefusal, cell: cell))
      return .none
    }
    guard snapshot.status != .waiting else {
      // Nobody plays O yet: the server would refuse the move.
      state.notices.append(
        .refused(Refusal(.gameNotStarted, request: Self.moveRequest), cell: cell))
      return .none
    }
    if let board = state.board, !board.contains(cell) {
      // The protocol cannot carry such a cell, and the server would refuse it anyway.
      state.notices.append(
        .refused(Refusal(.cellOutOfBounds, request: Self.moveRequest), cell: cell))
      return .none
    }
    if let board = state.board, board[cell] != nil {
      // A cell taken on the board shown stays taken, whatever is on its way: said at once, in
      // the order typed, and the turn is not spent on it.
      state.notices.append(.refused(Refusal(.cellTaken, request: Self.moveRequest), cell: cell))
      return .none
    }
    guard state.pendingMove == nil else {
      // The move on its way gives the turn away; the server would refuse this one.
      state.notices.append(.stillSending)
      return .none
    }
    state.pendingMove = cell
    return sending(.move(code: snapshot.code, ply: snapshot.moves.count, cell: cell))
  }

  private func typed(_ line: String, state: inout State) -> Effect<Action> {
    if state.isSpectator {
      switch TypedCommand(line) {
      case .nothing: return .none
      case .board: state.notices.append(.board)
      case .quit: return reduce(into: &state, view: .quitTapped)
      case .cell, .digit, .undo, .redo, .hint, .analysis, .newGame, .help, .unknown:
        state.notices.append(.refused(Self.spectatorRefusal, cell: nil))
      }
      return .none
    }
    let command = TypedCommand(line)
    if state.snapshot == nil, Self.leaves(command) {
      // Before the game is shown a quit cannot cancel it yet: it is answered once it is.
      state.isQuitPending = true
      return .none
    }
    switch command {
    case .nothing: return .none
    case .cell(let cell): return play(cell, state: &state)
    case .digit(let digit): return reduce(into: &state, view: .digitTyped(digit))
    case .quit: return reduce(into: &state, view: .quitTapped)
    case .unknown(let text) where text.lowercased() == "resign":
      return reduce(into: &state, view: .quitTapped)
    case .help: state.notices.append(.help)
    case .board: state.notices.append(.board)
    case .undo, .redo, .hint, .analysis, .newGame: state.notices.append(.notOnline)
    case .unknown(let text): state.notices.append(.unknownCommand(text))
    }
    return .none
  }

  /// Whether a typed command leaves the game: `quit`, or `resign`, which online play takes
  /// the same way.
  private static func leaves(_ command: TypedCommand) -> Bool {
    switch command {
    case .quit: true
    case .unknown(let text): text.lowercased() == "resign"
    default: false
    }
  }

  /// Closes the connection for good; the server holds a player's seat for its grace.
  private func leave(_ state: inout State, then delegate: Delegate?) -> Effect<Action> {
    state.link = .closed
    state.pendingMove = nil
    state.leaving = nil
    guard let delegate else { return closing() }
    return .merge(closing(), .send(.delegate(delegate)))
  }

  /// Ends the connection and every wait on it.
  private func closing() -> Effect<Action> {
    .merge(
      .cancel(id: CancelID.reconnect), .cancel(id: CancelID.connection),
      .cancel(id: CancelID.cancellation), .run { [link] _ in await link.close() })
  }

  /// The type byte of a move, which refusals of moves name.
  public static let moveRequest = ClientMessage.move(
    code: "", ply: 0, cell: Cell(row: 0, column: 0)
  ).type

  // MARK: - Connecting

  private func connect() -> Effect<Action> {
    .run { [link] send in
      for await event in link.open() {
        await send(.link(event))
      }
    }
    .cancellable(id: CancelID.connection, cancelInFlight: true)
  }

  private func sending(_ message: ClientMessage) -> Effect<Action> {
    .run { [link] _ in await link.send(message) }
  }

  /// What to ask for once signed in: the game again if it is known, else what the player asked.
  private func request(for state: State) -> ClientMessage {
    switch state.intent {
    case .watch(let code): return .watchGame(code: code)
    case .join(let code): return .joinGame(code: state.snapshot?.code ?? code)
    case .create(let options):
      if let code = state.snapshot?.code { return .joinGame(code: code) }
      return .createGame(options)
    }
  }

  /// Why a connection ended, as a sentence without its full stop: the link's reason, given
  /// a subject where it is only a clause (`closed by the peer`).
  private func cause(_ reason: String, state: State) -> String {
    let cause = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    guard cause.first?.isLowercase == true else { return cause }
    return "The connection to the server at \(state.server) ended (\(cause))"
  }

  private func dropped(reason: String, isPermanent: Bool, state: inout State) -> Effect<Action> {
    switch state.link {
    case .closed:
      return .none
    case .waiting:
      return .none
    case .live:
      state.hasBeenLive = true
      state.unconfirmedMove = state.pendingMove
      state.pendingMove = nil
      guard !state.isOver else {
        state.link = .closed
        return .none
      }
      // The connection went with the cancellation unanswered: leave as without one.
      if state.leaving != nil { return leftUnanswered(&state) }
    case .connecting, .resuming, .joining:
      break
    }
    guard !isPermanent else { return stop(reason, state: &state) }
    let attempt = state.link == .live ? 1 : state.link.attempt + 1
    let attempts = state.hasBeenLive ? backoff.attempts : backoff.firstAttempts
    guard attempt <= attempts else {
      // The reason is a sentence of its own; the giving up extends it rather than nesting it.
      let game = state.snapshot == nil ? "no game was shown" : "the game is left as it is"
      return stop(
        "\(cause(reason, state: state)); gave up after \(attempts) attempts, and \(game).",
        state: &state)
    }
    // Said when a live game drops, and why the next attempt failed too (or why the first
    // connection failed before any game was shown), so that the retries are never silent.
    if attempt == 1 {
      state.notices.append(.reconnecting)
    } else if attempt == 2 {
      state.notices.append(.retrying(cause(reason, state: state) + "."))
    }
    state.link = .waiting(attempt: attempt)
    let delay = backoff.delay(beforeAttempt: attempt)
    return .run { [clock] send in
      do {
        try await clock.sleep(.milliseconds(delay))
        await send(.reconnectDue)
      } catch {}
    }
    .cancellable(id: CancelID.reconnect, cancelInFlight: true)
  }

  private func stop(_ sentence: String, state: inout State) -> Effect<Action> {
    state.link = .closed
    state.leaving = nil
    // A question open when the client stops is answered by nothing: the stop is said instead.
    state.isConfirmingResign = false
    state.notices.append(.stopped(sentence))
    // Stopped before a game was shown (the code refused, the server unreachable): there is
    // nothing to look at, so the screen closes and the one before says why.
    guard state.snapshot == nil else { return closing() }
    return .merge(closing(), .send(.delegate(.didQuit)))
  }

  // MARK: - Messages

  private func receive(_ message: ServerMessage, state: inout State) -> Effect<Action> {
    switch message {
    case .welcome, .codeRequired, .accepted, .twoFactorSecret, .recoveryCodes, .recoveryCodesLeft,
      .games, .stats, .history,
      .pong:
      return .none

    case .signedIn(_, let userName, let token):
      // Only the answer to this client's own sign-in, for the account it asked for.
      guard case .resuming = state.link else { return .none }
      if let asked = state.userName, asked.lowercased() != userName.lowercased() {
        return stop(
          "The server at \(state.server) signed this client in as another account.",
          state: &state)
      }
      state.userName = userName
      state.token = token
      state.link = .joining(attempt: state.link.attempt)
      return sending(request(for: state))

    case .game(let snapshot):
      return shown(snapshot, state: &state)

    case .cancelled(let code):
      guard state.snapshot?.code == code, state.link != .closed else { return .none }
      if let violation = state.violationOfCancellation() { return stop(violation, state: &state) }
      return cancelled(code, state: &state)

    case .playerJoined(let code, let mark, let player):
      guard var snapshot = state.snapshot, snapshot.code == code else { return .none }
      if let violation = state.violation(joined: player, as: mark) {
        return stop(violation, state: &state)
      }
      if mark == .x { snapshot.x = player } else { snapshot.o = player }
      if snapshot.status == .waiting { snapshot.status = .playing }
      state.snapshot = snapshot
      state.notices.append(.joined(name: player.name, mark: mark))
      state.notices.append(.shown)
      return .none

    case .moved(let code, let ply, let cell):
      guard var snapshot = state.snapshot, snapshot.code == code else { return .none }
      if let violation = state.violation(moved: cell, ply: ply) {
        return stop(violation, state: &state)
      }
      // The same move told twice changes nothing and is said once.
      guard ply == snapshot.moves.count else { return .none }
      snapshot.moves.append(cell)
      if snapshot.status == .waiting { snapshot.status = .playing }
      state.snapshot = snapshot
      if state.pendingMove != nil, snapshot.role == state.mover(ofPly: ply) {
        state.pendingMove = nil
      }
      state.notices.append(.moved(ply: ply))
      return .none

    case .playerAway(let code, let mark, let seconds):
      // This player is here, and nobody is away from an empty seat.
      guard let snapshot = state.snapshot, snapshot.code == code,
        snapshot.player(mark) != nil, state.isSpectator || mark != snapshot.role
      else { return .none }
      if let violation = state.violation(awaySeconds: seconds) {
        return stop(violation, state: &state)
      }
      setAway(mark, seconds: seconds, state: &state)
      state.notices.append(.away(mark, seconds: Int(seconds)))
      return .none

    case .playerBack(let code, let mark):
      guard let snapshot = state.snapshot, snapshot.code == code,
        snapshot.player(mark)?.awaySeconds != nil
      else { return .none }
      setAway(mark, seconds: nil, state: &state)
      state.notices.append(.back(mark))
      return .none

    case .ended(let code, let end):
      guard var snapshot = state.snapshot, snapshot.code == code else { return .none }
      if let violation = state.violation(ending: end) { return stop(violation, state: &state) }
      snapshot.status = .finished(end)
      snapshot.x?.awaySeconds = nil
      snapshot.o?.awaySeconds = nil
      state.snapshot = snapshot
      state.sawTheEnd = true
      state.notices.append(.ended(end))
      state.link = .closed
      return .merge(
        .cancel(id: CancelID.reconnect), .cancel(id: CancelID.connection),
        .run { [link] _ in await link.close() })

    case .refused(let refusal):
      return refused(refusal, state: &state)
    }
  }

  /// The game is gone from the server: said once, and the game closes (the screen too, when
  /// the player was quitting it).
  private func cancelled(_ code: String, state: inout State) -> Effect<Action> {
    let leaving = state.leaving
    state.notices.append(.cancelled(code: code))
    return leave(&state, then: leaving == .quit ? .didQuit : nil)
  }

  private func shown(_ snapshot: GameSnapshot, state: inout State) -> Effect<Action> {
    if let violation = state.violation(in: snapshot) { return stop(violation, state: &state) }
    let previous = state.snapshot
    let wasLive = state.hasBeenLive
    // Sent again on a connection already live, the game answers nothing this client asked:
    // it changes what it may, and nothing reconnected.
    let isRepeated = state.link == .live
    state.snapshot = snapshot
    state.link = .live
    if !isRepeated { state.pendingMove = nil }
    if wasLive, let previous {
      if !isRepeated { state.notices.append(.reconnected) }
      if previous.o == nil, let o = snapshot.o {
        state.notices.append(.joined(name: o.name, mark: .o))
      }
      // Moves made while this client was away are told as moves, from the last one seen.
      let seen = previous.code == snapshot.code ? previous.moves.count : 0
      for ply in seen..<max(seen, snapshot.moves.count) { state.notices.append(.moved(ply: ply)) }
      // The move on its way when the connection dropped either is among them, or is said lost.
      var isLost = false
      if !isRepeated, let move = state.unconfirmedMove {
        state.unconfirmedMove = nil
        let arrived = snapshot.moves.indices.contains(seen) && snapshot.moves[seen] == move
        isLost = !arrived && snapshot.status == .playing
        if isLost { state.notices.append(.moveLost(move)) }
      }
      // Back with nothing new: the board and whose turn it is, said again, as a move would.
      if !isRepeated, !isLost, seen == snapshot.moves.count, snapshot.status == .playing {
        state.notices.append(.board)
      }
    } else {
      if !state.isSpectator, snapshot.role == .x, snapshot.status == .waiting {
        // Created, or one's own game joined again by its code: the code is given either way.
        state.notices.append(.created(code: snapshot.code))
      }
      if snapshot.role == .o, let o = snapshot.o, snapshot.moves.isEmpty {
        state.notices.append(.joined(name: o.name, mark: .o))
      }
      state.notices.append(.shown)
    }
    // A player who comes (back) while another is away is told so as the others were when the
    // connection dropped: after a restart of the server, everyone's grace starts anew.
    for mark in [Mark.x, .o] where mark != snapshot.role {
      // A game sent again tells only an absence not told yet.
      if isRepeated, previous?.player(mark)?.awaySeconds != nil { continue }
      if let seconds = snapshot.player(mark)?.awaySeconds {
        state.notices.append(.away(mark, seconds: Int(seconds)))
      }
    }
    state.hasBeenLive = true
    if case .finished(let end) = snapshot.status, !(previous?.isFinished ?? false) {
      state.notices.append(.ended(end))
      state.link = .closed
      return .merge(
        .cancel(id: CancelID.reconnect), .cancel(id: CancelID.connection),
        .run { [link] _ in await link.close() })
    }
    if state.isQuitPending {
      state.isQuitPending = false
      return reduce(into: &state, view: .quitTapped)
    }
    if state.isInputEnded {
      // Input ended before the game was created: it is cancelled as soon as it is.
      if state.isCancellable { return cancel(&state, leaving: .inputEnded) }
      state.notices.append(.inputEnded)
      return leave(&state, then: nil)
    }
    return .none
  }

  private func setAway(_ mark: Mark, seconds: UInt32?, state: inout State) {
    if mark == .x {
      state.snapshot?.x?.awaySeconds = seconds
    } else {
      state.snapshot?.o?.awaySeconds = seconds
    }
  }

  /// The type bytes of the requests for a game, answered by the game or a refusal.
  static let gameRequests: Set<UInt8> = [
    ClientMessage.createGame(GameOptions(rows: 3, columns: 3, k: 3)).type,
    ClientMessage.joinGame(code: "").type, ClientMessage.watchGame(code: "").type,
  ]

  /// The type byte of a cancellation, which its refusals name.
  public static let cancelRequest = ClientMessage.cancelGame(code: "").type
  /// The type byte of a resignation.
  public static let resignRequest = ClientMessage.resign(code: "").type
  /// The type byte of signing in again with the session's token.
  static let resumeRequest = ClientMessage.resumeSession(token: "").type

  private func refused(_ refusal: Refusal, state: inout State) -> Effect<Action> {
    // A refusal of a request this client has not sent, or has had answered, answers nothing
    // it asked.
    guard state.awaitsAnswer(to: refusal.request, gameRequest: request(for: state).type) else {
      return .none
    }
    // One that no such request can get is the server's fault.
    guard Refusal.mayAnswer(refusal.request, with: refusal.code) else {
      return stop(
        "The server at \(state.server) refused what this client asked with a reason that "
          + "cannot answer it (\(refusal.code)).", state: &state)
    }
    // A player the server signed in, refused as not signed in, has had its session ended
    // since, as a password or two-factor changed elsewhere ends every session of the account.
    if refusal.code == .notSignedIn, state.token != nil {
      state.hasSessionEnded = true
      return stop(OnlineGame.signedOutSentence, state: &state)
    }
    if refusal.request == Self.cancelRequest {
      return cancellationRefused(refusal, state: &state)
    }
    switch refusal.code {
    case .shuttingDown:
      // The server is restarting: said, and the drop that follows brings the reconnection.
      state.notices.append(.refused(refusal, cell: nil))
      return .none
    case .sessionExpired, .seatTakenOver:
      state.hasLostTheSeat = refusal.code == .seatTakenOver
      return stop(OnlineGame.sentence(for: refusal, code: state.code), state: &state)
    default:
      break
    }
    let isOwnGame = !state.isSpectator && state.snapshot?.role != nil
    if Self.gameRequests.contains(refusal.request), isOwnGame, let code = state.code,
      [.gameFull, .tooManyGames].contains(refusal.code)
    {
      // The player's own seat is theirs to come back to, whatever else they play.
      return stop(
        "The server at \(state.server) would not give this player back its seat in game "
          + "\(code) (\(refusal.code)).", state: &state)
    }
    if refusal.code == .noSuchGame, isOwnGame, let code = state.code {
      // The game is gone from the server: playing on would be playing nothing.
      return stop(
        "Game \(code) is no longer on the server at \(state.server); it may have ended while "
          + "this client was away.", state: &state)
    }
    if refusal.request == Self.moveRequest, let cell = state.pendingMove,
      let violation = state.violation(refusedMove: refusal, at: cell)
    {
      return stop(violation, state: &state)
    }
    if refusal.request == Self.resignRequest {
      if let violation = state.violation(refusedResignation: refusal) {
        return stop(violation, state: &state)
      }
      // The game goes on: the player may give it up again.
      state.hasResigned = false
      state.notices.append(.refused(refusal, cell: nil))
      return .none
    }
    switch refusal.code {
    case .noSuchGame, .gameFull, .gameOver, .notSignedIn, .invalidSettings, .unsupportedVersion,
      .helloExpected, .malformedMessage, .frameTooLarge, .tooManyGames:
      guard refusal.request != Self.moveRequest else { break }
      return stop(OnlineGame.sentence(for: refusal, code: state.code), state: &state)
    default:
      break
    }
    let cell = refusal.request == Self.moveRequest ? state.pendingMove : nil
    if refusal.request == Self.moveRequest { state.pendingMove = nil }
    state.notices.append(.refused(refusal, cell: cell))
    return .none
  }
}

extension OnlineGame {
  /// The server would not cancel the game: someone took the other seat meanwhile (the game
  /// goes on, and the player may leave it again), or it could not store the cancellation, or
  /// the game is no longer the player's to cancel (the client leaves as without one, saying so).
  fileprivate func cancellationRefused(_ refusal: Refusal, state: inout State) -> Effect<Action> {
    guard let leaving = state.leaving else { return .none }
    if let violation = state.violation(refusedCancellation: refusal) {
      return stop(violation, state: &state)
    }
    state.notices.append(.refused(refusal, cell: nil))
    if refusal.code == .gameFull, leaving == .quit {
      // The opponent's arrival is told by its own message; the player sees the game go on.
      state.leaving = nil
      return .cancel(id: CancelID.cancellation)
    }
    return leftWithoutCancelling(&state)
  }
}

extension OnlineGame.Link {
  /// The attempt number of a connection being made (1 once live).
  var attempt: Int {
    switch self {
    case .connecting(let attempt), .resuming(let attempt), .joining(let attempt),
      .waiting(let attempt):
      attempt
    case .live, .closed: 1
    }
  }
}

extension OnlineGame.State {
  /// Whether this client waits for the answer to a request of type `type` (0 for none, which
  /// any refusal of the connection names); `gameRequest` is the type of its request for the
  /// game.
  func awaitsAnswer(to type: UInt8, gameRequest: UInt8) -> Bool {
    switch type {
    case 0: return true
    case OnlineGame.moveRequest: return pendingMove != nil
    case OnlineGame.cancelRequest: return leaving != nil
    case OnlineGame.resignRequest: return hasResigned && !isOver
    case OnlineGame.resumeRequest:
      if case .resuming = link { return true }
      return false
    case _ where OnlineGame.gameRequests.contains(type):
      if case .joining = link { return type == gameRequest }
      return false
    default: return false
    }
  }

  /// Who makes move number `ply`.
  func mover(ofPly ply: Int) -> Mark? {
    guard let snapshot else { return nil }
    return ply.isMultiple(of: 2) ? snapshot.firstMover : snapshot.firstMover.opponent
  }
}

extension GameSnapshot {
  var isFinished: Bool {
    if case .finished = status { return true }
    return false
  }
}
