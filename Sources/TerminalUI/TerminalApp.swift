public import AppCore
import Architecture
import Console
import Foundation
import GameCore
import GameRules
import NewGameCore

/// How the terminal app shows itself.
public struct TerminalOptions: Sendable {
  /// Line by line instead of full screen (also chosen when not on a terminal).
  public var isPlain: Bool
  /// Colours, attributes only, or nothing.
  public var colorMode: ColorMode

  /// Creates options.
  public init(isPlain: Bool = false, colorMode: ColorMode = .color) {
    self.isPlain = isPlain
    self.colorMode = colorMode
  }
}

extension ColorMode {
  /// The mode for a full-screen terminal: monochrome with `--no-color` or a non-empty
  /// `NO_COLOR`, nothing at all on a `dumb` terminal, colour otherwise.
  public static func detect(noColorFlag: Bool, environment: [String: String]) -> ColorMode {
    if environment["TERM"] == "dumb" { return .none }
    if noColorFlag || !(environment["NO_COLOR"] ?? "").isEmpty { return .monochrome }
    return .color
  }
}

/// The terminal front end: full screen on a terminal, plain line by line otherwise.
///
/// It runs the app reducer that AppLive builds; it maps keys and lines to the core's actions and
/// renders the core's state, nothing more.
public enum TerminalApp {
  /// Runs the app until the player leaves, the input ends or the core stops it.
  ///
  /// Plain mode has no Sign in: a launch at Sign in plays as a guest with the default game.
  ///
  /// - Returns: The exit code: 0 normally, 1 when the core stopped (the sentence is on stderr)
  ///   or the terminal could not be set up, 130 after Ctrl-C.
  @MainActor
  public static func run(_ app: TicTacToe, launch: Launch, options: TerminalOptions) async
    -> Int32
  {
    if options.isPlain || !Terminal.isInteractive {
      let plainLaunch: Launch =
        switch launch {
        case .signIn: .game(GameRequest(), session: nil, isStandalone: true)
        case .game(let request, let session, _):
          .game(request, session: session, isStandalone: true)
        }
      let session = PlainSession(store: Store(initialState: .init(launch: plainLaunch)) { app })
      return await session.run()
    }
    let session = FullScreenSession(
      store: Store(initialState: .init(launch: launch)) { app }, mode: options.colorMode)
    return await session.run()
  }

  /// Waits until the store's effects are done, for at most two seconds, so that a save under
  /// way is finished before the program ends.
  @MainActor
  static func settle(_ store: Store<TicTacToe>) async {
    let (done, continuation) = AsyncStream.makeStream(of: Void.self)
    Task { @MainActor in
      await store.settled()
      continuation.yield()
    }
    // A game between computers never settles: give up on it after a while.
    Task {
      try? await Task.sleep(for: .seconds(2))
      continuation.yield()
    }
    for await _ in done { break }
  }

  /// The exit status for how the app ended, writing a failure's sentence to standard error.
  static func status(of termination: TicTacToe.Termination?) -> Int32 {
    guard case .failed(let sentence) = termination else { return 0 }
    Console.error("tictactoe: \(sentence)\n")
    return 1
  }
}

/// The full-screen app: draws on every change, reads keys off the main actor.
@MainActor
private final class FullScreenSession {
  private let store: Store<TicTacToe>
  private let mode: ColorMode
  private var terminal = AppTerminalState()
  private var frame = Frame()
  private var size = (width: 80, height: 24)

  init(store: Store<TicTacToe>, mode: ColorMode) {
    self.store = store
    self.mode = mode
  }

  /// The terminal's events, and the core's end, in one stream.
  private enum Event {
    case terminal(TerminalEvent)
    case terminated
  }

