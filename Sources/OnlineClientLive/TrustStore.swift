import DatabaseClient
public import DatabaseClientLive
public import GameProtocol
public import OnlineClient
import SQLite

/// The servers this client trusts, by address: each one's certificate fingerprint, pinned in the
/// client's own database.
public struct TrustStore: Sendable {
  /// What happens on the first connection to a server nothing is pinned for.
  public enum FirstUse: Sendable {
    /// Pin the fingerprint and say so: `Trusting HOST:PORT, fingerprint SHA256:…`.
    case pin(announce: @Sendable (String) -> Void)
    /// Refuse: the player was asked (``status(of:presented:)``) before anything connects.
    case refuse
  }

  private let database: LocalDatabase
  private let explicit: [UInt8]?
  private let firstUse: FirstUse
  private let now: @Sendable () -> Int64

  /// Creates a store that pins on first use and says so.
  ///
  /// - Parameters:
  ///   - database: The client's database.
  ///   - explicitFingerprint: A `--server-fingerprint`, which must match and is then pinned.
  ///   - announce: Says `Trusting HOST:PORT, fingerprint SHA256:…` when a pin is made.
  ///   - now: The clock in milliseconds since 1970.
  public init(
    database: LocalDatabase, explicitFingerprint: [UInt8]?,
    announce: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Int64
  ) {
    self.init(
      database: database, explicitFingerprint: explicitFingerprint,
      firstUse: .pin(announce: announce), now: now)
  }

  /// Creates a store.
  public init(
    database: LocalDatabase, explicitFingerprint: [UInt8]?, firstUse: FirstUse,
    now: @escaping @Sendable () -> Int64
  ) {
    self.database = database
    self.explicit = explicitFingerprint
    self.firstUse = firstUse
    self.now = now
  }

  /// How the fingerprint a server presented compares with the one pinned for its address.
  ///
  /// - Throws: ``OnlineFailure`` when the database cannot be read.
  public func status(of address: ServerAddress, presented: [UInt8]) throws(OnlineFailure)
    -> TrustStatus
  {
    guard let pinned = try pinned(Self.key(address)) else {
      return .firstUse(fingerprint: presented)
    }
    return pinned == presented ? .trusted : .changed(pinned: pinned, presented: presented)
  }

  /// Accepts or refuses the fingerprint a server presented in the TLS handshake.
  ///
  /// A fingerprint seen for the first time is accepted but not pinned: ``confirm(_:presented:)``
  /// pins it once the server has greeted as a tictactoe server, so that another kind of server
  /// at a mistyped address is never trusted.
  ///
  /// - Throws: ``OnlineFailure`` (permanent) with a sentence saying how to accept a changed one.
  public func check(_ address: ServerAddress, presented: [UInt8]) throws(OnlineFailure) {
    if let explicit {
      guard explicit == presented else {
        throw OnlineFailure(
          "The server at \(address) presented the fingerprint \(ServerFingerprint.text(presented)), "
            + "not the one given with --server-fingerprint; nothing was sent to it.",
          isPermanent: true)
      }
      return
    }
    switch try status(of: address, presented: presented) {
    case .trusted:
      return
    case .changed(let pinned, _):
      throw OnlineFailure(
        TrustStatus.changedFingerprintMessage(address, pinned: pinned, presented: presented),
        isPermanent: true)
    case .firstUse:
      guard case .pin = firstUse else {
        throw OnlineFailure(
          "The server at \(address) is not trusted on this computer yet; nothing was sent to it.",
          isPermanent: true)
      }
    }
  }

  /// Pins the fingerprint ``check(_:presented:)`` accepted, where it is not pinned yet, and says
  /// so: called once the server has greeted as a tictactoe server.
  ///
  /// - Throws: ``OnlineFailure`` when the database cannot be read or written.
  public func confirm(_ address: ServerAddress, presented: [UInt8]) throws(OnlineFailure) {
    guard try status(of: address, presented: presented) != .trusted else { return }
    try pin(address, presented)
    if case .pin(let announce) = firstUse {
      announce("Trusting \(address), fingerprint \(ServerFingerprint.text(presented))")
    }
  }

  /// Pins `fingerprint` for the server's address, replacing any fingerprint pinned before.
  ///
  /// - Throws: ``OnlineFailure`` when the database cannot be written.
  public func pin(_ address: ServerAddress, _ fingerprint: [UInt8]) throws(OnlineFailure) {
    let key = Self.key(address)
    do {
      try database.withConnection { database throws(SQLiteError) in
        try database.run(
          """
          INSERT INTO known_servers (address, fingerprint, trusted_at) VALUES (?, ?, ?)
          ON CONFLICT (address) DO UPDATE
          SET fingerprint = excluded.fingerprint, trusted_at = excluded.trusted_at
          """, .text(key), .blob(fingerprint), SQLiteValue(now()))
      }
    } catch {
      throw OnlineFailure("The server's fingerprint could not be saved: \(error.description)")
    }
  }

  private static func key(_ address: ServerAddress) -> String {
    address.description.lowercased()
  }

  private func pinned(_ key: String) throws(OnlineFailure) -> [UInt8]? {
    do {
      return try database.withConnection { database throws(SQLiteError) in
        try database.query("SELECT fingerprint FROM known_servers WHERE address = ?", .text(key))
          .first?.get(0)
      }
    } catch {
      throw OnlineFailure("The trusted servers could not be read: \(error.description)")
    }
  }
}
