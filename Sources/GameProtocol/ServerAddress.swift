/// A server's host and port as typed: `HOST`, `HOST:PORT`, `[IPV6]:PORT` or a bare IPv6 address.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
  /// A host name, an IPv4 address or an IPv6 address (without brackets); empty means every
  /// interface when listening.
  public var host: String
  /// The port.
  public var port: UInt16

  /// Creates an address.
  public init(host: String, port: UInt16 = ProtocolLimits.defaultPort) {
    self.host = host
    self.port = port
  }

  /// Parses an address as typed; `nil` when the text is not one.
  ///
  /// - Parameters:
  ///   - text: Such as `example.org`, `example.org:7457`, `127.0.0.1:0`, `[::1]:7457` or `::1`.
  ///   - defaultPort: The port when none is given.
  public init?(parsing text: String, defaultPort: UInt16 = ProtocolLimits.defaultPort) {
    var host: Substring
    var portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { return nil }
        portText = rest.dropFirst()
      }
      guard host.contains(":") else { return nil }
    } else if text.filter({ $0 == ":" }).count > 1 {
      // A bare IPv6 address: eight groups, or fewer with `::` (`127.0.0.1:7457:1` is none).
      guard text.contains("::") || text.filter({ $0 == ":" }).count == 7 else { return nil }
      host = Substring(text)
    } else if let colon = text.firstIndex(of: ":") {
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
    } else {
      host = Substring(text)
    }
    guard !host.isEmpty, host.utf8.count <= 253,
      host.unicodeScalars.allSatisfy({ scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || ".-_:%".unicodeScalars.contains(scalar))
      })
    else { return nil }
    if let portText {
      guard let port = UInt16(portText), portText.allSatisfy(\.isASCII) else { return nil }
      self.init(host: String(host), port: port)
    } else {
      self.init(host: String(host), port: defaultPort)
    }
  }

  /// Parses an address to connect to as typed; `nil` when the text is not one, or has port 0,
  /// which means any free port only to a server listening.
  public init?(connectingTo text: String) {
    guard let address = ServerAddress(parsing: text), address.port != 0 else { return nil }
    self = address
  }

  /// Whether the host is an IP address rather than a name.
  public var isNumeric: Bool {
    host.contains(":")
      || host.split(separator: ".").count == 4
        && host.split(separator: ".").allSatisfy { UInt8($0) != nil }
  }

  /// `HOST:PORT`, with brackets around an IPv6 host.
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
