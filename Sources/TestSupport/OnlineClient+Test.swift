public import AuthenticationClient
public import GameProtocol
public import OnlineClient

extension OnlineClient {
  /// A client whose every endpoint fails the test when called.
  public static let unimplemented = OnlineClient(
    checkServer: { _ in try failing("OnlineClient.checkServer") },
    trustServer: { _, _ in try failing("OnlineClient.trustServer") },
    accounts: { _ in
      called("OnlineClient.accounts")
      return AuthenticationClient.unimplemented
    },
    listGames: { _ in try failing("OnlineClient.listGames") },
    link: { _ in
      called("OnlineClient.link")
      return ServerLink(open: { AsyncStream { $0.finish() } }, send: { _ in }, close: {})
    },
    signOut: { _ in called("OnlineClient.signOut") },
    playerRecord: { _, _ in try failing("OnlineClient.playerRecord") }
  )

  /// A client for tests: `status` answers the fingerprint check, the accounts are `accounts`,
  /// and every other endpoint fails the test.
  public static func checking(
    _ status: TrustStatus, accounts: AuthenticationClient = .demo
  ) -> OnlineClient {
    var client = OnlineClient.unimplemented
    client.checkServer = { _ in status }
    client.accounts = { _ in accounts }
    return client
  }
}

/// A server address for tests.
extension ServerAddress {
  /// `example.org:7457`.
  public static let example = ServerAddress(host: "example.org", port: 7457)
}

private func called(_ endpoint: String) {
  unimplemented(endpoint)
}

private func failing<T>(_ endpoint: String) throws -> T {
  unimplemented(endpoint)
  throw UnimplementedError(endpoint: endpoint)
}
