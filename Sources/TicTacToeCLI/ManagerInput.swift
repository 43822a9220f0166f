import Foundation
import GameRules
import Synchronization

/// A tournament manager's lines to the brain, read on a thread of their own so that `END` is
/// heard while the brain thinks.
///
/// The Gomocup protocol asks a brain to end as soon as it reads `END`, even in the middle of a
/// move: a manager waits only a moment before it kills the brain. So `END` while
/// ``isThinking`` ends the process at once, writing nothing more; any other line waits its turn
/// in order.
final class ManagerInput: Sendable {
  private struct State {
    var lines: [Result<InputLine, LineReader.Failure>] = []
    var isClosed = false
    var isThinking = false
  }

  private let state = Mutex(State())
  /// Signalled for every line queued and once at the end of input.
  private let arrived = DispatchSemaphore(value: 0)
  /// Places for lines read ahead: a manager that floods the brain waits, as it would for a
  /// full pipe, instead of filling memory.
  private let room = DispatchSemaphore(value: 0)

  /// Starts reading standard input.
  init() {
    // Made empty and then given its places: libdispatch stops a program that releases a
    // semaphore holding less than it was made with, as this one may at the end.
    for _ in 0..<256 { room.signal() }
    Thread.detachNewThread { [self] in read() }
  }

  /// Whether the brain is choosing a move; set around each move.
  var isThinking: Bool {
    get { state.withLock { $0.isThinking } }
    set { state.withLock { $0.isThinking = newValue } }
  }

  /// The next line, or why input could not be read, waiting for it; `nil` at the end of
  /// input.
  func next() -> Result<InputLine, LineReader.Failure>? {
    while true {
      let taken: Result<InputLine, LineReader.Failure>?? = state.withLock { state in
        if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
        return state.isClosed ? .some(nil) : nil
      }
      if let taken {
        if taken != nil { room.signal() }
        return taken
      }
      arrived.wait()
    }
  }

  private func read() {
    let reader = LineReader()
    while true {
      let line: InputLine
      do {
        guard let next = try reader.next() else { break }
        line = next
      } catch {
        room.wait()
        state.withLock { $0.lines.append(.failure(error)) }
        break
      }
      let endsNow = state.withLock { state in
        state.isThinking && !line.isTooLong && ManagerInput.isEnd(line.text)
      }
      // Nothing is flushed or cleaned up: the search is abandoned and the answer never sent.
      if endsNow { _exit(CLI.ExitCode.success) }
      room.wait()
      state.withLock { $0.lines.append(.success(line)) }
      arrived.signal()
    }
    state.withLock { $0.isClosed = true }
    arrived.signal()
  }

  /// Whether `line` is the protocol's `END`, as the session reads it.
  static func isEnd(_ line: String) -> Bool {
    line.protocolText.trimmingWhitespace().uppercased() == "END"
  }
}
