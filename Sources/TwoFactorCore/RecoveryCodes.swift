public import Architecture
public import AuthenticationClient

/// The Recovery codes screen of a signed-in player: how many one-time codes remain, and new ones
/// on request (the old ones stop working).
public struct RecoveryCodes: Reducer {
  /// What is known about the codes and what is in flight.
  public struct State: Equatable, Sendable {
    /// The signed-in player.
    public var session: Session
    /// What the records said: how many codes remain, or that two-factor is off.
    public var remaining: Remaining?
    /// Whether a request is in flight.
    public var isRequestInFlight = false
    /// Whether the player is asked before the old codes are replaced.
    public var isConfirming = false
    /// The new codes, shown once after they are made.
    public var newCodes: [String]?
    /// Why the last request failed.
    public var errorMessage: String?

    /// Creates the screen for a signed-in player; the count loads when it starts.
    public init(session: Session) {
      self.session = session
    }
  }

  /// How many recovery codes remain.
  public enum Remaining: Equatable, Sendable {
    /// Two-factor is on, with this many unused codes.
    case codes(Int)
    /// Two-factor is off: there are no recovery codes.
    case twoFactorOff
  }

  /// What can happen on the Recovery codes screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The screen appeared: count the codes.
    case started
    /// The codes were counted (`nil`: two-factor is off).
    case countResponse(Result<Int?, AuthenticationError>)
    /// New codes were made.
    case regenerateResponse(Result<[String], AuthenticationError>)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// Make new codes (asks first).
      case newCodesTapped
      /// Yes, replace the old codes.
      case newCodesConfirmed
      /// No, keep them.
      case newCodesCancelled
      /// Leave the screen.
      case closeTapped
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// Close the screen.
      case didClose
    }
  }

  private enum CancelID: Hashable, Sendable {
    case request
  }

  /// The accounts.
  public var authentication: AuthenticationClient

  /// Creates the feature with its client.
  public init(authentication: AuthenticationClient) {
    self.authentication = authentication
  }

  /// Reduces an action of the Recovery codes screen.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      state.isRequestInFlight = true
      let session = state.session
      return .run { [authentication] send in
        do {
          await send(
            .countResponse(.success(try await authentication.remainingRecoveryCodes(session))))
        } catch {
          await send(.countResponse(.failure(AuthenticationError(error))))
        }
      }
      .cancellable(id: CancelID.request, cancelInFlight: true)

    case .countResponse(.success(let count)):
      state.isRequestInFlight = false
      state.remaining = count.map(Remaining.codes) ?? .twoFactorOff
      return .none

    case .countResponse(.failure(let error)), .regenerateResponse(.failure(let error)):
      state.isRequestInFlight = false
      state.errorMessage = error.message
      return .none

    case .view(.newCodesTapped):
      guard !state.isRequestInFlight, case .codes = state.remaining else { return .none }
      state.isConfirming = true
      return .none

    case .view(.newCodesCancelled):
      state.isConfirming = false
      return .none

    case .view(.newCodesConfirmed):
      guard state.isConfirming else { return .none }
      state.isConfirming = false
      state.isRequestInFlight = true
      state.errorMessage = nil
      let session = state.session
      return .run { [authentication] send in
        do {
          let codes = try await authentication.regenerateRecoveryCodes(session)
          await send(.regenerateResponse(.success(codes)))
        } catch {
          await send(.regenerateResponse(.failure(AuthenticationError(error))))
        }
      }
      .cancellable(id: CancelID.request, cancelInFlight: true)

    case .regenerateResponse(.success(let codes)):
      state.isRequestInFlight = false
      state.newCodes = codes
      state.remaining = .codes(codes.count)
      return .none

    case .view(.closeTapped):
      return .merge(.cancel(id: CancelID.request), .send(.delegate(.didClose)))

    case .delegate:
      return .none
    }
  }
}

extension RecoveryCodes.State {
  /// The screen's title.
  public var title: String { "Recovery codes" }

  /// How many codes remain, in one sentence.
  ///
  /// For example `7 recovery codes left.`
  public var remainingText: String? {
    switch remaining {
    case nil: isRequestInFlight ? "Counting the recovery codes…" : nil
    case .twoFactorOff:
      "Two-factor is off, so there are no recovery codes; tictactoe account 2fa-enable turns it on."
    case .codes(let count):
      "\(count == 0 ? "No" : "\(count)") recovery code\(count == 1 ? "" : "s") left."
    }
  }

  /// Whether new codes can be made: two-factor is on and nothing is in flight.
  public var canMakeNewCodes: Bool {
    guard case .codes = remaining else { return false }
    return !isRequestInFlight
  }

  /// The question asked before the old codes are replaced.
  public var confirmationMessage: String {
    "Make new recovery codes? The old ones stop working."
  }

  /// What to do with new codes, shown above them.
  public var newCodesNote: String? {
    newCodes.map { _ in
      "Keep these codes safe; each works once instead of a code from the app. They are not shown again."
    }
  }
}
