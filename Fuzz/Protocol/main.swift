import CFuzz
import GameProtocol
import Glibc

/// Feeds the bytes through the frame decoder in two pieces and decodes every frame as a client
/// and as a server message; whatever decodes must encode back to the very same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: count))
  // The first byte picks where the stream is split, so chunking is fuzzed too.
  let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
  var decoder = FrameDecoder()
  var frames = 0  // counted so a reader of a crash sees how far the stream got
  for chunk in [bytes[..<split], bytes[split...]] {
    decoder.append(chunk)
    while true {
      let payload: [UInt8]?
      do {
        payload = try decoder.nextFrame()
      } catch {
        return 0
      }
      guard let payload else { break }
      frames += 1
      guard payload.count <= ProtocolLimits.maximumFrameLength else {
        preconditionFailure("a frame above the limit came through")
      }
      if let message = try? ClientMessage(decoding: payload), message.encoded() != payload {
        preconditionFailure("client message \(message) did not encode back to its bytes")
      }
      if let message = try? ServerMessage(decoding: payload), message.encoded() != payload {
        preconditionFailure("server message \(message) did not encode back to its bytes")
      }
    }
  }
  _ = frames
  return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzProtocol))
