public import Architecture
public import AuthenticationClient
import GameRules
public import TwoFactorCore

/// The Sign in screen: user name and password, Create account, Play as guest; it presents
/// Two-factor when the account needs a code.
public struct Login: Reducer {
  /// The form, the request's progress and the presented Two-factor screen.
  public struct State: Equatable, Sendable {
    /// The user name as typed.
    public var userName = ""
    /// The password as typed; cleared after a failure.
    public var password = ""
    /// The password typed again to create an account, while Create account asks for it; `nil`
    /// otherwise.
    public var repeatedPassword: String?
    /// Whether a request is in flight; the form is disabled meanwhile.
    public var isRequestInFlight = false
    /// Why the last request failed.
    public var errorMessage: String?
    /// The Two-factor screen, while it is shown.
    public var twoFactor: TwoFactor.State?

    /// Creates an empty form.
    public init(userName: String = "", password: String = "") {
      self.userName = userName
      self.password = password
    }
  }

  /// What can happen on the Sign in screen.
  public enum Action: Equatable, Sendable {
    /// The player did something.
    case view(View)
    /// The user name and password were checked.
    case loginResponse(Result<LoginResponse, AuthenticationError>)
    /// An account was created.
    case createAccountResponse(Result<Session, AuthenticationError>)
    /// The Two-factor screen's actions.
    case twoFactor(TwoFactor.Action)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the player can do.
    public enum View: Equatable, Sendable {
      /// The user name field changed.
      case userNameChanged(String)
      /// The password field changed.
      case passwordChanged(String)
      /// The field repeating the new account's password changed.
      case repeatedPasswordChanged(String)
      /// Sign in with the form.
      case signInTapped
      /// Create an account from the form.
      case createAccountTapped
      /// Play without an account.
      case playAsGuestTapped
    }

    /// What the parent must act on.
    public enum Delegate: Equatable, Sendable {
      /// Signed in (after two-factor when needed).
      case didAuthenticate(Session)
      /// The player chose to play as a guest.
      case didChooseGuest
    }
  }

  private enum CancelID: Hashable, Sendable {
    case request
  }

  /// Routes the Two-factor screen's actions.
  public static let twoFactorAction = CaseKey<Action, TwoFactor.Action>(embed: Action.twoFactor) {
    if case .twoFactor(let action) = $0 { action } else { nil }
  }

  /// The accounts.
  public var authentication: AuthenticationClient

  /// Creates the feature with its client.
  public init(authentication: AuthenticationClient) {
    self.authentication = authentication
  }

  /// Reduces an action of the Sign in screen and its Two-factor screen.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    Reduce(core)
      .ifLet(\.twoFactor, action: Self.twoFactorAction) {
        TwoFactor(authentication: authentication)
      }
      .reduce(into: &state, action: action)
  }

  /// Whether the form takes a request now, saying what is missing when it does not.
  private func isComplete(_ state: inout State) -> Bool {
    guard state.isFormEnabled else { return false }
    guard let missing = state.missingField else { return true }
    state.errorMessage = missing
    return false
  }

  /// Sends the user name and password to the accounts, the form disabled meanwhile.
  private func request<Value: Sendable>(
    _ state: inout State,
    _ response: @escaping @Sendable (Result<Value, AuthenticationError>) -> Action,
    _ call:
      @escaping @concurrent @Sendable (AuthenticationClient, String, String) async throws
      -> Value
  ) -> Effect<Action> {
    state.repeatedPassword = nil
    state.isRequestInFlight = true
    state.errorMessage = nil
    let userName = state.userName.trimmingWhitespace()
    let password = state.password
    return .result(response, failure: AuthenticationError.init) { [authentication] in
      try await call(authentication, userName, password)
    }
    .cancellable(id: CancelID.request, cancelInFlight: true)
  }

  private func core(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .view(.userNameChanged(let userName)):
      guard state.isFormEnabled else { return .none }
      state.userName = userName
      return .none

    case .view(.passwordChanged(let password)):
      guard state.isFormEnabled else { return .none }
      state.password = password
      // A changed password has to be repeated anew.
      if state.repeatedPassword != nil { state.repeatedPassword = "" }
      return .none

    case .view(.repeatedPasswordChanged(let password)):
      guard state.isFormEnabled, state.repeatedPassword != nil else { return .none }
      state.repeatedPassword = password
      return .none

    case .view(.signInTapped):
      // Sign in signs in, or says what is missing: never anything else.
      guard isComplete(&state) else { return .none }
      return request(&state, Action.loginResponse) { try await $0.login($1, $2) }

    case .view(.createAccountTapped):
      guard isComplete(&state) else { return .none }
      guard state.password.count >= PasswordRule.minimumLength else {
        state.errorMessage = AuthenticationError.passwordTooShort.message
        return .none
      }
      // The password is asked for twice, so a typo cannot lock the player out.
      guard let repeated = state.repeatedPassword, !repeated.isEmpty else {
        state.repeatedPassword = ""
        state.errorMessage = nil
        return .none
      }
      guard repeated == state.password else {
        state.repeatedPassword = ""
        state.errorMessage = "The two passwords differ; type the password again."
        return .none
      }
      return request(&state, Action.createAccountResponse) { try await $0.createAccount($1, $2) }

    case .view(.playAsGuestTapped):
      guard state.isFormEnabled else { return .none }
      return .send(.delegate(.didChooseGuest))

    case .loginResponse(.success(.signedIn(let session))),
      .createAccountResponse(.success(let session)):
      state.isRequestInFlight = false
      return .send(.delegate(.didAuthenticate(session)))

    case .loginResponse(.success(.twoFactorRequired(let challenge))):
      state.isRequestInFlight = false
      state.twoFactor = TwoFactor.State(challenge: challenge)
      return .none

    case .loginResponse(.failure(let error)), .createAccountResponse(.failure(let error)):
      state.isRequestInFlight = false
      state.errorMessage = error.message
      state.password = ""
      state.repeatedPassword = nil
      return .none

    case .twoFactor(.delegate(.didAuthenticate(let session))):
      state.twoFactor = nil
      state.password = ""
      return .send(.delegate(.didAuthenticate(session)))

    case .twoFactor(.delegate(.didCancel)):
      state.twoFactor = nil
      state.password = ""
      return .none

    case .twoFactor, .delegate:
      return .none
    }
  }
}

extension Login.State {
  /// The screen's title.
  public var title: String { "Sign in" }

  /// Whether both fields are filled in.
  public var isFormValid: Bool { missingField == nil }

  /// What Sign in still needs, in one sentence, or `nil` when both fields are filled in.
  public var missingField: String? {
    let hasName = !userName.trimmingWhitespace().isEmpty
    switch (hasName, !password.isEmpty) {
    case (true, true): return nil
    case (false, false): return "Enter your user name and password."
    case (false, true): return "Enter your user name."
    case (true, false): return "Enter your password."
    }
  }

  /// Whether Create account waits for the password a second time.
  public var isRepeatingPassword: Bool { repeatedPassword != nil }

  /// What the form asks while Create account waits for the password again.
  public var repeatPasswordPrompt: String? {
    isRepeatingPassword ? "Type the password again to create the account." : nil
  }

  /// Whether the fields and buttons take input.
  public var isFormEnabled: Bool { !isRequestInFlight && twoFactor == nil }

  /// Whether Sign in and Create account do something.
  public var canSubmit: Bool { isFormValid && isFormEnabled }

  /// Whether to show a progress indicator.
  public var showsProgress: Bool { isRequestInFlight }
}
