import CCrypto

/// SHA-256 digests.
public enum SHA256 {
  /// The SHA-256 of `bytes`.
  ///
  /// - Parameter bytes: The message.
  /// - Returns: The 32-byte digest.
  public static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let status = bytes.withUnsafeBufferPointer { message in
      EVP_Digest(message.baseAddress, message.count, &digest, &length, EVP_sha256(), nil)
    }
    // EVP_Digest fails only when libcrypto cannot allocate or lacks SHA-256.
    guard status == 1, length == 32 else { preconditionFailure("SHA-256 is unavailable") }
    return Array(digest[..<32])
  }
}
