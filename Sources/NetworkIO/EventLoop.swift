import CLinux
import Foundation
import Synchronization

/// Something registered with an event loop that reacts when its descriptor is ready.
protocol Selectable: AnyObject {
  /// Called on the loop's thread with the epoll events that fired.
  func ready(_ events: UInt32)
  /// Called on the loop's thread when the loop stops, to release the descriptor.
  func loopStopped()
}

/// One thread waiting on epoll for many non-blocking sockets, running their handlers and timers.
///
/// Sockets, connections and timers belong to their loop: they are touched only on its thread.
/// Other threads hand work over with ``execute(_:)``, which runs it on the loop in order.
public final class EventLoop: @unchecked Sendable {
  private let epoll: Int32
  private let wake: Int32
  private let tasks = Mutex<[@Sendable () -> Void]>([])
  private let wakePending = Atomic<Bool>(false)
  private let stopRequested = Atomic<Bool>(false)
  private let stoppedSignal = DispatchSemaphore(value: 0)
  private let threadID = Mutex<pthread_t?>(nil)
  // Loop thread only:
  private var handlers: [Int32: any Selectable] = [:]
  private var interests: [Int32: UInt32] = [:]
  private var timers = TimerHeap()
  private let nextTimerID = Atomic<Int>(0)
  private var events: UnsafeMutableBufferPointer<epoll_event>
  /// A buffer every connection of this loop reads into, as they read one at a time.
  let readBuffer: UnsafeMutableRawBufferPointer

  /// Creates a loop; it does nothing until ``start(name:)``.
  ///
  /// - Throws: ``SystemError`` when epoll or eventfd cannot be created.
  public init() throws(SystemError) {
    System.ignoreBrokenPipes()
    epoll = try System.epollCreate()
    do {
      wake = try System.eventCreate()
      try System.epollControl(epoll, EPOLL_CTL_ADD, wake, events: EPOLLIN.rawValue)
    } catch {
      System.close(epoll)
      throw error
    }
    events = .allocate(capacity: 512)
    events.initialize(repeating: epoll_event())
    readBuffer = .allocate(byteCount: 64 * 1_024, alignment: 16)
  }

  deinit {
    System.close(epoll)
    System.close(wake)
    events.deallocate()
    readBuffer.deallocate()
  }

  /// Starts the loop's thread.
  ///
  /// - Parameter name: The thread's name, as tools show it.
  public func start(name: String) {
    let thread = Thread { [self] in
      threadID.withLock { $0 = pthread_self() }
      run()
      stoppedSignal.signal()
    }
    thread.name = name
    thread.stackSize = 1 << 20
    thread.start()
    // Wait for the thread to record itself, so `inEventLoop` is right from now on.
    while threadID.withLock({ $0 == nil }) { usleep(100) }
  }

  /// Whether the caller runs on the loop's thread.
  public var inEventLoop: Bool {
    guard let id = threadID.withLock({ $0 }) else { return false }
    return pthread_equal(id, pthread_self()) != 0
  }

