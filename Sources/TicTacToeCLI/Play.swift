import AppCore
import AppLive
import AuthenticationClient
import Console
import DatabaseClient
import Foundation
import TerminalUI

extension CLI {
  // MARK: - play

  /// Runs the game in the terminal, signing in first when `--user` is given.
  static func play(_ options: PlayOptions, common: CommonOptions) async -> Int32 {
    // A game no one sees would store moves played blind.
    guard !Console.isOutputClosedAtStart else {
      printError("The output is closed, so no game could be shown; nothing was played.")
      return ExitCode.failure
    }
    if let online = options.online { return await playOnline(options, online, common: common) }
    var clients: LiveClients
    do {
      clients = try LiveClients(
        common,
        timeBudget: options.seconds.map { .milliseconds(Int64($0 * 1_000)) } ?? .seconds(1))
    } catch {
      printError(error.message)
      return error.status
    }
    // Once what is shown is lost, no move is stored unseen: the computer's included, which
    // comes without a line typed (it moves first, or plays both sides).
    clients.database = clients.database.refusingGameWrites { Console.outputFailure != nil }
    var session: Session?
    if let user = options.user {
      do {
        session = try await signIn(
          LoginOptions(
            user: user, passwordFromStandardInput: options.passwordFromStandardInput,
            code: options.code),
          client: clients.authentication)
      } catch {
        printError(error.message)
        return error.status
      }
    }
    let colorMode = ColorMode.detect(
      noColorFlag: common.noColor, environment: ProcessInfo.processInfo.environment)
    let launch: Launch =
      options.startsGame
      ? .game(options.request, session: session, isStandalone: false) : .signIn(userName: "")
    return await TerminalApp.run(
      clients.app(), launch: launch,
      options: TerminalOptions(isPlain: options.plain, colorMode: colorMode))
  }
}

extension DatabaseClient {
  /// The client, its games' writes refused while `isBlind` holds (the output lost): the game
  /// stops there, as it does when the disk refuses a move.
  fileprivate func refusingGameWrites(
    while isBlind: @escaping @Sendable () -> Bool
  ) -> DatabaseClient {
    let sentence = "The output could not be written, so no move is stored unseen."
    var client = self
    let saveFinished = saveFinishedGame
    client.saveFinishedGame = { record in
      guard !isBlind() else { throw DatabaseError(sentence) }
      return try await saveFinished(record)
    }
    let saveInProgress = saveGameInProgress
    client.saveGameInProgress = { record, owner in
      guard !isBlind() else { throw DatabaseError(sentence) }
      try await saveInProgress(record, owner)
    }
    return client
  }
}
