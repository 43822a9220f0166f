import GameProtocol
import GameRules
import ServerCore
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
      ServerLog.signInRefused(Refusal(.lockedOut, detail: 30), from: "::1")
        == "A sign-in from ::1 was refused: the account is locked for 30 s after failed attempts.")
    #expect(ServerLog.signInRefused(Refusal(.userNameTaken), from: "::1") == nil)
  }
}
