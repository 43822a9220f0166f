/// Embeds a value in one case of an enum and extracts it back, to route a child's actions.
///
/// ```swift
/// static let login = CaseKey<Action, Login.Action>(embed: Action.login) {
///   if case .login(let action) = $0 { action } else { nil }
/// }
/// ```
public struct CaseKey<Root, Value>: Sendable {
  /// Wraps a child value in the parent's case.
  public let embed: @Sendable (Value) -> Root
  /// Unwraps the child value, or returns nil for any other case.
  public let extract: @Sendable (Root) -> Value?

  /// Creates a case key from its two directions.
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }
}

/// Runs a child on optional state (a presented screen) before the parent, and cancels the child's
/// effects when the parent dismisses it.
///
/// Made by ``Reducer/ifLet(_:action:then:)``.
public struct IfLet<Parent: Reducer, Child: Reducer>: Reducer {
  private let parent: Parent
  private let toChildState: WritableKeyPath<Parent.State, Child.State?>
  private let toChildAction: CaseKey<Parent.Action, Child.Action>
  private let child: Child

  init(
    parent: Parent,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CaseKey<Parent.Action, Child.Action>,
    child: Child
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child
  }

  /// Runs the child (if presented) then the parent; cancels the child's effects on dismissal.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let presentation = PresentationID(path: toChildState)
    let wasPresented = state[keyPath: toChildState] != nil
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action),
      var childState = state[keyPath: toChildState]
    {
      childEffect = child.reduce(into: &childState, action: childAction)
        .map(toChildAction.embed)
        .cancellable(id: presentation)
      state[keyPath: toChildState] = childState
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    let isPresented = state[keyPath: toChildState] != nil
    let dismissal: Effect<Parent.Action> =
      wasPresented && !isPresented ? .cancel(id: presentation) : .none
    return .merge(childEffect, parentEffect, dismissal)
  }
}

/// Identifies the effects of one presented child by where its state lives.
///
/// Key paths are immutable; the ones used here capture no arguments, so sharing them is safe.
private struct PresentationID: Hashable, @unchecked Sendable {
  let path: AnyKeyPath
}

extension Reducer {
  /// Composes a child feature presented in optional state.
  ///
  /// The child runs first on its own actions while its state is present; then this reducer runs.
  /// When this reducer sets the child's state to nil, the child's running effects are cancelled.
  /// For a screen held in an enum, expose an optional computed property whose setter writes the
  /// case back.
  ///
  /// - Parameters:
  ///   - state: Where the child's optional state lives.
  ///   - action: This feature's case for the child's actions.
  ///   - child: The child's reducer.
  /// - Returns: The combined reducer.
  public func ifLet<Child: Reducer>(
    _ state: WritableKeyPath<State, Child.State?>,
    action: CaseKey<Action, Child.Action>,
    then child: () -> Child
  ) -> IfLet<Self, Child> {
    IfLet(parent: self, toChildState: state, toChildAction: action, child: child())
  }
}
