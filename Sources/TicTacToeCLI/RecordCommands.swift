import AppLive
import AuthenticationClient
import DatabaseClient
import GameRules
import Glibc

/// The most games `history` lists.
private let historyLimit = 100_000

extension CLI {
  // MARK: - stats

  static func stats(_ options: StatsOptions, common: CommonOptions) async -> Int32 {
    if common.server != nil { return await onlineStats(options, common: common) }
    return await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common)
      let (owner, name) = try await owner(options.user, clients.authentication)
      let records = clients.database
      if options.reset {
        let before = try await calling { try await records.stats(owner) }
        try confirmReset(of: name, games: before.games, confirmed: options.confirmed)
        try await calling { try await records.resetStats(owner) }
        if !options.json {
          writeLine(
            "Reset the stats of \(name ?? "the guest"): deleted \(RecordFormatting.count(before.games, "finished game"))."
          )
          return
        }
      }
      let stats = try await calling { try await records.stats(owner) }
      writeLine(
        options.json
          ? RecordFormatting.statsJSON(stats, user: name)
          : RecordFormatting.statsText(stats, user: name))
    }
  }

  private static func confirmReset(
    of name: String?, games: Int, confirmed: Bool
  ) throws(CommandFailure) {
    guard !confirmed else { return }
    let input = PasswordInput(fromStandardInput: false)
    guard input.isInteractive else {
      throw .usage(
        "Resetting stats deletes finished games; pass --yes to confirm when not at a terminal.")
    }
    let answer = input.visibleLine(
      prompt: "Delete \(RecordFormatting.count(games, "finished game")) of "
        + "\(name ?? "the guest") for good? Type yes to confirm: ")
    guard let answer, ["yes", "y"].contains(answer.trimmingWhitespace().lowercased()) else {
      throw .failure("Nothing was reset.")
    }
  }

  /// The records owner for a user name, or the guest when there is none.
  private static func owner(
    _ user: String?, _ client: AuthenticationClient
  ) async throws(CommandFailure) -> (RecordOwner, String?) {
    guard let user else { return (.guest, nil) }
    let accounts = try await calling { try await client.listAccounts() }
    guard let account = accounts.first(where: { $0.userName.lowercased() == user.lowercased() })
    else {
      throw .failure("There is no account named \(user); tictactoe account list shows them.")
    }
    return (.account(account.id), account.userName)
  }

  // MARK: - history

  static func history(user: String?, json: Bool, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common)
      let (owner, name) = try await owner(user, clients.authentication)
      let games = try await calling { try await clients.database.history(owner, historyLimit) }
      if json {
        writeLine(RecordFormatting.historyJSON(games, user: name))
      } else if games.isEmpty {
        writeLine("No finished games yet for \(name ?? "the guest").")
      } else {
        for game in games { writeLine(RecordFormatting.summary(game)) }
      }
    }
  }

  // MARK: - replay

  static func replay(gameID: Int64, common: CommonOptions) async -> Int32 {
    await outcome { () async throws(CommandFailure) in
      let clients = try LiveClients(common)
      guard let record = try await calling({ try await clients.database.game(gameID) }) else {
        throw .failure(
          "There is no finished game with id \(gameID); tictactoe history lists them.")
      }
      guard let text = RecordFormatting.replayText(record) else {
        throw .failure("Game \(gameID) in the database has moves that cannot be replayed.")
      }
      writeLine(text)
    }
  }
}
