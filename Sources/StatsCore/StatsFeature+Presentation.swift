import DatabaseClient
public import GameRules

extension StatsFeature.State {
  /// The screen's title.
  public var title: String { "Stats" }

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

  /// One line a recent game, newest first, such as `Blob vs Computer: Blob won in 7 moves`;
  /// the names come from the records, so anything not printable in them is escaped.
  public var recentGameLines: [String] {
    (stats?.recentGames ?? []).map { record in
      let x = record.x.name.escapingControlCharacters
      let o = record.o.name.escapingControlCharacters
      let result =
        switch record.result {
        case .xWins: "\(x) won"
        case .oWins: "\(o) won"
        case .draw: "tied"
        case nil: "unfinished"
        }
      return "\(x) vs \(o): \(result) in \(Self.count(record.moves.count, "move"))"
    }
  }

  /// Whether there is nothing to show yet.
  public var isEmpty: Bool { stats.map { $0.games == 0 } ?? true }

  /// The question asked before resetting.
  public var resetConfirmationMessage: String {
    "Reset your stats? Every finished game will be deleted."
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
    switch opponent {
    case .person:
      return "People"
    case .computer(let difficulty):
      return "Computer (\(difficulty.displayName))"
    }
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    guard number != 1 else { return "1 \(noun)" }
    return "\(number) \(noun.hasSuffix("s") ? noun + "es" : noun + "s")"
  }
}
