public import DatabaseClient
public import GameCore
import Synchronization

/// A clock that moves only when the test says so, for effects that wait.
public final class TestClock: Sendable {
  /// The time a test clock starts at: 2023-11-14 22:13:20 UTC.
  public static let epoch: Timestamp = 1_700_000_000_000
  /// The time zone of test clocks, in seconds ahead of UTC: an hour, as in Paris in winter,
  /// so that a time shown in UTC by mistake shows.
  public static let timeZoneOffset = 3_600

  /// A time on the wall clocks of ``timeZoneOffset``'s time zone.
  @Sendable public static func localTime(_ timestamp: Timestamp) -> LocalTime {
    LocalTime(timestamp, utcOffset: timeZoneOffset)
  }

  private struct Sleeper {
    let id: Int
    let deadline: Duration
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Contents {
    var elapsed: Duration = .zero
    var sleepers: [Sleeper] = []
    var nextID = 0
  }

  private let contents = Mutex(Contents())

  /// Creates a clock at ``epoch``.
  public init() {}

  /// A clock client reading and waiting on this clock.
  public var client: ClockClient {
    ClockClient(
      now: { self.now }, sleep: { try await self.sleep(for: $0) }, localTime: Self.localTime)
  }

  /// The current time.
  public var now: Timestamp {
    let elapsed = contents.withLock(\.elapsed)
    return Self.epoch + elapsed.components.seconds * 1000
      + elapsed.components.attoseconds / 1_000_000_000_000_000
  }

  /// How many tasks are waiting on the clock.
  public var sleeperCount: Int { contents.withLock(\.sleepers.count) }

  /// Waits until `count` tasks are sleeping on the clock, so a test can advance it past them.
  ///
  /// - Parameter count: The number of sleepers to wait for.
  /// - Returns: Whether they arrived within thirty seconds.
  @discardableResult
  public func waitForSleepers(_ count: Int) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(30))
    while sleeperCount < count {
      guard clock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }

  /// Moves time forward, waking every sleeper whose time has come, then lets them run.
  public func advance(by duration: Duration) async {
    let due = contents.withLock { contents in
      contents.elapsed += duration
      let now = contents.elapsed
      let due = contents.sleepers.filter { $0.deadline <= now }
      contents.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due {
      sleeper.continuation.resume()
    }
    for _ in 0..<10 {
      await Task.yield()
    }
  }

  private func sleep(for duration: Duration) async throws {
    let id = contents.withLock { contents in
      defer { contents.nextID += 1 }
      return contents.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow = contents.withLock { contents -> Bool in
          let deadline = contents.elapsed + duration
          guard deadline > contents.elapsed, !Task.isCancelled else { return true }
          contents.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation))
          return false
        }
        if resumeNow {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let sleeper = contents.withLock { contents -> Sleeper? in
        guard let index = contents.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return contents.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }
}
