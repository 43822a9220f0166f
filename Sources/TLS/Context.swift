import CSSL

/// A TLS configuration shared by many connections: TLS 1.2 or later, no compression, no
/// renegotiation.
///
/// A context is configured once and then only read, which OpenSSL allows from any thread.
public final class TLSContext: @unchecked Sendable {
  let handle: OpaquePointer
  /// Whether connections made with this context accept (server) or connect (client).
  public let isServer: Bool

  private init(isServer: Bool) throws(TLSError) {
    _ = takeOpenSSLErrors()
    guard let handle = SSL_CTX_new(isServer ? TLS_server_method() : TLS_client_method()) else {
      throw TLSError("creating a context", reason: takeOpenSSLErrors())
    }
    self.handle = handle
    self.isServer = isServer
    try check(cssl_ctx_set_min_tls12(handle) == 1, "requiring TLS 1.2")
    _ = cssl_ctx_set_mode(handle)
    _ = cssl_ctx_set_options(handle)
    _ = cssl_ctx_disable_session_cache(handle)
  }

  deinit {
    SSL_CTX_free(handle)
  }

  /// A server context presenting `identity`.
  ///
  /// - Throws: ``TLSError`` when OpenSSL refuses the key or certificate.
  public static func server(_ identity: TLSIdentity) throws(TLSError) -> TLSContext {
    let context = try TLSContext(isServer: true)
    let material = try KeyMaterial(pem: identity.pem)
    try check(
      SSL_CTX_use_certificate(context.handle, material.certificate) == 1
        && SSL_CTX_use_PrivateKey(context.handle, material.key) == 1
        && SSL_CTX_check_private_key(context.handle) == 1,
      "loading the server's certificate")
    return context
  }

  /// A client context that accepts any certificate: the caller checks the server's
  /// fingerprint against the one it pinned (trust on first use), as self-signed servers need.
  ///
  /// - Throws: ``TLSError`` when OpenSSL cannot create the context.
  public static func client() throws(TLSError) -> TLSContext {
    let context = try TLSContext(isServer: false)
    SSL_CTX_set_verify(context.handle, SSL_VERIFY_NONE, nil)
    return context
  }
}
