import Testing

/// Records that a test reached an endpoint it did not expect.
func unimplemented(_ endpoint: String) {
  Issue.record(Comment(rawValue: "\(endpoint) was called, but this test does not expect it."))
}

/// The error an unimplemented endpoint throws after recording the issue.
struct UnimplementedError: Error, Equatable {
  let endpoint: String
}
