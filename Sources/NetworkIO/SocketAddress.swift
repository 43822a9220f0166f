import Glibc

/// An IPv4 or IPv6 address and port.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
  private let bytes: [UInt8]

  init(storage: sockaddr_storage, length: socklen_t) {
    var storage = storage
    bytes = withUnsafeBytes(of: &storage) { Array($0.prefix(Int(length))) }
  }

  func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    var storage = sockaddr_storage()
    withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes) }
    return withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(bytes.count))
      }
    }
  }

  /// `AF_INET` or `AF_INET6`.
  var family: Int32 { withSockAddr { pointer, _ in Int32(pointer.pointee.sa_family) } }

  /// The address alone, such as `127.0.0.1` or `::1`: what rate limits count by.
  public var host: String {
    withSockAddr { pointer, _ in
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
      switch Int32(pointer.pointee.sa_family) {
      case AF_INET:
        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
          var raw = address.pointee.sin_addr
          _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
        }
      case AF_INET6:
        pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
          var raw = address.pointee.sin6_addr
          _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
        }
      default:
        return "unknown"
      }
      return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// The port.
  public var port: UInt16 {
    withSockAddr { pointer, _ in
      switch Int32(pointer.pointee.sa_family) {
      case AF_INET:
        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin_port)
        }
      case AF_INET6:
        pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin6_port)
        }
      default: 0
      }
    }
  }

  /// `HOST:PORT`, with brackets around an IPv6 host.
  public var description: String {
    family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// Resolves a host (a name, an IPv4 address or an IPv6 address) and a port.
  ///
  /// - Parameters:
  ///   - host: The host; empty means every interface when `passive`.
  ///   - port: The port.
  ///   - passive: Whether the address is for listening.
  /// - Returns: The addresses, in the resolver's order of preference.
  /// - Throws: ``ResolutionError`` when the host does not resolve.
  public static func resolve(host: String, port: UInt16, passive: Bool = false)
    throws(ResolutionError) -> [SocketAddress]
  {
    let addresses = try System.resolve(host: host, port: port, passive: passive)
    guard !addresses.isEmpty else { throw ResolutionError(host: host, reason: "no address") }
    return addresses
  }
}
