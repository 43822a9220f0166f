/// When repeated failures lock a user name, and for how long.
///
/// The first four failures cost nothing; the fifth locks for 30 seconds, and each further
/// failure after a lock has passed doubles the wait, up to an hour. Counting is by user name,
/// known or not, so a lock reveals nothing about which accounts exist.
enum Lockout {
  /// Failures allowed before the first wait.
  static let freeFailures = 5

  /// The first wait in milliseconds.
  static let firstDelay: Int64 = 30_000

  /// The longest wait in milliseconds.
  static let longestDelay: Int64 = 3_600_000

  /// How long an attempt may stay in flight, in milliseconds, before it is taken for one of a
  /// program that died in the middle: far longer than any password check takes.
  static let attemptLifetime: Int64 = 30_000

  /// How far after now, in milliseconds, an attempt may be dated before it is taken for one
  /// begun before the clock was set back: programs read the clock a moment apart.
  static let clockSlack: Int64 = 5_000

  /// The wait after `failures` failures, in milliseconds.
  static func delay(afterFailures failures: Int) -> Int64 {
    guard failures >= freeFailures else { return 0 }
    let doublings = min(failures - freeFailures, 20)
    return min(firstDelay << Int64(doublings), longestDelay)
  }

  /// Seconds left to wait, rounded up, or `nil` when attempts are allowed.
  static func secondsLeft(failures: Int, lastFailureAt: Int64, now: Int64) -> Int? {
    let until = lastFailureAt + delay(afterFailures: failures)
    guard now < until else { return nil }
    return Int((until - now + 999) / 1_000)
  }
}
