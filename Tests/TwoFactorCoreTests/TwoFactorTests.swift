import ArchitectureTesting
import AuthenticationClient
import TestSupport
import Testing
import TwoFactorCore

@MainActor
struct TwoFactorTests {
  private let challenge = TwoFactorChallenge(userName: "blob2fa@example.com", token: "demo-token")

  @Test
  func aValidCodeSignsIn() async {
    let store = TestStore(initialState: TwoFactor.State(challenge: challenge)) {
      TwoFactor(authentication: .demo)
    }
    #expect(!store.state.canSubmit)
    await store.send(.view(.submitTapped))
    await store.send(.view(.codeChanged("1234"))) { $0.code = "1234" }
    #expect(store.state.canSubmit)
    await store.send(.view(.submitTapped)) { $0.isRequestInFlight = true }
    #expect(!store.state.isFormEnabled)
    #expect(store.state.showsProgress)
    let session = Session(accountID: 1, userName: "blob2fa@example.com")
    await store.receive(.verifyResponse(.success(session))) { $0.isRequestInFlight = false }
    await store.receive(.delegate(.didAuthenticate(session)))
    await store.finish()
  }

  @Test
  func aWrongCodeShowsWhy() async {
    let store = TestStore(initialState: TwoFactor.State(challenge: challenge)) {
      TwoFactor(authentication: .demo)
    }
    await store.send(.view(.codeChanged("9999"))) { $0.code = "9999" }
    await store.send(.view(.submitTapped)) { $0.isRequestInFlight = true }
    await store.receive(.verifyResponse(.failure(.invalidCode))) {
      $0.isRequestInFlight = false
      $0.errorMessage = "That code is not valid. Check your authenticator app and try again."
      $0.code = ""
    }
    await store.finish()
  }

  @Test
  func cancellingCancelsTheRequestInFlight() async {
    let store = TestStore(initialState: TwoFactor.State(challenge: challenge)) {
      TwoFactor { _, _ in
        try await Task.sleep(for: .seconds(60))
        return Session(accountID: 1, userName: "never")
      }
    }
    await store.send(.view(.codeChanged("1234"))) { $0.code = "1234" }
    await store.send(.view(.submitTapped)) { $0.isRequestInFlight = true }
    await store.send(.view(.codeChanged("12")))
    await store.send(.view(.cancelTapped)) { $0.isRequestInFlight = false }
    await store.receive(.delegate(.didCancel))
    await store.finish()
  }
}
