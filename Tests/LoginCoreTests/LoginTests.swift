import ArchitectureTesting
import AuthenticationClient
import LoginCore
import TestSupport
import Testing
import TwoFactorCore

@MainActor
struct LoginTests {
  /// Sign in with a new user's name and password, Create account pressed once: it asks for the
  /// password again.
  private func creatingAnAccount(with authentication: AuthenticationClient) async
    -> TestStore<Login>
  {
    let store = TestStore(
      initialState: Login.State(userName: "new@example.com", password: "correct horse")
    ) {
      Login(authentication: authentication)
    }
    await store.send(.view(.createAccountTapped)) { $0.repeatedPassword = "" }
    return store
  }

  @Test
  func aCorrectPasswordSignsIn() async {
    let store = TestStore(initialState: Login.State()) { Login(authentication: .demo) }
    #expect(!store.state.canSubmit)
    await store.send(.view(.userNameChanged("blob@example.com"))) {
      $0.userName = "blob@example.com"
    }
    await store.send(.view(.passwordChanged("password"))) { $0.password = "password" }
    #expect(store.state.canSubmit)
    await store.send(.view(.signInTapped)) { $0.isRequestInFlight = true }
    #expect(!store.state.isFormEnabled)
    #expect(store.state.showsProgress)
    let session = Session(accountID: 1, userName: "blob@example.com")
    await store.receive(.loginResponse(.success(.signedIn(session)))) {
      $0.isRequestInFlight = false
    }
    await store.receive(.delegate(.didAuthenticate(session)))
    await store.finish()
  }

  @Test
  func aWrongPasswordKeepsTheUserNameAndClearsThePassword() async {
    let store = TestStore(initialState: Login.State(userName: "blob@example.com", password: "nope"))
    {
      Login(authentication: .demo)
    }
    await store.send(.view(.signInTapped)) { $0.isRequestInFlight = true }
    await store.receive(.loginResponse(.failure(.invalidCredentials))) {
      $0.isRequestInFlight = false
      $0.errorMessage = "The user name or password is incorrect."
      $0.password = ""
    }
    #expect(store.state.isFormEnabled)
    await store.finish()
  }

  @Test
  func twoFactorIsAskedForThenTheCodeSignsIn() async {
    let store = TestStore(
      initialState: Login.State(userName: "blob2fa@example.com", password: "password")
    ) {
      Login(authentication: .demo)
    }
    let challenge = TwoFactorChallenge(userName: "blob2fa@example.com", token: "demo-token")
    await store.send(.view(.signInTapped)) { $0.isRequestInFlight = true }
    await store.receive(.loginResponse(.success(.twoFactorRequired(challenge)))) {
      $0.isRequestInFlight = false
      $0.twoFactor = TwoFactor.State(challenge: challenge)
    }
    await store.send(.twoFactor(.view(.codeChanged("1234")))) { $0.twoFactor?.code = "1234" }
    await store.send(.twoFactor(.view(.submitTapped))) {
      $0.twoFactor?.isRequestInFlight = true
    }
    let session = Session(accountID: 1, userName: "blob2fa@example.com")
    await store.receive(.twoFactor(.verifyResponse(.success(session)))) {
      $0.twoFactor?.isRequestInFlight = false
    }
    await store.receive(.twoFactor(.delegate(.didAuthenticate(session)))) {
      $0.twoFactor = nil
      $0.password = ""
    }
    await store.receive(.delegate(.didAuthenticate(session)))
    await store.finish()
  }

  @Test
  func aWrongTwoFactorCodeShowsWhy() async {
    let challenge = TwoFactorChallenge(userName: "blob2fa@example.com", token: "demo-token")
    var state = Login.State(userName: "blob2fa@example.com")
    state.twoFactor = TwoFactor.State(challenge: challenge)
    let store = TestStore(initialState: state) { Login(authentication: .demo) }
    await store.send(.twoFactor(.view(.codeChanged("0000")))) { $0.twoFactor?.code = "0000" }
    await store.send(.twoFactor(.view(.submitTapped))) {
      $0.twoFactor?.isRequestInFlight = true
    }
    await store.receive(.twoFactor(.verifyResponse(.failure(.invalidCode)))) {
      $0.twoFactor?.isRequestInFlight = false
      $0.twoFactor?.code = ""
      $0.twoFactor?.errorMessage =
        "That code is not valid. Check your authenticator app and try again."
    }
    await store.finish()
  }

