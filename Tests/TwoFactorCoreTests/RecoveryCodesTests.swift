import ArchitectureTesting
import AuthenticationClient
import TestSupport
import Testing
import TwoFactorCore

@MainActor
struct RecoveryCodesTests {
  private let session = Session(accountID: 1, userName: "ada", token: "t")

  @Test
  func theCountShowsAndNewCodesReplaceTheOldOnesOnceConfirmed() async {
    var authentication = AuthenticationClient.unimplemented
    authentication.remainingRecoveryCodes = { _ in 3 }
    let codes = (1...8).map { "code-\($0)" }
    authentication.regenerateRecoveryCodes = { session in
      #expect(session.token == "t")
      return codes
    }
    let store = TestStore(initialState: RecoveryCodes.State(session: session)) {
      RecoveryCodes(authentication: authentication)
    }
    await store.send(.started) { $0.isRequestInFlight = true }
    #expect(store.state.remainingText == "Counting the recovery codes…")
    await store.receive(.countResponse(.success(3))) {
      $0.isRequestInFlight = false
      $0.remaining = .codes(3)
    }
    #expect(store.state.remainingText == "3 recovery codes left.")
    await store.send(.view(.newCodesTapped)) { $0.isConfirming = true }
    await store.send(.view(.newCodesCancelled)) { $0.isConfirming = false }
    await store.send(.view(.newCodesTapped)) { $0.isConfirming = true }
    await store.send(.view(.newCodesConfirmed)) {
      $0.isConfirming = false
      $0.isRequestInFlight = true
    }
    await store.receive(.regenerateResponse(.success(codes))) {
      $0.isRequestInFlight = false
      $0.newCodes = codes
      $0.remaining = .codes(8)
    }
    #expect(store.state.remainingText == "8 recovery codes left.")
    #expect(store.state.newCodesNote != nil)
    await store.send(.view(.closeTapped))
    await store.receive(.delegate(.didClose))
    await store.finish()
  }

  @Test
  func withoutTwoFactorThereAreNoCodesToMake() async {
    var authentication = AuthenticationClient.unimplemented
    authentication.remainingRecoveryCodes = { _ in nil }
    let store = TestStore(initialState: RecoveryCodes.State(session: session)) {
      RecoveryCodes(authentication: authentication)
    }
    await store.send(.started) { $0.isRequestInFlight = true }
    await store.receive(.countResponse(.success(nil))) {
      $0.isRequestInFlight = false
      $0.remaining = .twoFactorOff
    }
    #expect(!store.state.canMakeNewCodes)
    await store.send(.view(.newCodesTapped))
    await store.finish()
  }

  @Test
  func anExpiredSessionIsSaid() async {
    var authentication = AuthenticationClient.unimplemented
    authentication.remainingRecoveryCodes = { _ in throw AuthenticationError.notSignedIn }
    let store = TestStore(initialState: RecoveryCodes.State(session: session)) {
      RecoveryCodes(authentication: authentication)
    }
    await store.send(.started) { $0.isRequestInFlight = true }
    await store.receive(.countResponse(.failure(.notSignedIn))) {
      $0.isRequestInFlight = false
      $0.errorMessage = "That needs a signed-in player; sign in again."
    }
    await store.finish()
  }
}
