import Console
import Foundation
import GameRules

/// What follows an option of a benchmark on its command line.
public enum OptionValue: Equatable, Sendable {
  /// A whole number of at least `atLeast`, shown in help as `placeholder`.
  case number(atLeast: Int, placeholder: String)
  /// Text shown in help as `placeholder`; `takes` ends the sentence that refuses a bad one
  /// (`ROWSxCOLUMNS:K, for example 5x5:4`).
  case text(placeholder: String, takes: String)
}

/// One option of a benchmark: a switch, or a name and the value after it.
public struct BenchmarkOption: Equatable, Sendable {
  /// The option as typed, with its dashes (`--games`).
  public var name: String
  /// What follows it, or `nil` for a switch.
  public var value: OptionValue?
  /// What it does, in a few words, for help.
  public var summary: String

  /// An option named `name` (with its dashes), taking `value`, doing `summary`.
  public init(_ name: String, _ value: OptionValue? = nil, summary: String) {
    self.name = name
    self.value = value
    self.summary = summary
  }

  /// The sentence that says what the option takes, given when its value is missing or bad.
  public var usage: String {
    switch value {
    case .number(let minimum, _): "\(name) takes a whole number of at least \(minimum)."
    case .text(_, let takes): "\(name) takes \(takes)."
    case nil: "\(name) takes no value."
    }
  }
}

/// A refused command line of a benchmark.
public enum BenchmarkOptionError: Error, Equatable {
  /// A word that is no option of the program.
  case unknown(String)
  /// An option given a second time.
  case givenTwice(String)
  /// An option written with a value after `=`, which the benchmarks do not take (nor a switch
  /// any value).
  case valueAfterEquals(BenchmarkOption)
  /// An option whose value is missing or not what it takes.
  case invalidValue(BenchmarkOption)
}

/// The options a benchmark reads, after a successful parse.
public struct ParsedBenchmarkOptions: Equatable, Sendable {
  /// The value given after each option that takes one.
  public var values: [String: String] = [:]
  /// The switches given.
  public var switches: Set<String> = []

  /// The options of a command line that gives `values` and `switches`; none by default.
  public init(values: [String: String] = [:], switches: Set<String> = []) {
    self.values = values
    self.switches = switches
  }

  /// Whether the switch `name` (`--deep`) was given.
  public func has(_ name: String) -> Bool { switches.contains(name) }

  /// The number given after `name` (`--games`), already checked, when `name` was given.
  public func number(_ name: String) -> Int? { values[name].flatMap { Int($0) } }
}

/// A benchmark's command line: its options, read in one place, and its help.
public struct BenchmarkCommandLine: Sendable {
  /// What the arguments ask for.
  public enum Request: Equatable, Sendable {
    /// Print the help and stop.
    case help
    /// Run with these options.
    case run(ParsedBenchmarkOptions)
  }

  /// The executable's name, which starts every error sentence.
  public var program: String
  /// The help's first lines: what the program does and how it is run.
  public var introduction: String
  /// Every option it takes, in the order help lists them.
  public var options: [BenchmarkOption]

  /// A command line of `program`, whose help starts with `introduction` and lists `options`.
  public init(program: String, introduction: String, options: [BenchmarkOption]) {
    self.program = program
    self.introduction = introduction
    self.options = options
  }

  /// Reads `arguments` (without the program's name), checking every one before any work, so
  /// that a misspelt option or a bad number stops the run at once.
  ///
  /// `--help` or `-h` anywhere asks for the help.
  ///
  /// - Throws: ``BenchmarkOptionError`` for the first argument that is refused.
  public func parse(_ arguments: [String]) throws(BenchmarkOptionError) -> Request {
    if arguments.contains("--help") || arguments.contains("-h") { return .help }
    var parsed = ParsedBenchmarkOptions()
    var seen: Set<String> = []
    var pending = arguments[...]
    while let word = pending.popFirst() {
      guard let option = options.first(where: { $0.name == word }) else {
        let name = word.prefix { $0 != "=" }
        if word.contains("="), let option = options.first(where: { $0.name == name }) {
          throw .valueAfterEquals(option)
        }
        throw .unknown(word)
      }
      guard seen.insert(word).inserted else { throw .givenTwice(word) }
      switch option.value {
      case nil:
        parsed.switches.insert(word)
      case .number(let minimum, _)?:
        guard let value = pending.popFirst(), let number = Int(value), number >= minimum else {
          throw .invalidValue(option)
        }
        parsed.values[word] = value
      case .text?:
        guard let value = pending.popFirst(), !value.isEmpty else { throw .invalidValue(option) }
        parsed.values[word] = value
      }
    }
    return .run(parsed)
  }

  /// The options of `arguments` (without the program's name); prints the help and exits 0 when
  /// it is asked for, or stops with the sentence that refuses them and exit code 2.
  public func options(from arguments: [String]) -> ParsedBenchmarkOptions {
    do {
      switch try parse(arguments) {
      case .help:
        Console.write(help)
        exit(Console.finished(0, program: program))
      case .run(let options):
        return options
      }
    } catch {
      stop(sentence(for: error))
    }
  }

  /// Stops with one sentence on standard error, after the program's name, with its control
  /// characters escaped (it may quote a path or a line of a file), and `status`: 2, a usage
  /// error, unless told otherwise.
  public func stop(_ message: String, status: Int32 = 2) -> Never {
    let line = "\(program): \(message.escapingControlCharacters)\n"
    Console.error(line)
    exit(status)
  }

  /// The sentence that says what the option `name` (`--solve`) takes.
  public func usage(of name: String) -> String {
    options.first { $0.name == name }?.usage ?? "\(name) takes no value."
  }

  /// The one sentence that refuses `error`, without the program's name.
  public func sentence(for error: BenchmarkOptionError) -> String {
    switch error {
    case .unknown(let word):
      // An empty word is named, and no word is repeated back whole or with control characters.
      let shown = word.isEmpty ? "\"\" (an empty argument)" : word.quotable
      return "unknown option \(shown); run \(program) --help for the options."
    case .givenTwice(let name):
      return "\(name) is given twice; give it once."
    case .valueAfterEquals(let option) where option.value == nil:
      return option.usage
    case .valueAfterEquals(let option):
      return "\(option.name) takes its value as the next argument, not after =."
    case .invalidValue(let option):
      return option.usage
    }
  }

  /// The text of `--help`: the introduction, then each option with what it does.
  public var help: String {
    let spellings =
      options.map { option in
        switch option.value {
        case nil: option.name
        case .number(_, let placeholder)?, .text(let placeholder, _)?:
          "\(option.name) \(placeholder)"
        }
      } + ["--help, -h"]
    let summaries = options.map(\.summary) + ["show this text"]
    let width = spellings.map(\.count).max() ?? 0
    let lines = zip(spellings, summaries).map { spelling, summary in
      "  " + spelling + String(repeating: " ", count: width - spelling.count + 2) + summary
    }
    return introduction + "\n\nOptions:\n" + lines.joined(separator: "\n") + "\n"
  }
}
