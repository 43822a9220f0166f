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

/// An optional written as `null` when absent, where a plain optional property is left out.
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct Null<Value: Encodable>: Encodable {
  var wrappedValue: Value?

  // Written out so that a wrapped property's memberwise parameter is the plain optional.
  init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

// MARK: - The tree being built

/// One JSON value under construction; containers fill it in place.
private final class Node {
  enum Content {
    case unset
    case literal(String)
    case object([(key: String, node: Node)])
    case array([Node])
  }

  var content = Content.unset

  func write(into text: inout String) {
    switch content {
    case .unset:
      text += "null"
    case .literal(let literal):
      text += literal
    case .object(let members):
      text += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { text += "," }
        text += Node.quoted(member.key) + ":"
        member.node.write(into: &text)
      }
      text += "}"
    case .array(let elements):
      text += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        element.write(into: &text)
      }
      text += "]"
    }
  }

  /// Appends a member, refusing a key the object has already.
  func member(_ key: any CodingKey, path: [any CodingKey]) throws -> Node {
    guard case .object(var members) = content else {
      preconditionFailure("a keyed container's node holds an object")
    }
    guard !members.contains(where: { $0.key == key.stringValue }) else {
      throw EncodingError.invalidValue(
        key.stringValue,
        EncodingError.Context(
          codingPath: path + [key], debugDescription: "The key \(key.stringValue) is given twice."))
    }
    let node = Node()
    members.append((key.stringValue, node))
    content = .object(members)
    return node
  }

  /// Appends an element.
  func element() -> Node {
    guard case .array(var elements) = content else {
      preconditionFailure("an unkeyed container's node holds an array")
    }
    let node = Node()
    elements.append(node)
    content = .array(elements)
    return node
  }

  /// Sets a value, writing numbers, strings and Booleans directly and asking other values to
  /// encode themselves.
  func set(_ value: some Encodable, path: [any CodingKey]) throws {
    switch value {
    case let text as String:
      content = .literal(Node.quoted(text))
    case let flag as Bool:
      content = .literal(flag ? "true" : "false")
    case let number as Int:
      content = .literal(String(number))
    case let number as Int64:
      content = .literal(String(number))
    case let number as UInt64:
      content = .literal(String(number))
    case let number as Double:
      guard number.isFinite else {
        throw EncodingError.invalidValue(
          number, EncodingError.Context(codingPath: path, debugDescription: "Not a JSON number."))
      }
      content = .literal(number.description)
    default:
      try value.encode(to: NodeEncoder(node: self, codingPath: path))
    }
  }

  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
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
    if case .object = node.content {} else { node.content = .object([]) }
    return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.content {} else { node.content = .array([]) }
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
    try node.member(key, path: codingPath).content = .literal("null")
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

  var count: Int {
    if case .array(let elements) = node.content { return elements.count }
    return 0
  }

  mutating func encodeNil() throws { node.element().content = .literal("null") }

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

  mutating func encodeNil() throws { node.content = .literal("null") }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try node.set(value, path: codingPath)
  }
}
