/// A salted password hash that records its algorithm and parameters.
///
/// The encoded form is self-describing, so the cost can rise later without breaking stored
/// hashes:
///
/// ```
/// $scrypt$ln=17,r=8,p=1$<salt in hex>$<key in hex>
/// $pbkdf2-sha256$i=600000$<salt in hex>$<key in hex>
/// ```
public struct PasswordHash: Equatable, Sendable {
  /// A key derivation function and its cost parameters.
  public enum Algorithm: Equatable, Sendable {
    /// scrypt with N = 2^`logN`.
    case scrypt(logN: Int, r: Int, p: Int)
    /// PBKDF2-HMAC-SHA256.
    case pbkdf2SHA256(iterations: Int)

    /// The production choice: scrypt with N = 2^17, r = 8, p = 1 (128 MiB of memory).
    public static let production = Algorithm.scrypt(logN: 17, r: 8, p: 1)
  }

  /// The production salt length in bytes.
  public static let saltLength = 16

  /// The derived key length in bytes.
  public static let keyLength = 32

  // Refuse stored parameters that would make verification take minutes or gigabytes.
  private static let logNRange = 1...20
  private static let blockSizeRange = 1...32
  private static let parallelismRange = 1...16
  private static let iterationRange = 1...10_000_000

  /// The function and parameters that produced `key`.
  public let algorithm: Algorithm

  /// The random salt.
  public let salt: [UInt8]

  /// The derived key.
  public let key: [UInt8]

  /// Hashes a password with a fresh random salt.
  ///
  /// - Parameters:
  ///   - password: The password in clear.
  ///   - algorithm: The function and cost; tests pass cheap parameters.
  ///   - saltLength: The salt length in bytes.
  /// - Throws: `CryptoError` if the parameters are invalid or derivation fails.
  public init(
    hashing password: String, algorithm: Algorithm = .production, saltLength: Int = saltLength
  ) throws(CryptoError) {
    let salt = try SecureRandom.bytes(count: saltLength)
    try self.init(hashing: password, algorithm: algorithm, salt: salt)
  }

  /// Hashes a password with a given salt.
  ///
  /// - Parameters:
  ///   - password: The password in clear.
  ///   - algorithm: The function and cost.
  ///   - salt: The salt.
  /// - Throws: `CryptoError` if the parameters are invalid or derivation fails.
  public init(hashing password: String, algorithm: Algorithm, salt: [UInt8]) throws(CryptoError) {
    self.algorithm = algorithm
    self.salt = salt
    self.key = try Self.derive(
      password: Array(password.utf8), salt: salt, algorithm: algorithm, length: Self.keyLength)
  }

  /// Reads an encoded hash.
  ///
  /// - Parameter encoded: Text produced by `encoded`.
  /// - Throws: `CryptoError.malformedPasswordHash` if the text is not a hash this code can
  ///   verify.
  public init(encoded: String) throws(CryptoError) {
    let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
    guard fields.count == 5, fields[0].isEmpty,
      let salt = Self.bytes(hex: fields[3]), let key = Self.bytes(hex: fields[4]), !key.isEmpty
    else { throw .malformedPasswordHash }
    let parameters = Self.parameters(fields[2])
    switch fields[1] {
    case "scrypt":
      guard parameters.count == 3, let logN = parameters["ln"], let r = parameters["r"],
        let p = parameters["p"], Self.logNRange.contains(logN), Self.blockSizeRange.contains(r),
        Self.parallelismRange.contains(p)
      else { throw .malformedPasswordHash }
      algorithm = .scrypt(logN: logN, r: r, p: p)
    case "pbkdf2-sha256":
      guard parameters.count == 1, let iterations = parameters["i"],
        Self.iterationRange.contains(iterations)
      else { throw .malformedPasswordHash }
      algorithm = .pbkdf2SHA256(iterations: iterations)
    default:
      throw .malformedPasswordHash
    }
    self.salt = salt
    self.key = key
  }

  /// The self-describing text form, safe to store.
  public var encoded: String {
    let parameters =
      switch algorithm {
      case .scrypt(let logN, let r, let p): "scrypt$ln=\(logN),r=\(r),p=\(p)"
      case .pbkdf2SHA256(let iterations): "pbkdf2-sha256$i=\(iterations)"
      }
    return "$\(parameters)$\(hexString(salt))$\(hexString(key))"
  }

