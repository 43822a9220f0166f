import AuthenticationClient
public import GameCore
public import GameProtocol
public import GameRules

/// One line of plain mode's online narration: a sentence, or the board as it stood.
public enum PlainLine: Equatable, Sendable {
  /// A sentence.
  case sentence(String)
  /// The board, drawn by the front end.
  case board(Board)
}

extension OnlineGame.State {
  /// The lines plain mode prints for a notice, in order.
  ///
  /// Moves, results and titles are the sentences of local play (they come from the Game
  /// screen's presentation); the connection adds its own.
  public func lines(for notice: OnlineGame.Notice) -> [PlainLine] {
    switch notice {
    case .created(let code):
      return [.sentence("Invite code: \(code)"), .sentence("Waiting for an opponent…")]
    case .shown:
      guard let snapshot else { return [] }
      if snapshot.status == .waiting {
        return snapshot.role == .x ? [] : [.sentence("Waiting for an opponent…")]
      }
      var lines: [PlainLine] = []
      if snapshot.role == nil, let x = snapshot.x, let o = snapshot.o {
        lines.append(.sentence("Watching \(shown(x.name)) (X) against \(shown(o.name)) (O)."))
      }
      // A game shown already over gets its result next, not whose turn it was.
      return lines
        + boardAndTitle(afterPly: snapshot.moves.count - 1, withTitle: !snapshot.isFinished)
    case .joined(let name, let mark):
      return [.sentence("\(shown(name)) joined; \(shown(name)) plays \(mark.symbol).")]
    case .moved(let ply):
      guard let feature = feature(afterPly: ply), feature.narration.indices.contains(ply) else {
        return []
      }
      return [.sentence(feature.narration[ply])] + boardAndTitle(afterPly: ply)
    case .refused(let refusal, let cell):
      return [.sentence(sentence(for: refusal, cell: cell))]
    case .away(let mark, let seconds) where seconds <= 0:
      // The time to come back has run out; the server ends the game next.
      return [.sentence("\(name(of: mark)) lost the connection and did not come back in time.")]
    case .away(let mark, let seconds):
      return [
        .sentence(
          "\(name(of: mark)) lost the connection; waiting \(WaitText.phrase(seconds: seconds))."
        )
      ]
    case .back(let mark):
      return [.sentence("\(name(of: mark)) is back.")]
    case .ended(let end):
      return endLines(end)
    case .reconnecting:
      return [.sentence("Lost the connection to the server; reconnecting…")]
    case .retrying(let reason):
      return [.sentence("\(reason.dropLast()); trying again…")]
    case .reconnected:
      return [.sentence("Reconnected to the server.")]
    case .moveLost(let cell):
      guard let snapshot else { return [] }
      return [
        .sentence(
          "The move at \(cell.name) did not reach the server before the connection dropped; "
            + "play it again.")
      ] + boardAndTitle(afterPly: snapshot.moves.count - 1)
    case .notConnected(let resigning):
      let what =
        resigning ? "the resignation was not sent, and the game goes on" : "the move was not sent"
      return [.sentence("Not connected to the server just now; \(what).")]
    case .stillSending:
      return [.sentence("That did nothing: the last move is still on its way to the server.")]
    case .stopped(let sentence):
      return [.sentence(sentence)]
    case .cancelled(let code):
      return [.sentence(OnlineGame.cancelledSentence(code: code))]
    case .notCancelled(let code):
      return [.sentence(OnlineGame.notCancelledSentence(code: code))]
    case .askedToResign:
      return [.sentence("\(resignQuestion) Type yes or no.")]
    case .answerYesOrNo:
      return [
        .sentence(isConfirmingResign ? "\(resignQuestion) Type yes or no." : "Type yes or no.")
      ]
    case .board:
      // The creator is told of the wait too, and a game not shown yet is being asked for.
      guard let snapshot else { return [.sentence(title)] }
      if snapshot.status == .waiting { return [.sentence("Waiting for an opponent…")] }
      return lines(for: .shown)
    case .keptPlaying, .help, .notOnline, .digitsNeedTheClassicBoard, .unknownCommand,
      .inputEnded:
      return statusSentence(for: notice).map { [.sentence($0)] } ?? []
    }
  }

  // MARK: - Full screen

  /// How to come back to the game, as a sentence.
  private var continuing: String {
    let user = userName.map(shown) ?? "NAME"
    return "run tictactoe play --server \(server) --user \(user) --join \(code ?? "CODE") to "
      + "continue."
  }

