/// How a wait is said to a player: in seconds up to two minutes, then in minutes rounded up,
/// then in hours and minutes (`30 seconds`, `4 minutes`, `1 hour`, `2 hours 5 minutes`).
public enum WaitText {
  /// The wait of `seconds`, at least one second.
  public static func phrase(seconds: Int) -> String {
    let seconds = max(1, seconds)
    guard seconds >= 120 else { return counted(seconds, "second") }
    let minutes = seconds / 60 + (seconds % 60 == 0 ? 0 : 1)
    guard minutes >= 60 else { return counted(minutes, "minute") }
    let hours = counted(minutes / 60, "hour")
    return minutes % 60 == 0 ? hours : hours + " " + counted(minutes % 60, "minute")
  }

  private static func counted(_ count: Int, _ unit: String) -> String {
    "\(count) \(unit)\(count == 1 ? "" : "s")"
  }
}
