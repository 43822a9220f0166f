import Architecture

/// A small feature exercising every kind of effect.
struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var steps: [Int] = []
    var ranOffMainActor: Bool?
    var child: Child.State?
  }

  enum Action: Equatable, Sendable {
    case incrementTapped
    case fetchTapped
    case fetchResponse(Int)
    case relayTapped
    case chainTapped
    case step(Int)
    case waitTapped
    case restartWaitTapped
    case stopWaitingTapped
    case woke
    case isolationCheckTapped
    case isolationChecked(offMainActor: Bool)
    case child(Child.Action)
    case presentTapped
    case dismissTapped
  }

  enum CancelID: Hashable, Sendable {
    case wait
  }

  static let childAction = CaseKey<Action, Child.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .fetchTapped:
      let count = state.count
      return .run { send in
        await send(.fetchResponse(count * 10))
      }
    case .fetchResponse(let value):
      state.count = value
      return .none
    case .relayTapped:
      return .run { send in await send(.fetchTapped) }
    case .chainTapped:
      return .merge(.send(.step(1)), .send(.step(2)))
    case .step(let step):
      state.steps.append(step)
      return step == 2 ? .send(.step(3)) : .none
    case .waitTapped:
      return waitEffect.cancellable(id: CancelID.wait)
    case .restartWaitTapped:
      return waitEffect.cancellable(id: CancelID.wait, cancelInFlight: true)
    case .stopWaitingTapped:
      return .cancel(id: CancelID.wait)
    case .woke:
      state.count += 100
      return .none
    case .isolationCheckTapped:
      return .run { send in
        let offMainActor = #isolation == nil
        await send(.isolationChecked(offMainActor: offMainActor))
      }
    case .isolationChecked(let offMainActor):
      state.ranOffMainActor = offMainActor
      return .none
    case .child:
      return .none
    case .presentTapped:
      state.child = Child.State()
      return .none
    case .dismissTapped:
      state.child = nil
      return .none
    }
  }

  private var waitEffect: Effect<Action> {
    .run { send in
      do {
        try await Task.sleep(for: .seconds(60))
        await send(.woke)
      } catch {
        // Cancelled: nothing to report.
      }
    }
  }
}

/// A child feature presented in optional state, whose effect runs until cancelled.
struct Child: Reducer {
  struct State: Equatable, Sendable {
    var isWaiting = false
  }

  enum Action: Equatable, Sendable {
    case startTapped
    case finished
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTapped:
      state.isWaiting = true
      return .run { send in
        try? await Task.sleep(for: .seconds(60))
        await send(.finished)
      }
    case .finished:
      state.isWaiting = false
      return .none
    }
  }
}

/// The counter with its child composed in.
func counterWithChild() -> some Reducer<Counter.State, Counter.Action> {
  Counter().ifLet(\.child, action: Counter.childAction) { Child() }
}