  /// What is said when input ends while the server cannot be reached.
  var unreachableAtTheEnd: String {
    "Input ended while the server at \(server) could not be reached; if it comes back within "
      + "its reconnect grace, the seat is held: \(continuing)"
  }

  /// The title line: whose turn it is, the wait, or the result.
  ///
  /// For example `ann, place your X` (`… once reconnected` while the connection comes back),
  /// `Waiting for bob to place O…`, `Winner! Congrats ann!`.
  public var title: String {
    guard let snapshot, let feature = feature(afterPly: snapshot.moves.count - 1) else {
      // Closed before a game was shown: the server refused the request, or could not be
      // reached; the sentence under the title says which.
      return link == .closed ? "No game" : "Connecting to \(server)…"
    }
    if isCancelled { return "Game cancelled" }
    if leaving != nil { return "Cancelling game \(snapshot.code)…" }
    if link == .closed, !isOver {
      // This client stopped (the seat taken over, the server gave up on): whose turn it was
      // is no longer its to say; the line under the board says why.
      return "No longer following game \(snapshot.code)"
    }
    switch snapshot.status {
    case .waiting:
      return "Waiting for an opponent…"
    case .finished(let end):
      guard end.reason != .completed, let winner = end.winner else { return feature.title }
      return "Winner! Congrats \(name(of: winner))!"
    case .playing:
      let toMove = feature.board.toMove
      guard let role = snapshot.role else { return feature.title }
      guard role == toMove else {
        return "Waiting for \(name(of: toMove)) to place \(toMove.symbol)…"
      }
      // The player's turn while the connection comes back: no move can be sent yet.
      guard link == .live else {
        return "\(name(of: toMove)), place your \(toMove.symbol) once reconnected"
      }
      return feature.title
    }
  }

  /// Who plays whom, with their ratings: `ann (X, 1200) against bob (O, 1200)`.
  public var playersLine: String? {
    guard let snapshot, let x = snapshot.x else { return nil }
    let first = "\(shown(x.name)) (X, \(x.rating))"
    guard let o = snapshot.o else { return "\(first); O is free" }
    return "\(first) against \(shown(o.name)) (O, \(o.rating))"
  }

  /// The game, the server and the state of the connections: the opponent's (or, for a
  /// spectator, both players'), this client's own while it reconnects, and the new ratings once
  /// the game is over.
  ///
  /// For example `Game K7M2QX on example.org:7457 · bob is connected.`
  public var connectionLine: String {
    let place = code.map { "Game \($0) on \(server)" } ?? String(describing: server)
    return "\(place) · \(connectionState)"
  }

  private var connectionState: String {
    switch link {
    case .waiting, .connecting, .resuming, .joining:
      return hasBeenLive ? "reconnecting to the server…" : "connecting…"
    case .closed:
      guard let snapshot, case .finished(let end) = snapshot.status else {
        return "not connected."
      }
      return ratingsSentence(end) ?? "the game is over."
    case .live:
      guard let snapshot else { return "connected." }
      if snapshot.status == .waiting {
        return "waiting for an opponent."
      }
      if case .finished(let end) = snapshot.status { return ratingsSentence(end) ?? "over." }
      let marks = snapshot.role.map { [$0.opponent] } ?? [.x, .o]
      return marks.map(presence(of:)).joined(separator: "; ") + "."
    }
  }

  /// Whether the game was cancelled before anyone joined: it is gone from the server.
  public var isCancelled: Bool {
    notices.contains { if case .cancelled = $0 { true } else { false } }
  }

  /// What the player is told once the game's screen has closed, if anything: that leaving
  /// cancelled their game nobody had joined, or that the server did not (or did not say so),
  /// or why no game could be shown (the code refused, the server unreachable).
  public var closingSentence: String? {
    switch notices.last {
    case .cancelled(let code)?: return OnlineGame.cancelledSentence(code: code)
    case .notCancelled(let code)?: return OnlineGame.notCancelledSentence(code: code)
    case .refused(let refusal, _)? where refusal.request == OnlineGame.cancelRequest:
      return sentence(for: refusal, cell: nil)
    case .stopped(let sentence)? where snapshot == nil:
      return sentence
    default: return nil
    }
  }

