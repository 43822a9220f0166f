import Architecture
import Dispatch
import ServerCore

/// Runs the server's reducer on the main actor: actions in the order they happen, effects as
/// tasks, and after every action the outbox handed to the transport in order.
@MainActor
final class ServerRuntime {
  private(set) var state: GameServer.State
  private let reducer: GameServer
  private let runner = EffectRunner<GameServer.Action>()
  private let deliver: @Sendable ([GameServer.Outgoing]) -> Void
  private var queued: [GameServer.Action] = []
  private var isReducing = false

  init(
    state: GameServer.State, reducer: GameServer,
    deliver: @escaping @Sendable ([GameServer.Outgoing]) -> Void
  ) {
    self.state = state
    self.reducer = reducer
    self.deliver = deliver
  }

  /// Reduces an action (and the actions its effects feed back at once) and sends the outbox.
  func send(_ action: GameServer.Action) {
    queued.append(action)
    guard !isReducing else { return }
    isReducing = true
    while !queued.isEmpty {
      let next = queued.removeFirst()
      let effect = reducer.reduce(into: &state, action: next)
      if !state.outbox.isEmpty {
        let outbox = state.outbox
        state.outbox.removeAll(keepingCapacity: true)
        deliver(outbox)
      }
      _ = runner.start(effect) { [weak self] action in self?.send(action) }
    }
    isReducing = false
  }

  /// Effects still running: database writes and account checks.
  var runningEffectCount: Int { runner.inFlightCount }

  /// Sends an action from any thread, in the order of the calls.
  nonisolated static func post(_ runtime: ServerRuntime, _ action: GameServer.Action) {
    DispatchQueue.main.async {
      MainActor.assumeIsolated { runtime.send(action) }
    }
  }
}
