import CSSL

/// The reasons OpenSSL queued on this thread, oldest first, emptying the queue.
func takeOpenSSLErrors() -> String {
  var reasons: [String] = []
  while true {
    let code = ERR_get_error()
    guard code != 0 else { break }
    if let reason = ERR_reason_error_string(code) {
      reasons.append(String(cString: reason))
    } else {
      reasons.append("error \(code)")
    }
  }
  return reasons.joined(separator: "; ")
}

/// Throws a ``TLSError`` for `operation` with OpenSSL's queued reasons unless `succeeded`.
func check(_ succeeded: Bool, _ operation: String) throws(TLSError) {
  guard succeeded else { throw TLSError(operation, reason: takeOpenSSLErrors()) }
}

/// Runs a body with a memory BIO and returns what the body wrote into it.
func writingToMemory(
  _ operation: String, _ body: (OpaquePointer) -> Int32
) throws(TLSError) -> String {
  guard let bio = BIO_new(BIO_s_mem()) else {
    throw TLSError(operation, reason: takeOpenSSLErrors())
  }
  defer { BIO_free(bio) }
  try check(body(bio) == 1, operation)
  var data: UnsafeMutablePointer<CChar>?
  let length = cssl_bio_contents(bio, &data)
  guard let data, length > 0 else { throw TLSError(operation, reason: "nothing was written") }
  return String(
    decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
}

/// Runs a body with a read-only memory BIO over `text`.
func readingFromMemory<Result>(
  _ text: String, _ body: (OpaquePointer) -> Result?
) -> Result? {
  var bytes = Array(text.utf8)
  return bytes.withUnsafeMutableBytes { buffer -> Result? in
    guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
    defer { BIO_free(bio) }
    return body(bio)
  }
}