  /// Whether `mark`'s player is connected, in a few words.
  private func presence(of mark: Mark) -> String {
    guard let player = snapshot?.player(mark) else { return "\(mark.symbol) is free" }
    return player.awaySeconds == nil
      ? "\(shown(player.name)) is connected"
      : "\(shown(player.name)) lost the connection"
  }

  /// Whether `mark`'s player has lost the connection, so that a front end can mark it.
  public func isAway(_ mark: Mark) -> Bool { snapshot?.player(mark)?.awaySeconds != nil }

  /// The question asked before the player gives the game up.
  public var resignQuestion: String {
    guard let role = snapshot?.role else { return "Resign this game?" }
    return "Resign this game? \(name(of: role.opponent)) wins."
  }

  /// The line under the board: the question, or the latest event in one sentence.
  public var statusLine: String? {
    if isConfirmingResign { return resignQuestion }
    return notices.reversed().lazy.compactMap { statusSentence(for: $0) }.first
  }

  /// Whether ``statusLine`` reports a problem.
  public var statusIsProblem: Bool {
    guard !isConfirmingResign,
      let notice = notices.last(where: { statusSentence(for: $0) != nil })
    else { return false }
    return isProblem(notice)
  }

  /// Whether `notice` reports a problem (a refusal, a lost connection), so that a front end can
  /// show it as one.
  public func isProblem(_ notice: OnlineGame.Notice) -> Bool {
    switch notice {
    case .refused, .notConnected, .stillSending, .stopped, .answerYesOrNo,
      .digitsNeedTheClassicBoard, .unknownCommand, .notOnline, .reconnecting, .retrying,
      .notCancelled, .moveLost:
      return true
    case .created, .shown, .joined, .moved, .away, .back, .ended, .reconnected, .askedToResign,
      .keptPlaying, .help, .board, .inputEnded, .cancelled:
      return false
    }
  }

  /// A notice in one sentence for the status line, or `nil` for one that only shows the board.
  public func statusSentence(for notice: OnlineGame.Notice) -> String? {
    switch notice {
    case .created(let code): return "Invite code: \(code). Give it to your opponent."
    case .shown:
      guard let snapshot, snapshot.role == nil, let x = snapshot.x, let o = snapshot.o else {
        return nil
      }
      return "Watching \(shown(x.name)) (X) against \(shown(o.name)) (O)."
    case .moved(let ply):
      guard let feature = feature(afterPly: ply), feature.narration.indices.contains(ply) else {
        return nil
      }
      return feature.narration[ply]
    case .ended(let end):
      return endLines(end).first.flatMap { line in
        if case .sentence(let text) = line { text } else { nil }
      }
    case .askedToResign: return resignQuestion
    case .answerYesOrNo: return isConfirmingResign ? resignQuestion : "Type yes or no."
    case .keptPlaying: return "The game goes on."
    case .help: return Self.typingHelp
    case .board: return nil
    case .notOnline: return "Undo, hints, analysis and new games are not part of an online game."
    case .digitsNeedTheClassicBoard:
      return "Digits pick cells only on a 3×3 board; name the cell, such as b2."
    case .unknownCommand(let text):
      return "Unknown command \"\(text.quotable)\". \(Self.typingHelp)"
    case .inputEnded:
      return "Input ended; the seat is held for a while: \(continuing)"
    case .joined, .refused, .away, .back, .reconnecting, .retrying, .reconnected, .notConnected,
      .stillSending, .stopped, .cancelled, .notCancelled, .moveLost:
      return lines(for: notice).first.flatMap { line in
        if case .sentence(let text) = line { text } else { nil }
      }
    }
  }

  /// The commands of plain mode online, in one sentence.
  public static let typingHelp =
    "Type a cell such as b2 (or 1 to 9 on a 3×3 board) to play; board shows the board, resign "
    + "(or quit) gives the game up."

  /// Whether the board takes the player's move now: their turn, connected, nothing pending.
  public var isBoardEnabled: Bool {
    guard let snapshot, let role = snapshot.role, snapshot.status == .playing, link == .live,
      pendingMove == nil, !isConfirmingResign, let board
    else { return false }
    return board.toMove == role
  }

  /// Every cell's presentation, row by row: marks, accessible names, the winning line and the
  /// last move; empty cells are enabled on the player's turn.
  public var cells: [[CellPresentation]] {
    guard let snapshot, let feature = feature(afterPly: snapshot.moves.count - 1) else {
      return []
    }
    let enabled = isBoardEnabled
    return feature.rows.map { row in
      row.map { cell in
        var cell = cell
        cell.isEnabled = enabled && cell.label.isEmpty
        return cell
      }
    }
  }

