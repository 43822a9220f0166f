import NetworkIO
import Synchronization

/// The operator's lines of the kinds a client can cause as fast as it can connect: at most
/// ``linesPerWindow`` of a kind every ``window`` milliseconds, then one line saying how many
/// more there were, so that a flood of connections cannot flood the log.
final class LogThrottle: Sendable {
  /// What a line tells, so that a flood of one kind is summed up.
  enum Kind: Hashable, CaseIterable, Sendable {
    case handshake, full, crowded, brokeProtocol

    func summary(_ count: Int) -> String {
      let subject =
        switch self {
        case .handshake: "connections that did not finish their TLS handshake"
        case .full: "connections turned away because the server was full"
        case .crowded: "connections turned away because their address held too many"
        case .brokeProtocol: "connections closed for breaking the protocol"
        }
      return "Left out \(count) more line\(count == 1 ? "" : "s") about \(subject) in the last "
        + "\(LogThrottle.window / 1_000) seconds."
    }
  }

  static let linesPerWindow = 10
  static let window: Int64 = 10_000

  private struct State {
    var windowStart: Int64 = 0
    var logged: [Kind: Int] = [:]
    var leftOut: [Kind: Int] = [:]
  }

  private let state = Mutex(State())
  private let write: @Sendable (String) -> Void

  /// A throttle that writes its lines with `write`.
  init(write: @escaping @Sendable (String) -> Void = { logLine($0) }) {
    self.write = write
  }

  /// Writes `text`, a line of `kind`, unless the window's share of that kind is spent.
  func line(_ text: String, kind: Kind, now: Int64 = EventLoop.monotonicMilliseconds()) {
    roll(now: now)
    let writes = state.withLock { state in
      if state.logged[kind, default: 0] < Self.linesPerWindow {
        state.logged[kind, default: 0] += 1
        return true
      }
      state.leftOut[kind, default: 0] += 1
      return false
    }
    if writes { write(text) }
  }

  /// Starts a new window once the last is over (or, with `force`, at once: as the server
  /// stops), saying how many lines it left out.
  func roll(now: Int64 = EventLoop.monotonicMilliseconds(), force: Bool = false) {
    let summaries = state.withLock { state -> [String] in
      guard force || now - state.windowStart >= Self.window else { return [] }
      let lines = Kind.allCases.compactMap { kind in
        state.leftOut[kind].flatMap { $0 > 0 ? kind.summary($0) : nil }
      }
      state = State(windowStart: now)
      return lines
    }
    for line in summaries { write(line) }
  }
}
