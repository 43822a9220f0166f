import CSSL

/// One TLS connection over a non-blocking socket.
///
/// Every call returns at once: when OpenSSL needs the socket to become readable or writable
/// first, the result says so and the caller retries after its event loop reports it. A session
/// is used from one thread at a time.
public final class TLSSession {
  /// What a handshake, read or write step came to.
  public enum Status: Equatable, Sendable {
    /// Wait until the socket is readable, then call again.
    case wantRead
    /// Wait until the socket is writable, then call again.
    case wantWrite
    /// The peer closed the connection.
    case closed
    /// The connection failed; it cannot be used any more.
    case failed(String)
  }

  private let handle: OpaquePointer
  private let context: TLSContext
  /// Whether the handshake has completed.
  public private(set) var isEstablished = false

  /// Wraps a connected, non-blocking socket.
  ///
  /// - Parameters:
  ///   - context: A server or client context.
  ///   - fileDescriptor: The socket; the session does not close it.
  ///   - serverName: For clients, the host name sent in the handshake (SNI), if it is a name.
  /// - Throws: ``TLSError`` when OpenSSL cannot allocate the connection.
  public init(
    context: TLSContext, fileDescriptor: Int32, serverName: String? = nil
  ) throws(TLSError) {
    _ = takeOpenSSLErrors()
    guard let handle = SSL_new(context.handle) else {
      throw TLSError("creating a connection", reason: takeOpenSSLErrors())
    }
    self.handle = handle
    self.context = context
    guard SSL_set_fd(handle, fileDescriptor) == 1 else {
      throw TLSError("attaching the socket", reason: takeOpenSSLErrors())
    }
    if context.isServer {
      SSL_set_accept_state(handle)
    } else {
      if let serverName { _ = cssl_set_host_name(handle, serverName) }
      SSL_set_connect_state(handle)
    }
  }

  deinit {
    SSL_free(handle)
  }

  /// Advances the handshake.
  ///
  /// - Returns: `nil` once the handshake is complete, else what it waits for or why it failed.
  public func handshake() -> Status? {
    guard !isEstablished else { return nil }
    ERR_clear_error()
    let result = SSL_do_handshake(handle)
    if result == 1 {
      isEstablished = true
      return nil
    }
    return status(after: result)
  }

  /// Reads decrypted bytes.
  ///
  /// - Parameter buffer: Where to put them.
  /// - Returns: The number of bytes read (above 0), or what the read waits for.
  public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, StatusError> {
    ERR_clear_error()
    var count = 0
    let result = SSL_read_ex(handle, buffer.baseAddress, buffer.count, &count)
    if result == 1 { return .success(count) }
    return .failure(StatusError(status: status(after: result)))
  }

  /// Encrypts and writes bytes; some may be left for the next call.
  ///
  /// - Parameter bytes: The bytes to send.
  /// - Returns: How many were taken (above 0), or what the write waits for.
  public func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, StatusError> {
    guard bytes.count > 0 else { return .success(0) }
    ERR_clear_error()
    var count = 0
    let result = SSL_write_ex(handle, bytes.baseAddress, bytes.count, &count)
    if result == 1 { return .success(count) }
    return .failure(StatusError(status: status(after: result)))
  }

  /// Sends a close notification, best effort; the caller closes the socket after.
  public func shutdown() {
    ERR_clear_error()
    if isEstablished { _ = SSL_shutdown(handle) }
    _ = takeOpenSSLErrors()
  }

  /// The SHA-256 fingerprint of the peer's certificate, once the handshake is done.
  public var peerFingerprint: [UInt8]? {
    guard let certificate = SSL_get1_peer_certificate(handle) else { return nil }
    defer { X509_free(certificate) }
    return try? certificateFingerprint(certificate)
  }

  private func status(after result: Int32) -> Status {
    let error = SSL_get_error(handle, result)
    switch error {
    case SSL_ERROR_WANT_READ:
      return .wantRead
    case SSL_ERROR_WANT_WRITE:
      return .wantWrite
    case SSL_ERROR_ZERO_RETURN:
      return .closed
    case SSL_ERROR_SYSCALL:
      let reasons = takeOpenSSLErrors()
      return reasons.isEmpty ? .closed : .failed(reasons)
    default:
      let reasons = takeOpenSSLErrors()
      return .failed(reasons.isEmpty ? "error \(error)" : reasons)
    }
  }
}

/// A ``TLSSession/Status`` carried as an error, for reads and writes that did not move bytes.
public struct StatusError: Error, Equatable, Sendable {
  /// What the operation waits for, or why it failed.
  public let status: TLSSession.Status

  /// Wraps a status.
  public init(status: TLSSession.Status) { self.status = status }
}
