import Foundation
import Testing
import TicTacToeCLI

/// The shell completions against the parser.
///
/// Every option a subcommand accepts is offered, and nothing else; every value offered is
/// accepted. bash, zsh and fish are run for real.
@Suite(.serialized)
struct CompletionTests {
  /// Every option name any subcommand declares, plus names no subcommand takes.
  private static let universe: Set<String> = {
    var names = Set(Syntax.commands.flatMap { $0.options.map(\.spelling) })
    names.formUnion(["--bogus", "--verbose", "-k", "-x", "--colour", "--json="])
    return names
  }()

  /// The sample positional values that make each subcommand parse.
  private static func positionals(_ command: CommandSyntax) -> [String] {
    switch command.name {
    case "analyze", "bestmove": ["x.o/.x./..o"]
    case "account": ["create", "alice"]
    case "login": ["alice"]
    case "replay": ["1"]
    default: []
    }
  }

  /// A value the parser takes for `option`.
  private static func sample(_ option: OptionSyntax) -> [String] {
    switch option.value {
    case nil: []
    case .choice(let words)?: [words[0]]
    case .integer(let range)?: [String(range.lowerBound)]
    case .file?: ["/tmp/completion-test.sqlite"]
    case .text("SECONDS")?: ["1"]
    case .text("N")?, .text("GAME")?: ["7"]
    case .text?: ["alice"]
    }
  }

  /// Whether the parser refuses `spelling` as an unknown option of `command`.
  private static func isUnknown(_ spelling: String, in command: CommandSyntax) -> Bool {
    let option = command.options.first { $0.spelling == spelling }
    let value = option.map(sample) ?? ["1"]
    let arguments = [command.name] + positionals(command) + [spelling] + value
    do {
      _ = try Command.parse(arguments)
      return false
    } catch {
      return error.message.hasPrefix("Unknown option") || error.message.contains("takes no value")
        || error.message.hasPrefix("Unexpected argument")
    }
  }

