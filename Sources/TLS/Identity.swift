import CSSL

/// A server's TLS identity: a private key and its self-signed certificate, both as PEM text.
///
/// The key is an ECDSA P-256 key: small, and quick to sign with, so thousands of handshakes a
/// second cost little.
public struct TLSIdentity: Equatable, Sendable {
  /// The private key and the certificate, as one PEM text (key first).
  public let pem: String
  /// The SHA-256 of the certificate's DER encoding: what clients pin.
  public let fingerprint: [UInt8]

  /// Reads an identity written by ``generate(commonName:validDays:)``.
  ///
  /// - Parameter pem: The PEM text with a private key and a certificate.
  /// - Throws: ``TLSError`` when either is missing or damaged, or they do not match.
  public init(pem: String) throws(TLSError) {
    let material = try KeyMaterial(pem: pem)
    self.pem = pem
    fingerprint = try material.fingerprint()
  }

  /// Makes a new key and a self-signed certificate for it.
  ///
  /// - Parameters:
  ///   - commonName: The certificate's subject and issuer name.
  ///   - validDays: How long the certificate is valid.
  /// - Returns: The identity.
  /// - Throws: ``TLSError`` when OpenSSL fails.
  public static func generate(
    commonName: String = "tictactoe", validDays: Int = 3_650
  ) throws(TLSError) -> TLSIdentity {
    guard let key = cssl_generate_p256_key() else {
      throw TLSError("generating a key", reason: takeOpenSSLErrors())
    }
    defer { EVP_PKEY_free(key) }
    guard let certificate = X509_new() else {
      throw TLSError("making a certificate", reason: takeOpenSSLErrors())
    }
    defer { X509_free(certificate) }
    var serial = [UInt8](repeating: 0, count: 16)
    try check(RAND_bytes(&serial, Int32(serial.count)) == 1, "choosing a serial number")
    serial[0] &= 0x7f  // a positive serial number
    let serialNumber = BN_bin2bn(serial, Int32(serial.count), nil)
    defer { BN_free(serialNumber) }
    try check(
      X509_set_version(certificate, 2) == 1
        && BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(certificate)) != nil
        && X509_gmtime_adj(X509_getm_notBefore(certificate), -3_600) != nil
        && X509_gmtime_adj(X509_getm_notAfter(certificate), validDays * 86_400) != nil
        && X509_set_pubkey(certificate, key) == 1,
      "filling in the certificate")
    let name = X509_get_subject_name(certificate)
    try check(
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1
        && X509_set_issuer_name(certificate, name) == 1,
      "naming the certificate")
    try check(X509_sign(certificate, key, EVP_sha256()) > 0, "signing the certificate")
    let keyPEM = try writingToMemory("writing the key") { bio in
      PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil)
    }
    let certificatePEM = try writingToMemory("writing the certificate") { bio in
      PEM_write_bio_X509(bio, certificate)
    }
    return try TLSIdentity(pem: keyPEM + certificatePEM)
  }

  /// The fingerprint as clients show it: `SHA256:` and 64 lowercase hex digits.
  public var fingerprintText: String { Fingerprint.text(fingerprint) }
}

/// SHA-256 certificate fingerprints as text.
public enum Fingerprint {
  /// `SHA256:` followed by the 32 bytes as 64 lowercase hex digits.
  public static func text(_ bytes: [UInt8]) -> String {
    "SHA256:"
      + bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
      }.joined()
  }

  /// Reads a fingerprint written as 64 hex digits, optionally after `SHA256:`, with or without
  /// colons, in any case.
  ///
  /// - Parameter text: The fingerprint as typed.
  /// - Returns: The 32 bytes, or `nil` when the text is not a SHA-256 fingerprint.
  public static func parse(_ text: String) -> [UInt8]? {
    var rest = Substring(text.trimmingCharacters())
    if rest.lowercased().hasPrefix("sha256:") { rest = rest.dropFirst(7) }
    let digits = rest.filter { $0 != ":" }
    guard digits.count == 64 else { return nil }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
      let next = digits.index(index, offsetBy: 2)
      guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String {
    var characters = Substring(self)
    while characters.first?.isWhitespace == true { characters.removeFirst() }
    while characters.last?.isWhitespace == true { characters.removeLast() }
    return String(characters)
  }
}

/// A parsed key and certificate, freed when released.
final class KeyMaterial {
  let key: OpaquePointer
  let certificate: OpaquePointer

  init(pem: String) throws(TLSError) {
    _ = takeOpenSSLErrors()
    guard
      let key = readingFromMemory(pem, { bio in PEM_read_bio_PrivateKey(bio, nil, nil, nil) })
    else { throw TLSError("reading the private key", reason: takeOpenSSLErrors()) }
    guard let certificate = readingFromMemory(pem, { bio in PEM_read_bio_X509(bio, nil, nil, nil) })
    else {
      EVP_PKEY_free(key)
      throw TLSError("reading the certificate", reason: takeOpenSSLErrors())
    }
    self.key = key
    self.certificate = certificate
    guard X509_check_private_key(certificate, key) == 1 else {
      throw TLSError("matching the key to the certificate", reason: takeOpenSSLErrors())
    }
  }

  deinit {
    EVP_PKEY_free(key)
    X509_free(certificate)
  }

  func fingerprint() throws(TLSError) -> [UInt8] {
    try certificateFingerprint(certificate)
  }
}

/// The SHA-256 of a certificate's DER encoding.
func certificateFingerprint(_ certificate: OpaquePointer) throws(TLSError) -> [UInt8] {
  var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
  var length: UInt32 = 0
  try check(
    X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 && length == 32,
    "fingerprinting the certificate")
  return Array(digest[..<32])
}
