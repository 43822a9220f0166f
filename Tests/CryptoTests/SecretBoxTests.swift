import Testing

@testable import Crypto

struct SecretBoxTests {
  @Test func matchesTheGCMSpecificationTestCase14() throws {
    let box = try SecretBox.seal(
      [UInt8](repeating: 0, count: 16), key: [UInt8](repeating: 0, count: 32),
      nonce: [UInt8](repeating: 0, count: 12))
    #expect(
      hexString(Array(box.dropFirst(12)))
        == "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919")
  }

  @Test func matchesTheGCMSpecificationTestCase13ForEmptyInput() throws {
    let box = try SecretBox.seal(
      [], key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 12))
    #expect(hexString(Array(box.dropFirst(12))) == "530f8afbc74536b9a963b4f1c4cb738b")
  }

  @Test func opensWhatItSealed() throws {
    let key = try SecureRandom.bytes(count: 32)
    let secret = Array("JBSWY3DPEHPK3PXP".utf8)
    let box = try SecretBox.seal(secret, key: key)
    #expect(box.count == 12 + secret.count + 16)
    #expect(!hexString(box).contains(hexString(secret)))
    #expect(try SecretBox.open(box, key: key) == secret)
  }

  @Test func rejectsAWrongKeyAndAlteredBytes() throws {
    let key = try SecureRandom.bytes(count: 32)
    let box = try SecretBox.seal(Array("secret".utf8), key: key)
    var wrongKey = key
    wrongKey[0] ^= 1
    #expect(throws: CryptoError.authenticationFailed) { try SecretBox.open(box, key: wrongKey) }
    for index in box.indices {
      var altered = box
      altered[index] ^= 0x80
      #expect(throws: CryptoError.authenticationFailed) { try SecretBox.open(altered, key: key) }
    }
    #expect(throws: CryptoError.authenticationFailed) {
      try SecretBox.open(Array(box.prefix(20)), key: key)
    }
  }
}
