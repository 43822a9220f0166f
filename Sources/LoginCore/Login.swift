public import Architecture
public import AuthenticationClient
public import GameProtocol
import GameRules
public import OnlineClient
public import TwoFactorCore

/// The Sign in screen: user name, password and server, Create account, Play as guest; it
/// presents Two-factor when the account needs a code.
///
/// With a server, the accounts are the server's. Before anything is sent to a server, its
/// certificate's fingerprint is checked against the one trusted before: a server seen for the
/// first time is trusted only when the player says so, and a changed fingerprint is refused.
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
    /// Whether the request in flight creates an account.
    public var isCreatingAccount = false
    /// Why the last request failed.
    public var errorMessage: String?
    /// The Two-factor screen, while it is shown.
    public var twoFactor: TwoFactor.State?
    /// The game server as typed; empty means this computer.
    public var server = ""
    /// The server the form's requests go to, once its fingerprint is trusted; `nil` for this
    /// computer.
    public var checkedServer: ServerAddress?
    /// The server being checked, and what waits for it.
    public var connecting: Connecting?
    /// The question asked about a server seen for the first time.
    public var trustQuestion: TrustQuestion?

    /// Creates a form, possibly with a user name and a server filled in.
    public init(userName: String = "", password: String = "", server: String = "") {
      self.userName = userName
      self.password = password
      self.server = server
    }
  }

  /// What waits for a server to be checked.
  public enum Request: Equatable, Sendable {
    case signIn
    case createAccount
    case guest
  }

  /// A server being checked before a request.
  public struct Connecting: Equatable, Sendable {
    /// The server.
    public var address: ServerAddress
    /// What follows once it is trusted.
    public var request: Request

    /// Creates the check of `address` before `request`.
    public init(address: ServerAddress, request: Request) {
      self.address = address
      self.request = request
    }
  }

  /// The question asked before trusting a server seen for the first time.
  public struct TrustQuestion: Equatable, Sendable {
    /// The server.
    public var address: ServerAddress
    /// The fingerprint of the certificate it presented.
    public var fingerprint: [UInt8]
    /// What follows once it is trusted.
    public var request: Request

    /// Creates the question about `address`, which presented `fingerprint`.
    public init(address: ServerAddress, fingerprint: [UInt8], request: Request) {
      self.address = address
      self.fingerprint = fingerprint
      self.request = request
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
    /// The server's fingerprint was compared with the one trusted before.
    case serverChecked(Result<TrustStatus, OnlineFailure>)
    /// The server's fingerprint was pinned, as the player agreed.
    case serverTrusted(Result<ServerAddress, OnlineFailure>)
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
      /// The server field changed.
      case serverChanged(String)
      /// Yes, trust the server seen for the first time.
      case trustConfirmed
      /// No, do not trust it.
      case trustCancelled
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

  /// This computer's accounts.
  public var authentication: AuthenticationClient
  /// The game servers.
  public var online: OnlineClient

  /// Creates the feature with its clients.
  public init(authentication: AuthenticationClient, online: OnlineClient = .unavailable) {
    self.authentication = authentication
    self.online = online
  }

  /// The accounts the form's requests go to: the checked server's, or this computer's.
  public func accounts(for state: State) -> AuthenticationClient {
    guard let server = state.checkedServer else { return authentication }
    return online.accounts(server)
  }

  /// Reduces an action of the Sign in screen and its Two-factor screen.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let accounts = accounts(for: state)
    return Reduce(core)
      .ifLet(\.twoFactor, action: Self.twoFactorAction) {
        TwoFactor(authentication: accounts)
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
    return .result(response, failure: AuthenticationError.init) {
      [accounts = accounts(for: state)] in
      try await call(accounts, userName, password)
    }
    .cancellable(id: CancelID.request, cancelInFlight: true)
  }

  /// Sends `request` where the form says: to this computer, or to a server once it is trusted,
  /// checking it first.
  private func proceed(_ state: inout State, _ request: Request) -> Effect<Action> {
    let typed = state.server.trimmingWhitespace()
    if typed.isEmpty {
      state.checkedServer = nil
    } else if state.checkedServer == nil {
      guard let address = ServerAddress(connectingTo: typed) else {
        // The note under the field says what it takes; a failure forgets the password.
        state.password = ""
        state.errorMessage = Self.unsentMessage
        return .none
      }
      state.isRequestInFlight = true
      state.errorMessage = nil
      state.connecting = Connecting(address: address, request: request)
      return .result(
        Action.serverChecked,
        failure: { OnlineFailure($0, or: "The server \(address) could not be reached.") }
      ) { [online] in try await online.checkServer(address) }
      .cancellable(id: CancelID.request, cancelInFlight: true)
    }
    switch request {
    case .signIn:
      return self.request(&state, Action.loginResponse) { try await $0.login($1, $2) }
    case .createAccount:
      state.isCreatingAccount = true
      return self.request(&state, Action.createAccountResponse) {
        try await $0.createAccount($1, $2)
      }
    case .guest:
      return .send(.delegate(.didChooseGuest))
    }
  }

  /// What Sign in and Create account say when the Server field holds no server address;
  /// ``serverNote`` says what it takes.
  public static let unsentMessage = "Nothing was sent: the Server field holds no server address."

  /// What the Server field takes.
  public static let serverFormatMessage =
    "The server is a host name or an address, with :PORT unless it is 7457, such as "
    + "example.org or 127.0.0.1:7457."

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
      return proceed(&state, .signIn)

    case .view(.createAccountTapped):
      guard isComplete(&state) else { return .none }
      guard state.password.count >= PasswordRule.minimumLength else {
        state.password = ""
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
      return proceed(&state, .createAccount)

    case .view(.playAsGuestTapped):
      guard state.isFormEnabled else { return .none }
      return proceed(&state, .guest)

    case .view(.serverChanged(let server)):
      guard state.isFormEnabled else { return .none }
      state.server = server
      state.checkedServer = nil
      return .none

    case .view(.trustConfirmed):
      guard let question = state.trustQuestion else { return .none }
      state.trustQuestion = nil
      state.isRequestInFlight = true
      state.connecting = Connecting(address: question.address, request: question.request)
      let (address, fingerprint) = (question.address, question.fingerprint)
      return .result(
        Action.serverTrusted, failure: { OnlineFailure($0, or: "The server could not be trusted.") }
      ) { [online] in
        try await online.trustServer(address, fingerprint)
        return address
      }
      .cancellable(id: CancelID.request, cancelInFlight: true)

    case .view(.trustCancelled):
      guard let question = state.trustQuestion else { return .none }
      state.trustQuestion = nil
      state.password = ""
      // The repeat goes with the password it repeated.
      if state.repeatedPassword != nil { state.repeatedPassword = "" }
      state.errorMessage = "\(question.address) is not trusted; nothing was sent to it."
      return .none

    case .serverChecked(.success(let status)):
      guard let connecting = state.connecting else { return .none }
      state.connecting = nil
      state.isRequestInFlight = false
      switch status {
      case .trusted:
        state.checkedServer = connecting.address
        return proceed(&state, connecting.request)
      case .firstUse(let fingerprint):
        state.trustQuestion = TrustQuestion(
          address: connecting.address, fingerprint: fingerprint, request: connecting.request)
      case .changed(let pinned, let presented):
        state.password = ""
        state.errorMessage = TrustStatus.changedFingerprintMessage(
          connecting.address, pinned: pinned, presented: presented)
      }
      return .none

    case .serverTrusted(.success(let address)):
      guard let connecting = state.connecting, connecting.address == address else { return .none }
      state.connecting = nil
      state.isRequestInFlight = false
      state.checkedServer = address
      return proceed(&state, connecting.request)

    case .serverChecked(.failure(let failure)), .serverTrusted(.failure(let failure)):
      state.connecting = nil
      state.isRequestInFlight = false
      state.password = ""
      state.repeatedPassword = nil
      state.errorMessage = failure.message
      return .none

    case .loginResponse(.success(.signedIn(let session))),
      .createAccountResponse(.success(let session)):
      state.isRequestInFlight = false
      state.isCreatingAccount = false
      return .send(.delegate(.didAuthenticate(session)))

    case .loginResponse(.success(.twoFactorRequired(let challenge))):
      state.isRequestInFlight = false
      state.twoFactor = TwoFactor.State(challenge: challenge)
      return .none

    case .loginResponse(.failure(let error)), .createAccountResponse(.failure(let error)):
      state.isRequestInFlight = false
      state.isCreatingAccount = false
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

  /// What the screen offers, in one sentence under the title.
  public var prompt: String {
    "Sign in to keep your games and stats, create an account, or play as a guest."
  }

  /// The labels of the fields: the user name, the password, and the password again.
  public static let fieldTitles = (
    userName: "User name", password: "Password", repeatedPassword: "Repeat the password"
  )

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
  public var isFormEnabled: Bool { !isRequestInFlight && twoFactor == nil && trustQuestion == nil }

  /// What the progress indicator says while a request is in flight.
  public var progressMessage: String? {
    guard isRequestInFlight else { return nil }
    if let connecting { return "Connecting to \(connecting.address)…" }
    return isCreatingAccount ? "Creating the account…" : "Signing in…"
  }

  /// The question about a server seen for the first time, with the fingerprint to compare with
  /// the one the server printed when it started.
  public var trustQuestionMessage: String? {
    trustQuestion.map { question in
      "\(question.address) is new to this computer. Its fingerprint is "
        + "\(ServerFingerprint.text(question.fingerprint)). Trust it? Compare it with the one "
        + "the server printed at start."
    }
  }

  /// The label of the Server field.
  public static let serverFieldTitle = "Server"

  /// The heading of the question about a server seen for the first time.
  public static let trustQuestionTitle = "Trust this server?"
  /// The answers to the question about a server seen for the first time.
  public static let trustAnswers = (trust: "Trust it", refuse: "Do not trust it")

  /// Who the form signs in with: this computer, or the server typed.
  public var serverNote: String {
    let typed = server.trimmingWhitespace()
    guard !typed.isEmpty else { return "Accounts on this computer; type a server to play online." }
    guard let address = ServerAddress(connectingTo: typed) else {
      return Login.serverFormatMessage
    }
    return "Accounts on \(address)."
  }

  /// Whether Sign in and Create account do something.
  public var canSubmit: Bool { isFormValid && isFormEnabled }

  /// Whether to show a progress indicator.
  public var showsProgress: Bool { isRequestInFlight }
}
