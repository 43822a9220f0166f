import AppLive
import Architecture
import AuthenticationClient
import Foundation
import GameCore
import GameProtocol
import GameRules
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
      }
      if let user = options.user {
        let session = try remoteSession(common, clients, announce: { writeLine($0) })
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
      address: server, trust: trustStore(common, clients, announce: { writeLine($0) }),
      loop: loop)
    let store = Store(
      initialState: OnlineGame.State(intent: intent, userName: userName, token: token)
    ) { OnlineGame(link: link, clock: clients.clock) }
    let (events, continuation) = AsyncStream.makeStream(of: OnlineInput.self)
    var narrator = OnlineNarrator()
    var failure: String?
    let observation = store.observe { state in
      for line in narrator.lines(for: state) {
        switch line {
        case .sentence(let text): writeLine(text)
        case .board(let board): writeLine(board.diagram)
        case .failure(let text): failure = text
        }
      }
      if state.link == .closed { continuation.yield(.finished) }
    }
    defer { observation.cancel() }
    store.send(.started)
    if userName != nil { readLines(into: continuation) }
    var confirmingResign = false
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
        let code = store.state.code ?? "CODE"
        writeLine(
          "Input ended; the seat is held for a while: run tictactoe play --server \(server) "
            + "--user \(userName ?? "NAME") --join \(code) to continue.")
        store.send(.left)
      case .line(let line):
        if confirmingResign {
          confirmingResign = false
          switch line.trimmingWhitespace().lowercased() {
          case "y", "yes": store.send(.resignConfirmed)
          default: writeLine("The game goes on.")
          }
          continue
        }
        switch respond(to: line, state: store.state) {
        case .ignore: break
        case .send(let action): store.send(action)
        case .say(let text): writeLine(text)
        case .confirmResign:
          confirmingResign = true
          writeLine("Resign this game? Type yes or no.")
        }
      }
    }
    return ExitCode.success
  }

  /// What a typed line asks for.
  private enum OnlineResponse {
    case ignore
    case send(OnlineGame.Action)
    case say(String)
    case confirmResign
  }

  private static let onlineHelp =
    "Type a cell such as b2 (or 1 to 9 on a 3×3 board) to play; board shows the board, resign "
    + "(or quit) gives the game up."

  private static func respond(to line: String, state: OnlineGame.State) -> OnlineResponse {
    switch TypedCommand(line) {
    case .nothing: return .ignore
    case .cell(let cell): return .send(.moveEntered(cell))
    case .digit(let digit):
      let isClassic = state.snapshot.map { $0.rows == 3 && $0.columns == 3 } ?? true
      guard isClassic else {
        return .say("Digits pick cells on a 3×3 board; type a cell such as b2.")
      }
      return .send(.moveEntered(Cell(row: (digit - 1) / 3, column: (digit - 1) % 3)))
    case .quit: return .confirmResign
    case .help: return .say(onlineHelp)
    case .board:
      let lines = state.lines(for: .shown).map { line -> String in
        switch line {
        case .sentence(let text): text
        case .board(let board): board.diagram
        }
      }
      return .say(lines.joined(separator: "\n"))
    case .undo, .redo, .hint, .analysis, .newGame:
      return .say("Undo, hints, analysis and new games are not part of an online game.")
    case .unknown(let text):
      if text.lowercased() == "resign" { return .confirmResign }
      return .say("Unknown command \"\(text.escapingControlCharacters)\". \(onlineHelp)")
    }
  }

  /// Reads standard input a line at a time on a thread of its own.
  private static func readLines(into continuation: AsyncStream<OnlineInput>.Continuation) {
    Thread.detachNewThread {
      while let line = readStandardInputLine() {
        var bytes = line.bytes
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // A line too long to be a move is answered like any other unknown command, shortened.
        let text = String(decoding: bytes.prefix(line.isTooLong ? 32 : bytes.count), as: UTF8.self)
        continuation.yield(.line(line.isTooLong ? text + "…" : text))
      }
      continuation.yield(.inputEnded)
    }
  }
}

/// What the online play loop waits for.
private enum OnlineInput: Sendable {
  case line(String)
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
