import Glibc
import TLS
import Testing

/// One identity for the suite: making keys is the slow part.
private let identity: TLSIdentity = {
  guard let identity = try? TLSIdentity.generate() else {
    preconditionFailure("OpenSSL could not make a key")
  }
  return identity
}()

struct IdentityTests {
  @Test func aGeneratedIdentityReadsBackWithTheSameFingerprint() throws {
    let again = try TLSIdentity(pem: identity.pem)
    #expect(again == identity)
    #expect(identity.fingerprint.count == 32)
    #expect(identity.pem.contains("-----BEGIN PRIVATE KEY-----"))
    #expect(identity.pem.contains("-----BEGIN CERTIFICATE-----"))
  }

  @Test func everyIdentityIsNew() throws {
    #expect(try TLSIdentity.generate().fingerprint != identity.fingerprint)
  }

  @Test func damagedIdentitiesAreRefused() throws {
    #expect(throws: TLSError.self) { try TLSIdentity(pem: "") }
    #expect(throws: TLSError.self) { try TLSIdentity(pem: "not a key at all") }
    let keyOnly = String(identity.pem.split(separator: "-----BEGIN CERTIFICATE-----")[0])
    #expect(throws: TLSError.self) { try TLSIdentity(pem: keyOnly) }
    // A key with another identity's certificate does not match.
    let other = try TLSIdentity.generate()
    let certificate = other.pem.split(separator: "-----BEGIN CERTIFICATE-----")[1]
    #expect(throws: TLSError.self) {
      try TLSIdentity(pem: keyOnly + "-----BEGIN CERTIFICATE-----" + certificate)
    }
  }

  @Test func fingerprintsAreWrittenAndReadInEveryAllowedForm() throws {
    let text = identity.fingerprintText
    #expect(text.hasPrefix("SHA256:"))
    #expect(text.count == 7 + 64)
    #expect(text.dropFirst(7).allSatisfy { "0123456789abcdef".contains($0) })
    let hex = String(text.dropFirst(7))
    var pairs: [String] = []
    var rest = Substring(hex)
    while !rest.isEmpty {
      pairs.append(String(rest.prefix(2)))
      rest = rest.dropFirst(2)
    }
    for form in [
      text, hex, hex.uppercased(), pairs.joined(separator: ":"), "sha256:" + hex, " \(text) ",
    ] {
      #expect(Fingerprint.parse(form) == identity.fingerprint, "\(form)")
    }
    for bad in [
      "", "SHA256:", String(hex.dropLast()), hex + "0", "SHA1:" + hex, String(hex.dropLast()) + "g",
    ] {
      #expect(Fingerprint.parse(bad) == nil, "\(bad)")
    }
  }
}

struct SessionTests {
  /// Drives a handshake and one message each way over a socket pair, both ends non-blocking.
  @Test func aServerAndAClientShakeHandsAndTalk() throws {
    var sockets: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
    defer {
      close(sockets[0])
      close(sockets[1])
    }
    for socket in sockets { _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK) }
    let server = try TLSSession(context: .server(identity), fileDescriptor: sockets[0])
    let client = try TLSSession(
      context: .client(), fileDescriptor: sockets[1], serverName: "example.test")
    var rounds = 0
    while server.isEstablished == false || client.isEstablished == false {
      rounds += 1
      try #require(rounds < 100, "the handshake did not finish")
      for session in [client, server] {
        switch session.handshake() {
        case nil, .wantRead?, .wantWrite?: break
        case let other?: Issue.record("handshake: \(other)")
        }
      }
    }
    #expect(client.peerFingerprint == identity.fingerprint)
    #expect(server.peerFingerprint == nil)

    let message = Array("hello over TLS".utf8)
    let written = message.withUnsafeBytes { client.write($0) }
    #expect(written == .success(message.count))
    var buffer = [UInt8](repeating: 0, count: 64)
    let read = buffer.withUnsafeMutableBytes { server.read(into: $0) }
    #expect(read == .success(message.count))
    #expect(Array(buffer[..<message.count]) == message)
    // Nothing more: the read waits.
    let again = buffer.withUnsafeMutableBytes { server.read(into: $0) }
    #expect(again == .failure(StatusError(status: .wantRead)))

    client.shutdown()
    let closed = buffer.withUnsafeMutableBytes { server.read(into: $0) }
    #expect(closed == .failure(StatusError(status: .closed)))
  }

  @Test func plainTextIsNotAHandshake() throws {
    var sockets: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
    defer {
      close(sockets[0])
      close(sockets[1])
    }
    _ = fcntl(sockets[0], F_SETFL, fcntl(sockets[0], F_GETFL) | O_NONBLOCK)
    let request = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    #expect(write(sockets[1], request, request.count) == request.count)
    let server = try TLSSession(context: .server(identity), fileDescriptor: sockets[0])
    guard case .failed? = server.handshake() else {
      Issue.record("plain text passed as a handshake")
      return
    }
    #expect(!server.isEstablished)
  }
}
