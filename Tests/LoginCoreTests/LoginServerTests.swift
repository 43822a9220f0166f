import ArchitectureTesting
import AuthenticationClient
import GameProtocol
import LoginCore
import OnlineClient
import Synchronization
import TestSupport
import Testing
import TwoFactorCore

/// Sign in on a game server: the Server field, the fingerprint trusted on first use, a changed
/// fingerprint refused, and the server's accounts used for the sign-in and its code.
@MainActor
struct LoginServerTests {
  private let fingerprint = [UInt8](repeating: 0xab, count: 32)
  private let other = [UInt8](repeating: 0x01, count: 32)
  private let session = Session(accountID: 7, userName: "ann@example.org", token: "server-token")

  /// The server's accounts: `ann@example.org` with `password` signs in with a server token.
  private var serverAccounts: AuthenticationClient {
    var accounts = AuthenticationClient.unimplemented
    accounts.login = { [session] userName, password in
      guard userName == "ann@example.org", password == "password" else {
        throw AuthenticationError.invalidCredentials
      }
      return .signedIn(session)
    }
    return accounts
  }

  private func form(server: String) -> Login.State {
    var state = Login.State(userName: "ann@example.org", password: "password")
    state.server = server
    return state
  }

  @Test func aNewServerIsTrustedOnlyWhenThePlayerSaysSo() async {
    let pinned = Mutex<[UInt8]?>(nil)
    var online = OnlineClient.checking(
      .firstUse(fingerprint: fingerprint), accounts: serverAccounts)
    online.trustServer = { address, fingerprint in
      #expect(address == .example)
      pinned.withLock { $0 = fingerprint }
    }
    let store = TestStore(initialState: form(server: " example.org ")) {
      // This computer's accounts are never asked.
      Login(authentication: .unimplemented, online: online)
    }
    await store.send(.view(.signInTapped)) {
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .signIn)
    }
    #expect(store.state.progressMessage == "Connecting to example.org:7457…")
    await store.receive(.serverChecked(.success(.firstUse(fingerprint: fingerprint)))) {
      $0.isRequestInFlight = false
      $0.connecting = nil
      $0.trustQuestion = Login.TrustQuestion(
        address: .example, fingerprint: self.fingerprint, request: .signIn)
    }
    #expect(!store.state.isFormEnabled)
    #expect(
      store.state.trustQuestionMessage
        == "example.org:7457 is new to this computer. Its fingerprint is SHA256:"
        + String(repeating: "ab", count: 32)
        + ". Trust it? Compare it with the one the server printed at start.")
    #expect(pinned.withLock { $0 } == nil)
    await store.send(.view(.trustConfirmed)) {
      $0.trustQuestion = nil
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .signIn)
    }
    await store.receive(.serverTrusted(.success(.example))) {
      $0.connecting = nil
      $0.checkedServer = .example
      $0.isRequestInFlight = true
    }
    #expect(pinned.withLock { $0 } == fingerprint)
    await store.receive(.loginResponse(.success(.signedIn(session)))) {
      $0.isRequestInFlight = false
    }
    await store.receive(.delegate(.didAuthenticate(session)))
    await store.finish()
  }

  @Test func aTrustedServerIsSignedInAtOnce() async {
    let store = TestStore(initialState: form(server: "example.org:7457")) {
      Login(
        authentication: .unimplemented,
        online: .checking(.trusted, accounts: serverAccounts))
    }
    await store.send(.view(.signInTapped)) {
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .signIn)
    }
    await store.receive(.serverChecked(.success(.trusted))) {
      $0.connecting = nil
      $0.checkedServer = .example
    }
    await store.receive(.loginResponse(.success(.signedIn(session)))) {
      $0.isRequestInFlight = false
    }
    await store.receive(.delegate(.didAuthenticate(session)))
    // A second sign-in on the same server is not checked again.
    await store.send(.view(.passwordChanged("wrong"))) { $0.password = "wrong" }
    await store.send(.view(.signInTapped)) { $0.isRequestInFlight = true }
    await store.receive(.loginResponse(.failure(.invalidCredentials))) {
      $0.isRequestInFlight = false
      $0.password = ""
      $0.errorMessage = "The user name or password is incorrect."
    }
    // Another server is.
    await store.send(.view(.serverChanged("example.net"))) {
      $0.server = "example.net"
      $0.checkedServer = nil
    }
    await store.finish()
  }

  @Test func aChangedFingerprintIsRefusedWithHowToAcceptIt() async {
    let store = TestStore(initialState: form(server: "example.org")) {
      Login(
        authentication: .unimplemented,
        online: .checking(
          .changed(pinned: other, presented: fingerprint), accounts: .unimplemented))
    }
    await store.send(.view(.signInTapped)) {
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .signIn)
    }
    let new = "SHA256:" + String(repeating: "ab", count: 32)
    await store.receive(
      .serverChecked(.success(.changed(pinned: other, presented: fingerprint)))
    ) {
      $0.isRequestInFlight = false
      $0.connecting = nil
      $0.password = ""
      $0.errorMessage =
        "The server at example.org:7457 presented the fingerprint \(new), but SHA256:"
        + String(repeating: "01", count: 32)
        + " was trusted before; nothing was sent to it. If its certificate really changed, "
        + "trust the new one with tictactoe games --server example.org:7457 "
        + "--server-fingerprint \(new)."
    }
    #expect(store.state.checkedServer == nil)
    await store.finish()
  }

  @Test func aDistrustedServerGetsNothing() async {
    let store = TestStore(initialState: form(server: "example.org")) {
      Login(
        authentication: .unimplemented,
        online: .checking(.firstUse(fingerprint: fingerprint), accounts: .unimplemented))
    }
    await store.send(.view(.signInTapped)) {
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .signIn)
    }
    await store.receive(.serverChecked(.success(.firstUse(fingerprint: fingerprint)))) {
      $0.isRequestInFlight = false
      $0.connecting = nil
      $0.trustQuestion = Login.TrustQuestion(
        address: .example, fingerprint: self.fingerprint, request: .signIn)
    }
    // The form takes nothing while the question is asked.
    await store.send(.view(.userNameChanged("mallory")))
    await store.send(.view(.trustCancelled)) {
      $0.trustQuestion = nil
      $0.password = ""
      $0.errorMessage = "example.org:7457 is not trusted; nothing was sent to it."
    }
    await store.finish()
  }

  /// Creating an account on a server refused trust: the password and its repeat both go.
  @Test func aDistrustedServerForANewAccountClearsThePasswordAndItsRepeat() async {
    var state = form(server: "example.org")
    (state.password, state.repeatedPassword) = ("correct horse", "correct horse")
    state.trustQuestion = Login.TrustQuestion(
      address: .example, fingerprint: fingerprint, request: .signIn)
    let store = TestStore(initialState: state) {
      Login(authentication: .unimplemented, online: .unimplemented)
    }
    await store.send(.view(.trustCancelled)) {
      $0.trustQuestion = nil
      $0.password = ""
      $0.repeatedPassword = ""
      $0.errorMessage = "example.org:7457 is not trusted; nothing was sent to it."
    }
    await store.finish()
  }

  @Test func aHostileServerNameIsRefusedWithoutEchoingIt() async {
    for typed in [
      String(repeating: "a", count: 100_000), "evil\u{1B}[2J.example", "host:99999", "[::1",
      "exa mple.org",
    ] {
      let store = TestStore(initialState: form(server: typed)) {
        Login(authentication: .unimplemented, online: .unimplemented)
      }
      // The note says what the field takes, the error that nothing was sent; the password
      // is forgotten, as at every failure.
      await store.send(.view(.signInTapped)) {
        $0.password = ""
        $0.errorMessage = "Nothing was sent: the Server field holds no server address."
      }
      #expect(store.state.serverNote == Login.serverFormatMessage)
      await store.finish()
    }
  }

  @Test func anUnreachableServerIsSaidAndTheFormKept() async {
    var online = OnlineClient.unimplemented
    online.checkServer = { _ in
      throw OnlineFailure("Cannot reach the server at example.org:7457: connection refused.")
    }
    let store = TestStore(initialState: form(server: "example.org")) {
      Login(authentication: .unimplemented, online: online)
    }
    await store.send(.view(.signInTapped)) {
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .signIn)
    }
    await store.receive(
      .serverChecked(
        .failure(
          OnlineFailure("Cannot reach the server at example.org:7457: connection refused.")))
    ) {
      $0.isRequestInFlight = false
      $0.connecting = nil
      $0.password = ""
      $0.errorMessage = "Cannot reach the server at example.org:7457: connection refused."
    }
    #expect(store.state.userName == "ann@example.org")
    #expect(store.state.server == "example.org")
    await store.finish()
  }

  @Test func aGuestWatchesOnATrustedServer() async {
    var state = Login.State()
    state.server = "example.org"
    let store = TestStore(initialState: state) {
      Login(authentication: .unimplemented, online: .checking(.trusted, accounts: .unimplemented))
    }
    await store.send(.view(.playAsGuestTapped)) {
      $0.isRequestInFlight = true
      $0.connecting = Login.Connecting(address: .example, request: .guest)
    }
    await store.receive(.serverChecked(.success(.trusted))) {
      $0.isRequestInFlight = false
      $0.connecting = nil
      $0.checkedServer = .example
    }
    await store.receive(.delegate(.didChooseGuest))
    await store.finish()
  }

  @Test func theCodeGoesToTheServerThatAskedForIt() async {
    var accounts = AuthenticationClient.unimplemented
    let challenge = TwoFactorChallenge(userName: "ann@example.org", token: "server")
    accounts.login = { _, _ in .twoFactorRequired(challenge) }
    accounts.verifyTwoFactor = { [session] asked, code in
      #expect(asked == challenge)
      guard code == "123456" else { throw AuthenticationError.invalidCode }
      return session
    }
    var state = form(server: "example.org")
    state.checkedServer = .example
    let store = TestStore(initialState: state) {
      Login(authentication: .unimplemented, online: .checking(.trusted, accounts: accounts))
    }
    await store.send(.view(.signInTapped)) { $0.isRequestInFlight = true }
    await store.receive(.loginResponse(.success(.twoFactorRequired(challenge)))) {
      $0.isRequestInFlight = false
      $0.twoFactor = TwoFactor.State(challenge: challenge)
    }
    await store.send(.twoFactor(.view(.codeChanged("123456")))) {
      $0.twoFactor?.code = "123456"
    }
    await store.send(.twoFactor(.view(.submitTapped))) { $0.twoFactor?.isRequestInFlight = true }
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
}
