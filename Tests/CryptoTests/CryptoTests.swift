import Crypto
import Testing

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

struct OneTimePasswordTests {
  private let rfcSecret = bytes("12345678901234567890")

  @Test(
    "RFC 4226 HOTP values for counters 0 to 9",
    arguments: zip(
      0..<10,
      [
        "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583",
        "399871", "520489",
      ]))
  func hotpMatchesRFC4226(counter: Int, expected: String) {
    #expect(OneTimePassword.hotp(secret: rfcSecret, counter: UInt64(counter)) == expected)
  }

  @Test(
    "RFC 6238 SHA-1 rows with 8 digits",
    arguments: [
      (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
      (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
  func totpMatchesRFC6238(time: Int64, expected: String) {
    #expect(OneTimePassword.totp(secret: rfcSecret, unixTime: time, digits: 8) == expected)
  }

  @Test func sixDigitCodesAreTheLastSixDigitsOfTheEightDigitCodes() {
    #expect(OneTimePassword.totp(secret: rfcSecret, unixTime: 59) == "287082")
    #expect(OneTimePassword.totp(secret: rfcSecret, unixTime: 1_111_111_109) == "081804")
  }

  @Test func stepsAreThirtySecondsLong() {
    #expect(OneTimePassword.counter(atUnixTime: 0) == 0)
    #expect(OneTimePassword.counter(atUnixTime: 29) == 0)
    #expect(OneTimePassword.counter(atUnixTime: 30) == 1)
    #expect(OneTimePassword.counter(atUnixTime: 59) == 1)
    #expect(
      OneTimePassword.totp(secret: rfcSecret, unixTime: 30)
        == OneTimePassword.totp(secret: rfcSecret, unixTime: 59))
  }

  @Test func provisioningURIEncodesTheLabelAndUnpaddedSecret() {
    let uri = OneTimePassword.provisioningURI(
      secret: rfcSecret, account: "ann lee", issuer: "TicTacToe")
    #expect(
      uri == "otpauth://totp/TicTacToe:ann%20lee?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        + "&issuer=TicTacToe&algorithm=SHA1&digits=6&period=30")
  }
}

struct KeyDerivationTests {
  @Test func scryptMatchesRFC7914WithEmptyPasswordAndSalt() throws {
    let key = try Scrypt.deriveKey(password: [], salt: [], n: 16, r: 1, p: 1, length: 64)
    #expect(
      hexString(key)
        == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
  }

  @Test func scryptMatchesRFC7914WithPasswordAndNaCl() throws {
    let key = try Scrypt.deriveKey(
      password: bytes("password"), salt: bytes("NaCl"), n: 1024, r: 8, p: 16, length: 64)
    #expect(
      hexString(key)
        == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
  }

  @Test func scryptRejectsACostThatIsNotAPowerOfTwo() {
    #expect(throws: CryptoError.self) {
      try Scrypt.deriveKey(password: [], salt: [], n: 15, r: 1, p: 1, length: 16)
    }
  }

  @Test func scryptFailsWhenTheMemoryCeilingIsTooLow() {
    #expect(throws: CryptoError.derivationFailed) {
      try Scrypt.deriveKey(
        password: [], salt: [], n: 1024, r: 8, p: 1, length: 16, maximumMemory: 64 * 1024)
    }
  }

  @Test func pbkdf2MatchesRFC7914WithOneIteration() throws {
    let key = try PBKDF2.deriveKeySHA256(
      password: bytes("passwd"), salt: bytes("salt"), iterations: 1, length: 64)
    #expect(
      hexString(key)
        == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
  }

  @Test func pbkdf2MatchesRFC7914WithEightyThousandIterations() throws {
    let key = try PBKDF2.deriveKeySHA256(
      password: bytes("Password"), salt: bytes("NaCl"), iterations: 80_000, length: 64)
    #expect(
      hexString(key)
        == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
        + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
  }

  @Test func hmacSHA1MatchesRFC2202() {
    let code = HMAC.sha1(key: bytes("Jefe"), message: bytes("what do ya want for nothing?"))
    #expect(hexString(code) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
  }
}

struct Base32Tests {
  @Test func encodesTheRFCSecret() {
    #expect(Base32.encode(bytes("12345678901234567890")) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
  }

  @Test(
    "RFC 4648 test vectors",
    arguments: [
      ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="),
      ("foob", "MZXW6YQ="), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ])
  func roundTripsRFC4648Vectors(plain: String, encoded: String) throws {
    #expect(Base32.encode(bytes(plain), padding: true) == encoded)
    #expect(try Base32.decode(encoded) == bytes(plain))
  }

  @Test func encodesWithoutPaddingByDefault() {
    #expect(Base32.encode(bytes("foobar")) == "MZXW6YTBOI")
  }

  @Test func decodesLowercaseAndMissingOrPresentPadding() throws {
    #expect(try Base32.decode("mzxw6ytboi") == bytes("foobar"))
    #expect(try Base32.decode("MZXW6YTBOI======") == bytes("foobar"))
    #expect(try Base32.decode("gezd gnbv-gy3t") == bytes("1234567"))
  }

  @Test func rejectsCharactersOutsideTheAlphabet() {
    #expect(throws: CryptoError.invalidBase32) { try Base32.decode("MZXW1") }
    #expect(throws: CryptoError.invalidBase32) { try Base32.decode("MZXW8") }
  }