  /// The last move played, to mark it.
  public var lastMove: Cell? { snapshot?.moves.last }

  /// The controls under the board, each with whether it can be pressed now.
  public var controls: [(control: OnlineControl, isEnabled: Bool)] {
    if isConfirmingResign { return [(.confirmResign, true), (.keepPlaying, true)] }
    return [isResignable ? (.resign, link == .live) : (.leave, leaving == nil)]
  }

  // MARK: - Parts

  /// The name of `mark`'s player, escaped for the terminal, or `X`/`O` while the seat is empty.
  public func name(of mark: Mark) -> String {
    snapshot?.player(mark).map { shown($0.name) } ?? mark.symbol
  }

  /// The Game screen's state for the position after move number `ply`, for its sentences.
  private func feature(afterPly ply: Int) -> GameFeature.State? {
    guard let snapshot,
      let start = try? Board(
        rows: snapshot.rows, columns: snapshot.columns, k: snapshot.k,
        firstMover: snapshot.firstMover),
      let game = try? Game(start: start, moves: Array(snapshot.moves.prefix(max(0, ply + 1))))
    else { return nil }
    let settings = GameSettings(xName: name(of: .x), oName: name(of: .o))
    return GameFeature.State(settings: settings, game: game, startedAt: 0)
  }

  private func boardAndTitle(afterPly ply: Int, withTitle: Bool = true) -> [PlainLine] {
    guard let feature = feature(afterPly: ply) else { return [] }
    var lines: [PlainLine] = [.board(feature.board)]
    if withTitle, feature.board.outcome == .inProgress { lines.append(.sentence(feature.title)) }
    return lines
  }

  private func endLines(_ end: GameEnd) -> [PlainLine] {
    guard let snapshot else { return [] }
    var lines: [PlainLine] = []
    let role = snapshot.role
    switch end.reason {
    case .completed:
      if let feature = feature(afterPly: snapshot.moves.count - 1),
        let result = feature.resultSentence
      {
        lines.append(.sentence(result))
      } else {
        lines.append(.sentence("The game is over."))
      }
    case .forfeit, .resigned:
      guard let winner = end.winner else { break }
      let loser = name(of: winner.opponent)
      let how = end.reason == .forfeit ? "left" : "resigned"
      if role == winner {
        lines.append(.sentence("\(loser) \(how); you win."))
      } else if role == winner.opponent {
        lines.append(
          .sentence(
            end.reason == .forfeit
              ? "You were away too long; \(name(of: winner)) wins."
              : "You resigned; \(name(of: winner)) wins."))
      } else {
        lines.append(.sentence("\(loser) \(how); \(name(of: winner)) wins."))
      }
    }
    if let ratings = ratingsSentence(end) { lines.append(.sentence(ratings)) }
    return lines
  }

  private func ratingsSentence(_ end: GameEnd) -> String? {
    guard let snapshot, let x = snapshot.x, let o = snapshot.o else { return nil }
    guard sawTheEnd else {
      // Shown already over: the ratings before the game are not known here.
      return "Ratings: \(shown(x.name)) \(end.xRating), \(shown(o.name)) \(end.oRating)."
    }
    return "Ratings: \(shown(x.name)) \(end.xRating) (\(signed(end.xRating - x.rating))), "
      + "\(shown(o.name)) \(end.oRating) (\(signed(end.oRating - o.rating)))."
  }

  /// The sentence for a refusal of a request of this game.
  public func sentence(for refusal: Refusal, cell: Cell?) -> String {
    if refusal.request == OnlineGame.cancelRequest { return cancellationRefusalSentence(refusal) }
    switch refusal.code {
    case .notYourTurn:
      guard let snapshot, let feature = feature(afterPly: snapshot.moves.count - 1) else {
        return "It is not your turn."
      }
      return "It is \(name(of: feature.board.toMove))'s turn."
    case .cellTaken:
      return cell.map { MoveError.occupied($0).description } ?? "That cell is taken."
    case .cellOutOfBounds:
      return cell.map { MoveError.outOfBounds($0).description } ?? "That cell is not on the board."
    case .gameOver:
      return MoveError.gameOver.description
    case .staleMove:
      return "That move came too late: the board has changed since."
    case .busy:
      return "The previous move is still being stored; wait for it."
    case .gameNotStarted:
      return "The game has not started: it waits for an opponent."
    case .notAPlayer:
      return "Spectators cannot move."
    default:
      return OnlineGame.sentence(for: refusal, code: code)
    }
  }

