import AppLive
import DatabaseClient
import GameCore
import GameRules

/// Text and JSON for stats, history and replays.
enum RecordFormatting {
  // MARK: - Text

  /// `1 win`, `2 wins`: a count with its noun in the right number.
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  private static func tallyText(wins: Int, losses: Int, draws: Int) -> String {
    "\(count(wins, "win")), \(losses) loss\(losses == 1 ? "" : "es"), \(count(draws, "draw"))"
  }

  /// The record in one line, such as `Stats for ann: 4 games: 3 wins, 1 loss, 0 draws (win
  /// rate 75%).`; `owner` comes escaped.
  static func recordLine(_ stats: Stats, owner: String) -> String {
    "Stats for \(owner): \(count(stats.games, "game")): "
      + tallyText(wins: stats.wins, losses: stats.losses, draws: stats.draws)
      + (stats.winPercentage.map { " (win rate \($0)%)" } ?? "") + "."
  }

  /// The streaks in one line, such as `Current streak: 2 wins; best streak: 3 wins.`.
  static func streakLine(_ stats: Stats) -> String {
    "Current streak: \(count(stats.currentStreak, "win")); best streak: "
      + "\(count(stats.bestStreak, "win"))."
  }

  /// The line for an owner without finished games; the same whether or not an account of
  /// that name exists.
  static func noGames(for user: String?) -> String {
    "No games recorded for \(user?.escapingControlCharacters ?? "the guest")."
  }

  static func statsText(_ stats: Stats, user: String?) -> String {
    let owner = user?.escapingControlCharacters ?? "the guest"
    guard stats.games > 0 else {
      guard stats.recentGames.isEmpty else {
        return "No games counted for \(owner): games between two computers count for no one."
      }
      return noGames(for: user)
    }
    var lines = [recordLine(stats, owner: owner), streakLine(stats)]
    for tally in stats.tallies {
      let opponent = tally.opponent.levelName.map { "the computer, \($0)" } ?? "people"
      lines.append(
        "Against \(opponent): "
          + tallyText(wins: tally.wins, losses: tally.losses, draws: tally.draws) + ".")
    }
    if !stats.recentGames.isEmpty {
      lines.append("Recent games, newest first (tictactoe replay ID shows one):")
      lines += stats.recentGames.map { "  " + summary($0) }
    }
    return lines.joined(separator: "\n")
  }

  /// One line for a finished game: id, date, players, board and result.
  static func summary(_ record: GameRecord) -> String {
    let id = record.id.map(String.init) ?? "-"
    let board = (try? record.game().board.notation) ?? "?"
    return
      "\(id)  \(date(record.endedAt ?? record.startedAt, utc: false))  \(players(record))  "
      + "\(record.rows)×\(record.columns)  \(board)  \(resultText(record.result))"
  }

  private static func players(_ record: GameRecord) -> String {
    "\(playerText(record.x, .x, record)) vs \(playerText(record.o, .o, record))"
  }

  /// A player of `record`, the computer's level named as New game names it on that board.
  private static func playerText(_ player: PlayerRecord, _ mark: Mark, _ record: GameRecord)
    -> String
  {
    let name = player.name.escapingControlCharacters
    guard let computer = player.computer else { return "\(name) (\(mark.symbol))" }
    let level = computer.displayName(rows: record.rows, columns: record.columns, k: record.k)
    return "\(name) (\(mark.symbol), computer, \(level))"
  }

  private static func resultText(_ result: GameResult?) -> String {
    switch result {
    case .xWins: "X won"
    case .oWins: "O won"
    case .draw: "draw"
    case nil: "unfinished"
    }
  }

  /// Every position of a game, move by move, each move told as plain mode tells it.
  ///
  /// - Returns: The text, or `nil` when the recorded moves cannot be replayed.
  static func replayText(_ record: GameRecord) -> String? {
    guard let game = try? record.game() else { return nil }
    let state = GameFeature.State(
      settings: GameSettings(
        xName: record.x.name, oName: record.o.name, rows: record.rows, columns: record.columns,
        k: record.k),
      game: game, startedAt: record.startedAt)
    let id = record.id.map { "Game \($0)" } ?? "Game"
    var lines = [
      "\(id), \(date(record.endedAt ?? record.startedAt, utc: false)): \(players(record)) on "
        + "\(record.rows)×\(record.columns), \(record.k) in a row.",
      "",
      game.start.diagram,
    ]
    // The narration has a sentence for each move, then one for the result.
    let narration = state.narration
    for (index, board) in game.positions.dropFirst().enumerated() {
      lines += ["", narration[index], board.diagram]
    }
    lines.append("")
    lines += narration.dropFirst(game.moves.count)
    if !game.board.outcome.isOver { lines.append(stoppedText(record)) }
    // The narration names the players; whatever the database holds, nothing reaches the
    // terminal unescaped.
    return lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0).escapingControlCharacters }.joined(separator: "\n")
  }

  /// The end of a game its moves did not finish: an online game one player resigned, or left
  /// and did not come back to in time, which the other won.
  private static func stoppedText(_ record: GameRecord) -> String {
    let (winner, loser): (Mark, Mark)
    switch record.result {
    case .xWins?: (winner, loser) = (.x, .o)
    case .oWins?: (winner, loser) = (.o, .x)
    case .draw?: return "The game stopped here, counted a draw."
    case nil: return "The game stopped here."
    }
    let name = { (mark: Mark) in "\(record.player(mark).name) (\(mark.symbol))" }
    return "The game stopped here: \(name(winner)) won, as \(name(loser)) resigned or did not "
      + "come back in time."
  }

  /// A timestamp as `2026-11-30 09:08` in local time, or ISO 8601 in UTC.
  static func date(_ timestamp: Timestamp, utc: Bool) -> String {
    utc ? LocalTime(timestamp).utcText : ClockClient.live.localTime(timestamp).description
  }

  // MARK: - JSON

  static func statsJSON(_ stats: Stats, user: String?) -> String {
    JSON.line(StatsOutput(stats: stats, user: user))
  }

  static func historyJSON(_ games: [GameRecord], user: String?) -> String {
    JSON.line(HistoryOutput(user: user, games: games))
  }
}
