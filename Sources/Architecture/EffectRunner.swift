/// Runs effects as tasks and keeps track of them for cancellation; shared by stores and test stores.
@MainActor
package final class EffectRunner<Action: Sendable> {
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var taskIDsByCancelID: [CancelID: Set<Int>] = [:]
  private var nextTaskID = 0
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []

  package init() {}

  /// The number of operations started and not yet finished.
  package var inFlightCount: Int { tasks.count }

  /// Performs an effect's instructions in order.
  ///
  /// - Parameters:
  ///   - effect: The effect to perform.
  ///   - deliver: Receives the actions of `.send` instructions (synchronously) and those the
  ///     operations send (later, on the main actor).
  /// - Returns: The tasks started for the effect's operations.
  package func start(
    _ effect: Effect<Action>,
    deliver: @escaping @MainActor @Sendable (Action) -> Void
  ) -> [Task<Void, Never>] {
    var started: [Task<Void, Never>] = []
    for instruction in effect.instructions {
      switch instruction {
      case .send(let action):
        deliver(action)
      case .cancel(let id):
        cancel(id)
      case .run(let priority, let cancelIDs, let operation):
        let taskID = nextTaskID
        nextTaskID += 1
        let send = Send(deliver)
        // The task body starts on the main actor, after this method returns, so the bookkeeping
        // below is in place before the task can finish.
        let task = Task(priority: priority) {
          await operation(send)
          self.didFinish(taskID)
        }
        tasks[taskID] = task
        for id in cancelIDs {
          taskIDsByCancelID[id, default: []].insert(taskID)
        }
        started.append(task)
      }
    }
    return started
  }

  /// Returns once no operation is running; at once when none is.
  ///
  /// An operation that sends an action starting another operation keeps it waiting: the new one
  /// is registered before the first one finishes.
  package func whenIdle() async {
    guard !tasks.isEmpty else { return }
    await withCheckedContinuation { idleWaiters.append($0) }
  }

  /// Cancels every operation registered under an identifier.
  package func cancel(_ id: CancelID) {
    guard let taskIDs = taskIDsByCancelID.removeValue(forKey: id) else { return }
    for taskID in taskIDs {
      tasks[taskID]?.cancel()
    }
  }

  /// Cancels every running operation.
  package func cancelAll() {
    for task in tasks.values {
      task.cancel()
    }
    taskIDsByCancelID.removeAll()
  }

  private func didFinish(_ taskID: Int) {
    tasks[taskID] = nil
    defer {
      if tasks.isEmpty {
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
      }
    }
    for id in taskIDsByCancelID.keys {
      taskIDsByCancelID[id]?.remove(taskID)
      if taskIDsByCancelID[id]?.isEmpty == true {
        taskIDsByCancelID[id] = nil
      }
    }
  }
}
