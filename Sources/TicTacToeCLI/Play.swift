import AppLive
import AuthenticationClient
import DatabaseClient
import Foundation
import GameCore
import GameRules
import TerminalUI

extension CLI {
  // MARK: - play

  /// Runs the game in the terminal, signing in first when `--user` is given.
  static func play(_ options: PlayOptions, common: CommonOptions) async -> Int32 {
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
    let environment = TerminalEnvironment(
      authentication: clients.authentication, engine: clients.engine, clock: clients.clock,
      random: clients.random, database: clients.database)
    let colorMode = ColorMode.detect(
      noColorFlag: common.noColor, environment: ProcessInfo.processInfo.environment)
    return await TerminalApp.run(
      options: TerminalOptions(
        isPlain: options.plain, colorMode: colorMode,
        game: options.startsGame ? settings(options, session: session) : nil),
      environment: environment)
  }

  /// The game's settings from the options; a signed-in player takes the first person's side.
  static func settings(_ options: PlayOptions, session: Session?) -> GameSettings {
    let computer = options.computer ?? .o
    let mode: GameMode =
      switch computer {
      case .none: .hotSeat
      case .both: .computerVersusComputer
      case .x, .o: .versusComputer
      }
    let personMark: Mark? =
      switch computer {
      case .none, .o: .x
      case .x: .o
      case .both: nil
      }
    func name(_ mark: Mark) -> String {
      if let given = mark == .x ? options.xName : options.oName { return given }
      if let session, mark == personMark { return session.userName }
      let isComputer = computer == .both || computer.rawValue == mark.rawValue
      guard isComputer else { return "Player \(mark.symbol)" }
      return computer == .both ? "Computer \(mark.symbol)" : "Computer"
    }
    let startingRule: StartingRule =
      switch options.first {
      case .x: .x
      case .o: .o
      case .alternate: .alternate
      case .random: .random
      }
    var settings = GameSettings(
      xName: name(.x), oName: name(.o), mode: mode, computerMark: computer == .x ? .x : .o,
      difficulty: options.difficulty, rows: options.shape.rows, columns: options.shape.columns,
      k: options.shape.k, startingRule: startingRule)
    settings.accountID = personMark == nil ? nil : session?.accountID
    return settings
  }
}