  func run() async -> Int32 {
    guard Terminal.enterRawMode() else {
      Console.error("tictactoe: the terminal could not be set up; try --plain.\n")
      return 1
    }
    let (events, continuation) = AsyncStream.makeStream(of: Event.self)
    let reader = Task {
      for await event in Terminal.events() { continuation.yield(.terminal(event)) }
      continuation.finish()
    }
    size = Terminal.size
    let token = store.observe { [weak self] state in
      self?.draw()
      if state.termination != nil { continuation.yield(.terminated) }
    }
    store.send(.started)
    events: for await event in events {
      switch event {
      case .terminated:
        break events
      case .terminal(.endOfInput):
        if store.state.game != nil { store.send(.newGame(.game(.inputEnded))) }
        break events
      case .terminal(.resized):
        size = Terminal.size
        draw()
      case .terminal(.keys(let keys)):
        for key in keys {
          AppScreens.follow(store.state, terminal: &terminal)
          switch AppScreens.handle(key, state: store.state, frame: frame, terminal: &terminal) {
          case .none: draw()
          case .send(let action): store.send(action)
          case .suspend:
            if Terminal.canSuspend {
              Terminal.suspend()
              size = Terminal.size
            } else {
              terminal.notice = Terminal.cannotSuspendSentence
            }
            draw()
          case .exit where key == .endOfInput:
            // Ctrl-D ends the input as a closed terminal does: what is being saved is saved
            // first, since the move it saves is already on the screen; the computer's move,
            // not shown yet, is not made (leaving during its turn cancels it).
            if store.state.game != nil { store.send(.newGame(.game(.inputEnded))) }
            break events
          case .exit(let code):
            // Ctrl-C leaves at once: a change still being saved was not announced yet.
            token.cancel()
            Terminal.restore()
            reader.cancel()
            return code
          }
          if store.state.termination != nil { break events }
        }
      }
    }
    token.cancel()
    await TerminalApp.settle(store)
    Terminal.restore()
    reader.cancel()
    // The terminal is itself again before a failure is told on standard error.
    return TerminalApp.status(of: store.state.termination)
  }

  private func draw() {
    AppScreens.follow(store.state, terminal: &terminal)
    frame = AppScreens.frame(
      store.state, terminal: terminal, width: size.width, height: size.height)
    Console.write(Terminal.drawing(frame, mode: mode))
  }
}

/// Plain mode: reads lines, says every event in a sentence.
@MainActor
private final class PlainSession {
  private let store: Store<TicTacToe>
  private var narrator = PlainNarrator()
  private var waiters: [(predicate: (TicTacToe.State) -> Bool, resume: () -> Void)] = []

  init(store: Store<TicTacToe>) { self.store = store }

  func run() async -> Int32 {
    let token = store.observe { [weak self] state in self?.changed(state) }
    defer { token.cancel() }
    store.send(.started)
    await store.settled()
    // Once what is said is lost, playing on would be playing blind: no line is played after,
    // from the first on (the board shown at the start lost).
    if store.state.termination == nil, Console.outputFailure == nil {
      for await line in Terminal.lines() {
        if line.isTooLong {
          say(Terminal.tooLongLineSentence)
          continue
        }
        store.send(.view(.lineTyped(line.text)))
        // The computer's answer and the save come before the next line, so a script's next
        // line meets the board it expects.
        await store.settled()
        if store.state.termination != nil || Console.outputFailure != nil { break }
      }
    }
    if store.state.termination == .finished, let farewell = store.state.newGameState?.farewell {
      say(farewell)
    }
    if store.state.termination == nil {
      // A game between computers plays on to its end; any other game waits, saved.
      if let game = store.state.game, game.settings.isComputer(.x), game.settings.isComputer(.o) {
        await first { $0.termination != nil || $0.game?.isGameOver != false }
        await store.settled()
      }
      // Written once more before it is said to be saved.
      if store.state.game != nil {
        store.send(.newGame(.game(.inputEnded)))
        await store.settled()
      }
    }
    if store.state.termination == nil {
      if let sentence = store.state.game?.endOfInputSentence
        ?? store.state.newGameState?.endOfInputSentence
      {
        say(sentence)
      }
    }
    await TerminalApp.settle(store)
    let status = TerminalApp.status(of: store.state.termination)
    // What was kept is said above; that the input failed rather than ended is said here.
    guard let failure = Terminal.linesFailure else { return status }
    Console.error("tictactoe: \(failure)\n")
    return status == 0 ? 1 : status
  }

  private func changed(_ state: TicTacToe.State) {
    let output = narrator.output(for: state)
    for line in output.lines { say(line) }
    for line in output.errors {
      Console.error("tictactoe: \(line)\n")
    }
    let ready = waiters.filter { $0.predicate(state) }
    waiters.removeAll { $0.predicate(state) }
    for waiter in ready { waiter.resume() }
  }

  /// Returns once the state satisfies `predicate`.
  private func first(where predicate: @escaping (TicTacToe.State) -> Bool) async {
    guard !predicate(store.state) else { return }
    await withCheckedContinuation { continuation in
      waiters.append((predicate, { continuation.resume() }))
    }
  }

  /// Writes a line at once, unbuffered, so a script reading the output sees it when it is said.
  private func say(_ line: String) { Console.line(line) }
}
