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
    send(contentsOf: [action])
  }

  /// Reduces actions in order and sends their outbox in one hand-over to the transport.
  func send(contentsOf actions: [GameServer.Action]) {
    queued += actions
    guard !isReducing else { return }
    isReducing = true
    var index = 0
    while index < queued.count {
      let effect = reducer.reduce(into: &state, action: queued[index])
      index += 1
      _ = runner.start(effect) { [weak self] action in self?.send(action) }
    }
    queued.removeAll(keepingCapacity: true)
    isReducing = false
    if !state.outbox.isEmpty {
      let outbox = state.outbox
      state.outbox.removeAll(keepingCapacity: true)
      deliver(outbox)
    }
  }

  /// Effects still running: database writes and account checks.
  var runningEffectCount: Int { runner.inFlightCount }
}