  @Test
  func dismissingTwoFactorCancelsTheRequestInFlight() async {
    let challenge = TwoFactorChallenge(userName: "blob2fa@example.com", token: "demo-token")
    var authentication = AuthenticationClient.demo
    authentication.verifyTwoFactor = { _, _ in
      try await Task.sleep(for: .seconds(60))
      return Session(accountID: 1, userName: "never")
    }
    var state = Login.State(userName: "blob2fa@example.com")
    state.twoFactor = TwoFactor.State(challenge: challenge)
    state.twoFactor?.code = "1234"
    let store = TestStore(initialState: state) { Login(authentication: authentication) }
    await store.send(.twoFactor(.view(.submitTapped))) {
      $0.twoFactor?.isRequestInFlight = true
    }
    await store.send(.twoFactor(.view(.cancelTapped))) {
      $0.twoFactor?.isRequestInFlight = false
    }
    await store.receive(.twoFactor(.delegate(.didCancel))) { $0.twoFactor = nil }
    #expect(store.state.isFormEnabled)
    await store.finish()
  }

  @Test
  func createAccountSignsInTheNewAccount() async {
    // The password is asked for a second time first.
    let store = await creatingAnAccount(with: .demo)
    #expect(store.state.repeatPasswordPrompt == "Type the password again to create the account.")
    await store.send(.view(.repeatedPasswordChanged("correct horse"))) {
      $0.repeatedPassword = "correct horse"
    }
    await store.send(.view(.createAccountTapped)) {
      $0.repeatedPassword = nil
      $0.isRequestInFlight = true
      $0.isCreatingAccount = true
    }
    #expect(store.state.progressMessage == "Creating the account…")
    let session = Session(accountID: 1, userName: "new@example.com")
    await store.receive(.createAccountResponse(.success(session))) {
      $0.isRequestInFlight = false
      $0.isCreatingAccount = false
    }
    await store.receive(.delegate(.didAuthenticate(session)))
    await store.finish()
  }

  @Test
  func createAccountNeedsALongEnoughPassword() async {
    let store = TestStore(initialState: Login.State(userName: "new@example.com", password: "short"))
    {
      Login(authentication: .unimplemented)
    }
    await store.send(.view(.createAccountTapped)) {
      $0.password = ""
      $0.errorMessage = "A password needs at least 8 characters."
    }
    await store.finish()
  }

  @Test
  func playAsGuestLeavesWithoutAnAccount() async {
    let store = TestStore(initialState: Login.State()) { Login(authentication: .unimplemented) }
    await store.send(.view(.playAsGuestTapped))
    await store.receive(.delegate(.didChooseGuest))
    await store.finish()
  }

  @Test
  func theFormIgnoresTypingWhileARequestIsInFlight() async {
    var authentication = AuthenticationClient.unimplemented
    authentication.login = { _, _ in
      try await Task.sleep(for: .seconds(60))
      throw AuthenticationError.invalidCredentials
    }
    let store = TestStore(initialState: Login.State(userName: "blob@example.com", password: "pw")) {
      Login(authentication: authentication)
    }
    await store.send(.view(.signInTapped)) { $0.isRequestInFlight = true }
    await store.send(.view(.userNameChanged("other")))
    await store.send(.view(.signInTapped))
    await store.skipInFlightEffects()
    await store.finish()
  }

  @Test
  func aMistypedRepeatCreatesNothing() async {
    let store = await creatingAnAccount(with: .unimplemented)
    await store.send(.view(.repeatedPasswordChanged("correct hrose"))) {
      $0.repeatedPassword = "correct hrose"
    }
    await store.send(.view(.createAccountTapped)) {
      $0.repeatedPassword = ""
      $0.errorMessage = "The two passwords differ; type the password again."
    }
    // A new password must be repeated anew.
    await store.send(.view(.repeatedPasswordChanged("x"))) { $0.repeatedPassword = "x" }
    await store.send(.view(.passwordChanged("correct horses"))) {
      $0.password = "correct horses"
      $0.repeatedPassword = ""
    }
    await store.finish()
  }

  @Test
  func signInSaysWhatIsMissingAndNeverPlaysAsAGuest() async {
    let store = TestStore(initialState: Login.State()) { Login(authentication: .unimplemented) }
    await store.send(.view(.signInTapped)) {
      $0.errorMessage = "Enter your user name and password."
    }
    await store.send(.view(.userNameChanged("ada"))) { $0.userName = "ada" }
    await store.send(.view(.signInTapped)) { $0.errorMessage = "Enter your password." }
    await store.send(.view(.userNameChanged(" "))) { $0.userName = " " }
    await store.send(.view(.passwordChanged("secret"))) { $0.password = "secret" }
    await store.send(.view(.signInTapped)) { $0.errorMessage = "Enter your user name." }
    await store.send(.view(.createAccountTapped))
    await store.finish()
  }
}

/// The words of the Sign in screen.
struct LoginLabelTests {
  @Test func theScreenSaysWhatItOffersAndNamesItsFields() {
    let state = Login.State()
    #expect(state.title == "Sign in")
    #expect(state.prompt.contains("guest"))
    let titles = Login.State.fieldTitles
    #expect(
      [titles.userName, titles.password, titles.repeatedPassword] == [
        "User name", "Password", "Repeat the password",
      ])
  }
}
