/// The network an address belongs to, for limits that count by machine rather than by address:
/// an IPv4 address as it is, an IPv6 address by its /64 (one machine usually has a whole /64,
/// and as many addresses in it as it likes), an IPv4 address mapped into IPv6 as the IPv4
/// address.
public enum Network {
  /// The key of `address`'s network; what is not an IPv6 address comes back as it is.
  public static func key(of address: String) -> String {
    let host = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
    guard host.contains(":") else { return address }
    let lowered = host.lowercased()
    if lowered.hasPrefix("::ffff:"), lowered.contains(".") {
      return String(lowered.dropFirst("::ffff:".count))
    }
    guard let groups = groups(of: lowered) else { return address }
    return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
  }

  /// The eight 16-bit groups of an IPv6 address written with hex groups and at most one `::`.
  private static func groups(of text: String) -> [UInt16]? {
    let doubles = text.ranges(of: "::")
    guard doubles.count <= 1 else { return nil }
    let halves =
      doubles.first.map { [String(text[..<$0.lowerBound]), String(text[$0.upperBound...])] }
      ?? [text]
    func parse(_ part: String) -> [UInt16]? {
      guard !part.isEmpty else { return [] }
      var result: [UInt16] = []
      for group in part.split(separator: ":", omittingEmptySubsequences: false) {
        guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else {
          return nil
        }
        result.append(value)
      }
      return result
    }
    guard let left = parse(halves[0]) else { return nil }
    let right = halves.count == 2 ? parse(halves[1]) : []
    guard let right else { return nil }
    if halves.count == 1 { return left.count == 8 ? left : nil }
    guard left.count + right.count < 8 else { return nil }
    return left + Array(repeating: 0, count: 8 - left.count - right.count) + right
  }
}
