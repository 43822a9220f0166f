import AuthenticationClient
import Testing

/// Waits are said as a person says them: a lock of an hour is not "3600 seconds".
struct WaitTextTests {
  @Test(arguments: [
    (0, "1 second"), (1, "1 second"), (2, "2 seconds"), (60, "60 seconds"),
    (119, "119 seconds"), (120, "2 minutes"), (121, "3 minutes"), (3_540, "59 minutes"),
    (3_541, "1 hour"), (3_600, "1 hour"), (3_601, "1 hour 1 minute"),
    (7_500, "2 hours 5 minutes"), (86_400, "24 hours"),
  ])
  func phrase(seconds: Int, said: String) {
    #expect(WaitText.phrase(seconds: seconds) == said)
  }

  @Test func theLongestLockIsAnHour() {
    #expect(
      AuthenticationError.lockedOut(retryAfterSeconds: 3_600).message
        == "Too many failed attempts. Try again in 1 hour.")
    #expect(
      AuthenticationError.lockedOut(retryAfterSeconds: 30).message
        == "Too many failed attempts. Try again in 30 seconds.")
  }
}
