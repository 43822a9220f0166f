import GameRules

/// Which refusals can answer which request: what a client may believe of a refusal, and what a
/// server must keep to. `docs/protocol.md` gives the same table.
extension Refusal {
  /// The refusals that answer no request (`request` 0): of the connection as a whole.
  public static let unrequestedCodes: Set<ErrorCode> = [
    .malformedMessage, .frameTooLarge, .shuttingDown, .sessionExpired, .seatTakenOver,
    .serverError,
  ]

  /// Refusals any request may get: before `hello`, while the server stops, and when it cannot
  /// store what was asked.
  static let anyRequestCodes: Set<ErrorCode> = [.helloExpected, .shuttingDown, .serverError]

  /// Whether the server may answer a request of type `request` (0 for none) with `code`.
  public static func mayAnswer(_ request: UInt8, with code: ErrorCode) -> Bool {
    guard request != 0 else { return unrequestedCodes.contains(code) }
    return anyRequestCodes.contains(code) || requestCodes[request]?.contains(code) == true
  }

  /// The refusals each request type may get besides ``anyRequestCodes``.
  private static let requestCodes: [UInt8: Set<ErrorCode>] = {
    let accounts: Set<ErrorCode> = [
      .busy, .alreadySignedIn, .notSignedIn, .noChallenge, .rateLimited, .invalidCredentials,
      .invalidCode, .lockedOut, .userNameTaken, .invalidUserName, .invalidPassword,
      .codeRequired, .twoFactorState, .unfinishedGame, .sessionExpired,
    ]
    let examples: [(ClientMessage, Set<ErrorCode>)] = [
      (.hello(versions: 1...1), [.unsupportedVersion]),
      (.createAccount(userName: "", password: ""), accounts),
      (.signIn(userName: "", password: ""), accounts),
      (.submitCode(""), accounts),
      (.resumeSession(token: ""), accounts),
      (.changePassword(userName: "", oldPassword: "", newPassword: "", code: nil), accounts),
      (.deleteAccount(userName: "", password: "", code: nil), accounts),
      (.beginTwoFactor(userName: "", password: ""), accounts),
      (.confirmTwoFactor(userName: "", code: ""), accounts),
      (.disableTwoFactor(userName: "", password: "", code: nil), accounts),
      (.countRecoveryCodes, accounts),
      (.regenerateRecoveryCodes, accounts),
      (.createGame(GameOptions()), [.notSignedIn, .tooManyGames, .invalidSettings]),
      (.joinGame(code: ""), [.notSignedIn, .noSuchGame, .tooManyGames, .gameOver, .gameFull]),
      (.watchGame(code: ""), [.noSuchGame]),
      (.listGames, []),
      (
        .move(code: "", ply: 0, cell: Cell(row: 0, column: 0)),
        [
          .notSignedIn, .noSuchGame, .notAPlayer, .gameNotStarted, .gameOver, .staleMove,
          .notYourTurn, .busy, .cellTaken, .cellOutOfBounds,
        ]
      ),
      (
        .resign(code: ""),
        [.notSignedIn, .noSuchGame, .notAPlayer, .gameNotStarted, .gameOver, .busy]
      ),
      (
        .cancelGame(code: ""),
        [.notSignedIn, .noSuchGame, .notAPlayer, .busy, .gameFull, .gameOver]
      ),
      (.requestStats(userName: ""), [.busy, .noSuchUser]),
      (.requestHistory(userName: ""), [.busy, .noSuchUser]),
      (.requestFinishedGame(id: 0), [.busy, .noSuchGame]),
      (.ping(0), []),
    ]
    return Dictionary(uniqueKeysWithValues: examples.map { ($0.0.type, $0.1) })
  }()
}
