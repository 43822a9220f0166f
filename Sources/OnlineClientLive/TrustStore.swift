import DatabaseClient
public import DatabaseClientLive
public import GameProtocol
public import OnlineClient
import SQLite
import TLS

/// The servers this client trusts, by address: each one's certificate fingerprint, pinned on
/// first use in the client's own database.
public struct TrustStore: Sendable {
  private let database: LocalDatabase
  private let explicit: [UInt8]?
  private let announce: @Sendable (String) -> Void
  private let now: @Sendable () -> Int64

  /// Creates a store.
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
    self.database = database
    self.explicit = explicitFingerprint
    self.announce = announce
    self.now = now
  }

  /// Accepts or refuses the fingerprint a server presented.
  ///
  /// - Throws: ``OnlineFailure`` (permanent) with a sentence saying how to accept a changed one.
  public func check(_ address: ServerAddress, presented: [UInt8]) throws(OnlineFailure) {
    let key = address.description.lowercased()
    let presentedText = Fingerprint.text(presented)
    if let explicit {
      guard explicit == presented else {
        throw OnlineFailure(
          "The server at \(address) presented the fingerprint \(presentedText), not the one "
            + "given with --server-fingerprint; nothing was sent to it.", isPermanent: true)
      }
      if try pinned(key) != presented {
        try pin(key, presented)
        announce("Trusting \(address), fingerprint \(presentedText)")
      }
      return
    }
    if let pinned = try pinned(key) {
      guard pinned == presented else {
        throw OnlineFailure(
          "The server at \(address) presented the fingerprint \(presentedText), but "
            + "\(Fingerprint.text(pinned)) was trusted before; if its certificate really changed, "
            + "run again with --server-fingerprint \(presentedText) to trust the new one.",
          isPermanent: true)
      }
      return
    }
    try pin(key, presented)
    announce("Trusting \(address), fingerprint \(presentedText)")
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

  private func pin(_ key: String, _ fingerprint: [UInt8]) throws(OnlineFailure) {
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
}