  /// Why leaving did not cancel the player's game, and what becomes of it.
  private func cancellationRefusalSentence(_ refusal: Refusal) -> String {
    let game = code.map { "game \($0)" } ?? "the game"
    switch refusal.code {
    case .gameFull:
      let joiner = snapshot?.o.map { shown($0.name) } ?? "someone"
      return "\(game.capitalizedFirst) could not be cancelled: \(joiner) joined it."
    case .serverError:
      return "The server could not cancel \(game); it drops the game once you have been away "
        + "for a while."
    default:
      return "The server did not cancel \(game) (\(refusal.code)); it drops the game once you "
        + "have been away for a while."
    }
  }

  private func shown(_ name: String) -> String { name.escapingControlCharacters }

  private func signed(_ change: Int) -> String { change >= 0 ? "+\(change)" : "−\(-change)" }
}

extension OnlineGame {
  /// The sentence for a game cancelled before anyone joined.
  ///
  /// The creator who left it and anyone watching it are told the same: `Game K7M2QX is
  /// cancelled; no one had joined.`
  public static func cancelledSentence(code: String) -> String {
    "Game \(code) is cancelled; no one had joined."
  }

  /// The sentence for a player who left their game nobody joined without the server's word
  /// that it is cancelled (no answer in time, or the connection dropped first).
  ///
  /// `The server did not confirm that game K7M2QX is cancelled; if it is not, the server drops
  /// it once you have been away for the reconnect grace.`
  public static func notCancelledSentence(code: String) -> String {
    "The server did not confirm that game \(code) is cancelled; if it is not, the server drops "
      + "it once you have been away for the reconnect grace."
  }

  /// What a player says when the server has ended its session since signing it in.
  public static let signedOutSentence =
    "The server ended this player's session, as it does when the account's password or "
    + "two-factor is changed elsewhere; sign in again to continue."

  /// The sentence for a refusal that is not about a move.
  ///
  /// - Parameters:
  ///   - refusal: The server's answer.
  ///   - code: The game's invite code, if known.
  /// - Returns: One sentence.
  public static func sentence(for refusal: Refusal, code: String?) -> String {
    let game = code.map { "game \($0)" } ?? "the game"
    switch refusal.code {
    case .noSuchGame:
      return "There is no game with the code \(code ?? "given"); check the invite code."
    case .gameFull:
      return
        "\(game.capitalizedFirst) already has two players; watch it instead."
    case .gameOver:
      return "\(game.capitalizedFirst) is over."
    case .notSignedIn:
      return "Playing needs an account: pass --user NAME."
    case .invalidSettings:
      return "The server does not offer a game with these settings."
    case .unsupportedVersion:
      return "The server \(ProtocolVersion.mismatch(refusal))."
    case .rateLimited:
      return "Too many sign-in attempts from this address; try again in "
        + "\(WaitText.phrase(seconds: Int(refusal.detail)))."
    case .shuttingDown:
      return "The server is shutting down."
    case .serverError where refusal.request == 0:
      // Sent of itself, answering nothing asked: nothing of the player's was refused.
      return "The server reported a fault of its own; nothing asked of it was refused."
    case .serverError:
      return "The server could not store that; nothing changed. Try again."
    case .sessionExpired:
      return "The session ended: it went unused too long, or the account's password or "
        + "two-factor was changed; sign in again to continue."
    case .seatTakenOver:
      return "This seat was taken over by another connection of the same account."
    case .tooManyGames:
      return
        "You already have \(refusal.detail) unfinished games on this server, the most one "
        + "account may have; finish or resign one of them, or cancel one still waiting for an "
        + "opponent (join it with its code, then leave it), then try again."
    default:
      return "The server refused the request (\(refusal.code))."
    }
  }
}

/// A control of an online game's screen.
public enum OnlineControl: Hashable, Sendable {
  /// Give the game up (asks first).
  case resign
  /// Back to New game: the game is over, not started, or watched.
  case leave
  /// Yes, give it up.
  case confirmResign
  /// No, keep playing.
  case keepPlaying

  /// The control's label.
  public var title: String {
    switch self {
    case .resign: "Resign"
    case .leave: "Leave"
    case .confirmResign: "Resign"
    case .keepPlaying: "Keep playing"
    }
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
