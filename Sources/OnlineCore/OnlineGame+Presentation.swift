import GameCore
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
      return lines + boardAndTitle(afterPly: snapshot.moves.count - 1)
    case .joined(let name, let mark):
      return [.sentence("\(shown(name)) joined; \(shown(name)) plays \(mark.symbol).")]
    case .moved(let ply):
      guard let feature = feature(afterPly: ply), feature.narration.indices.contains(ply) else {
        return []
      }
      return [.sentence(feature.narration[ply])] + boardAndTitle(afterPly: ply)
    case .refused(let refusal, let cell):
      return [.sentence(sentence(for: refusal, cell: cell))]
    case .away(let mark, let seconds):
      return [
        .sentence(
          "\(name(of: mark)) lost the connection; waiting \(seconds) second\(seconds == 1 ? "" : "s")."
        )
      ]
    case .back(let mark):
      return [.sentence("\(name(of: mark)) is back.")]
    case .ended(let end):
      return endLines(end)
    case .reconnecting:
      return [.sentence("Lost the connection to the server; reconnecting…")]
    case .reconnected:
      return [.sentence("Reconnected to the server.")]
    case .notConnected:
      return [.sentence("Not connected to the server just now; the move was not sent.")]
    case .stopped(let sentence):
      return [.sentence(sentence)]
    }
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

  private func boardAndTitle(afterPly ply: Int) -> [PlainLine] {
    guard let feature = feature(afterPly: ply) else { return [] }
    var lines: [PlainLine] = [.board(feature.board)]
    if feature.board.outcome == .inProgress { lines.append(.sentence(feature.title)) }
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
        lines += [.sentence(result), .sentence(feature.title)]
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
    if let x = snapshot.x, let o = snapshot.o {
      lines.append(
        .sentence(
          "Ratings: \(shown(x.name)) \(end.xRating) (\(signed(end.xRating - x.rating))), "
            + "\(shown(o.name)) \(end.oRating) (\(signed(end.oRating - o.rating)))."))
    }
    return lines
  }

  /// The sentence for a refusal of a request of this game.
  public func sentence(for refusal: Refusal, cell: Cell?) -> String {
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

  private func shown(_ name: String) -> String { name.escapingControlCharacters }

  private func signed(_ change: Int) -> String { change >= 0 ? "+\(change)" : "−\(-change)" }
}

extension OnlineGame {
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
        "\(game.capitalizedFirst) already has two players; watch it with --watch \(code ?? "CODE")."
    case .gameOver:
      return "\(game.capitalizedFirst) is over."
    case .notSignedIn:
      return "Playing needs an account: pass --user NAME."
    case .invalidSettings:
      return "The server does not offer a game with these settings."
    case .unsupportedVersion:
      let low = refusal.detail >> 16
      let high = refusal.detail & 0xffff
      return
        "The server speaks protocol versions \(low) to \(high), and this tictactoe speaks "
        + "\(ProtocolVersion.supported.lowerBound) to \(ProtocolVersion.supported.upperBound); "
        + "update the older one."
    case .rateLimited:
      return "Too many sign-in attempts from this address; try again in \(refusal.detail) seconds."
    case .shuttingDown:
      return "The server is shutting down."
    case .serverError:
      return "The server could not store that; nothing changed. Try again."
    case .sessionExpired:
      return "The session ended; sign in again to continue."
    case .seatTakenOver:
      return "This seat was taken over by another connection of the same account."
    default:
      return "The server refused the request (\(refusal.code))."
    }
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
