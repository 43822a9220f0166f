/// A JSON value parsed strictly: one value, nothing after it, and no object with a key twice.
///
/// Foundation's parsers take the last of two equal keys without a word; these tests must not.
indirect enum StrictJSON: Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([StrictJSON])
  case object([String: StrictJSON], keys: [String])

  /// Why a text is not strict JSON.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Parses one JSON value that fills `text`.
  init(parsing text: String) throws {
    var parser = Parser(scalars: Array(text.unicodeScalars))
    self = try parser.value()
    parser.skipSpace()
    guard parser.index == parser.scalars.count else {
      throw Failure(description: "text after the value at \(parser.index)")
    }
  }

  /// The member named `key` of an object.
  subscript(key: String) -> StrictJSON? {
    if case .object(let members, _) = self { members[key] } else { nil }
  }

  /// The keys of an object in the order written.
  var keys: [String] {
    if case .object(_, let keys) = self { keys } else { [] }
  }

  /// The elements of an array.
  var elements: [StrictJSON] {
    if case .array(let elements) = self { elements } else { [] }
  }

  /// Every object in the value, itself included, depth first.
  var objects: [StrictJSON] {
    switch self {
    case .object(let members, let keys): [self] + keys.flatMap { members[$0]?.objects ?? [] }
    case .array(let elements): elements.flatMap(\.objects)
    default: []
    }
  }
}

private struct Parser {
  let scalars: [Unicode.Scalar]
  var index = 0

  mutating func skipSpace() {
    while index < scalars.count, [" ", "\n", "\t", "\r"].contains(scalars[index]) { index += 1 }
  }

  mutating func fail(_ what: String) -> StrictJSON.Failure {
    StrictJSON.Failure(description: "\(what) at \(index)")
  }

  mutating func expect(_ literal: String) throws {
    for scalar in literal.unicodeScalars {
      guard index < scalars.count, scalars[index] == scalar else { throw fail("no \(literal)") }
      index += 1
    }
  }

  mutating func value() throws -> StrictJSON {
    skipSpace()
    guard index < scalars.count else { throw fail("end of text") }
    switch scalars[index] {
    case "{": return try object()
    case "[": return try array()
    case "\"": return .string(try string())
    case "t":
      try expect("true")
      return .bool(true)
    case "f":
      try expect("false")
      return .bool(false)
    case "n":
      try expect("null")
      return .null
    default: return try number()
    }
  }

  mutating func object() throws -> StrictJSON {
    var members: [String: StrictJSON] = [:]
    var keys: [String] = []
    try items(from: "{", to: "}") { parser in
      parser.skipSpace()
      let key = try parser.string()
      guard members[key] == nil else { throw parser.fail("the key \"\(key)\" twice") }
      parser.skipSpace()
      try parser.expect(":")
      members[key] = try parser.value()
      keys.append(key)
    }
    return .object(members, keys: keys)
  }

  mutating func array() throws -> StrictJSON {
    var elements: [StrictJSON] = []
    try items(from: "[", to: "]") { parser in elements.append(try parser.value()) }
    return .array(elements)
  }

  /// Parses `open`, items separated by commas, then `close`.
  mutating func items(
    from open: String, to close: Unicode.Scalar, _ item: (inout Parser) throws -> Void
  ) throws {
    try expect(open)
    skipSpace()
    if index < scalars.count, scalars[index] == close {
      index += 1
      return
    }
    while true {
      try item(&self)
      skipSpace()
      guard index < scalars.count else { throw fail("an unclosed \(open)") }
      if scalars[index] == "," {
        index += 1
      } else {
        try expect(String(close))
        return
      }
    }
  }

  mutating func string() throws -> String {
    try expect("\"")
    var result = ""
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar {
      case "\"":
        return result
      case "\\":
        guard index < scalars.count else { throw fail("an unfinished escape") }
        let escaped = scalars[index]
        index += 1
        switch escaped {
        case "\"", "\\", "/": result.unicodeScalars.append(escaped)
        case "n": result += "\n"
        case "t": result += "\t"
        case "r": result += "\r"
        case "b": result += "\u{8}"
        case "f": result += "\u{C}"
        case "u":
          guard index + 4 <= scalars.count,
            let code = UInt32(
              String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
            let decoded = Unicode.Scalar(code)
          else { throw fail("a bad \\u escape") }
          index += 4
          result.unicodeScalars.append(decoded)
        default: throw fail("a bad escape")
        }
      case _ where scalar.value < 0x20:
        throw fail("a raw control character in a string")
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    throw fail("an unclosed string")
  }

  mutating func number() throws -> StrictJSON {
    let start = index
    while index < scalars.count, "+-0123456789.eE".unicodeScalars.contains(scalars[index]) {
      index += 1
    }
    let text = String(String.UnicodeScalarView(scalars[start..<index]))
    guard let number = Double(text), !text.isEmpty else { throw fail("not a value") }
    return .number(number)
  }
}
