/// HOTP (RFC 4226) and TOTP (RFC 6238) one-time passwords with HMAC-SHA1.
public enum OneTimePassword {
  /// The TOTP time step in seconds.
  public static let period: Int64 = 30

  /// The number of digits in a code.
  public static let digits = 6

  /// Computes the HOTP code for a counter.
  ///
  /// - Parameters:
  ///   - secret: The shared secret.
  ///   - counter: The moving factor.
  ///   - digits: The number of decimal digits, 6 to 9.
  /// - Returns: The code, left-padded with zeros.
  public static func hotp(secret: [UInt8], counter: UInt64, digits: Int = digits) -> String {
    precondition((1...9).contains(digits), "HOTP codes have 1 to 9 digits")
    let message = withUnsafeBytes(of: counter.bigEndian) { Array($0) }
    let mac = HMAC.sha1(key: secret, message: message)
    let offset = Int(mac[mac.count - 1] & 0x0f)
    let truncated =
      mac[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7fff_ffff
    let modulus = (0..<digits).reduce(UInt32(1)) { value, _ in value * 10 }
    let text = String(truncated % modulus)
    return String(repeating: "0", count: digits - text.count) + text
  }

  /// The TOTP time step that contains a Unix time.
  ///
  /// - Parameter unixTime: Seconds since 1970-01-01 UTC.
  /// - Returns: The counter, `floor(unixTime / 30)`.
  public static func counter(atUnixTime unixTime: Int64) -> UInt64 {
    UInt64(max(0, unixTime) / period)
  }

  /// Computes the TOTP code at a Unix time.
  ///
  /// - Parameters:
  ///   - secret: The shared secret.
  ///   - unixTime: Seconds since 1970-01-01 UTC.
  ///   - digits: The number of decimal digits.
  /// - Returns: The code, left-padded with zeros.
  public static func totp(secret: [UInt8], unixTime: Int64, digits: Int = digits) -> String {
    hotp(secret: secret, counter: counter(atUnixTime: unixTime), digits: digits)
  }

  /// The `otpauth://` URI that authenticator apps scan or import.
  ///
  /// - Parameters:
  ///   - secret: The shared secret.
  ///   - account: The account name shown in the app.
  ///   - issuer: The service name shown in the app.
  /// - Returns: A `otpauth://totp/…` URI with SHA-1, 6 digits and a 30-second period.
  public static func provisioningURI(secret: [UInt8], account: String, issuer: String) -> String {
    let label = percentEncoded(issuer) + ":" + percentEncoded(account)
    return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer="
      + "\(percentEncoded(issuer))&algorithm=SHA1&digits=\(digits)&period=\(period)"
  }

  private static func percentEncoded(_ text: String) -> String {
    var output = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        output.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        output += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return output
  }
}
