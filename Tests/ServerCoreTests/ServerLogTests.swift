import GameProtocol
import GameRules
import ServerCore
import TestSupport
import Testing

/// The operator's lines not reached by the whole-game tests, and names that carry control
/// characters.
struct ServerLogTests {
  @Test func endingsAndCancellationsAreSaidWithTheirNames() throws {
    let match = try playingMatch(moves: [Cell(row: 1, column: 1)])
    #expect(
      ServerLog.ended(match, Ending(winner: .o, reason: .resigned))
        == "Game \(code) ended: bob (O) won, ann (X) resigned.")
    #expect(
      ServerLog.ended(match, Ending(winner: nil, reason: .completed))
        == "Game \(code) ended in a draw.")
    #expect(ServerLog.cancelled(match, byCreator: true) == "ann cancelled game \(code).")
    #expect(
      ServerLog.cancelled(match, byCreator: false)
        == "Game \(code) was dropped: ann did not come back to it.")
  }

  @Test func controlCharactersFromClientsAreEscaped() throws {
    var match = try playingMatch()
    match.x.name = "ann\u{1B}[2J"
    #expect(ServerLog.cancelled(match, byCreator: true) == "ann\\u{1B}[2J cancelled game \(code).")
    let account = SignedInAccount(
      accountID: 1, userName: "eve\u{7}", rating: 1_200, token: "t")
    #expect(
      ServerLog.signedIn(account, request: 0x03, from: "10.0.0.1\n")
        == "eve\\u{7} signed in from 10.0.0.1\\u{A}.")
    #expect(
      ServerLog.refused(Refusal(.lockedOut, detail: 30), of: 0x03, from: "::1")
        == "A sign-in from ::1 was refused: the account is locked for 30 s after failed attempts.")
    #expect(
      ServerLog.refused(Refusal(.invalidCredentials), of: 0x06, from: "::1")
        == "An account change from ::1 was refused: wrong user name or password.")
    #expect(ServerLog.refused(Refusal(.userNameTaken), of: 0x02, from: "::1") == nil)
    #expect(
      ServerLog.accountChanged(.password, of: " ann\u{1B} ", from: "::1")
        == "ann\\u{1B} changed the password from ::1.")
  }
}

/// The operator's log cannot be flooded by refusals that cost the server nothing.
struct ServerLogFloodTests {
  @Test func anAddressRefusedForTryingTooOftenGetsOneLineAnEmptySpell() {
    let lines = StorageLog()
    let server = GameServer(
      authentication: .unimplemented, storage: .unimplemented, random: { _ in 0 },
      log: { lines.record($0) })
    var state = GameServer.State(now: epoch)
    let id = ClientID(5)
    state.clients[id] = .ready(nil, address: "10.1.1.1")
    var spent = Allowance(now: epoch)
    for _ in 0..<ProtocolLimits.signInBurst { _ = spent.take(now: epoch) }
    state.allowances["10.1.1.1"] = spent
    for _ in 0..<1_000 {
      _ = server.reduce(into: &state, action: .received(id, .signIn(userName: "a", password: "b")))
    }
    #expect(state.outbox.count == 1_000)
    #expect(lines.all.count == 1)
  }
}

/// Limits that count by machine count an IPv6 address by its /64.
struct NetworkTests {
  @Test func anIPv6AddressCountsByItsNetwork() {
    #expect(Network.key(of: "203.0.113.7") == "203.0.113.7")
    #expect(Network.key(of: "::ffff:203.0.113.7") == "203.0.113.7")
    #expect(Network.key(of: "2001:db8::1") == "2001:db8:0:0::/64")
    #expect(Network.key(of: "2001:DB8:0:0:ffff::2") == "2001:db8:0:0::/64")
    #expect(Network.key(of: "2001:db8:0:1::1") == "2001:db8:0:1::/64")
    #expect(Network.key(of: "fe80::1%eth0") == "fe80:0:0:0::/64")
    #expect(Network.key(of: "::1") == "0:0:0:0::/64")
    #expect(Network.key(of: "1:2:3:4:5:6:7:8:9") == "1:2:3:4:5:6:7:8:9")
    #expect(Network.key(of: "1::2::3") == "1::2::3")
    #expect(Network.key(of: "example.org") == "example.org")
  }

  /// Two addresses of one /64 share one allowance of sign-ins.
  @Test func twoAddressesOfOneNetworkShareTheAllowance() {
    var state = GameServer.State(now: epoch)
    let (first, second) = (ClientID(5), ClientID(6))
    state.clients[first] = .ready(nil, address: "2001:db8::1")
    state.clients[second] = .ready(nil, address: "2001:db8::2")
    var spent = Allowance(now: epoch)
    for _ in 0..<ProtocolLimits.signInBurst { _ = spent.take(now: epoch) }
    state.allowances["2001:db8:0:0::/64"] = spent
    let (after, hasEffect) = reduced(
      state, .received(second, .signIn(userName: "a", password: "b")))
    #expect(!hasEffect)
    #expect(after.outbox.count == 1)
  }
}
