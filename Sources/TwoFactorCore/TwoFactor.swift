public import Architecture
public import AuthenticationClient
import GameRules

/// The Two-factor screen: a code from an authenticator app, or a one-time recovery code.
public struct TwoFactor: Reducer {
  /// The code being typed and the request's progress.
  public struct State: Equatable, Sendable {
    /// The sign-in waiting for a code.
    public var challenge: TwoFactorChallenge
    /// The code as typed.
    public var code = ""
    /// Whether a code is being checked; the form is disabled meanwhile.
    public var isRequestInFlight = false
    /// Why the last code was refused.
    public var errorMessage: String?

    /// Creates the screen for a challenge.
    public init(challenge: TwoFactorChallenge) {
      self.challenge = challenge
    }
  }

  /// What can happen on the Two-factor screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The code was checked.
    case verifyResponse(Result<Session, AuthenticationError>)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// The code field changed.
      case codeChanged(String)
      /// Submit the code.
      case submitTapped
      /// Leave the screen, cancelling a request in flight.
      case cancelTapped
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// The code was accepted: signed in.
      case didAuthenticate(Session)
      /// The player left the screen.
      case didCancel
    }
  }

  private enum CancelID: Hashable, Sendable {
    case verify
  }

  /// Checks a code for a challenge.
  public var verifyTwoFactor: @Sendable (TwoFactorChallenge, String) async throws -> Session

  /// Creates the feature with the endpoint it calls.
  public init(
    verifyTwoFactor: @escaping @Sendable (TwoFactorChallenge, String) async throws -> Session
  ) {
    self.verifyTwoFactor = verifyTwoFactor
  }

  /// Creates the feature from an authentication client.
  public init(authentication: AuthenticationClient) {
    self.init(verifyTwoFactor: authentication.verifyTwoFactor)
  }

  /// Reduces an action of the Two-factor screen.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .view(.codeChanged(let code)):
      guard !state.isRequestInFlight else { return .none }
      state.code = code
      return .none

    case .view(.submitTapped):
      guard state.canSubmit else { return .none }
      state.isRequestInFlight = true
      state.errorMessage = nil
      let challenge = state.challenge
      let code = state.code.trimmingWhitespace()
      return .result(Action.verifyResponse, failure: AuthenticationError.init) {
        [verifyTwoFactor] in try await verifyTwoFactor(challenge, code)
      }
      .cancellable(id: CancelID.verify, cancelInFlight: true)

    case .view(.cancelTapped):
      state.isRequestInFlight = false
      return .merge(.cancel(id: CancelID.verify), .send(.delegate(.didCancel)))

    case .verifyResponse(.success(let session)):
      state.isRequestInFlight = false
      return .send(.delegate(.didAuthenticate(session)))

    case .verifyResponse(.failure(let error)):
      state.isRequestInFlight = false
      state.errorMessage = error.message
      state.code = ""
      return .none

    case .delegate:
      return .none
    }
  }
}

extension TwoFactor.State {
  /// The screen's title.
  public var title: String { "Two-factor authentication" }

  /// What to type, in one sentence.
  public var prompt: String {
    "Enter the 6-digit code from your authenticator app, or a recovery code."
  }

  /// Whether something that could be a code was typed.
  public var isFormValid: Bool { !code.trimmingWhitespace().isEmpty }

  /// Whether the field and the button take input.
  public var isFormEnabled: Bool { !isRequestInFlight }

  /// Whether the submit button does something.
  public var canSubmit: Bool { isFormValid && isFormEnabled }

  /// Whether to show a progress indicator.
  public var showsProgress: Bool { isRequestInFlight }
}

extension AuthenticationError {
  /// The error as is, or a storage error describing an unexpected one.
  public init(_ error: any Error) {
    self = error as? AuthenticationError ?? .storage("Signing in failed: \(error)")
  }
}
