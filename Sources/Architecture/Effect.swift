/// Work a reducer asks for: actions to feed back now, asynchronous operations, cancellations.
///
/// Effects are values: a reducer returns one, and a store (or a test store) runs it. Operations run
/// off the main actor and deliver actions back through ``Send``.
public struct Effect<Action: Sendable>: Sendable {
  /// One step of an effect, in the order it is to be performed.
  package enum Instruction: Sendable {
    /// Feeds an action back into the reducer at once.
    case send(Action)
    /// Starts an operation in a task, registered under the given cancellation identifiers.
    case run(
      priority: TaskPriority?,
      cancelIDs: [CancelID],
      operation: @concurrent @Sendable (Send<Action>) async -> Void
    )
    /// Cancels every operation registered under an identifier.
    case cancel(CancelID)
  }

  /// The steps of this effect, in order.
  package let instructions: [Instruction]

  package init(instructions: [Instruction]) {
    self.instructions = instructions
  }

  /// An effect that does nothing.
  public static var none: Self { Self(instructions: []) }

  /// An effect that runs an asynchronous operation off the main actor.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work; it delivers actions with `await send(action)`. Actions sent after
  ///     the effect is cancelled are dropped.
  /// - Returns: The effect.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @concurrent @Sendable (_ send: Send<Action>) async -> Void
  ) -> Self {
    Self(instructions: [.run(priority: priority, cancelIDs: [], operation: operation)])
  }

  /// An effect that runs a request off the main actor and sends its result.
  ///
  /// ```swift
  /// .result(Action.loginResponse, failure: AuthenticationError.init) { [authentication] in
  ///   try await authentication.login(userName, password)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - action: The action that carries the result.
  ///   - failure: The error to send for an error the request throws.
  ///   - request: The work.
  /// - Returns: The effect.
  public static func result<Value: Sendable, Failure: Error>(
    _ action: @escaping @Sendable (Result<Value, Failure>) -> Action,
    failure: @escaping @Sendable (any Error) -> Failure,
    _ request: @escaping @concurrent @Sendable () async throws -> Value
  ) -> Self {
    .run { send in
      do {
        await send(action(.success(try await request())))
      } catch {
        await send(action(.failure(failure(error))))
      }
    }
  }

  /// An effect that feeds an action back into the reducer immediately, before any other action.
  public static func send(_ action: Action) -> Self {
    Self(instructions: [.send(action)])
  }

  /// An effect that performs the given effects in order, their operations running concurrently.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// An effect that performs the given effects in order, their operations running concurrently.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    Self(instructions: effects.flatMap(\.instructions))
  }

  /// An effect that cancels every operation started under an identifier.
  ///
  /// - Parameter id: Any hashable, sendable value, such as a case of a private enum.
  /// - Returns: The effect.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(instructions: [.cancel(CancelID(id))])
  }

  /// This effect with its operations registered under an identifier, so `.cancel(id:)` stops them.
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value.
  ///   - cancelInFlight: Whether to cancel operations already running under `id` first.
  /// - Returns: The registered effect.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    let cancelID = CancelID(id)
    var result: [Instruction] = cancelInFlight ? [.cancel(cancelID)] : []
    for instruction in instructions {
      switch instruction {
      case .run(let priority, let cancelIDs, let operation):
        result.append(
          .run(priority: priority, cancelIDs: cancelIDs + [cancelID], operation: operation))
      case .send, .cancel:
        result.append(instruction)
      }
    }
    return Self(instructions: result)
  }

  /// This effect with every action it produces transformed, to lift a child's effect to a parent.
  public func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    Effect<NewAction>(
      instructions: instructions.map { instruction in
        switch instruction {
        case .send(let action):
          .send(transform(action))
        case .run(let priority, let cancelIDs, let operation):
          .run(priority: priority, cancelIDs: cancelIDs) { send in
            await operation(Send { action in send(transform(action)) })
          }
        case .cancel(let id):
          .cancel(id)
        }
      }
    )
  }
}

/// Delivers actions from a running effect back to its store.
///
/// Call it as a function: `await send(.response(result))`. Once the effect's task is cancelled,
/// actions are dropped, so a cancelled request never reports back.
public struct Send<Action: Sendable>: Sendable {
  private let deliver: @MainActor @Sendable (Action) -> Void

  /// Creates a sender that hands actions to `deliver` on the main actor.
  public init(_ deliver: @escaping @MainActor @Sendable (Action) -> Void) {
    self.deliver = deliver
  }

  /// Sends an action to the store, unless the current task is cancelled.
  @MainActor
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}

/// A type-erased cancellation identifier.
package struct CancelID: Hashable, Sendable {
  private let base: any Hashable & Sendable

  package init(_ base: some Hashable & Sendable) {
    self.base = base
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(base))
  }
}
