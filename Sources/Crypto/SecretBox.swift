import CCrypto

/// Authenticated encryption with AES-256-GCM, for secrets that must be read back (such as a
/// TOTP secret) but never stored in clear.
///
/// A sealed box is the 12-byte random nonce, the ciphertext and the 16-byte tag.
public enum SecretBox {
  /// The key length in bytes.
  public static let keyLength = 32

  static let nonceLength = 12
  static let tagLength = 16

  // EVP_CTRL_GCM_GET_TAG and EVP_CTRL_GCM_SET_TAG (macros in evp.h).
  private static let getTag: Int32 = 0x10
  private static let setTag: Int32 = 0x11

  /// Encrypts and authenticates bytes under a fresh random nonce.
  ///
  /// - Parameters:
  ///   - plaintext: The bytes to protect.
  ///   - key: A 32-byte key.
  /// - Returns: The sealed box.
  /// - Throws: `CryptoError` if the key has the wrong length or libcrypto fails.
  public static func seal(_ plaintext: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
    try seal(plaintext, key: key, nonce: SecureRandom.bytes(count: nonceLength))
  }

  /// Decrypts a sealed box, checking that it was sealed with this key and not altered.
  ///
  /// - Parameters:
  ///   - box: Bytes produced by `seal(_:key:)`.
  ///   - key: The 32-byte key.
  /// - Returns: The plaintext.
  /// - Throws: `CryptoError.authenticationFailed` for a wrong key or altered bytes.
  public static func open(_ box: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
    guard key.count == keyLength else { throw .invalidParameters("the key must be 32 bytes") }
    guard box.count >= nonceLength + tagLength else { throw .authenticationFailed }
    let nonce = Array(box[..<nonceLength])
    let ciphertext = Array(box[nonceLength..<(box.count - tagLength)])
    var tag = Array(box[(box.count - tagLength)...])
    guard let context = EVP_CIPHER_CTX_new() else { throw .derivationFailed }
    defer { EVP_CIPHER_CTX_free(context) }
    var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
    var length: Int32 = 0
    var scratch = [UInt8](repeating: 0, count: 16)
    var finalLength: Int32 = 0
    guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1,
      EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1,
      EVP_CIPHER_CTX_ctrl(context, setTag, Int32(tagLength), &tag) == 1
    else { throw .derivationFailed }
    guard EVP_DecryptFinal_ex(context, &scratch, &finalLength) == 1 else {
      throw .authenticationFailed
    }
    return Array(plaintext[..<Int(length)])
  }

  /// Encrypts under a given nonce; tests use it for known-answer vectors.
  static func seal(
    _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]
  ) throws(CryptoError) -> [UInt8] {
    guard key.count == keyLength else { throw .invalidParameters("the key must be 32 bytes") }
    guard nonce.count == nonceLength else {
      throw .invalidParameters("the nonce must be 12 bytes")
    }
    guard let context = EVP_CIPHER_CTX_new() else { throw .derivationFailed }
    defer { EVP_CIPHER_CTX_free(context) }
    // GCM is a stream mode: the ciphertext is as long as the plaintext. The spare block keeps
    // the pointer valid for an empty plaintext.
    var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
    var tag = [UInt8](repeating: 0, count: tagLength)
    var length: Int32 = 0
    var scratch = [UInt8](repeating: 0, count: 16)
    var finalLength: Int32 = 0
    guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1,
      EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)) == 1,
      EVP_EncryptFinal_ex(context, &scratch, &finalLength) == 1,
      EVP_CIPHER_CTX_ctrl(context, getTag, Int32(tagLength), &tag) == 1
    else { throw .derivationFailed }
    return nonce + ciphertext[..<Int(length)] + tag
  }
}
