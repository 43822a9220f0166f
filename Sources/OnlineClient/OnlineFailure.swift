/// Why talking to a server failed, in one sentence.
public struct OnlineFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The sentence.
  public var message: String
  /// Whether trying again cannot help (a changed fingerprint, an unknown version).
  public var isPermanent: Bool

  /// Creates a failure.
  public init(_ message: String, isPermanent: Bool = false) {
    self.message = message
    self.isPermanent = isPermanent
  }

  public var description: String { message }
}
