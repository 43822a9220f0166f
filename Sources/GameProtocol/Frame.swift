/// The framing of the protocol: every message is one frame, a 4-byte big-endian payload length
/// followed by that many bytes.
public enum Frame {
  /// The bytes of the length prefix.
  public static let headerLength = 4

  /// A frame holding `payload`.
  ///
  /// - Precondition: `payload` is 1 to ``ProtocolLimits/maximumFrameLength`` bytes.
  /// - Returns: The length prefix followed by the payload.
  public static func encode(_ payload: [UInt8]) -> [UInt8] {
    precondition(
      !payload.isEmpty && payload.count <= ProtocolLimits.maximumFrameLength,
      "a frame payload is 1 to \(ProtocolLimits.maximumFrameLength) bytes")
    let length = UInt32(payload.count)
    var frame: [UInt8] = [
      UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff),
      UInt8(length & 0xff),
    ]
    frame.reserveCapacity(headerLength + payload.count)
    frame += payload
    return frame
  }
}

/// Cuts a byte stream into frame payloads, refusing a frame that breaks the limits as soon as its
/// length prefix arrives, before its bytes are buffered.
public struct FrameDecoder: Sendable {
  private var buffer: [UInt8] = []
  private var start = 0
  private var failure: ProtocolError?

  /// Creates a decoder with nothing buffered.
  public init() {}

  /// Bytes received and not yet returned as a frame.
  public var bufferedCount: Int { buffer.count - start }

  /// Adds received bytes.
  ///
  /// - Parameter bytes: The bytes, in the order they arrived.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    guard failure == nil else { return }
    if start > 0, start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete frame's payload, or `nil` until more bytes arrive.
  ///
  /// After an error the stream cannot be resynchronised, so every later call throws it again.
  ///
  /// - Returns: The payload of the next frame.
  /// - Throws: ``ProtocolError/emptyFrame`` or ``ProtocolError/frameTooLarge(_:)``.
  /// - Complexity: O(*n*) in the payload's length.
  public mutating func nextFrame() throws(ProtocolError) -> [UInt8]? {
    if let failure { throw failure }
    guard bufferedCount >= Frame.headerLength else { return nil }
    var length = 0
    for offset in 0..<Frame.headerLength {
      length = length << 8 | Int(buffer[start + offset])
    }
    guard length > 0 else { return try fail(.emptyFrame) }
    guard length <= ProtocolLimits.maximumFrameLength else {
      return try fail(.frameTooLarge(length))
    }
    guard bufferedCount >= Frame.headerLength + length else { return nil }
    let payloadStart = start + Frame.headerLength
    let payload = Array(buffer[payloadStart..<payloadStart + length])
    start = payloadStart + length
    // Drop consumed bytes once they outweigh what is left, so the buffer stays small.
    if start > 4_096, start * 2 > buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
    return payload
  }

  private mutating func fail(_ error: ProtocolError) throws(ProtocolError) -> [UInt8]? {
    failure = error
    buffer = []
    start = 0
    throw error
  }
}
