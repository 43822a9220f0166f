import DatabaseClient
public import GameRules

extension StatsFeature.State {
  /// The screen's title: `Stats`, or `Stats on example.org` for a server account.
  public var title: String {
    serverAccount.map { "Stats on \($0.server.escapingControlCharacters)" } ?? "Stats"
  }

  /// A server account's rating, such as `Rating: 1216`, or `nil` for this computer's records.
  public var ratingText: String? {
    guard serverAccount != nil else { return nil }
    return "Rating: \(rating.map(String.init) ?? "–")"
  }

  /// Whether Reset stats is offered: a server's record belongs to the server.
  public var canReset: Bool { serverAccount == nil && !isEmpty }

  /// One line a kind of opponent, such as `Computer (Hard): 3 wins, 1 loss, 0 draws`.
  public var tallyLines: [String] {
    (stats?.tallies ?? []).map { tally in
      "\(Self.name(of: tally.opponent)): \(Self.count(tally.wins, "win")), "
        + "\(Self.count(tally.losses, "loss")), \(Self.count(tally.draws, "draw"))"
    }
  }

  /// The win rate as a whole percentage (`75%`), or `–` before the first game.
  public var winRateText: String {
    stats?.winPercentage.map { "\($0)%" } ?? "–"
  }

  /// The streaks in one line, such as `Current streak: 2 · Best streak: 5`.
  public var streakText: String {
    "Current streak: \(stats?.currentStreak ?? 0) · Best streak: \(stats?.bestStreak ?? 0)"
  }

  /// One line a recent game, newest first, such as
  /// `2026-11-30 09:08 · Blob vs Computer: Blob won in 7 moves`: the time it ended on the
  /// player's clock first, where a narrow terminal still shows it, then who played and how it
  /// ended (`won before any move` for a game forfeited or resigned before its first move); the
  /// names come from the records, so anything not printable in them is escaped.
  public var recentGameLines: [String] {
    (stats?.recentGames ?? []).enumerated().map { index, record in
      let x = record.x.name.escapingControlCharacters
      let o = record.o.name.escapingControlCharacters
      let result =
        switch record.result {
        case .xWins: "\(x) won"
        case .oWins: "\(o) won"
        case .draw: "tied"
        case nil: "unfinished"
        }
      // An online game can end with no move played (its creator's opponent left at once), or
      // before its moves finish it (a resignation, a player who did not come back); a game on
      // this computer ends only by its moves.
      let moves = Self.count(record.moves.count, "move")
      let isPlayedOut =
        serverAccount == nil || (try? record.game())?.board.outcome.isOver ?? true
      let loser =
        switch record.result {
        case .xWins: "\(o) resigned or left"
        case .oWins: "\(x) resigned or left"
        case .draw, nil: "it stopped there"
        }
      let length =
        record.moves.isEmpty
        ? "before any move" : isPlayedOut ? "in \(moves)" : "after \(moves): \(loser)"
      let line = "\(x) vs \(o): \(result) \(length)"
      return recentGameTimes.indices.contains(index) ? "\(recentGameTimes[index]) · \(line)" : line
    }
  }

  /// Whether there is nothing to show yet.
  public var isEmpty: Bool { stats.map { $0.games == 0 } ?? true }

  /// The question asked before resetting.
  public var resetConfirmationMessage: String {
    "\(resetConfirmationHeading) \(resetConfirmationDetail)"
  }

  /// The question alone, as a dialog's heading.
  public var resetConfirmationHeading: String { "Reset your stats?" }

  /// What follows from yes, under the heading.
  public var resetConfirmationDetail: String {
    "Every game counted here will be deleted; games between two computers are kept."
  }

  /// What an account's reset asks for, as the fields' captions; the message says which code
  /// when one is asked for.
  public static let resetCredentialTitles = (password: "Password", code: "Code")

  /// The answers to the question: delete, or keep.
  public var resetConfirmationAnswers: (reset: String, keep: String) { ("Reset", "Keep them") }

  /// What the screen says while there is nothing to count, as a heading and a sentence.
  public var emptyMessage: (title: String, detail: String)? {
    guard isEmpty, !isLoading, errorMessage == nil else { return nil }
    if stats?.recentGames.isEmpty == false {
      // Games between two computers were watched: they count for no one.
      return (
        "No games counted yet",
        "Games between two computers count for no one; finish a game you play and its result "
          + "is counted here."
      )
    }
    return ("No finished games yet", "Finish a game and its result is counted here.")
  }

  /// The headings of the screen's parts.
  public static let sectionTitles = (
    results: "Results by opponent", recent: "Recent games", replay: "Replay"
  )

  /// What choosing a recent game does, for assistive technologies.
  public static let replayHint = "Replay this game"

  /// The kinds of result, in the order a chart stacks them.
  public static let resultTitles = ["Wins", "Draws", "Losses"]

  /// One bar of a chart of the results: a kind of opponent and what became of the games.
  public struct ResultsBar: Equatable, Sendable {
    /// Who the games were against: `People`, `Computer (Hard)`.
    public var opponent: String
    /// Games won, drawn and lost.
    public var wins: Int, draws: Int, losses: Int
    /// The bar in one sentence, as ``tallyLines`` says it.
    public var summary: String

    /// All the games of the bar.
    public var games: Int { wins + draws + losses }
  }

  /// The results per kind of opponent and difficulty, for a chart.
  public var resultsBars: [ResultsBar] {
    zip(stats?.tallies ?? [], tallyLines).map { tally, line in
      ResultsBar(
        opponent: Self.name(of: tally.opponent), wins: tally.wins, draws: tally.draws,
        losses: tally.losses, summary: line)
    }
  }

  /// The figures worth a glance, each with its caption: the win rate, the streaks, the games.
  public var highlights: [(title: String, value: String)] {
    [
      ("Win rate", winRateText), ("Current streak", String(stats?.currentStreak ?? 0)),
      ("Best streak", String(stats?.bestStreak ?? 0)), ("Games", String(stats?.games ?? 0)),
    ]
  }

  /// The replayed game in one line, as the list of recent games says it.
  public var replayTitle: String? {
    guard let replay, let index = stats?.recentGames.firstIndex(of: replay.record) else {
      return nil
    }
    return recentGameLines[index]
  }

  /// Whether the replay can step back, and forward.
  public var replaySteps: (back: Bool, forward: Bool) {
    guard let replay else { return (false, false) }
    return (replay.step > 0, replay.step < replay.record.moves.count)
  }

  /// The replayed board at its current step, if a game is being replayed.
  public var replayBoard: Board? {
    guard let replay, let game = try? replay.record.game() else { return nil }
    return game.positions[min(replay.step, game.moves.count)]
  }

  /// The replay's position in words, such as `Move 3 of 7`.
  public var replayProgressText: String? {
    replay.map { "Move \($0.step) of \($0.record.moves.count)" }
  }

  private static func name(of opponent: OpponentKind) -> String {
    opponent.levelName.map { "Computer (\($0))" } ?? "People"
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    guard number != 1 else { return "1 \(noun)" }
    return "\(number) \(noun.hasSuffix("s") ? noun + "es" : noun + "s")"
  }
}
