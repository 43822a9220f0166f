public import Architecture
import Synchronization
public import Testing

/// How strictly a ``TestStore`` checks a test.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every effect must be accounted for.
  case on
  /// Assertions check only what they state; unasserted actions and running effects are let go.
  case off
}

/// A store for tests that proves every state change, action and effect of a feature.
///
/// ```swift
/// let store = TestStore(initialState: Login.State()) { Login(authenticate: .demo) }
/// await store.send(.view(.submitTapped)) { $0.isRequestInFlight = true }
/// await store.receive(.loginResponse(.success(session))) { $0.isRequestInFlight = false }
/// await store.finish()
/// ```
///
/// With ``Exhaustivity/on`` (the default) it records an issue when a `send` or `receive` closure
/// does not state the whole change, when an action arrives that no `receive` asserts, when an
/// expected action never arrives, and when an effect is still running at ``finish(timeout:)``.
@MainActor
public final class TestStore<R: Reducer> where R.Action: Equatable {
  /// The state as of the last assertion.
  public private(set) var state: R.State
  /// How strictly the store checks.
  public var exhaustivity: Exhaustivity = .on {
    didSet { ledger.update { $0.isExhaustive = exhaustivity == .on } }
  }
  /// How long `receive` and `finish` wait by default.
  ///
  /// Generous, because a passing test never waits it out and other suites may be loading the
  /// machine; failure tests set a short one.
  public var timeout: Duration = .seconds(30)

  private let reducer: R
  private let runner = EffectRunner<R.Action>()
  private var currentState: R.State
  private var receivedActions: [(action: R.Action, state: R.State)] = [] {
    didSet {
      let descriptions = receivedActions.map { "\($0.action)" }
      ledger.update { $0.unassertedActions = descriptions }
    }
  }
  private var pendingActions: [R.Action] = []
  private var isReducing = false
  private var isFinished = false {
    didSet { ledger.update { $0.isFinished = isFinished } }
  }
  // Read by the nonisolated deinit, which runs inside the releasing test and so can report to it.
  private nonisolated let ledger = Ledger()
  private let sourceLocation: SourceLocation

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature under test, built with test clients.
  ///   - sourceLocation: Where failures found when the store is released are reported.
  public init(
    initialState: R.State,
    reducer: () -> R,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.state = initialState
    self.currentState = initialState
    self.reducer = reducer()
    self.sourceLocation = sourceLocation
  }

  deinit {
    let entries = ledger.update { entries in
      defer { entries.tasks.removeAll() }
      return entries
    }
    for task in entries.tasks {
      task.cancel()
    }
    guard !entries.isFinished, entries.isExhaustive else { return }
    if entries.runningCount > 0 {
      Issue.record(
        Comment(
          rawValue: "\(entries.runningCount) effect(s) still running when the test store was "
            + "released; end the test with `await store.finish()`."),
        sourceLocation: sourceLocation)
    }
    if !entries.unassertedActions.isEmpty {
      Issue.record(
        Comment(
          rawValue: "The test store was released with unasserted received actions:\n"
            + entries.unassertedActions.map { "  \($0)" }.joined(separator: "\n")),
        sourceLocation: sourceLocation)
    }
  }

