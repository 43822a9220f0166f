import AuthenticationClient
import AuthenticationClientLive
import Crypto
import DatabaseClientLive
import Foundation
import Synchronization

/// A clock the test moves by hand, in milliseconds since 1970.
final class TestClock: Sendable {
  private let milliseconds: Mutex<Int64>

  init(_ start: Int64 = 1_700_000_000_000) { milliseconds = Mutex(start) }

  var now: Int64 { milliseconds.withLock { $0 } }

  func advance(seconds: Int64) { milliseconds.withLock { $0 += seconds * 1_000 } }
}

/// A live client over a fresh database with cheap hashing and a test clock.
struct Harness {
  let clock = TestClock()
  let database: LocalDatabase
  let client: AuthenticationClient

  init(path: String = ":memory:") throws {
    database = try LocalDatabase(path: path)
    let clock = self.clock
    client = .live(
      database: database, passwordAlgorithm: .scrypt(logN: 4, r: 1, p: 1),
      now: { clock.now })
  }

  /// A second client over the harness's database: another process, with sessions and set-ups
  /// of its own, on the harness's clock.
  func otherProcess() -> AuthenticationClient {
    let clock = self.clock
    return .live(
      database: database, passwordAlgorithm: .scrypt(logN: 4, r: 1, p: 1), now: { clock.now })
  }

  /// The authenticator app's code `steps` steps from now.
  func code(secret: String, steps: Int64 = 0) throws -> String {
    OneTimePassword.totp(
      secret: try Base32.decode(secret), unixTime: clock.now / 1_000 + steps * 30)
  }

  /// Creates `ann` with two-factor on; returns the base32 secret and recovery codes.
  func annWithTwoFactor() async throws -> (secret: String, recoveryCodes: [String]) {
    _ = try await client.createAccount("ann", "correct horse")
    let enrolment = try await client.beginTwoFactor("ann", "correct horse")
    let codes = try await client.confirmTwoFactor("ann", try code(secret: enrolment.secret))
    // The confirming code's step is used up; later sign-ins need a later one.
    clock.advance(seconds: 30)
    return (enrolment.secret, codes)
  }

  /// Signs `ann` in up to the two-factor challenge.
  func challenge(_ password: String = "correct horse") async throws -> TwoFactorChallenge {
    guard case .twoFactorRequired(let challenge) = try await client.login("ann", password) else {
      throw AuthenticationError.twoFactorState("expected a two-factor challenge")
    }
    return challenge
  }
}

func isError(_ expected: AuthenticationError) -> @Sendable (any Error) -> Bool {
  { ($0 as? AuthenticationError) == expected }
}

/// Credentials for the endpoints that change an account.
func credentials(_ user: String, _ password: String, code: String? = nil) -> Credentials {
  Credentials(userName: user, password: password, code: code)
}
