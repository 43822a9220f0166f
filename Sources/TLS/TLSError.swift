/// Why a TLS operation failed, with OpenSSL's reason when it gave one.
public struct TLSError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was being done, such as `loading the certificate`.
  public var operation: String
  /// OpenSSL's reason, such as `wrong version number`, or empty.
  public var reason: String

  /// Creates an error.
  public init(_ operation: String, reason: String = "") {
    self.operation = operation
    self.reason = reason
  }

  public var description: String {
    reason.isEmpty ? "TLS failed while \(operation)." : "TLS failed while \(operation): \(reason)."
  }
}
