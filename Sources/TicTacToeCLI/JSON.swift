import GameRules

/// The command line's one JSON encoder: compact, keys in the order a type encodes them, `/` left
/// as it is, and a key given twice refused.
///
/// Foundation's `JSONEncoder` orders keys by hash on Linux; the documented outputs list keys in
/// a fixed order (`{"position":…,"k":…}`), so the command line encodes with this instead.
enum JSON {
  /// The value as one line of JSON.
  ///
  /// A duplicated key or a number that is not finite is a programming error in an output type,
  /// caught by the tests that decode every `--json` output strictly.
  static func line(_ value: some Encodable) -> String {
    do {
      return try encoded(value)
    } catch {
      preconditionFailure("an output type does not encode as JSON: \(error)")
    }
  }

  /// The value as one line of JSON.
  ///
  /// - Throws: `EncodingError.invalidValue` for a key encoded twice in one object or a number
  ///   that is not finite.
  static func encoded(_ value: some Encodable) throws -> String {
    let root = Node()
    try value.encode(to: NodeEncoder(node: root, codingPath: []))
    var text = ""
    root.write(into: &text)
    return text
  }
}

/// A JSON object whose keys and values an output type lists in order.
///
/// Each `--json` output is one such type. A `nil` value is written as `null`; a key that is
/// sometimes absent is left out of the list.
protocol JSONObject: Encodable {
  /// The keys and values, in the order written.
  var fields: [(key: String, value: (any Encodable)?)] { get }
}

extension JSONObject {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FieldKey.self)
    for (key, value) in fields {
      if let value {
        try container.encode(value, forKey: FieldKey(stringValue: key))
      } else {
        try container.encodeNil(forKey: FieldKey(stringValue: key))
      }
    }
  }
}

/// A key named by its text.
private struct FieldKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }

  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

// MARK: - The tree being built

/// One JSON value under construction; containers fill it in place.
private final class Node {
  enum Kind {
    case unset
    case literal
    case object
    case array
  }

  var kind = Kind.unset
  /// The text of a literal: a number, a quoted string, `true`, `false` or `null`.
  var literal = ""
  /// An object's keys, in order, one for each child.
  var keys: [String] = []
  /// An object's values or an array's elements.
  var children: [Node] = []

  func write(into text: inout String) {
    switch kind {
    case .unset:
      text += "null"
    case .literal:
      text += literal
    case .object:
      text += "{"
      for (index, child) in children.enumerated() {
        if index > 0 { text += "," }
        text += Node.quoted(keys[index]) + ":"
        child.write(into: &text)
      }
      text += "}"
    case .array:
      text += "["
      for (index, child) in children.enumerated() {
        if index > 0 { text += "," }
        child.write(into: &text)
      }
      text += "]"
    }
  }

  func setLiteral(_ text: String) {
    kind = .literal
    literal = text
  }

  /// Appends a member, refusing a key the object has already.
  func member(_ key: any CodingKey, path: [any CodingKey]) throws -> Node {
    guard !keys.contains(key.stringValue) else {
      throw EncodingError.invalidValue(
        key.stringValue,
        EncodingError.Context(
          codingPath: path + [key], debugDescription: "The key \(key.stringValue) is given twice."))
    }
    let node = Node()
    keys.append(key.stringValue)
    children.append(node)
    return node
  }

  /// Appends an element.
  func element() -> Node {
    let node = Node()
    children.append(node)
    return node
  }

  /// Sets a value, writing numbers, strings and Booleans directly and asking other values to
  /// encode themselves.
  func set(_ value: some Encodable, path: [any CodingKey]) throws {
    switch value {
    case let text as String:
      setLiteral(Node.quoted(text))
    case let flag as Bool:
      setLiteral(flag ? "true" : "false")
    case let number as Int:
      setLiteral(String(number))
    case let number as Int64:
      setLiteral(String(number))
    case let number as UInt64:
      setLiteral(String(number))
    case let number as Double:
      guard number.isFinite else {
        throw EncodingError.invalidValue(
          number, EncodingError.Context(codingPath: path, debugDescription: "Not a JSON number."))
      }
      setLiteral(number.description)
    default:
      try value.encode(to: NodeEncoder(node: self, codingPath: path))
    }
  }

  /// The text as a JSON string.
  ///
  /// Besides what JSON requires, every character that does not print (C1 controls, direction
  /// overrides, zero-width characters) is written as `\uXXXX`, the same text to a parser, so
  /// that no output of the command line carries one raw to a terminal.
  static func quoted(_ text: String) -> String {
    let isPlain = text.unicodeScalars.allSatisfy { scalar in
      (0x20..<0x7F).contains(scalar.value)
        ? scalar != "\"" && scalar != "\\" : scalar.isPrintable
    }
    guard !isPlain else { return "\"" + text + "\"" }
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where !scalar.isPrintable:
        for unit in String(scalar).utf16 {
          let hex = String(unit, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

// MARK: - Encoder and containers

private struct NodeEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.kind = .object
    return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.kind = .array
    return UnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(node: node, codingPath: codingPath)
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws {
    try node.member(key, path: codingPath).setLiteral("null")
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try node.member(key, path: codingPath).set(value, path: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    NodeEncoder(node: memberOrFail(key), codingPath: codingPath + [key])
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    NodeEncoder(node: memberOrFail(key), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    preconditionFailure("the output types do not encode a superclass")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    preconditionFailure("the output types do not encode a superclass")
  }

  private func memberOrFail(_ key: Key) -> Node {
    do {
      return try node.member(key, path: codingPath)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  var count: Int { node.children.count }

  mutating func encodeNil() throws { node.element().setLiteral("null") }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try node.element().set(value, path: codingPath)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    NodeEncoder(node: node.element(), codingPath: codingPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    NodeEncoder(node: node.element(), codingPath: codingPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    preconditionFailure("the output types do not encode a superclass")
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.setLiteral("null") }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try node.set(value, path: codingPath)
  }
}