  @Test func rejectsATruncatedFinalCharacter() {
    #expect(throws: CryptoError.invalidBase32) { try Base32.decode("M") }
    #expect(throws: CryptoError.invalidBase32) { try Base32.decode("MZX") }
  }

  @Test func roundTripsRandomSecrets() throws {
    for length in 0..<41 {
      let secret = try SecureRandom.bytes(count: length)
      #expect(try Base32.decode(Base32.encode(secret)) == secret)
    }
  }
}

struct PrimitiveTests {
  @Test func randomBytesHaveTheRequestedLengthAndDiffer() throws {
    let first = try SecureRandom.bytes(count: 32)
    let second = try SecureRandom.bytes(count: 32)
    #expect(first.count == 32)
    #expect(first != second)
  }

  @Test func constantTimeEqualsComparesContentAndLength() {
    #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
    #expect(constantTimeEquals([], []))
  }
}

struct PasswordHashTests {
  private let cheap = PasswordHash.Algorithm.scrypt(logN: 4, r: 1, p: 1)

  @Test func matchesTheRightPasswordOnly() throws {
    let hash = try PasswordHash(hashing: "correct horse", algorithm: cheap)
    #expect(try hash.matches("correct horse"))
    #expect(try !hash.matches("correct horsf"))
    #expect(try !hash.matches(""))
  }

  @Test func usesAFreshSixteenByteSaltEachTime() throws {
    let first = try PasswordHash(hashing: "secret", algorithm: cheap)
    let second = try PasswordHash(hashing: "secret", algorithm: cheap)
    #expect(first.salt.count == 16)
    #expect(first.salt != second.salt)
    #expect(first.key != second.key)
  }

  @Test func encodedFormRecordsAlgorithmParametersSaltAndKey() throws {
    let hash = try PasswordHash(hashing: "secret", algorithm: cheap, salt: [0xAB, 0x01])
    #expect(hash.encoded.hasPrefix("$scrypt$ln=4,r=1,p=1$ab01$"))
    #expect(!hash.encoded.contains("secret"))
    let decoded = try PasswordHash(encoded: hash.encoded)
    #expect(decoded == hash)
    #expect(try decoded.matches("secret"))
  }

  @Test func pbkdf2HashesRoundTrip() throws {
    let hash = try PasswordHash(hashing: "secret", algorithm: .pbkdf2SHA256(iterations: 10))
    #expect(hash.encoded.hasPrefix("$pbkdf2-sha256$i=10$"))
    let decoded = try PasswordHash(encoded: hash.encoded)
    #expect(try decoded.matches("secret"))
    #expect(try !decoded.matches("Secret"))
  }

  @Test func productionParametersAreScryptTwoToTheSeventeenth() {
    #expect(PasswordHash.Algorithm.production == .scrypt(logN: 17, r: 8, p: 1))
  }

  @Test(
    "malformed stored hashes are rejected",
    arguments: [
      "", "scrypt$ln=4,r=1,p=1$ab$cd", "$scrypt$ln=4,r=1$ab$cd", "$scrypt$ln=4,r=1,p=1$ab$",
      "$scrypt$ln=4,r=1,p=1$zz$cd", "$scrypt$ln=40,r=1,p=1$ab$cd", "$md5$i=1$ab$cd",
      "$pbkdf2-sha256$i=0$ab$cd", "$scrypt$ln=4,r=1,p=1,p=1$ab$cd",
    ])
  func rejectsMalformedHashes(encoded: String) {
    #expect(throws: CryptoError.malformedPasswordHash) { try PasswordHash(encoded: encoded) }
  }
}

struct SecretKeyTests {
  private let cheap = PasswordHash.Algorithm.scrypt(logN: 4, r: 1, p: 1)

  @Test func secretKeyIsReturnedOnlyForTheRightPassword() throws {
    let (hash, secretKey) = try PasswordHash.hashWithSecretKey("open sesame", algorithm: cheap)
    #expect(secretKey.count == 32)
    #expect(try hash.secretKey(ifMatching: "open sesame") == secretKey)
    #expect(try hash.secretKey(ifMatching: "open sesamE") == nil)
    #expect(try hash.matches("open sesame"))
  }

  @Test func secretKeyIsNotPartOfTheStoredHash() throws {
    let (hash, secretKey) = try PasswordHash.hashWithSecretKey("open sesame", algorithm: cheap)
    let decoded = try PasswordHash(encoded: hash.encoded)
    #expect(!decoded.encoded.contains(hexString(secretKey)))
    #expect(decoded.key != secretKey)
    #expect(try decoded.secretKey(ifMatching: "open sesame") == secretKey)
  }
}

struct DecoyTests {
  @Test func decoyHasTheParametersAndSizesOfARealHash() throws {
    let algorithm = PasswordHash.Algorithm.scrypt(logN: 4, r: 1, p: 1)
    let decoy = try PasswordHash.decoy(algorithm: algorithm)
    let real = try PasswordHash(hashing: "correct horse", algorithm: algorithm)
    #expect(decoy.algorithm == real.algorithm)
    #expect(decoy.salt.count == real.salt.count && decoy.key.count == real.key.count)
    #expect(try decoy.secretKey(ifMatching: "correct horse") == nil)
    #expect(try decoy.secretKey(ifMatching: "") == nil)
    #expect(try PasswordHash.decoy(algorithm: algorithm) != decoy)
  }
}
