import AppLive
import AuthenticationClient
import Console
import DatabaseClient
import DatabaseClientLive
import GameRules
import Glibc

/// The most games `history` lists.
private let historyLimit = 100_000

extension CLI {
  // MARK: - stats

  static func stats(_ options: StatsOptions, common: CommonOptions) async -> Int32 {
    if common.server != nil { return await onlineStats(options, common: common) }
    return await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common, access: options.reset ? .writing : .reading)
      let records = clients.database
      if options.reset {
        try await reset(options, clients: clients)
        if !options.json { return }
      }
      let (owner, name) = try await owner(options.user, clients.authentication)
      var stats = Stats()
      if let owner { stats = try await calling { try await records.stats(owner) } }
      Console.line(
        options.json
          ? RecordFormatting.statsJSON(stats, user: name)
          : RecordFormatting.statsText(stats, user: name))
    }
  }

  /// Deletes the finished games of the guest, or of an account after signing in as it.
  ///
  /// The reset is confirmed before the sign-in, so that a reset declined (or not confirmed
  /// where nothing can ask) spends no one-time recovery code.
  private static func reset(
    _ options: StatsOptions, clients: LiveClients
  ) async throws(CommandFailure) {
    let records = clients.database
    let owner: RecordOwner
    let name: String
    if let user = options.user {
      let (known, _) = try await self.owner(user, clients.authentication)
      var games = 0
      if let known { games = try await calling { try await records.stats(known) }.games }
      try confirmReset(of: user, games: games, confirmed: options.confirmed)
      let session = try await signIn(
        LoginOptions(
          user: user, passwordFromStandardInput: options.passwordFromStandardInput,
          code: options.code),
        client: clients.authentication)
      owner = .account(session.accountID)
      name = session.userName
    } else {
      owner = .guest
      name = "the guest"
      let games = try await calling { try await records.stats(owner) }.games
      try confirmReset(of: name, games: games, confirmed: options.confirmed)
    }
    let before = try await calling { try await records.stats(owner) }
    try await calling { try await records.resetStats(owner) }
    if !options.json {
      Console.announce(
        "Reset the stats of \(name.escapingControlCharacters): deleted "
          + "\(RecordFormatting.count(before.games, "finished game")).")
    }
  }

  private static func confirmReset(
    of name: String, games: Int, confirmed: Bool
  ) throws(CommandFailure) {
    guard !confirmed else { return }
    let input = PasswordInput(fromStandardInput: false)
    guard input.isInteractive else {
      throw .usage(
        "Resetting stats deletes finished games; pass --yes to confirm when not at a terminal.")
    }
    let answer: String?
    do {
      answer = try input.visibleLine(
        prompt: "Delete \(RecordFormatting.count(games, "finished game")) of "
          + "\(name.escapingControlCharacters) for good? Type yes to confirm: ",
        what: "the answer")
    } catch {
      throw CommandFailure(error)
    }
    guard let answer, ["yes", "y"].contains(answer.trimmingWhitespace().lowercased()) else {
      throw .failure("Nothing was reset.")
    }
  }

  /// The records owner for a user name, or the guest when there is none, and the name to show.
  ///
  /// An unknown user name gets no owner, so it shows no games exactly as an account without
  /// games does: nothing here tells which user names exist. The name is shown as typed.
  private static func owner(
    _ user: String?, _ client: AuthenticationClient
  ) async throws(CommandFailure) -> (RecordOwner?, String?) {
    guard let user else { return (.guest, nil) }
    let accounts = try await calling { try await client.listAccounts() }
    let account = accounts.first { $0.userName.lowercased() == user.lowercased() }
    return (account.map { .account($0.id) }, user)
  }

  // MARK: - history

  static func history(user: String?, json: Bool, common: CommonOptions) async -> Int32 {
    if common.server != nil { return await onlineHistory(user: user, json: json, common: common) }
    return await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common, access: .reading)
      let (owner, name) = try await owner(user, clients.authentication)
      var games: [GameRecord] = []
      if let owner {
        games = try await calling { try await clients.database.history(owner, historyLimit) }
      }
      if json {
        Console.line(RecordFormatting.historyJSON(games, user: name))
      } else if !games.isEmpty {
        for game in games { Console.line(RecordFormatting.summary(game)) }
      } else {
        Console.line(RecordFormatting.noGames(for: name))
      }
    }
  }

  // MARK: - replay

  static func replay(gameID: Int64, common: CommonOptions) async -> Int32 {
    if common.server != nil { return await onlineReplay(gameID: gameID, common: common) }
    return await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common, access: .reading)
      guard let record = try await calling({ try await clients.database.game(gameID) }) else {
        throw .failure(
          "There is no finished game with id \(gameID); tictactoe history lists them.")
      }
      guard let text = RecordFormatting.replayText(record) else {
        throw .failure("Game \(gameID) in the database has moves that cannot be replayed.")
      }
      Console.line(text)
    }
  }
}