  /// Sends an action and asserts the state change it makes.
  ///
  /// - Parameters:
  ///   - action: The action a user or a front end would send.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected one; omit it
  ///     when the action changes nothing.
  ///   - sourceLocation: Where failures are reported.
  /// - Returns: A handle on the effects the action started.
  @discardableResult
  public func send(
    _ action: R.Action,
    assert updateStateToExpectedResult: ((inout R.State) throws -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> TestStoreTask {
    if !receivedActions.isEmpty, exhaustivity == .on {
      fail(
        "Must handle \(receivedActions.count) received action(s) before sending an action:\n"
          + describe(receivedActions.map(\.action)),
        sourceLocation: sourceLocation)
    }
    skipReceivedActions()
    let previous = state
    let effect = reducer.reduce(into: &currentState, action: action)
    check(
      previous: previous, actual: currentState, update: updateStateToExpectedResult,
      sourceLocation: sourceLocation)
    state = currentState
    isReducing = true
    let started = start(effect)
    isReducing = false
    drainPendingActions()
    // Give operations that send at once a chance to do so before the next assertion.
    await Task.yield()
    return TestStoreTask(tasks: started)
  }

  /// Asserts that an effect delivered an action, and the state change it made.
  ///
  /// - Parameters:
  ///   - expectedAction: The action that must arrive next.
  ///   - timeout: How long to wait for it; the store's ``timeout`` by default.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected one.
  ///   - sourceLocation: Where failures are reported.
  public func receive(
    _ expectedAction: R.Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout R.State) throws -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let limit = timeout ?? self.timeout
    // With no effect running, nothing more can arrive, so there is no need to wait.
    _ = await waitUntil(limit) { !self.receivedActions.isEmpty || self.runner.inFlightCount == 0 }
    guard !receivedActions.isEmpty else {
      let reason =
        runner.inFlightCount == 0 ? "no effect is running" : "nothing arrived within \(limit)"
      fail(
        "Expected to receive an action, but received none (\(reason)):\n"
          + describe([expectedAction]),
        sourceLocation: sourceLocation)
      return
    }
    if exhaustivity == .off {
      while let first = receivedActions.first, first.action != expectedAction {
        state = first.state
        receivedActions.removeFirst()
        if receivedActions.isEmpty {
          _ = await waitUntil(limit) {
            !self.receivedActions.isEmpty || self.runner.inFlightCount == 0
          }
        }
      }
      guard !receivedActions.isEmpty else {
        fail(
          "Expected to receive an action, but it never arrived:\n" + describe([expectedAction]),
          sourceLocation: sourceLocation)
        return
      }
    }
    let (action, actual) = receivedActions.removeFirst()
    if action != expectedAction {
      fail(
        "Received an unexpected action: (− expected, + received)\n"
          + diff(expected: expectedAction, actual: action),
        sourceLocation: sourceLocation)
    }
    check(
      previous: state, actual: actual, update: updateStateToExpectedResult,
      sourceLocation: sourceLocation)
    state = actual
  }

  /// Waits for every effect to finish and fails if one outlives the timeout or if received
  /// actions were never asserted.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; the store's ``timeout`` by default.
  ///   - sourceLocation: Where failures are reported.
  public func finish(
    timeout: Duration? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    isFinished = true
    let limit = timeout ?? self.timeout
    let settled = await waitUntil(limit) { self.runner.inFlightCount == 0 }
    if !settled {
      if exhaustivity == .on {
        fail(
          "\(runner.inFlightCount) effect(s) still running after \(limit); an effect must finish "
            + "or be cancelled before the test ends.",
          sourceLocation: sourceLocation)
      }
      runner.cancelAll()
    }
    if !receivedActions.isEmpty, exhaustivity == .on {
      fail(
        "\(receivedActions.count) received action(s) were not asserted:\n"
          + describe(receivedActions.map(\.action)),
        sourceLocation: sourceLocation)
    }
    if let last = receivedActions.last {
      state = last.state
    }
    receivedActions.removeAll()
  }

  /// Accepts every action received so far without asserting it, moving to the latest state.
  public func skipReceivedActions() {
    if let last = receivedActions.last {
      state = last.state
    }
    receivedActions.removeAll()
  }

  /// Cancels every running effect, for tests that deliberately stop in the middle.
  public func skipInFlightEffects() async {
    runner.cancelAll()
    _ = await waitUntil(timeout) { self.runner.inFlightCount == 0 }
  }

  // MARK: - Internals

  /// Starts an effect, counting its operations in the ledger.
  private func start(_ effect: Effect<R.Action>) -> [Task<Void, Never>] {
    let ledger = self.ledger
    let counted = Effect<R.Action>(
      instructions: effect.instructions.map { instruction in
        guard case .run(let priority, let cancelIDs, let operation) = instruction else {
          return instruction
        }
        ledger.update { $0.runningCount += 1 }
        return .run(priority: priority, cancelIDs: cancelIDs) { send in
          await operation(send)
          ledger.update { $0.runningCount -= 1 }
        }
      }
    )
    let tasks = runner.start(counted) { [weak self] action in self?.deliver(action) }
    ledger.update { $0.tasks += tasks }
    return tasks
  }

  private func deliver(_ action: R.Action) {
    pendingActions.append(action)
    guard !isReducing else { return }
    drainPendingActions()
  }

  private func drainPendingActions() {
    isReducing = true
    defer { isReducing = false }
    while !pendingActions.isEmpty {
      let action = pendingActions.removeFirst()
      let effect = reducer.reduce(into: &currentState, action: action)
      receivedActions.append((action, currentState))
      _ = start(effect)
    }
  }

  private func check(
    previous: R.State,
    actual: R.State,
    update: ((inout R.State) throws -> Void)?,
    sourceLocation: SourceLocation
  ) {
    var expected = exhaustivity == .on ? previous : actual
    do {
      try update?(&expected)
    } catch {
      Issue.record(error, "The state assertion threw.", sourceLocation: sourceLocation)
      return
    }
    guard expected != actual else { return }
    fail(
      "State was not as expected: (− expected, + actual)\n"
        + diff(expected: expected, actual: actual),
      sourceLocation: sourceLocation)
  }

  /// Lets other work run until `condition` holds or `limit` passes; returns whether it held.
  private func waitUntil(_ limit: Duration, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var yields = 0
    while !condition() {
      guard clock.now < deadline else { return false }
      // Yielding lets main-actor work (actions sent back) run; short sleeps let work elsewhere
      // progress without spinning.
      if yields < 20 {
        yields += 1
        await Task.yield()
      } else {
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
    return true
  }

  private func fail(_ message: String, sourceLocation: SourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }

  private func describe(_ actions: [R.Action]) -> String {
    actions.map { "  \($0)" }.joined(separator: "\n")
  }
}

/// What a test store's deinit needs, readable from any thread.
private final class Ledger: Sendable {
  struct Entries {
    var runningCount = 0
    var tasks: [Task<Void, Never>] = []
    var unassertedActions: [String] = []
    var isFinished = false
    var isExhaustive = true
  }

  private let entries = Mutex(Entries())

  func update<T>(_ body: (inout Entries) -> T) -> T {
    entries.withLock { body(&$0) }
  }
}

/// A handle on the effects started by one action sent to a ``TestStore``.
public struct TestStoreTask: Sendable {
  private let tasks: [Task<Void, Never>]

  init(tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Cancels the effects and waits for them to stop.
  public func cancel() async {
    for task in tasks {
      task.cancel()
    }
    for task in tasks {
      await task.value
    }
  }

  /// Waits for the effects to finish.
  public func finish() async {
    for task in tasks {
      await task.value
    }
  }

  /// Whether every effect has been cancelled.
  public var isCancelled: Bool {
    tasks.allSatisfy(\.isCancelled)
  }
}