  /// Runs `body` on the loop's thread, after the work handed over before it.
  public func execute(_ body: @escaping @Sendable () -> Void) {
    tasks.withLock { $0.append(body) }
    if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
      System.eventSignal(wake)
    }
  }

  /// Stops the loop, closing every socket and ending the thread.
  ///
  /// Waits for the thread to end unless called on the loop itself.
  public func stop() {
    stopRequested.store(true, ordering: .releasing)
    System.eventSignal(wake)
    if !inEventLoop, threadID.withLock({ $0 != nil }) { stoppedSignal.wait() }
  }

  // MARK: - Registration (loop thread)

  func register(_ descriptor: Int32, _ handler: any Selectable, events: UInt32)
    throws(SystemError)
  {
    try System.epollControl(epoll, EPOLL_CTL_ADD, descriptor, events: events)
    handlers[descriptor] = handler
    interests[descriptor] = events
  }

  func setInterest(_ descriptor: Int32, events: UInt32) {
    guard let current = interests[descriptor], current != events else { return }
    if (try? System.epollControl(epoll, EPOLL_CTL_MOD, descriptor, events: events)) != nil {
      interests[descriptor] = events
    }
  }

  func unregister(_ descriptor: Int32) {
    guard handlers.removeValue(forKey: descriptor) != nil else { return }
    interests[descriptor] = nil
    try? System.epollControl(epoll, EPOLL_CTL_DEL, descriptor, events: 0)
  }

  /// Runs `body` on the loop after `milliseconds`, and again every `interval` if given.
  ///
  /// - Returns: An id for ``cancelTimer(_:)``.
  @discardableResult
  func schedule(
    afterMilliseconds milliseconds: Int64, every interval: Int64? = nil,
    _ body: @escaping () -> Void
  ) -> Int {
    let id = nextTimerID.add(1, ordering: .relaxed).oldValue
    timers.insert(
      Timer(
        id: id, deadline: System.monotonicMilliseconds() + milliseconds, interval: interval,
        body: body))
    return id
  }

  func cancelTimer(_ id: Int) {
    timers.cancel(id)
  }

  /// Schedules a repeating task from any thread.
  ///
  /// - Parameters:
  ///   - milliseconds: The period.
  ///   - body: The work, run on the loop.
  /// - Returns: An id for ``cancel(timer:)``.
  @discardableResult
  public func repeating(
    everyMilliseconds milliseconds: Int64, _ body: @escaping @Sendable () -> Void
  ) -> Int {
    later(milliseconds: milliseconds, every: milliseconds, body)
  }

  /// Runs `body` on the loop once after `milliseconds`, from any thread.
  ///
  /// - Returns: An id for ``cancel(timer:)``.
  @discardableResult
  public func after(milliseconds: Int64, _ body: @escaping @Sendable () -> Void) -> Int {
    later(milliseconds: milliseconds, every: nil, body)
  }

  /// Cancels a task scheduled with ``after(milliseconds:_:)`` or
  /// ``repeating(everyMilliseconds:_:)``, from any thread.
  public func cancel(timer id: Int) {
    execute { [self] in cancelTimer(id) }
  }

  private func later(
    milliseconds: Int64, every interval: Int64?, _ body: @escaping @Sendable () -> Void
  ) -> Int {
    let id = nextTimerID.add(1, ordering: .relaxed).oldValue
    let deadline = System.monotonicMilliseconds() + milliseconds
    execute { [self] in
      timers.insert(Timer(id: id, deadline: deadline, interval: interval, body: body))
    }
    return id
  }

  // MARK: - The loop

  private func run() {
    while !stopRequested.load(ordering: .acquiring) {
      let now = System.monotonicMilliseconds()
      let nextDeadline = timers.nextDeadline
      let timeout = nextDeadline.map { Int32(clamping: max(0, min($0 - now, 1_000))) } ?? 1_000
      let count = (try? System.epollWait(epoll, into: events, timeoutMilliseconds: timeout)) ?? 0
      for index in 0..<count {
        let event = events[index]
        let descriptor = event.data.fd
        if descriptor == wake {
          System.eventDrain(wake)
        } else {
          handlers[descriptor]?.ready(event.events)
        }
      }
      runDueTimers()
      runTasks()
    }
    for handler in Array(handlers.values) { handler.loopStopped() }
    handlers.removeAll()
    runTasks()
  }

  private func runTasks() {
    wakePending.store(false, ordering: .releasing)
    let due = tasks.withLock { tasks in
      defer { tasks.removeAll(keepingCapacity: true) }
      return tasks
    }
    for task in due { task() }
  }

  private func runDueTimers() {
    let now = System.monotonicMilliseconds()
    while let timer = timers.popDue(now: now) {
      if let interval = timer.interval {
        var again = timer
        again.deadline = now + interval
        timers.insert(again)
      }
      timer.body()
    }
  }

}

/// A task to run on the loop at a deadline, once or every `interval`.
struct Timer {
  let id: Int
  var deadline: Int64
  let interval: Int64?
  let body: () -> Void
}

/// Timers in a binary min-heap by deadline.
///
/// Adding one and taking the next due one are O(log n), so thousands of pending timers cost
/// next to nothing per turn of the loop. Cancelled ids are skipped when they come up.
struct TimerHeap {
  private var heap: [Timer] = []
  private var cancelled: Set<Int> = []

  /// The earliest deadline, if any timer is pending.
  var nextDeadline: Int64? {
    mutating get {
      dropCancelled()
      return heap.first?.deadline
    }
  }

  mutating func insert(_ timer: Timer) {
    cancelled.remove(timer.id)
    heap.append(timer)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  mutating func cancel(_ id: Int) {
    guard heap.contains(where: { $0.id == id }) else { return }
    cancelled.insert(id)
  }

  /// Removes and returns the earliest timer if its deadline has come.
  mutating func popDue(now: Int64) -> Timer? {
    dropCancelled()
    guard let first = heap.first, first.deadline <= now else { return nil }
    removeFirst()
    return first
  }

  private mutating func dropCancelled() {
    while let first = heap.first, cancelled.contains(first.id) {
      cancelled.remove(first.id)
      removeFirst()
    }
  }

  private mutating func removeFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
      if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
