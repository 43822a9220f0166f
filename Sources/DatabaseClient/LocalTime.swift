/// A moment as a wall clock shows it: the date in the Gregorian calendar and the time of day
/// to the second.
public struct LocalTime: Equatable, Sendable, CustomStringConvertible {
  /// The year, such as 2026.
  public var year: Int
  /// The month, from 1 (January) to 12.
  public var month: Int
  /// The day of the month, from 1.
  public var day: Int
  /// The hour, from 0 to 23.
  public var hour: Int
  /// The minute, from 0 to 59.
  public var minute: Int
  /// The second, from 0 to 59 (60 on a leap second where the clock shows one).
  public var second: Int

  /// Creates a wall-clock time from its fields.
  public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// The wall-clock time of `timestamp` in a zone `utcOffset` seconds ahead of UTC (0: UTC
  /// itself).
  public init(_ timestamp: Timestamp, utcOffset: Int = 0) {
    let seconds = Int(Self.seconds(of: timestamp)) + utcOffset
    let days = seconds.floorDivided(by: 86_400)
    let time = seconds - days * 86_400
    // Days since 1970-01-01 to a date, counting in eras of 400 years from 0000-03-01, so that
    // the leap day ends each counted year.
    let shifted = days + 719_468
    let era = shifted.floorDivided(by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    self.init(
      year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month,
      day: dayOfYear - (153 * monthFromMarch + 2) / 5 + 1, hour: time / 3_600,
      minute: time % 3_600 / 60, second: time % 60)
  }

  /// The whole seconds since 1970 of `timestamp`, rounded down, so that a time before 1970
  /// falls in the second before (without a subtraction that could overflow).
  public static func seconds(of timestamp: Timestamp) -> Int64 {
    timestamp.floorDivided(by: 1_000)
  }

  /// The date and the minute, such as `2026-11-30 09:08`.
  public var description: String { "\(date) \(Self.two(hour)):\(Self.two(minute))" }

  /// The date, such as `2026-11-30`.
  public var date: String {
    let digits = String(year)
    let padded =
      year >= 0 && digits.count < 4
      ? String(repeating: "0", count: 4 - digits.count) + digits : digits
    return "\(padded)-\(Self.two(month))-\(Self.two(day))"
  }

  /// The time as ISO 8601 gives it in UTC, such as `2026-11-30T09:08:05Z`, for a time made
  /// with no offset.
  public var utcText: String {
    "\(date)T\(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))Z"
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension BinaryInteger {
  /// The quotient rounded down, so that times before 1970 fall on the day before.
  fileprivate func floorDivided(by divisor: Self) -> Self {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
