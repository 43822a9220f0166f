public import AuthenticationClient
public import GameProtocol

/// How a server's certificate compares with the fingerprints this computer trusts.
public enum TrustStatus: Equatable, Sendable {
  /// The server presented the fingerprint pinned for its address.
  case trusted
  /// Nothing is pinned for this address yet: the player decides whether to trust it.
  case firstUse(fingerprint: [UInt8])
  /// The server presented another fingerprint than the one pinned: it is refused.
  case changed(pinned: [UInt8], presented: [UInt8])
}

extension TrustStatus {
  /// The refusal of a server whose fingerprint changed, saying how to accept the new one from
  /// either front end: a command that pins it in this computer's database.
  public static func changedFingerprintMessage(
    _ address: ServerAddress, pinned: [UInt8], presented: [UInt8]
  ) -> String {
    let new = ServerFingerprint.text(presented)
    return "The server at \(address) presented the fingerprint \(new), but "
      + "\(ServerFingerprint.text(pinned)) was trusted before; nothing was sent to it. If its "
      + "certificate really changed, trust the new one with tictactoe games --server \(address) "
      + "--server-fingerprint \(new)."
  }
}

/// The game servers, as the features see them: whether a server is trusted, its accounts, its
/// games, and connections that carry one game.
///
/// The live value speaks TLS to real servers and pins their fingerprints in this computer's
/// database; tests script every endpoint.
public struct OnlineClient: Sendable {
  /// Connects to the server and compares its certificate with the pinned fingerprint, without
  /// pinning anything and without sending a secret.
  public var checkServer: @Sendable (_ address: ServerAddress) async throws -> TrustStatus
  /// Pins `fingerprint` for the server's address: the player trusts it.
  public var trustServer:
    @Sendable (_ address: ServerAddress, _ fingerprint: [UInt8]) async throws -> Void
  /// The accounts on the server, with the same ``AuthenticationError`` refusals as on this
  /// computer.
  ///
  /// Sign in, two-factor and recovery codes go over one connection kept for the sign-in.
  public var accounts: @Sendable (_ address: ServerAddress) -> AuthenticationClient
  /// The games the server lists: open ones first, then those being played.
  public var listGames: @Sendable (_ address: ServerAddress) async throws -> [GameListing]
  /// The link to the server that carries a game.
  ///
  /// The same link for the same server, so that a game's messages go on the connection it
  /// opened. It only reaches a server whose fingerprint is pinned.
  public var link: @Sendable (_ address: ServerAddress) -> ServerLink
  /// Forgets the connection kept for the server's accounts (after signing out).
  public var signOut: @Sendable (_ address: ServerAddress) async -> Void
  /// An account's record on the server: its stats and rating, and its latest finished games,
  /// newest first (one page of its history).
  public var playerRecord:
    @Sendable (_ address: ServerAddress, _ userName: String) async throws -> (
      stats: PlayerStats, recentGames: [FinishedGame]
    )

  /// Creates a client from its endpoints.
  ///
  /// Each endpoint throws ``OnlineFailure``.
  public init(
    checkServer: @escaping @Sendable (_ address: ServerAddress) async throws -> TrustStatus,
    trustServer:
      @escaping @Sendable (_ address: ServerAddress, _ fingerprint: [UInt8]) async throws -> Void,
    accounts: @escaping @Sendable (_ address: ServerAddress) -> AuthenticationClient,
    listGames: @escaping @Sendable (_ address: ServerAddress) async throws -> [GameListing],
    link: @escaping @Sendable (_ address: ServerAddress) -> ServerLink,
    signOut: @escaping @Sendable (_ address: ServerAddress) async -> Void,
    playerRecord:
      @escaping @Sendable (_ address: ServerAddress, _ userName: String) async throws -> (
        stats: PlayerStats, recentGames: [FinishedGame]
      ) = { _, _ in
        throw OnlineFailure("Online play is not available in this program.", isPermanent: true)
      }
  ) {
    self.checkServer = checkServer
    self.trustServer = trustServer
    self.accounts = accounts
    self.listGames = listGames
    self.link = link
    self.signOut = signOut
    self.playerRecord = playerRecord
  }

  /// A client for a build or a front end without the network: every request fails with one
  /// sentence, and links close at once.
  public static let unavailable: OnlineClient = {
    let sentence = "Online play is not available in this program."
    let failure = OnlineFailure(sentence, isPermanent: true)
    let refusal = AuthenticationError.storage(sentence)
    return OnlineClient(
      checkServer: { _ in throw failure },
      trustServer: { _, _ in throw failure },
      accounts: { _ in
        AuthenticationClient(
          login: { _, _ in throw refusal },
          verifyTwoFactor: { _, _ in throw refusal },
          createAccount: { _, _ in throw refusal },
          changePassword: { _, _ in throw refusal },
          deleteAccount: { _ in throw refusal },
          listAccounts: { throw refusal },
          beginTwoFactor: { _, _ in throw refusal },
          confirmTwoFactor: { _, _ in throw refusal },
          disableTwoFactor: { _ in throw refusal },
          remainingRecoveryCodes: { _ in throw refusal },
          regenerateRecoveryCodes: { _ in throw refusal },
          checkSession: { _ in throw refusal })
      },
      listGames: { _ in throw failure },
      link: { _ in
        ServerLink(
          open: {
            AsyncStream { continuation in
              continuation.yield(.closed(reason: sentence, isPermanent: true))
              continuation.finish()
            }
          },
          send: { _ in }, close: {})
      },
      signOut: { _ in })
  }()
}

extension OnlineFailure {
  /// The failure an endpoint threw, or one sentence for anything else.
  public init(_ error: any Error, or sentence: String) {
    self = (error as? OnlineFailure) ?? OnlineFailure(sentence)
  }
}

/// A server certificate's SHA-256 fingerprint as players read and type it.
public enum ServerFingerprint {
  /// `SHA256:` followed by the bytes as lowercase hex digits, as the server prints at start.
  public static func text(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return "SHA256:" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
  }
}
