/// A feature's logic: how its state evolves in response to an action, and what to do next.
///
/// Reducers are plain structs holding the clients they need; they never reach the outside world
/// themselves but describe that work as an ``Effect``.
public protocol Reducer<State, Action> {
  /// The facts the feature holds.
  associatedtype State: Equatable & Sendable
  /// The events the feature reacts to.
  associatedtype Action: Sendable

  /// Evolves the state for an action and returns the work to do next.
  ///
  /// - Parameters:
  ///   - state: The current state, changed in place.
  ///   - action: What happened.
  /// - Returns: The effect to run; its actions are fed back into the reducer.
  func reduce(into state: inout State, action: Action) -> Effect<Action>
}

/// A reducer made from a closure, for logic that needs no type of its own.
public struct Reduce<State: Equatable & Sendable, Action: Sendable>: Reducer {
  private let body: (inout State, Action) -> Effect<Action>

  /// Creates a reducer that runs `body`.
  public init(_ body: @escaping (inout State, Action) -> Effect<Action>) {
    self.body = body
  }

  /// Runs the closure.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body(&state, action)
  }
}
