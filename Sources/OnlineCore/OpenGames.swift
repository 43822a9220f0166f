public import Architecture
import AuthenticationClient
public import GameProtocol
import GameRules
public import OnlineClient

/// The Open games screen: the games a server lists, to join one that waits for an opponent or
/// watch one being played.
public struct OpenGames: Reducer {
  /// The list and its loading.
  public struct State: Equatable, Sendable {
    /// The server asked.
    public var server: ServerAddress
    /// The player's account on the server, or `nil` for a guest, who can only watch.
    public var player: String?
    /// Whether the player has an account on the server, so that an open game can be joined.
    public var canJoin: Bool { player != nil }
    /// The games, open ones first, as the server last listed them.
    public var listings: [GameListing] = []
    /// Whether the list is being asked for.
    public var isLoading = false
    /// Why the list could not be had, in one sentence.
    public var errorMessage: String?

    /// Creates the screen for `server` for `player` (`nil`: a guest); it loads once started.
    public init(server: ServerAddress, player: String?) {
      self.server = server
      self.player = player
    }

    /// Whether the player has a seat in `listing`: choosing it takes the seat again.
    func isOwn(_ listing: GameListing) -> Bool {
      guard let player else { return false }
      return [listing.xName, listing.oName].contains { name in
        name.map { UserName.key($0) == UserName.key(player) } ?? false
      }
    }
  }

  /// What can happen on the Open games screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The screen appeared: ask for the list.
    case started
    /// The list arrived, or could not be had.
    case loaded(Result<[GameListing], OnlineFailure>)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// Ask for the list again.
      case refreshTapped
      /// Join or watch the game at this place in the list.
      case gameTapped(Int)
      /// Back to New game.
      case closeTapped
    }
  }

  /// What the parent must act on.
  public enum Delegate: Equatable, Sendable {
    /// Play or watch this game.
    case didChoose(OnlineGame.Intent)
    /// Close the screen.
    case didClose
  }

  private enum CancelID: Hashable, Sendable {
    case load
  }

  /// The game servers.
  public var online: OnlineClient

  /// Creates the feature with its client.
  public init(online: OnlineClient) {
    self.online = online
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started, .view(.refreshTapped):
      state.isLoading = true
      state.errorMessage = nil
      let server = state.server
      return .result(
        Action.loaded,
        failure: { OnlineFailure($0, or: "The server \(server) could not list its games.") }
      ) { [online] in try await online.listGames(server) }
      .cancellable(id: CancelID.load, cancelInFlight: true)

    case .loaded(.success(let listings)):
      state.isLoading = false
      state.listings = listings
      return .none

    case .loaded(.failure(let failure)):
      state.isLoading = false
      state.errorMessage = failure.message
      return .none

    case .view(.gameTapped(let index)):
      guard state.listings.indices.contains(index) else { return .none }
      let listing = state.listings[index]
      let intent: OnlineGame.Intent =
        listing.isOpen && state.canJoin || state.isOwn(listing)
        ? .join(code: listing.code) : .watch(code: listing.code)
      return .merge(.cancel(id: CancelID.load), .send(.delegate(.didChoose(intent))))

    case .view(.closeTapped):
      return .merge(.cancel(id: CancelID.load), .send(.delegate(.didClose)))

    case .delegate:
      return .none
    }
  }
}

extension OpenGames.State {
  /// The screen's title.
  public var title: String { "Open games on \(server)" }

  /// What the list says besides the games: loading, nothing listed, or who may join.
  public var note: String {
    if isLoading { return "Asking \(server)…" }
    if listings.isEmpty {
      return "No games on \(server) now; create one from New game."
    }
    return canJoin
      ? "Choose a game to join it, or to watch one being played."
      : "Choose a game to watch it; joining needs an account on \(server)."
  }

  /// One line for each game, as its button says it.
  ///
  /// For example `K7M2QX  ann (X) against O free · 3×3, 3 in a row · join`.
  public var lines: [String] { listings.map(line(for:)) }

  private func line(for listing: GameListing) -> String {
    let action =
      isOwn(listing) ? "your game: rejoin" : listing.isOpen && canJoin ? "join" : "watch"
    return "\(listing.code)  \(listing.summary) · \(action)"
  }
}

extension GameListing {
  /// Who plays, the board and the moves played, with names from the network escaped.
  ///
  /// For example `ann (X) against O free, 3×3, 3 in a row, 0 moves`.
  public var summary: String {
    let x = xName.map { "\($0.escapingControlCharacters) (X)" } ?? "X free"
    let o = oName.map { "\($0.escapingControlCharacters) (O)" } ?? "O free"
    return "\(x) against \(o), \(rows)×\(columns), \(k) in a row, \(moveCount) "
      + "move\(moveCount == 1 ? "" : "s")"
  }
}