  @Test(arguments: Syntax.commands.map(\.name))
  func parserAcceptsExactlyTheDeclaredOptions(name: String) {
    let command = Syntax.commands.first { $0.name == name }!
    let declared = Set(command.options.map(\.spelling))
    let accepted = Self.universe.filter { !Self.isUnknown($0, in: command) }
    #expect(
      accepted == declared,
      "\(name): \(accepted.symmetricDifference(declared))"
    )
  }

  @Test(arguments: Syntax.commands.map(\.name))
  func helpDocumentsEveryOwnOptionAndNoOther(name: String) throws {
    let command = Syntax.commands.first { $0.name == name }!
    let help = try run(name, "--help")
    #expect(help.status == 0)
    let documented = Set(
      help.output.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
    let own = Set(command.ownOptions.map(\.spelling))
    let accepted = Set(command.options.map(\.spelling))
    #expect(own.isSubset(of: documented), "\(name) --help misses \(own.subtracting(documented))")
    #expect(
      documented.isSubset(of: accepted), "\(name) --help names \(documented.subtracting(accepted))")
  }

  @Test func everyOfferedValueIsAccepted() throws {
    for command in Syntax.commands {
      for option in command.options {
        guard let value = option.value, let words = Completions.words(value) else { continue }
        for word in words {
          var arguments = [command.name] + Self.positionals(command) + [option.spelling, word]
          // k must fit the board: give the largest board beside it.
          if option.name == "k", ["play", "solve", "count"].contains(command.name) {
            arguments += ["--size", "15"]
          }
          // Rows and columns go together.
          if option.name == "rows" { arguments += ["--columns", "15"] }
          if option.name == "columns" { arguments += ["--rows", "15"] }
          #expect(throws: Never.self, "\(arguments)") { _ = try Command.parse(arguments) }
        }
      }
      for (index, slot) in command.positionals.enumerated() {
        guard let words = Completions.words(slot) else { continue }
        for word in words {
          var arguments = [command.name] + Self.positionals(command)
          arguments[index + 1] = word
          if word == "list" { arguments.removeLast() }
          #expect(throws: Never.self, "\(arguments)") { _ = try Command.parse(arguments) }
        }
      }
    }
  }

  @Test func theDesktopTakesPlayOptionsOnly() {
    let play = Set(Syntax.play.options.map(\.spelling))
    let desktop = Set(Syntax.desktop.options.map(\.spelling))
    #expect(desktop.isSubset(of: play))
    #expect(
      play.subtracting(desktop) == [
        "--plain", "--no-color", "--password-stdin", "--code", "--server", "--server-fingerprint",
        "--new", "--join", "--watch",
      ])
  }

  /// tictactoe-gtk reads its options through `Command.parsePlayOptions`, after it has answered
  /// `--help` and `--version` itself; it then refuses `--password-stdin` and `--code`, which the
  /// play options hold.
  @Test func theDesktopOffersExactlyWhatItsParserTakes() {
    let accepted = Self.universe.filter { spelling in
      let option = Syntax.play.options.first { $0.spelling == spelling }
      var arguments = [spelling] + (option.map(Self.sample) ?? ["1"])
      // Rows and columns go together.
      if spelling == "--rows" { arguments += ["--columns", "15"] }
      if spelling == "--columns" { arguments += ["--rows", "15"] }
      return (try? Command.parsePlayOptions(arguments, for: "tictactoe-gtk")) != nil
    }
    let offered = Set(Syntax.desktop.options.map(\.spelling))
    let answeredFirst = Set(Syntax.globalOptions.map(\.spelling))
    #expect(
      accepted.subtracting(["--password-stdin", "--code"]) == offered.subtracting(answeredFirst),
      "\(accepted.symmetricDifference(offered.subtracting(answeredFirst)))")
  }

  @Test func completionsHasHelp() throws {
    for flag in ["--help", "-h"] {
      let result = try run("completions", flag)
      #expect(result.status == 0)
      #expect(result.error.isEmpty)
      #expect(result.output.contains("Usage: tictactoe completions bash|zsh|fish\n"))
    }
  }

  @Test func aMissingOrUnknownShellIsAUsageError() throws {
    for arguments in [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"]] {
      let result = try run(arguments: arguments)
      #expect(result.status == 2)
      #expect(
        result.error == "tictactoe: The completions command takes one shell: bash, zsh, fish.\n")
      #expect(result.output.isEmpty)
    }
  }

  // MARK: - The shells

  /// What a shell offers for each (program, words before the cursor, word at the cursor).
  private typealias Offer = (words: [String], expected: Set<String>)

  /// The questions asked of every shell: options after each subcommand, values after each
  /// option with a closed set of values, the subcommands, and account's actions.
  private static func questions() -> [Offer] {
    var questions: [Offer] = []
    for (program, commands) in [
      ("tictactoe", Syntax.commands), ("tictactoe-gtk", [Syntax.desktop]),
    ] {
      questions.append(([program, ""], Set(commands.map(\.name))))
      for command in commands {
        let long = Set(command.options.map(\.spelling).filter { $0.hasPrefix("--") })
        questions.append(([program, command.name, "--"], long))
        for option in command.options {
          guard let value = option.value, let words = Completions.words(value) else { continue }
          questions.append(([program, command.name, option.spelling, ""], Set(words)))
        }
      }
      questions.append(
        ([program, "--"], Set(commands[0].options.map(\.spelling).filter { $0.hasPrefix("--") })))
    }
    let actions = Set(Completions.words(Syntax.command("account").positionals[0]) ?? [])
    #expect(!actions.isEmpty)
    questions.append((["tictactoe", "account", ""], actions))
    questions.append((["tictactoe", "account", "--json", ""], actions))
    questions.append((["tictactoe", "play", "--difficulty", "h"], ["hard"]))
    return questions
  }

  @Test(.enabled(if: installed("bash"))) func bashOffersWhatTheParserTakes() throws {
    let script = try scriptFile(.bash)
    for question in Self.questions() {
      let words = question.words.map { "'\($0)'" }.joined(separator: " ")
      let function = question.words[0] == "tictactoe" ? "_tictactoe" : "_tictactoe_gtk"
      let program = """
        source '\(script.path)'
        COMP_WORDS=(\(words)); COMP_CWORD=\(question.words.count - 1)
        \(function)
        printf '%s\\n' "${COMPREPLY[@]}"
        """
      let offered = try lines(of: "bash", ["--norc", "--noprofile", "-c", program])
      #expect(offered == question.expected, "bash after \(question.words)")
    }
  }

  @Test(.enabled(if: installed("bash"))) func bashKeepsFileNamesWithSpacesWhole() throws {
    let script = try scriptFile(.bash)
    let folder = script.deletingLastPathComponent().path
    for name in ["my games.db", "my other games.db", "mine"] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: nil)
    }
    for (function, words) in [
      ("_tictactoe", ["tictactoe", "stats", "--database"]),
      ("_tictactoe_gtk", ["tictactoe-gtk", "--database"]),
      ("_tictactoe_gtk", ["tictactoe-gtk", "--database", "="]),
    ] {
      let typed = (words + [folder + "/my "]).map { "'\($0)'" }.joined(separator: " ")
      let program = """
        source '\(script.path)'
        COMP_WORDS=(\(typed)); COMP_CWORD=\(words.count)
        \(function)
        printf '%s\\n' "${COMPREPLY[@]}"
        """
      let offered = try lines(of: "bash", ["--norc", "--noprofile", "-c", program])
      #expect(
        offered == [folder + "/my games.db", folder + "/my other games.db"], "bash after \(words)")
    }
  }

  @Test(.enabled(if: installed("fish"))) func fishOffersWhatTheParserTakes() throws {
    let script = try scriptFile(.fish)
    for question in Self.questions() {
      let line = question.words.joined(separator: " ")
      let offered = try lines(
        of: "fish", ["--no-config", "-c", "source '\(script.path)'; complete -C '\(line)'"]
      ).map { String($0.prefix { $0 != "\t" }) }
      #expect(Set(offered) == question.expected, "fish after \(question.words)")
    }
  }

  @Test(.enabled(if: installed("zsh"))) func zshOffersWhatTheParserTakes() throws {
    // As the package installs it: a file named _tictactoe in a folder of $fpath.
    let script = try scriptFile(.zsh, named: "_tictactoe")
    let questions = Self.questions()
    let answers = try zshAnswers(
      questions,
      setup: """
        \(Self.zshWithoutInstalledCompletion)
        fpath=('\(script.deletingLastPathComponent().path)' $fpath)
        autoload -U compinit; compinit -u -D
        """)
    #expect(answers.count == questions.count)
    for (question, offered) in zip(questions, answers) {
      #expect(offered == question.expected, "zsh after \(question.words)")
    }
  }

  @Test(.enabled(if: installed("zsh"))) func zshRegistersTheScriptWhenSourced() throws {
    let script = try scriptFile(.zsh)
    let program = """
      \(Self.zshWithoutInstalledCompletion)
      autoload -Uz compinit; compinit -u -D
      source '\(script.path)'
      print -r -- "$? ${_comps[tictactoe]} ${_comps[tictactoe-gtk]}"
      """
    #expect(try output(of: "zsh", ["-f", "-c", program]) == "0 _tictactoe _tictactoe\n")
  }

  @Test(.enabled(if: installed("zsh"))) func zshCompletesWhenSourced() throws {
    let script = try scriptFile(.zsh)
    let questions: [Offer] = [
      (["tictactoe", ""], Set(Syntax.commands.map(\.name))),
      (["tictactoe", "play", "--k", ""], Set((3...15).map(String.init))),
      (
        ["tictactoe-gtk", "--"],
        Set(Syntax.desktop.options.map(\.spelling).filter { $0.hasPrefix("--") })
      ),
    ]
    let answers = try zshAnswers(
      questions,
      setup: """
        \(Self.zshWithoutInstalledCompletion)
        autoload -U compinit; compinit -u -D; source '\(script.path)'
        """)
    #expect(answers.count == questions.count)
    for (question, offered) in zip(questions, answers) {
      #expect(offered == question.expected, "zsh after \(question.words)")
    }
  }

  /// Takes out of `$fpath` a `_tictactoe` installed on this machine, which would complete
  /// whether or not the script under test works.
  private static let zshWithoutInstalledCompletion = """
    typeset -a kept; for d in $fpath; do [[ -e $d/_tictactoe ]] || kept+=($d); done; fpath=($kept)
    """

  /// What an interactive zsh, set up by the lines `setup`, offers for each question.
  private func zshAnswers(_ questions: [Offer], setup: String) throws -> [Set<String>] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "completions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let harness = folder.appendingPathComponent("capture.zsh")
    try Self.zshHarness.write(to: harness, atomically: true, encoding: .utf8)
    let setupFile = folder.appendingPathComponent("setup.zsh")
    try setup.write(to: setupFile, atomically: true, encoding: .utf8)
    let lines = folder.appendingPathComponent("questions.txt")
    try questions.map { $0.words.joined(separator: " ") + "\n" }.joined()
      .write(to: lines, atomically: true, encoding: .utf8)
    return try output(of: "zsh", ["-f", harness.path, setupFile.path, lines.path])
      .split(separator: "==\n", omittingEmptySubsequences: false).dropLast()
      .map { Set($0.split(separator: "\n").map(String.init)) }
  }

  /// Types each line of a file (`$2`) and Tab into one interactive zsh under a pseudo-terminal,
  /// set up by sourcing `$1`, with `compadd` wrapped so it prints what it would offer; answers
  /// end with a line `==`.
  private static let zshHarness = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z "PROMPT=''"
    zpty -w z "source ${(q)1}"
    zpty -w z 'compadd () { builtin compadd -O __hits "$@"; print -l -- "<<"${^__hits}">>"; }'
    # Tab completes, then says it is done, so the next keys are typed only after it: keys already
    # waiting when Tab is read could make zsh cut the completion short on a busy machine.
    zpty -w z 'tab () { zle complete-word; print -n -- "DO""NE"; }; zle -N tab; bindkey "^I" tab'
    # The quotes keep the typed line from matching what is waited for: only the output does.
    zpty -w z 'echo RE""ADY'
    zpty -r z line '*READY*'
    integer i=0
    while IFS= read -r question; do
      (( i++ ))
      zpty -w -n z "$question"$'\t'
      zpty -r z out "*DONE*"
      zpty -w z $'\C-u'" echo ANSWER\"\"${i}END"
      zpty -r z rest "*ANSWER${i}END*"
      print -r -- "$out" | tr -d '\r' | grep -o '<<[^>]*>>' | sed 's/^<<//; s/>>$//' | sort -u
      print -- "=="
    done < $2
    zpty -d z
    """#
}

/// Whether `name` is an executable on `PATH`.
private func installed(_ name: String) -> Bool {
  (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
  }
}

/// Writes `tictactoe completions SHELL` to a file in a fresh folder.
private func scriptFile(_ shell: Completions.Shell, named name: String? = nil) throws -> URL {
  let result = try run("completions", shell.rawValue)
  #expect(result.status == 0)
  #expect(result.error.isEmpty)
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "completions-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let file = folder.appendingPathComponent(name ?? "tictactoe.\(shell.rawValue)")
  try result.output.write(to: file, atomically: true, encoding: .utf8)
  return file
}

/// The non-empty lines `program` prints to standard output.
private func lines(of program: String, _ arguments: [String]) throws -> Set<String> {
  Set(try output(of: program, arguments).split(separator: "\n").map(String.init))
}

/// What `program` prints to standard output.
private func output(of program: String, _ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [program] + arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}