  /// Whether a password matches, compared in constant time.
  ///
  /// - Parameter password: The password in clear.
  /// - Returns: `true` when the password derives the stored key.
  /// - Throws: `CryptoError` if derivation fails.
  public func matches(_ password: String) throws(CryptoError) -> Bool {
    let candidate = try Self.derive(
      password: Array(password.utf8), salt: salt, algorithm: algorithm, length: key.count)
    return constantTimeEquals(candidate, key)
  }

  /// Hashes a password and derives from the same work a second key that is never stored.
  ///
  /// The second key comes from further output of the same derivation, independent of the stored
  /// key, so it can encrypt data that only the password unlocks.
  ///
  /// - Parameters:
  ///   - password: The password in clear.
  ///   - algorithm: The function and cost.
  ///   - saltLength: The salt length in bytes.
  /// - Returns: The hash to store and a 32-byte key to keep in memory only.
  /// - Throws: `CryptoError` if the parameters are invalid or derivation fails.
  public static func hashWithSecretKey(
    _ password: String, algorithm: Algorithm = .production, saltLength: Int = saltLength
  ) throws(CryptoError) -> (hash: PasswordHash, secretKey: [UInt8]) {
    let salt = try SecureRandom.bytes(count: saltLength)
    let material = try derive(
      password: Array(password.utf8), salt: salt, algorithm: algorithm,
      length: keyLength + SecretBox.keyLength)
    let hash = PasswordHash(
      algorithm: algorithm, salt: salt, key: Array(material[..<keyLength]))
    return (hash, Array(material[keyLength...]))
  }

  /// Checks a password and, when it matches, returns the key `hashWithSecretKey` derived
  /// alongside this hash.
  ///
  /// - Parameter password: The password in clear.
  /// - Returns: The 32-byte secret key, or `nil` when the password is wrong.
  /// - Throws: `CryptoError` if derivation fails.
  public func secretKey(ifMatching password: String) throws(CryptoError) -> [UInt8]? {
    let material = try Self.derive(
      password: Array(password.utf8), salt: salt, algorithm: algorithm,
      length: key.count + SecretBox.keyLength)
    guard constantTimeEquals(Array(material[..<key.count]), key) else { return nil }
    return Array(material[key.count...])
  }

  /// A hash with these parameters and a random salt and key, which no known password matches.
  ///
  /// Checking a password against it costs as much as checking one against a real hash with the
  /// same parameters, so an unknown user name can take as long to refuse as a wrong password.
  ///
  /// - Parameter algorithm: The function and cost of the real hashes it stands in for.
  /// - Returns: The decoy hash.
  /// - Throws: `CryptoError.randomGeneratorFailed`.
  public static func decoy(algorithm: Algorithm) throws(CryptoError) -> PasswordHash {
    PasswordHash(
      algorithm: algorithm, salt: try SecureRandom.bytes(count: saltLength),
      key: try SecureRandom.bytes(count: keyLength))
  }

  private init(algorithm: Algorithm, salt: [UInt8], key: [UInt8]) {
    self.algorithm = algorithm
    self.salt = salt
    self.key = key
  }

  private static func derive(
    password: [UInt8], salt: [UInt8], algorithm: Algorithm, length: Int
  ) throws(CryptoError) -> [UInt8] {
    switch algorithm {
    case .scrypt(let logN, let r, let p):
      guard logNRange.contains(logN), blockSizeRange.contains(r), parallelismRange.contains(p)
      else { throw .invalidParameters("scrypt parameters out of range") }
      return try Scrypt.deriveKey(
        password: password, salt: salt, n: 1 << UInt64(logN), r: UInt64(r), p: UInt64(p),
        length: length)
    case .pbkdf2SHA256(let iterations):
      guard iterationRange.contains(iterations) else {
        throw .invalidParameters("PBKDF2 iteration count out of range")
      }
      return try PBKDF2.deriveKeySHA256(
        password: password, salt: salt, iterations: iterations, length: length)
    }
  }

  private static func parameters(_ text: Substring) -> [Substring: Int] {
    var result: [Substring: Int] = [:]
    for pair in text.split(separator: ",") {
      let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
      guard parts.count == 2, let value = Int(parts[1]), result[parts[0]] == nil else {
        return [:]
      }
      result[parts[0]] = value
    }
    return result
  }

  private static func bytes(hex text: Substring) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}

/// Lowercase hexadecimal text for bytes, two digits each.
///
/// - Parameter bytes: The bytes.
/// - Returns: The hex text.
public func hexString(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }.joined()
}
