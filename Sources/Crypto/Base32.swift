/// Base32 encoding with the RFC 4648 alphabet `A–Z2–7`, as authenticator apps use it.
public enum Base32 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// Encodes bytes as base32.
  ///
  /// - Parameters:
  ///   - bytes: The bytes to encode.
  ///   - padding: Whether to pad with `=` to a multiple of 8 characters; `otpauth://` URIs
  ///     use no padding.
  /// - Returns: The encoded text.
  public static func encode(_ bytes: [UInt8], padding: Bool = false) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 4) / 5 * 8)
    var buffer: UInt32 = 0
    var bitCount = 0
    for byte in bytes {
      buffer = buffer << 8 | UInt32(byte)
      bitCount += 8
      while bitCount >= 5 {
        bitCount -= 5
        output.append(alphabet[Int(buffer >> UInt32(bitCount) & 31)])
      }
    }
    if bitCount > 0 {
      output.append(alphabet[Int(buffer << UInt32(5 - bitCount) & 31)])
    }
    if padding {
      while output.count % 8 != 0 { output.append(UInt8(ascii: "=")) }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes base32 text, ignoring case, `=` padding, spaces and hyphens.
  ///
  /// - Parameter text: The text to decode.
  /// - Returns: The decoded bytes.
  /// - Throws: `CryptoError.invalidBase32` for any other character or a dangling partial byte.
  public static func decode(_ text: String) throws(CryptoError) -> [UInt8] {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bitCount = 0
    for character in text.utf8 {
      let value: UInt32
      switch character {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a"))
      case UInt8(ascii: "2")...UInt8(ascii: "7"): value = UInt32(character - UInt8(ascii: "2")) + 26
      // Authenticator apps show secrets in groups and some users type them that way.
      case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "-"): continue
      default: throw .invalidBase32
      }
      buffer = (buffer << 5 | value) & 0xFFFF
      bitCount += 5
      if bitCount >= 8 {
        bitCount -= 8
        output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bitCount)))
      }
    }
    // Leftover bits must be fewer than five (a whole extra character means a truncated input).
    guard bitCount < 5 else { throw .invalidBase32 }
    return output
  }
}
