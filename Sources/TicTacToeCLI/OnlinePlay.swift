import AppCore
import AppLive
import Architecture
import AuthenticationClient
import Console
import Foundation
import GameCore
import GameProtocol
import GameRules
import OnlineClient
import OnlineClientLive
import OnlineCore
import TerminalUI

extension CLI {
  // MARK: - play --server

  /// Plays online in plain mode: signs in on the server, creates, joins or watches the game,
  /// then says every event in a sentence and sends the moves typed on standard input.
  @MainActor
  static func playOnline(
    _ options: PlayOptions, _ online: OnlinePlay, common: CommonOptions
  ) async -> Int32 {
    let clients: LiveClients
    let intent: OnlineGame.Intent
    var userName: String?
    var token: String?
    do {
      clients = try LiveClients(common)
      switch online {
      case .create(let gameOptions): intent = .create(gameOptions)
      case .join(let code): intent = .join(code: code)
      case .watch(let code): intent = .watch(code: code)
      case .signIn: return await playOnlineFullScreen(options, common: common, clients: clients)
      }
      if let user = options.user {
        let session = try remoteSession(common, clients, announce: { Console.line($0) })
        let signedIn = try await signIn(
          LoginOptions(
            user: user, passwordFromStandardInput: options.passwordFromStandardInput,
            code: options.code),
          client: .remote(session))
        userName = signedIn.userName
        token = await session.token
        await session.close()
      }
    } catch {
      printError(error.message)
      return error.status
    }
    guard let server = common.server, let loop = try? ClientLoop.shared() else {
      printError("The network could not be set up.")
      return ExitCode.failure
    }
    let link = ServerLink.live(
      address: server, trust: trustStore(common, clients, announce: { Console.line($0) }),
      loop: loop)
    let store = Store(
      initialState: OnlineGame.State(
        server: server, intent: intent, userName: userName, token: token)
    ) { OnlineGame(link: link, clock: clients.clock) }
    let (events, continuation) = AsyncStream.makeStream(of: OnlineInput.self)
    var narrator = OnlineNarrator()
    var failure: String?
    let observation = store.observe { state in
      for line in narrator.lines(for: state) {
        switch line {
        case .sentence(let text): Console.line(text)
        case .board(let board): Console.line(board.diagram)
        case .failure(let text): failure = text
        }
      }
      if state.link == .closed { continuation.yield(.finished) }
    }
    defer { observation.cancel() }
    store.send(.started)
    // A spectator's lines are read too, so that a move typed while watching gets its answer.
    readLines(into: continuation)
    for await event in events {
      switch event {
      case .finished:
        try? await Task.sleep(for: .milliseconds(50))
        if let failure {
          printError(failure)
          return ExitCode.failure
        }
        return ExitCode.success
      case .inputEnded:
        store.send(.view(.inputEnded))
      case .line(let line):
        store.send(.view(.lineTyped(line)))
      case .tooLongLine:
        Console.line(Terminal.tooLongLineSentence)
      }
    }
    return ExitCode.success
  }

  /// Opens Sign in on a terminal with the server and the user name filled in; without a
  /// terminal, says what plain mode needs instead.
  @MainActor
  private static func playOnlineFullScreen(
    _ options: PlayOptions, common: CommonOptions, clients: LiveClients
  ) async -> Int32 {
    guard Terminal.isInteractive, let server = common.server else {
      printError(
        "Playing on a server needs --new, --join CODE or --watch CODE (or a terminal, for "
          + "Sign in).")
      return ExitCode.usage
    }
    if let fingerprint = common.serverFingerprint {
      // Pinned up front: Sign in then reaches only a server presenting this fingerprint.
      do throws(OnlineFailure) {
        try trustStore(common, clients, announce: { _ in }).pin(server, fingerprint)
      } catch {
        printError(error.message)
        return ExitCode.failure
      }
    }
    let colorMode = ColorMode.detect(
      noColorFlag: common.noColor, environment: ProcessInfo.processInfo.environment)
    return await TerminalApp.run(
      clients.app(),
      launch: .signIn(userName: options.user ?? "", server: server.description),
      options: TerminalOptions(colorMode: colorMode))
  }

  /// Reads standard input a line at a time on a thread of its own.
  private static func readLines(into continuation: AsyncStream<OnlineInput>.Continuation) {
    Thread.detachNewThread {
      let reader = LineReader(maximumLineBytes: Terminal.maximumLineLength)
      while let line = try? reader.next() {
        continuation.yield(line.isTooLong ? .tooLongLine : .line(line.text))
      }
      continuation.yield(.inputEnded)
    }
  }
}

/// What the online play loop waits for.
private enum OnlineInput: Sendable {
  case line(String)
  /// A line longer than ``Terminal/maximumLineLength`` bytes, skipped.
  case tooLongLine
  case inputEnded
  case finished
}

/// Says each notice of the online game once, in order.
private struct OnlineNarrator {
  enum Line {
    case sentence(String)
    case board(Board)
    case failure(String)
  }

  private var told = 0

  mutating func lines(for state: OnlineGame.State) -> [Line] {
    guard state.notices.count > told else { return [] }
    let fresh = state.notices[told...]
    told = state.notices.count
    return fresh.flatMap { notice -> [Line] in
      if case .stopped(let sentence) = notice { return [.failure(sentence)] }
      return state.lines(for: notice).map { line in
        switch line {
        case .sentence(let text): .sentence(text)
        case .board(let board): .board(board)
        }
      }
    }
  }
}
