import Architecture
import Testing

@MainActor
struct StoreTests {
  @Test
  func sendReducesAtOnce() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementTapped)
    store.send(.incrementTapped)
    #expect(store.state.count == 2)
  }

  @Test
  func runEffectFeedsItsActionBack() async {
    let store = Store(initialState: Counter.State(count: 4)) { Counter() }
    await store.send(.fetchTapped).finish()
    #expect(store.state.count == 40)
  }

  @Test
  func runEffectRunsOffTheMainActor() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    await store.send(.isolationCheckTapped).finish()
    #expect(store.state.ranOffMainActor == true)
  }

  @Test
  func sentActionsAreReducedInOrderBeforeSendReturns() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.chainTapped)
    #expect(store.state.steps == [1, 2, 3])
  }

  @Test
  func cancelStopsAnEffectBeforeItReports() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let task = store.send(.waitTapped)
    #expect(store.runningEffectCount == 1)
    store.send(.stopWaitingTapped)
    await task.finish()
    #expect(store.runningEffectCount == 0)
    #expect(store.state.count == 0)
  }

  @Test
  func cancelInFlightReplacesTheRunningEffect() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let first = store.send(.waitTapped)
    let second = store.send(.restartWaitTapped)
    await first.finish()
    #expect(first.isCancelled)
    #expect(!second.isCancelled)
    #expect(store.runningEffectCount == 1)
    second.cancel()
    await second.finish()
    #expect(store.runningEffectCount == 0)
  }

  @Test
  func cancellingTheWaitingTaskCancelsTheEffect() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let waiter = Task { await store.send(.waitTapped).finish() }
    waiter.cancel()
    await waiter.value
    #expect(store.state.count == 0)
  }

  @Test
  func mapLiftsAChildEffectsActions() async {
    enum Word: Equatable, Sendable {
      case startTapped
      case number(Int)
    }
    let store = Store(initialState: [String]()) {
      Reduce<[String], Word> { state, action in
        switch action {
        case .startTapped:
          return Effect<Int>.merge(.send(1), .run { send in await send(2) }).map(Word.number)
        case .number(let number):
          state.append("\(number)")
          return .none
        }
      }
    }
    await store.send(.startTapped).finish()
    #expect(store.state == ["1", "2"])
  }

  @Test
  func observersSeeTheStateNowAndAfterEachChange() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var counts: [Int] = []
    let token = store.observe { counts.append($0.count) }
    store.send(.incrementTapped)
    store.send(.stopWaitingTapped)  // changes nothing, so no notification
    store.send(.incrementTapped)
    token.cancel()
    store.send(.incrementTapped)
    #expect(counts == [0, 1, 2])
  }

  @Test
  func releasingTheTokenStopsObservation() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var counts: [Int] = []
    var token: ObservationToken? = store.observe { counts.append($0.count) }
    store.send(.incrementTapped)
    #expect(token != nil)
    token = nil
    store.send(.incrementTapped)
    #expect(counts == [0, 1])
  }

  @Test
  func dismissingAChildCancelsItsEffects() async {
    let store = Store(initialState: Counter.State()) { counterWithChild() }
    store.send(.presentTapped)
    let childTask = store.send(.child(.startTapped))
    #expect(store.state.child?.isWaiting == true)
    #expect(store.runningEffectCount == 1)
    store.send(.dismissTapped)
    await childTask.finish()
    #expect(childTask.isCancelled)
    #expect(store.runningEffectCount == 0)
  }

  @Test
  func childActionsAreIgnoredWhenTheChildIsNotPresented() {
    let store = Store(initialState: Counter.State()) { counterWithChild() }
    store.send(.child(.startTapped))
    #expect(store.state == Counter.State())
    #expect(store.runningEffectCount == 0)
  }

  @Test
  func settledWaitsForEffectsThatStartOthers() async {
    let store = Store(initialState: Counter.State()) { counterWithChild() }
    store.send(.incrementTapped)
    store.send(.relayTapped)
    await store.settled()
    // The relay sent fetchTapped, whose own effect answered before settled returned.
    #expect(store.state.count == 10)
    #expect(store.runningEffectCount == 0)
    // Nothing running: returns at once.
    await store.settled()
  }
}
