/// The runtime of a feature: holds its state, reduces actions and runs their effects.
///
/// Front ends send actions and observe the state; they hold no logic of their own.
@MainActor
public final class Store<R: Reducer> {
  /// The current state.
  public private(set) var state: R.State

  private let reducer: R
  private let runner = EffectRunner<R.Action>()
  private var bufferedActions: [R.Action] = []
  private var isSending = false
  private var observers: [Int: (R.State) -> Void] = [:]
  private var nextObserverID = 0

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's logic.
  public init(initialState: R.State, reducer: () -> R) {
    self.state = initialState
    self.reducer = reducer()
  }

  isolated deinit {
    runner.cancelAll()
  }

  /// Reduces an action, starts its effects and notifies observers if the state changed.
  ///
  /// Actions of `.send` effects are reduced right after, before this method returns.
  ///
  /// - Parameter action: What happened.
  /// - Returns: A handle on the effects the action started; `await store.send(a).finish()` waits
  ///   for them.
  @discardableResult
  public func send(_ action: R.Action) -> StoreTask {
    bufferedActions.append(action)
    // An action sent while another is being reduced (say, by an observer) joins the queue.
    guard !isSending else { return StoreTask(tasks: []) }
    isSending = true
    let stateBefore = state
    var started: [Task<Void, Never>] = []
    while !bufferedActions.isEmpty {
      let next = bufferedActions.removeFirst()
      let effect = reducer.reduce(into: &state, action: next)
      started += runner.start(effect) { [weak self] action in
        self?.send(action)
      }
    }
    isSending = false
    if state != stateBefore {
      for observer in observers.values {
        observer(state)
      }
    }
    return StoreTask(tasks: started)
  }

  /// Calls `onChange` with the current state now and again after every change.
  ///
  /// - Parameter onChange: Receives the new state on the main actor.
  /// - Returns: A token; observation stops when it is cancelled or released.
  public func observe(_ onChange: @escaping (R.State) -> Void) -> ObservationToken {
    let id = nextObserverID
    nextObserverID += 1
    observers[id] = onChange
    onChange(state)
    return ObservationToken { [weak self] in
      self?.observers[id] = nil
    }
  }

  /// The number of effects still running.
  public var runningEffectCount: Int { runner.inFlightCount }

  /// Returns once no effect is running, such as before reading the next line of a script or
  /// before exiting, so that a save under way is finished.
  public func settled() async {
    await runner.whenIdle()
  }
}

/// Keeps an observation of a store alive; cancelling or releasing it stops the observation.
@MainActor
public final class ObservationToken {
  private var onCancel: (() -> Void)?

  init(onCancel: @escaping () -> Void) {
    self.onCancel = onCancel
  }

  isolated deinit {
    onCancel?()
  }

  /// Stops the observation.
  public func cancel() {
    onCancel?()
    onCancel = nil
  }
}

/// A handle on the effects started by one action.
public struct StoreTask: Sendable {
  private let tasks: [Task<Void, Never>]

  package init(tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Waits until the effects have finished; cancelling the waiting task cancels them.
  public func finish() async {
    await withTaskCancellationHandler {
      for task in tasks {
        await task.value
      }
    } onCancel: {
      for task in tasks {
        task.cancel()
      }
    }
  }

  /// Cancels the effects.
  public func cancel() {
    for task in tasks {
      task.cancel()
    }
  }

  /// Whether every effect has been cancelled (true when the action started none).
  public var isCancelled: Bool {
    tasks.allSatisfy(\.isCancelled)
  }
}
