import GameProtocol
import Testing

struct FrameTests {
  @Test func framesSurviveAnySplitOfTheStream() throws {
    let payloads = everyClientMessage.map { $0.encoded() }
    let stream = payloads.flatMap(Frame.encode)
    for split in 0...stream.count {
      var decoder = FrameDecoder()
      var decoded: [[UInt8]] = []
      decoder.append(stream[..<split])
      while let frame = try decoder.nextFrame() { decoded.append(frame) }
      decoder.append(stream[split...])
      while let frame = try decoder.nextFrame() { decoded.append(frame) }
      #expect(decoded == payloads, "split at \(split)")
      #expect(decoder.bufferedCount == 0)
    }
  }

  @Test func framesArriveByteByByte() throws {
    let payloads = everyServerMessage.map { $0.encoded() }
    var decoder = FrameDecoder()
    var decoded: [[UInt8]] = []
    for byte in payloads.flatMap(Frame.encode) {
      decoder.append([byte])
      while let frame = try decoder.nextFrame() { decoded.append(frame) }
    }
    #expect(decoded == payloads)
  }

  @Test func anOversizedLengthIsRefusedBeforeItsBytesArrive() {
    var decoder = FrameDecoder()
    decoder.append([0xff, 0xff, 0xff, 0xff])
    #expect(throws: ProtocolError.frameTooLarge(0xffff_ffff)) { try decoder.nextFrame() }
    // The stream cannot be resynchronised: the decoder keeps refusing and buffers nothing.
    decoder.append([0, 0, 0, 1, 0x13])
    #expect(decoder.bufferedCount == 0)
    #expect(throws: ProtocolError.frameTooLarge(0xffff_ffff)) { try decoder.nextFrame() }
  }

  @Test func theLimitItselfIsAllowed() throws {
    let limit = ProtocolLimits.maximumFrameLength
    var decoder = FrameDecoder()
    decoder.append(Frame.encode(Array(repeating: 7, count: limit)))
    #expect(try decoder.nextFrame()?.count == limit)
    let over = limit + 1
    decoder.append([0, UInt8(over >> 16), UInt8((over >> 8) & 0xff), UInt8(over & 0xff)])
    #expect(throws: ProtocolError.frameTooLarge(over)) { try decoder.nextFrame() }
  }

  @Test func anEmptyFrameIsRefused() {
    var decoder = FrameDecoder()
    decoder.append([0, 0, 0, 0])
    #expect(throws: ProtocolError.emptyFrame) { try decoder.nextFrame() }
  }

  @Test func aPartialHeaderWaits() throws {
    var decoder = FrameDecoder()
    decoder.append([0, 0])
    #expect(try decoder.nextFrame() == nil)
    decoder.append([0, 1, 0x13])
    #expect(try decoder.nextFrame() == [0x13])
  }

  @Test func aLongStreamKeepsTheBufferSmall() throws {
    var decoder = FrameDecoder()
    let frame = Frame.encode(ClientMessage.ping(1).encoded())
    for _ in 0..<10_000 {
      decoder.append(frame)
      #expect(try decoder.nextFrame() != nil)
    }
    #expect(decoder.bufferedCount == 0)
  }
}
