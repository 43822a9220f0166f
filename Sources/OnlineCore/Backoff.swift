/// Waiting between reconnection attempts.
public struct Backoff: Equatable, Sendable {
  /// The first wait, in milliseconds.
  public var first: Int64 = 250
  /// The longest wait, in milliseconds: short enough to come back within the server's grace.
  public var longest: Int64 = 4_000
  /// How many attempts in a row before giving up, once a game has been shown.
  public var attempts = 60
  /// How many attempts before giving up while no game has been shown yet: a server that has
  /// never answered is not waited for minutes.
  public var firstAttempts = 3

  /// Creates the default backoff: 0.25 s, doubling up to 4 s, for about four minutes.
  public init() {}

  /// The wait before attempt number `attempt` (from 1), in milliseconds.
  public func delay(beforeAttempt attempt: Int) -> Int64 {
    min(longest, first << Int64(min(max(attempt - 1, 0), 20)))
  }
}
