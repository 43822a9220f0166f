/// A failure of a cryptographic operation.
public enum CryptoError: Error, Equatable, Sendable {
  /// The key derivation parameters are out of range (for example, scrypt's N is not a power of two).
  case invalidParameters(String)
  /// libcrypto refused to derive a key, for example because it would need more memory than allowed.
  case derivationFailed
  /// The system's random number generator failed.
  case randomGeneratorFailed
  /// The text is not valid base32.
  case invalidBase32
  /// A stored password hash could not be read.
  case malformedPasswordHash
  /// A sealed box was altered or opened with the wrong key.
  case authenticationFailed
}

extension CryptoError: CustomStringConvertible {
  /// A one-sentence explanation.
  public var description: String {
    switch self {
    case .invalidParameters(let reason): "The key derivation parameters are invalid: \(reason)."
    case .derivationFailed: "The key could not be derived."
    case .randomGeneratorFailed: "The system random number generator failed."
    case .invalidBase32: "The text is not valid base32."
    case .malformedPasswordHash: "The stored password hash is malformed."
    case .authenticationFailed: "The sealed data was altered or the key is wrong."
    }
  }
}