extension [GameListing] {
  /// Why a server's list of games cannot be, in one sentence, or `nil` when it can: more games
  /// than a list holds, a code that is not an invite code or comes twice, a board that cannot
  /// be, more moves than cells, or seats and moves that contradict whether the game is open.
  public func violation(server: ServerAddress) -> String? {
    guard count <= ProtocolLimits.maximumListedGames else {
      return "The server at \(server) listed \(count) games, more than the "
        + "\(ProtocolLimits.maximumListedGames) a list holds."
    }
    var codes: Set<String> = []
    for listing in self {
      let code = listing.code.escapingControlCharacters
      guard InviteCode.normalized(listing.code) == listing.code else {
        return "The server at \(server) listed a game whose code \(code) is not an invite code."
      }
      guard codes.insert(listing.code).inserted else {
        return "The server at \(server) listed game \(code) twice."
      }
      guard (try? Board(rows: listing.rows, columns: listing.columns, k: listing.k)) != nil else {
        return "The server at \(server) listed game \(code) on a board that cannot be "
          + "(\(listing.rows)×\(listing.columns), \(listing.k) in a row)."
      }
      // A full board is a game over, which is not listed.
      guard listing.moveCount < listing.rows * listing.columns else {
        return "The server at \(server) listed game \(code) with more moves than a game under "
          + "way can have."
      }
      // Open: X seated, nobody at O, no move. Being played: two players, not one twice.
      let seatsAgree =
        switch (listing.xName, listing.oName) {
        case (_?, nil): listing.isOpen && listing.moveCount == 0
        case (let x?, let o?): !listing.isOpen && UserName.key(x) != UserName.key(o)
        default: false
        }
      guard seatsAgree else {
        return
          "The server at \(server) listed game \(code) as \(listing.isOpen ? "open" : "being played"), "
          + "with its seats or moves saying otherwise."
      }
    }
    return nil
  }
}

/// What a server sends of an account's records is checked before it is shown: the stats and
/// the games of the account asked for, in numbers and results that can be.
public enum OnlineRecords {
  /// Why a refusal cannot answer `request`, a request that reads what the server keeps, in one
  /// sentence, or `nil` when it can: it names another request, or a reason the protocol's
  /// table (`Refusal.mayAnswer`) does not give for this one (a wait for signing in, to a
  /// request that signs nothing in).
  public static func violation(
    _ refusal: Refusal, to request: ClientMessage, server: ServerAddress
  ) -> String? {
    guard refusal.request != request.type || !Refusal.mayAnswer(request.type, with: refusal.code)
    else { return nil }
    return "The server at \(server) refused the request with a reason that does not apply to it "
      + "(\(refusal.code))."
  }

  /// Why `stats` cannot be `userName`'s, in one sentence, or `nil` when they can: another
  /// account's, or a winning streak longer than the best one or than the wins.
  public static func violation(
    _ stats: PlayerStats, of userName: String, server: ServerAddress
  ) -> String? {
    guard UserName.key(stats.userName) == UserName.key(userName) else {
      return "The server at \(server) answered with the stats of "
        + "\(stats.userName.escapingControlCharacters) for those of "
        + "\(userName.escapingControlCharacters)."
    }
    guard stats.currentStreak <= stats.bestStreak, stats.bestStreak <= stats.wins else {
      return "The server at \(server) sent stats of \(userName.escapingControlCharacters) whose "
        + "winning streaks do not fit their wins."
    }
    return nil
  }

  /// Why `games` cannot be finished games of `userName`, in one sentence, or `nil` when they
  /// can: one that cannot be (``violation(_:server:)``), or that the account did not play.
  public static func violation(
    _ games: [FinishedGame], of userName: String, server: ServerAddress
  ) -> String? {
    if let violation = violation(games, server: server) { return violation }
    let key = UserName.key(userName)
    if let stranger = games.first(where: {
      UserName.key($0.xName) != key && UserName.key($0.oName) != key
    }) {
      return "The server at \(server) sent game \(stranger.id), which "
        + "\(userName.escapingControlCharacters) did not play, as one of theirs."
    }
    return nil
  }

  /// Why `games` cannot be finished games, in one sentence, or `nil` when they can: a result
  /// the moves do not give, a game sent twice, played by one account on both sides, or ended
  /// before it began.
  public static func violation(_ games: [FinishedGame], server: ServerAddress) -> String? {
    if let wrong = games.first(where: { !$0.resultFollowsFromItsMoves }) {
      return "The server at \(server) sent game \(wrong.id) with a result its moves do not give."
    }
    var ids: Set<Int64> = []
    if let twice = games.first(where: { !ids.insert($0.id).inserted }) {
      return "The server at \(server) sent game \(twice.id) twice."
    }
    if let alone = games.first(where: { UserName.key($0.xName) == UserName.key($0.oName) }) {
      return "The server at \(server) sent game \(alone.id) as played by "
        + "\(alone.xName.escapingControlCharacters) against themselves."
    }
    if let backwards = games.first(where: { $0.endedAt < $0.startedAt }) {
      return "The server at \(server) sent game \(backwards.id) as ending before it began."
    }
    return nil
  }
}
