/// A value stored in or read from an SQLite column.
public enum SQLiteValue: Equatable, Sendable {
  /// SQL `NULL`.
  case null
  /// A 64-bit integer.
  case integer(Int)
  /// A double-precision floating point number.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Raw bytes.
  case blob([UInt8])

  /// Wraps a Swift value.
  ///
  /// - Parameter value: An `Int`, `Double`, `String`, `[UInt8]`, `Bool` or an optional of one.
  public init(_ value: some SQLiteValueConvertible) {
    self = value.sqliteValue
  }

  var typeName: String {
    switch self {
    case .null: "NULL"
    case .integer: "an integer"
    case .real: "a real number"
    case .text: "text"
    case .blob: "a blob"
    }
  }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
  /// SQL `NULL`.
  public init(nilLiteral: ()) { self = .null }
  /// An integer.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// A real number.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// Text.
  public init(stringLiteral value: String) { self = .text(value) }
  /// 1 for `true`, 0 for `false`.
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

/// A Swift type that converts to and from an SQLite column value.
public protocol SQLiteValueConvertible {
  /// The value to bind.
  var sqliteValue: SQLiteValue { get }

  /// Reads a column value, or returns `nil` if it has another type.
  init?(sqliteValue: SQLiteValue)

  /// A name for the type in error messages.
  static var sqliteTypeName: String { get }
}

extension Int: SQLiteValueConvertible {
  /// The value as an integer.
  public var sqliteValue: SQLiteValue { .integer(self) }
  /// Reads an integer column.
  public init?(sqliteValue: SQLiteValue) {
    guard case .integer(let value) = sqliteValue else { return nil }
    self = value
  }
  /// "an integer".
  public static var sqliteTypeName: String { "an integer" }
}

extension Int64: SQLiteValueConvertible {
  /// The value as an integer.
  public var sqliteValue: SQLiteValue { .integer(Int(self)) }
  /// Reads an integer column.
  public init?(sqliteValue: SQLiteValue) {
    guard case .integer(let value) = sqliteValue else { return nil }
    self = Int64(value)
  }
  /// "an integer".
  public static var sqliteTypeName: String { "an integer" }
}

extension Bool: SQLiteValueConvertible {
  /// 1 or 0.
  public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
  /// Reads an integer column as a flag: non-zero is `true`.
  public init?(sqliteValue: SQLiteValue) {
    guard case .integer(let value) = sqliteValue else { return nil }
    self = value != 0
  }
  /// "a Boolean".
  public static var sqliteTypeName: String { "a Boolean" }
}

extension Double: SQLiteValueConvertible {
  /// The value as a real number.
  public var sqliteValue: SQLiteValue { .real(self) }
  /// Reads a real column, widening integers.
  public init?(sqliteValue: SQLiteValue) {
    switch sqliteValue {
    case .real(let value): self = value
    case .integer(let value): self = Double(value)
    default: return nil
    }
  }
  /// "a real number".
  public static var sqliteTypeName: String { "a real number" }
}

extension String: SQLiteValueConvertible {
  /// The value as text.
  public var sqliteValue: SQLiteValue { .text(self) }
  /// Reads a text column.
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue else { return nil }
    self = value
  }
  /// "text".
  public static var sqliteTypeName: String { "text" }
}

extension [UInt8]: SQLiteValueConvertible {
  /// The value as a blob.
  public var sqliteValue: SQLiteValue { .blob(self) }
  /// Reads a blob column.
  public init?(sqliteValue: SQLiteValue) {
    guard case .blob(let value) = sqliteValue else { return nil }
    self = value
  }
  /// "a blob".
  public static var sqliteTypeName: String { "a blob" }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
  /// The wrapped value, or `NULL`.
  public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
  /// Reads `NULL` as `nil`, anything else as the wrapped type.
  public init?(sqliteValue: SQLiteValue) {
    if sqliteValue == .null {
      self = .none
      return
    }
    guard let value = Wrapped(sqliteValue: sqliteValue) else { return nil }
    self = .some(value)
  }
  /// The wrapped type's name, or NULL.
  public static var sqliteTypeName: String { "\(Wrapped.sqliteTypeName) or NULL" }
}

/// One result row.
public struct Row: Equatable, Sendable {
  /// The column values in select order.
  public let values: [SQLiteValue]

  let path: String?

  /// The value in a column, starting at 0.
  public subscript(column: Int) -> SQLiteValue { values[column] }

  /// Reads a column as a Swift type.
  ///
  /// - Parameters:
  ///   - column: The column index, starting at 0.
  ///   - type: The type to read; inferred from context.
  /// - Returns: The converted value.
  /// - Throws: `SQLiteError` with `.typeMismatch` when the column holds another type.
  public func get<Value: SQLiteValueConvertible>(
    _ column: Int, as type: Value.Type = Value.self
  ) throws(SQLiteError) -> Value {
    guard values.indices.contains(column) else {
      throw SQLiteError(
        kind: .typeMismatch(column: column, expected: Value.sqliteTypeName, found: "no column"),
        message: "column \(column) is out of range", path: path)
    }
    guard let value = Value(sqliteValue: values[column]) else {
      throw SQLiteError(
        kind: .typeMismatch(
          column: column, expected: Value.sqliteTypeName, found: values[column].typeName),
        message: "type mismatch", path: path)
    }
    return value
  }
}
