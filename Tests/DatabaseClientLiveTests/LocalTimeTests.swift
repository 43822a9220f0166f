import DatabaseClient
import Glibc
import Testing

/// The wall-clock time of a timestamp, against the C library's calendar.
struct LocalTimeTests {
  /// The C library's UTC fields of `timestamp`, rounded down to the second.
  private func libc(_ timestamp: Timestamp) -> LocalTime {
    var seconds = time_t(timestamp / 1_000 - (timestamp % 1_000 < 0 ? 1 : 0))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return LocalTime(
      year: Int(parts.tm_year) + 1_900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
      hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
  }

  @Test func everyDayFrom1600To2500AgreesWithTheCLibrary() {
    let day: Timestamp = 86_400_000
    // 1600-01-01 to 2500-01-01, so that century and 400-year leap rules both come up.
    var timestamp: Timestamp = -11_676_096_000_000
    var generator = SystemRandomNumberGenerator()
    var days = 0
    while timestamp < 16_725_225_600_000 {
      // The day's first and last millisecond and one in between.
      for moment in [
        timestamp, timestamp + day - 1, timestamp + .random(in: 0..<day, using: &generator),
      ] {
        let expected = libc(moment)
        let time = LocalTime(moment)
        if time != expected {
          Issue.record("\(moment): \(time), the C library \(expected)")
          return
        }
      }
      timestamp += day
      days += 1
    }
    #expect(days == 328_719)
  }

  @Test func theExtremesOfATimestampDoNotOverflow() {
    // A tampered database or a hostile server may hold any 64-bit value.
    for timestamp in [Timestamp.min, .min + 1, .max, .max - 1] {
      for offset in [0, -50_400, 50_400] {
        let time = LocalTime(timestamp, utcOffset: offset)
        #expect((1...12).contains(time.month) && (1...31).contains(time.day))
        #expect(!time.description.isEmpty)
      }
    }
    #expect(LocalTime(.max).date == "292278994-08-17")
  }

  @Test func anOffsetMovesTheWallClock() {
    // 2023-11-14 22:13:20 UTC.
    let moment: Timestamp = 1_700_000_000_000
    #expect(LocalTime(moment).description == "2023-11-14 22:13")
    #expect(LocalTime(moment).utcText == "2023-11-14T22:13:20Z")
    #expect(LocalTime(moment, utcOffset: 5 * 3_600 + 1_800).description == "2023-11-15 03:43")
    #expect(LocalTime(moment, utcOffset: -10 * 3_600).description == "2023-11-14 12:13")
    // The last millisecond before 1970 in UTC, and a year before 1000.
    #expect(LocalTime(-1).utcText == "1969-12-31T23:59:59Z")
    #expect(LocalTime(-30_610_224_000_000).date == "1000-01-01")
    #expect(LocalTime(-59_011_459_200_000).date == "0100-01-01")
  }
}
