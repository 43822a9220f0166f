public import AuthenticationClient

extension AuthenticationClient {
  /// A client whose every endpoint fails the test when called.
  public static let unimplemented = AuthenticationClient(
    login: { _, _ in try fail("AuthenticationClient.login") },
    verifyTwoFactor: { _, _ in try fail("AuthenticationClient.verifyTwoFactor") },
    createAccount: { _, _ in try fail("AuthenticationClient.createAccount") },
    changePassword: { _, _ in try fail("AuthenticationClient.changePassword") },
    deleteAccount: { _ in try fail("AuthenticationClient.deleteAccount") },
    listAccounts: { try fail("AuthenticationClient.listAccounts") },
    beginTwoFactor: { _, _ in try fail("AuthenticationClient.beginTwoFactor") },
    confirmTwoFactor: { _, _ in try fail("AuthenticationClient.confirmTwoFactor") },
    disableTwoFactor: { _ in try fail("AuthenticationClient.disableTwoFactor") },
    remainingRecoveryCodes: { _ in try fail("AuthenticationClient.remainingRecoveryCodes") },
    regenerateRecoveryCodes: { _ in try fail("AuthenticationClient.regenerateRecoveryCodes") },
    checkSession: { _ in try fail("AuthenticationClient.checkSession") }
  )

  /// A client following the demo rules.
  ///
  /// A user name containing `@` with the password `password` signs in; if it also contains
  /// `2fa`, the code `1234` is then needed. New accounts need 8 characters. Sessions get account
  /// id 1 and never end; endpoints outside sign-in fail the test.
  public static let demo: AuthenticationClient = {
    var client = AuthenticationClient.unimplemented
    client.login = { userName, password in
      guard userName.contains("@"), password == "password" else {
        throw AuthenticationError.invalidCredentials
      }
      guard !userName.contains("2fa") else {
        return .twoFactorRequired(TwoFactorChallenge(userName: userName, token: "demo-token"))
      }
      return .signedIn(Session(accountID: 1, userName: userName))
    }
    client.verifyTwoFactor = { challenge, code in
      guard code == "1234" else { throw AuthenticationError.invalidCode }
      return Session(accountID: 1, userName: challenge.userName)
    }
    client.createAccount = { userName, password in
      guard password.count >= 8 else { throw AuthenticationError.passwordTooShort }
      return Session(accountID: 1, userName: userName)
    }
    client.checkSession = { _ in }
    return client
  }()
}

private func fail<T>(_ endpoint: String) throws -> T {
  unimplemented(endpoint)
  throw UnimplementedError(endpoint: endpoint)
}
