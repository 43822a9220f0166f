import Architecture
import ArchitectureTesting
import Testing

@MainActor
struct TestStoreTests {
  @Test
  func passesWhenEverythingIsAsserted() async {
    let store = TestStore(initialState: Counter.State(count: 2)) { Counter() }
    await store.send(.incrementTapped) { $0.count = 3 }
    await store.send(.fetchTapped)
    await store.receive(.fetchResponse(30)) { $0.count = 30 }
    await store.send(.chainTapped)
    await store.receive(.step(1)) { $0.steps = [1] }
    await store.receive(.step(2)) { $0.steps = [1, 2] }
    await store.receive(.step(3)) { $0.steps = [1, 2, 3] }
    await store.finish()
  }

  @Test
  func passesWhenAnEffectIsCancelled() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.waitTapped)
    await store.send(.stopWaitingTapped)
    await store.finish()
  }

  @Test
  func passesWhenDismissalCancelsAChildsEffect() async {
    let store = TestStore(initialState: Counter.State()) { counterWithChild() }
    await store.send(.presentTapped) { $0.child = Child.State() }
    await store.send(.child(.startTapped)) { $0.child?.isWaiting = true }
    await store.send(.dismissTapped) { $0.child = nil }
    await store.finish()
  }

  @Test
  func failsWhenAStateChangeIsNotAsserted() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.incrementTapped)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("State was not as expected") && text.contains("− ")
        && text.contains("count: 0") && text.contains("+ ") && text.contains("count: 1")
    }
    await store.finish()
  }

  @Test
  func failsWhenTheAssertedChangeIsWrong() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.incrementTapped) { $0.count = 2 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("count: 2")
    }
    await store.finish()
  }

  @Test
  func failsWhenAnExpectedActionNeverArrives() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.waitTapped)
    await withKnownIssue {
      await store.receive(.woke, timeout: .milliseconds(100))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("nothing arrived within 0.1 seconds")
    }
    await store.send(.stopWaitingTapped)
    await store.finish()
  }

  @Test
  func failsWithoutWaitingWhenNoEffectCouldSendTheAction() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.receive(.woke)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no effect is running")
    }
    await store.finish()
  }

  @Test
  func failsWhenAnEffectOutlivesTheTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.waitTapped)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(100))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("still running")
    }
  }

  @Test
  func failsWhenAReceivedActionIsNotAsserted() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.fetchTapped)
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("fetchResponse")
    }
  }

  @Test
  func failsWhenSendingBeforeHandlingReceivedActions() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.chainTapped)
      await store.send(.incrementTapped) { $0.count = 1 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Must handle 3 received action(s)")
    }
    await store.finish()
  }

  @Test
  func failsWhenADifferentActionArrives() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.fetchTapped)
    await withKnownIssue {
      await store.receive(.woke) { $0.count = 0 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Received an unexpected action")
    }
    await store.finish()
  }

  @Test
  func failsWhenAnEffectOutlivesAReleasedStore() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.waitTapped)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("still running")
    }
  }

  @Test
  func nonExhaustiveStoreChecksOnlyWhatIsAsserted() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.exhaustivity = .off
    store.timeout = .milliseconds(100)
    await store.send(.chainTapped)
    await store.receive(.step(3)) { $0.steps = [1, 2, 3] }
    await store.send(.incrementTapped)
    await store.send(.waitTapped)
    await store.finish()
    #expect(store.state.count == 1)
  }

  @Test
  func nonExhaustiveStoreStillFailsOnAFalseAssertion() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.incrementTapped) { $0.count = 5 }
    }
    await store.finish()
  }
}
