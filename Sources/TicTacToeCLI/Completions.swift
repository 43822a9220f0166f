/// Shell completion scripts for `tictactoe` and `tictactoe-gtk`, written from ``Syntax``, the
/// declaration the parser reads, so they offer exactly what the parser accepts.
public enum Completions {
  /// A shell with a completion system.
  public enum Shell: String, CaseIterable, Equatable, Sendable {
    case bash
    case zsh
    case fish
  }

  /// One program and the subcommands it takes.
  struct Program {
    /// The executable's name.
    var name: String
    /// Its subcommands; the first is the default when the first word is an option.
    var commands: [CommandSyntax]

    /// A name usable in shell function names.
    var identifier: String { name.replacing("-", with: "_") }
  }

  static let programs = [
    Program(name: "tictactoe", commands: Syntax.commands),
    Program(name: "tictactoe-gtk", commands: [Syntax.desktop]),
  ]

  /// The script that teaches `shell` to complete both programs.
  public static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash()
    case .zsh: zsh()
    case .fish: fish()
    }
  }

  /// Parses the arguments of `tictactoe completions`.
  static func shell(_ arguments: [String]) throws(UsageError) -> Shell {
    let shells = Shell.allCases.map(\.rawValue).joined(separator: ", ")
    guard arguments.count == 1, let shell = Shell(rawValue: arguments[0]) else {
      throw UsageError("The completions command takes one shell: \(shells).")
    }
    return shell
  }

  /// The words a value may be, or `nil` when it is free text or a file.
  public static func words(_ value: ValueSyntax) -> [String]? {
    switch value {
    case .choice(let words): words
    case .integer(let range): range.map(String.init)
    case .file, .text: nil
    }
  }

  // MARK: - bash

  private static func bash() -> String {
    var lines = [
      "# Completion of tictactoe and tictactoe-gtk for bash; written by tictactoe completions bash.",
      "",
    ]
    for program in programs {
      lines += bashFunction(program)
      lines += ["complete -F _\(program.identifier) \(program.name)", ""]
    }
    return lines.joined(separator: "\n")
  }

  private static func bashFunction(_ program: Program) -> [String] {
    var lines = [
      "_\(program.identifier)() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=",
      "  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}",
      "  # --name=value arrives as three words: --name, = and value.",
      "  if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi",
      "  local command=\(program.commands[0].name) first=1",
      "  if (( COMP_CWORD > 1 )) && [[ ${COMP_WORDS[1]} != -* ]]; then",
      "    command=${COMP_WORDS[1]}",
      "    first=2",
      "  fi",
      "  if (( COMP_CWORD == 1 )) && [[ $cur != -* ]]; then",
      "    COMPREPLY=($(compgen -W \"\(program.commands.map(\.name).joined(separator: " "))\" -- \"$cur\"))",
      "    return",
      "  fi",
      "  local options= valued= positionals=()",
      "  case $command in",
    ]
    for command in program.commands {
      lines.append("    \(command.name))")
      lines.append("      case $prev in")
      for option in command.options {
        guard let value = option.value else { continue }
        let reply: String
        if let words = words(value) {
          reply = "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        } else if value == .file {
          // One name a line, so that a name with spaces stays one reply; readline then quotes
          // it and marks folders.
          reply =
            "mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); compopt -o filenames 2>/dev/null"
        } else {
          reply = "COMPREPLY=()"
        }
        lines.append("        \(option.spelling)) \(reply); return ;;")
      }
      lines.append("      esac")
      lines.append(
        "      options=\"\(command.options.map(\.spelling).joined(separator: " "))\"")
      lines.append(
        "      valued=\"\(command.options.filter { $0.value != nil }.map(\.spelling).joined(separator: " "))\""
      )
      let slots = command.positionals.map { value in
        words(value).map { "\"\($0.joined(separator: " "))\"" } ?? "\"\""
      }
      lines.append("      positionals=(\(slots.joined(separator: " ")))")
      lines.append("      ;;")
    }
    lines += [
      "    *) return ;;",
      "  esac",
      "  # Which positional value the cursor is on: skip options and the values they take.",
      "  local i=$first count=0 word",
      "  while (( i < COMP_CWORD )); do",
      "    word=${COMP_WORDS[i]}",
      "    if [[ $word == -* && ${COMP_WORDS[i+1]} == = ]]; then",
      "      (( i += 3 ))",
      "      continue",
      "    elif [[ $word == -* && \" $valued \" == *\" $word \"* ]]; then",
      "      (( i += 2 ))",
      "      continue",
      "    elif [[ $word != -* ]]; then",
      "      (( count++ ))",
      "    fi",
      "    (( i++ ))",
      "  done",
      "  if [[ $cur != -* ]] && (( count < ${#positionals[@]} )); then",
      "    COMPREPLY=($(compgen -W \"${positionals[count]}\" -- \"$cur\"))",
      "    return",
      "  fi",
      "  COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
      "}",
    ]
    return lines
  }

  // MARK: - zsh

  private static func zsh() -> String {
    var lines = [
      "#compdef tictactoe tictactoe-gtk",
      "# Completion of tictactoe and tictactoe-gtk for zsh; written by tictactoe completions zsh.",
      "",
    ]
    for program in programs {
      for command in program.commands {
        lines.append("_\(program.identifier)_\(command.name)() {")
        lines.append("  _arguments -s -S \\")
        var specs = command.options.map(zshSpec)
        for (index, value) in command.positionals.enumerated() {
          specs.append("'\(index + 1):\(zshPlaceholder(value)):\(zshAction(value))'")
        }
        lines += specs.map { "    \($0) \\" }
        lines[lines.count - 1].removeLast(2)
        lines.append("}")
        lines.append("")
      }
    }
    lines.append("_tictactoe() {")
    lines.append("  local -a commands")
    lines.append("  local program=${service//-/_}")
    lines.append("  case $service in")
    for program in programs {
      let described = program.commands.map { "'\($0.name):\(zshEscaped($0.summary))'" }
      lines.append("    \(program.name)) commands=(\(described.joined(separator: " "))) ;;")
    }
    lines += [
      "    *) return 1 ;;",
      "  esac",
      "  if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then",
      "    _describe -t commands command commands",
      "    return",
      "  fi",
      "  local command=${commands[1]%%:*}",
      "  if (( CURRENT > 2 )) && [[ $words[2] != -* ]]; then",
      "    command=$words[2]",
      "    shift words",
      "    (( CURRENT-- ))",
      "  fi",
      "  (( $+functions[_${program}_$command] )) && _${program}_$command",
      "}",
      "",
      "# From $fpath, zsh runs this file as the body of _tictactoe on the first completion;",
      "# sourced after compinit, it registers the function.",
      "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then",
      "  _tictactoe \"$@\"",
      "else",
      "  compdef _tictactoe \(programs.map(\.name).joined(separator: " "))",
      "fi",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  private static func zshSpec(_ option: OptionSyntax) -> String {
    let described =
      "\(option.spelling)\(option.value == nil ? "" : "=")[\(zshEscaped(option.summary))]"
    guard let value = option.value else { return "'\(described)'" }
    return "'\(described):\(zshPlaceholder(value)):\(zshAction(value))'"
  }

  private static func zshPlaceholder(_ value: ValueSyntax) -> String {
    switch value {
    case .choice: "value"
    case .integer: "number"
    case .file: "file"
    case .text(let placeholder): zshEscaped(placeholder.lowercased())
    }
  }

  private static func zshAction(_ value: ValueSyntax) -> String {
    if let words = words(value) { return "(\(words.joined(separator: " ")))" }
    return value == .file ? "_files" : " "
  }

  /// Escapes what `_arguments` and `_describe` treat specially, and the single quote.
  private static func zshEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "[", "]", ":", "\\": escaped += "\\\(character)"
      case "'": escaped += "'\\''"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  // MARK: - fish

  private static func fish() -> String {
    var lines = [
      "# Completion of tictactoe and tictactoe-gtk for fish; written by tictactoe completions fish.",
      "",
      "# The subcommand on the command line: its first word unless that is an option, else play.",
      "function __tictactoe_command",
      "    set -l words (commandline -opc)",
      "    if set -q words[2]; and not string match -q -- '-*' $words[2]",
      "        echo $words[2]",
      "    else",
      "        echo play",
      "    end",
      "end",
      "",
      "# How many positional values come before the cursor; $argv lists the options taking one.",
      "function __tictactoe_positionals",
      "    set -l words (commandline -opc)",
      "    set -e words[1]",
      "    if set -q words[1]; and not string match -q -- '-*' $words[1]",
      "        set -e words[1]",
      "    end",
      "    set -l count 0",
      "    set -l skip 0",
      "    for word in $words",
      "        if test $skip = 1",
      "            set skip 0",
      "        else if string match -q -- '--*=*' $word",
      "        else if string match -q -- '-*' $word",
      "            contains -- $word $argv; and set skip 1",
      "        else",
      "            set count (math $count + 1)",
      "        end",
      "    end",
      "    echo $count",
      "end",
      "",
    ]
    for program in programs {
      let name = program.name
      lines.append("complete -c \(name) -f")
      for command in program.commands {
        lines.append(
          "complete -c \(name) -n 'test (count (commandline -opc)) = 1' -a \(command.name) "
            + "-d \(fishQuoted(command.summary))")
      }
      for command in program.commands {
        let condition = "test (__tictactoe_command) = \(command.name)"
        for option in command.options {
          var line = "complete -c \(name) -n '\(condition)' "
          line += option.isShort ? "-s \(option.name)" : "-l \(option.name)"
          switch option.value {
          case nil: break
          case .file?: line += " -r -F"
          case let value?:
            line += " -x"
            if let words = words(value) {
              line += " -a \(fishQuoted(words.joined(separator: " ")))"
            }
          }
          line += " -d \(fishQuoted(option.summary))"
          lines.append(line)
        }
        let valued = command.options.filter { $0.value != nil }.map(\.spelling)
        for (index, value) in command.positionals.enumerated() {
          guard let words = words(value) else { continue }
          lines.append(
            "complete -c \(name) -n '\(condition); and test (__tictactoe_positionals "
              + "\(valued.joined(separator: " "))) = \(index)' -a \(fishQuoted(words.joined(separator: " ")))"
          )
        }
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  private static func fishQuoted(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }
}
