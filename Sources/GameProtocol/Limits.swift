/// The protocol's version numbers and the limits both sides enforce.
///
/// `docs/protocol.md` documents each value; a change here is a change of the protocol.
public enum ProtocolVersion {
  /// The version this build speaks.
  public static let current: UInt16 = 5

  /// Every version this build can speak; a server picks the highest one a client also speaks.
  ///
  /// Only ``current``: a client of version 4 cannot read ``ErrorCode/unfinishedGame``, as one
  /// of version 3 could not read ``ServerMessage/cancelled(code:)`` and one of version 2
  /// ``ErrorCode/tooManyGames`` (what a receiver does not know is a violation); so it is told
  /// to update rather than served.
  public static let supported: ClosedRange<UInt16> = current...current

  /// Why this build cannot talk to a server that refused its `hello` with
  /// ``ErrorCode/unsupportedVersion``, as the end of a sentence about the server: `speaks
  /// protocol version 4, and this tictactoe speaks version 5; update the older one`.
  ///
  /// The server's versions are read from the refusal as they are, even when they make no range.
  public static func mismatch(_ refusal: Refusal) -> String {
    let low = UInt16(refusal.detail >> 16)
    let high = UInt16(refusal.detail & 0xffff)
    return "speaks protocol \(words(low, high)), and this tictactoe speaks \(spoken); update the "
      + "older one"
  }

  /// The versions this build speaks, in words: `version 5`, or `versions 4 to 5`.
  public static var spoken: String { words(supported.lowerBound, supported.upperBound) }

  private static func words(_ low: UInt16, _ high: UInt16) -> String {
    low == high ? "version \(low)" : "versions \(low) to \(high)"
  }

  /// The version both sides speak, given the range a peer offers, or `nil` when there is none.
  ///
  /// - Parameter offered: The lowest and highest versions the peer speaks.
  /// - Returns: The highest common version.
  public static func negotiated(with offered: ClosedRange<UInt16>) -> UInt16? {
    let low = max(offered.lowerBound, supported.lowerBound)
    let high = min(offered.upperBound, supported.upperBound)
    return low <= high ? high : nil
  }
}

/// The limits of the protocol, checked by the decoder, the server and the transport.
public enum ProtocolLimits {
  /// The largest frame payload in bytes; a longer length prefix closes the connection.
  public static let maximumFrameLength = 16 * 1_024

  /// The longest string field in bytes of UTF-8.
  public static let maximumStringLength = 1_024

  /// The most elements in a list field.
  public static let maximumListCount = 256

  /// Sign-in attempts (every request with a password or a code) an address may make at once.
  public static let signInBurst = 20

  /// Seconds for one more sign-in attempt to come back to an address after the burst.
  public static let signInRefillSeconds = 3

  /// Seconds a connection may stay silent before the server closes it; clients ping sooner.
  public static let idleSeconds = 120

  /// Seconds between a client's pings while nothing else is sent.
  public static let pingSeconds = 30

  /// Seconds for the TLS handshake and the `hello` to complete after a connection is accepted.
  public static let handshakeSeconds = 10

  /// Bytes the server buffers for a client that does not read before it closes the connection.
  public static let maximumPendingOutput = 1 << 20

  /// Seconds the server holds a disconnected player's seat, unless the operator sets another.
  public static let defaultReconnectGraceSeconds = 60

  /// The longest a server may hold a disconnected player's seat: a day.
  public static let maximumReconnectGraceSeconds = 86_400

  /// The most finished games one `history` answer holds: twenty 15×15 games fit one frame.
  public static let historyPageSize = 20

  /// The most games one `games` answer lists.
  public static let maximumListedGames = 100

  /// The most unfinished games (being created, waiting for an opponent or being played) one
  /// account may have created or sit in on a server.
  ///
  /// A `createGame`, or a `joinGame` that would take a new seat, from an account at the limit
  /// is refused with ``ErrorCode/tooManyGames``; coming back to one's own seat never is. Ten is
  /// more than a person plays at once, and keeps one account from filling the `games` listing
  /// (``maximumListedGames``) and the server's database with games nobody will play.
  public static let maximumUnfinishedGames = 10

  /// The port a server listens on unless told otherwise.
  public static let defaultPort: UInt16 = 7457
}
