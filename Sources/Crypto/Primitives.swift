import CCrypto

/// Message authentication codes.
public enum HMAC {
  /// Computes HMAC-SHA1, the function behind HOTP and TOTP.
  ///
  /// - Parameters:
  ///   - key: The secret key.
  ///   - message: The message to authenticate.
  /// - Returns: The 20-byte code.
  public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let result = key.withUnsafeBufferPointer { keyBytes in
      message.withUnsafeBufferPointer { messageBytes in
        code.withUnsafeMutableBufferPointer { codeBytes in
          CCrypto.HMAC(
            EVP_sha1(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress,
            messageBytes.count, codeBytes.baseAddress, &length)
        }
      }
    }
    // HMAC only fails when libcrypto cannot allocate or the digest is unavailable.
    guard result != nil, length == 20 else { preconditionFailure("HMAC-SHA1 is unavailable") }
    return Array(code[..<Int(length)])
  }
}

/// Cryptographically secure random bytes from libcrypto.
public enum SecureRandom {
  /// Returns `count` random bytes.
  ///
  /// - Throws: `CryptoError.randomGeneratorFailed` when the generator cannot be seeded.
  public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    let status = bytes.withUnsafeMutableBufferPointer {
      RAND_bytes($0.baseAddress, Int32($0.count))
    }
    guard status == 1 else { throw .randomGeneratorFailed }
    return bytes
  }
}

/// Compares two byte strings in time that depends only on their lengths.
///
/// Use it for secrets (password hashes, codes) so that timing reveals nothing about where they
/// differ.
///
/// - Returns: Whether the two byte strings are equal.
public func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
  guard lhs.count == rhs.count else { return false }
  guard !lhs.isEmpty else { return true }
  return lhs.withUnsafeBytes { left in
    rhs.withUnsafeBytes { right in
      CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
    }
  }
}
