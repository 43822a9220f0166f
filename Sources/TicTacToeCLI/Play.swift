import AppCore
import AppLive
import AuthenticationClient
import Console
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
    let clients: LiveClients
    do {
      clients = try LiveClients(
        common,
        timeBudget: options.seconds.map { .milliseconds(Int64($0 * 1_000)) } ?? .seconds(1))
    } catch {
      printError(error.message)
      return error.status
    }
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
