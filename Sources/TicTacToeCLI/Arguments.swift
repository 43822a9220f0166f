import GameRules

/// A command-line mistake: the sentence to print and exit code 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// One sentence saying what is wrong and, where it helps, what to do.
  public var message: String
  /// Whether standard input could not be read: a failure of the world (exit 1), not of what
  /// was typed (exit 2).
  public var isInputFailure = false

  /// Creates an error with a sentence.
  public init(_ message: String, isInputFailure: Bool = false) {
    self.message = message
    self.isInputFailure = isInputFailure
  }

  public var description: String { message }
}

/// The arguments of one subcommand, split into options and positional values.
///
/// Options are `--name value`, `--name=value` or flags (`--json`). The caller declares which
/// names take a value and which are flags; anything else is refused with a clear sentence, as
/// is an argument that holds a control character or bytes that were not UTF-8, one longer than
/// ``maximumLength`` bytes, and an empty option value.
struct Arguments {
  /// The longest argument, in bytes: the longest path Linux accepts.
  static let maximumLength = 4_096

  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []
  /// The program the arguments are for, when it is not `tictactoe`: `tictactoe-gtk` takes
  /// play's options without the word play, so its sentences name it and its own `--help`.
  private let program: String?

  /// Splits `arguments` for `command` of `program` (`nil`: of `tictactoe`), refusing unknown or
  /// repeated options.
  init(
    _ arguments: [String], command: String, program: String? = nil, valued: Set<String>,
    flags allowedFlags: Set<String>
  ) throws(UsageError) {
    self.program = program
    var index = 0
    var onlyPositionals = false
    for argument in arguments { try Self.check(argument) }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      // A negative number (`replay -1`) is a value, refused by what reads it, not an option.
      let isNumber = argument.count > 1 && Double(argument) != nil
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || isNumber {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      guard argument.hasPrefix("--") else {
        throw UsageError("Unknown option \(argument.quotable) \(forCommand(command)).")
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if allowedFlags.contains(name) {
        guard inlineValue == nil else {
          throw UsageError("The option --\(name.quotable) takes no value.")
        }
        guard flags.insert(name).inserted else {
          throw UsageError("The option --\(name.quotable) is given more than once.")
        }
      } else if valued.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else {
            throw UsageError("The option --\(name.quotable) needs a value.")
          }
          value = arguments[index]
          index += 1
        }
        guard values[name] == nil else {
          throw UsageError("The option --\(name.quotable) is given more than once.")
        }
        guard !value.isEmpty else {
          throw UsageError("The option --\(name) needs a value, not an empty one.")
        }
        values[name] = value
      } else {
        throw UsageError("Unknown option --\(name.quotable) \(forCommand(command)).")
      }
    }
  }

  /// Refuses an argument no option or value can hold.
  private static func check(_ argument: String) throws(UsageError) {
    // The command line decodes bytes that are not UTF-8 as U+FFFD.
    guard !argument.unicodeScalars.contains("\u{FFFD}") else {
      throw UsageError("An argument holds bytes that are not UTF-8 text.")
    }
    guard argument.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
    else {
      throw UsageError(
        "The argument \"\(argument.quotable)\" holds a control character, which no option takes.")
    }
    guard argument.utf8.count <= maximumLength else {
      throw UsageError("An argument is longer than \(maximumLength) bytes.")
    }
  }

  /// The value of `--name`, if given.
  func value(_ name: String) -> String? { values[name] }

  /// Whether the flag `--name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The value of `--name` as an integer in `range`.
  func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        "The option --\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text.quotable)\"."
      )
    }
    return number
  }

  /// Refuses more than `count` positional values.
  func requirePositionals(atMost count: Int, command: String) throws(UsageError) {
    guard positionals.count <= count else {
      throw UsageError(
        "Unexpected argument \"\(positionals[count].quotable)\" \(forCommand(command)).")
    }
  }

  /// Where a refused argument was given and where to read what is taken: `for play; see
  /// tictactoe play --help`, or `for tictactoe-gtk; see tictactoe-gtk --help`.
  private func forCommand(_ command: String) -> String {
    if let program { return "for \(program); see \(program) --help" }
    return "for \(command); see tictactoe \(command) --help"
  }
}
