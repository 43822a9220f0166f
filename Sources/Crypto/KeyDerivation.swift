import CCrypto

/// Memory-hard password-based key derivation with scrypt (RFC 7914).
public enum Scrypt {
  /// The default memory ceiling: 256 MiB, enough for N = 2^17, r = 8, p = 1.
  ///
  /// libcrypto treats a ceiling of 0 as 32 MiB, which is too little for production parameters.
  public static let defaultMaximumMemory: UInt64 = 256 * 1024 * 1024

  /// Derives a key from a password and salt.
  ///
  /// - Parameters:
  ///   - password: The password bytes.
  ///   - salt: The salt bytes.
  ///   - n: The CPU/memory cost, a power of two greater than 1.
  ///   - r: The block size.
  ///   - p: The parallelisation.
  ///   - length: The key length in bytes.
  ///   - maximumMemory: The most memory libcrypto may use.
  /// - Returns: The derived key.
  /// - Throws: `CryptoError.invalidParameters` or `CryptoError.derivationFailed`.
  public static func deriveKey(
    password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int,
    maximumMemory: UInt64 = defaultMaximumMemory
  ) throws(CryptoError) -> [UInt8] {
    guard n > 1, n & (n - 1) == 0 else {
      throw .invalidParameters("N must be a power of two greater than 1")
    }
    guard r > 0, p > 0 else { throw .invalidParameters("r and p must be positive") }
    guard length > 0 else { throw .invalidParameters("the key length must be positive") }
    var key = [UInt8](repeating: 0, count: length)
    let status = password.withUnsafeBufferPointer { passwordBytes in
      passwordBytes.withMemoryRebound(to: CChar.self) { passwordChars in
        salt.withUnsafeBufferPointer { saltBytes in
          key.withUnsafeMutableBufferPointer { keyBytes in
            EVP_PBE_scrypt(
              passwordChars.baseAddress, passwordChars.count, saltBytes.baseAddress,
              saltBytes.count, n, r, p, maximumMemory, keyBytes.baseAddress, length)
          }
        }
      }
    }
    guard status == 1 else { throw .derivationFailed }
    return key
  }
}

/// Password-based key derivation with PBKDF2-HMAC-SHA256 (RFC 8018).
public enum PBKDF2 {
  /// Derives a key with HMAC-SHA256 as the pseudorandom function.
  ///
  /// - Parameters:
  ///   - password: The password bytes.
  ///   - salt: The salt bytes.
  ///   - iterations: The iteration count, at least 1.
  ///   - length: The key length in bytes.
  /// - Returns: The derived key.
  /// - Throws: `CryptoError.invalidParameters` or `CryptoError.derivationFailed`.
  public static func deriveKeySHA256(
    password: [UInt8], salt: [UInt8], iterations: Int, length: Int
  ) throws(CryptoError) -> [UInt8] {
    guard iterations > 0, iterations <= Int(Int32.max) else {
      throw .invalidParameters("the iteration count must be between 1 and 2^31 - 1")
    }
    guard length > 0, length <= Int(Int32.max) else {
      throw .invalidParameters("the key length must be positive")
    }
    var key = [UInt8](repeating: 0, count: length)
    let status = password.withUnsafeBufferPointer { passwordBytes in
      passwordBytes.withMemoryRebound(to: CChar.self) { passwordChars in
        salt.withUnsafeBufferPointer { saltBytes in
          key.withUnsafeMutableBufferPointer { keyBytes in
            PKCS5_PBKDF2_HMAC(
              passwordChars.baseAddress, Int32(passwordChars.count), saltBytes.baseAddress,
              Int32(saltBytes.count), Int32(iterations), EVP_sha256(), Int32(length),
              keyBytes.baseAddress)
          }
        }
      }
    }
    guard status == 1 else { throw .derivationFailed }
    return key
  }
}
