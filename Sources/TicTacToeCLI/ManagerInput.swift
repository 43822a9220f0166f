import Console
import Foundation
import GameRules
import Synchronization

/// A tournament manager's lines to the brain, read on a thread of their own so that `END` is
/// heard while the brain thinks.
///
/// The Gomocup protocol asks a brain to end as soon as it reads `END`, even in the middle of a
/// move: a manager waits only a moment before it kills the brain. So `END` ends the process at
/// once, writing nothing more, when it comes while the brain thinks or is waiting when a move
/// begins; any other line waits its turn in order.
final class ManagerInput: Sendable {
  private struct State {
    /// The lines read, the first `head` of them already taken.
    var lines: [Result<InputLine, LineReader.Failure>] = []
    var head = 0
    /// The bytes of the lines waiting.
    var bytes = 0
    var isClosed = false
    var isThinking = false

    /// Whether another line of `count` bytes may wait: a manager that floods the brain waits,
    /// as it would for a full pipe, instead of filling memory.
    func hasRoom(for count: Int) -> Bool {
      let waiting = lines.count - head
      return waiting == 0
        || (waiting < ManagerInput.mostLines && bytes + count <= ManagerInput.mostBytes)
    }

    /// The first line waiting, taken, or `nil` when none is.
    mutating func take() -> Result<InputLine, LineReader.Failure>? {
      guard head < lines.count else { return nil }
      let line = lines[head]
      head += 1
      if case .success(let text) = line { bytes -= text.bytes.count }
      // Drop the taken lines once they are half the array, so that taking stays cheap.
      if head >= 1_024, head * 2 >= lines.count {
        lines.removeFirst(head)
        head = 0
      }
      return line
    }
  }

  /// The most lines and bytes read ahead: far more than a manager sends during a move, so that
  /// an `END` behind them is still read.
  static let mostLines = 4_096
  static let mostBytes = 4 << 20

  private let state = Mutex(State())
  /// Signalled for every line queued and once at the end of input.
  private let arrived = DispatchSemaphore(value: 0)
  /// Signalled whenever a line is taken, so that a reader waiting for room looks again.
  private let taken = DispatchSemaphore(value: 0)

  /// Starts reading standard input.
  init() {
    Thread.detachNewThread { [self] in read() }
  }

  /// Whether the brain is choosing a move; set around each move.
  ///
  /// A move that begins with `END` waiting behind it ends the brain at once.
  var isThinking: Bool {
    get { state.withLock { $0.isThinking } }
    set {
      let endsNow = state.withLock { state in
        state.isThinking = newValue
        return newValue
          && state.lines[state.head...].contains {
            guard case .success(let line) = $0 else { return false }
            return ManagerInput.isEnd(line)
          }
      }
      if endsNow { _exit(CLI.ExitCode.success) }
    }
  }

  /// The next line, or why input could not be read, waiting for it; `nil` at the end of
  /// input.
  func next() -> Result<InputLine, LineReader.Failure>? {
    while true {
      let next: Result<InputLine, LineReader.Failure>?? = state.withLock { state in
        if let line = state.take() { return .some(line) }
        return state.isClosed ? .some(nil) : nil
      }
      if let next {
        if next != nil { taken.signal() }
        return next
      }
      arrived.wait()
    }
  }

  private func read() {
    let reader = LineReader.commandInput()
    while true {
      let line: Result<InputLine, LineReader.Failure>
      do {
        guard let next = try reader.next() else { break }
        line = .success(next)
      } catch {
        line = .failure(error)
      }
      if case .success(let text) = line {
        let endsNow = state.withLock { $0.isThinking } && ManagerInput.isEnd(text)
        // Nothing is flushed or cleaned up: the search is abandoned and the answer never sent.
        if endsNow { _exit(CLI.ExitCode.success) }
      }
      let count = (try? line.get().bytes.count) ?? 0
      while !state.withLock({ $0.hasRoom(for: count) }) { taken.wait() }
      state.withLock { state in
        state.lines.append(line)
        state.bytes += count
      }
      arrived.signal()
      if case .failure = line { break }
    }
    state.withLock { $0.isClosed = true }
    arrived.signal()
  }

  /// Whether `line` is the protocol's `END`, as the session reads it (a line cut short is
  /// not).
  static func isEnd(_ line: InputLine) -> Bool {
    !line.isTooLong && line.text.protocolText.trimmingWhitespace().uppercased() == "END"
  }
}
