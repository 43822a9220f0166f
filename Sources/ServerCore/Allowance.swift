import GameProtocol

/// The sign-in attempts an address has left: a bucket of ``ProtocolLimits/signInBurst`` tokens
/// that refills one token every ``ProtocolLimits/signInRefillSeconds``.
public struct Allowance: Equatable, Sendable {
  /// Tokens left.
  public private(set) var tokens: Int
  /// When the count was last brought up to date, in milliseconds since 1970.
  public private(set) var updatedAt: Int64
  /// The requests refused since the last token was taken: the operator is told of the first.
  public private(set) var refusalsInARow = 0

  /// A full bucket at `now`.
  public init(now: Int64) {
    tokens = ProtocolLimits.signInBurst
    updatedAt = now
  }

  private static let refill = Int64(ProtocolLimits.signInRefillSeconds) * 1_000

  /// Adds the tokens that came back since the last update.
  public mutating func refill(now: Int64) {
    guard now > updatedAt else { return }
    let earned = Int((now - updatedAt) / Self.refill)
    guard earned > 0 else { return }
    tokens = min(ProtocolLimits.signInBurst, tokens + earned)
    updatedAt = tokens == ProtocolLimits.signInBurst ? now : updatedAt + Int64(earned) * Self.refill
  }

  /// Takes a token.
  ///
  /// - Returns: `nil` when taken, else the whole seconds until the next token.
  public mutating func take(now: Int64) -> Int? {
    refill(now: now)
    guard tokens == 0 else {
      if tokens == ProtocolLimits.signInBurst { updatedAt = now }
      tokens -= 1
      refusalsInARow = 0
      return nil
    }
    refusalsInARow += 1
    let wait = updatedAt + Self.refill - now
    return Int(max(1, (wait + 999) / 1_000))
  }

  /// Whether the bucket is full, so it can be forgotten.
  public var isFull: Bool { tokens == ProtocolLimits.signInBurst }
}
