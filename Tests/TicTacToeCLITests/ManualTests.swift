import Foundation
import Testing
import TicTacToeCLI

/// The manual pages against the parser's declaration: each subcommand's section names its own
/// options, and no page names an option that does not exist.
struct ManualTests {
  private static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("data/man")

  private static func page(_ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  /// The options a piece of roff names, such as `\-\-size` and `\-h`.
  private static func options(in roff: String) -> Set<String> {
    // Not inside a word: 2fa\-enable and tictactoe\-gtk are no options.
    Set(
      roff.matches(of: /(?:^|[^a-z0-9])(\\-(?:\\-)?[a-z][a-z\\-]*)/).map {
        String($0.output.1).replacing("\\-", with: "-")
      })
  }

  /// The page's `.SS` sections by their title.
  private static func subsections(_ roff: String) -> [String: String] {
    var sections: [String: String] = [:]
    for chunk in roff.split(separator: "\n.SS ").dropFirst() {
      let title = chunk.prefix { $0 != "\n" }
      let body = chunk.drop { $0 != "\n" }.split(separator: "\n.SH ").first ?? ""
      sections[String(title)] = String(body)
    }
    return sections
  }

  @Test func everySubcommandHasASectionNamingItsOptions() throws {
    let sections = Self.subsections(try Self.page("tictactoe.6"))
    #expect(Set(sections.keys) == Set(Syntax.commands.map(\.name)))
    for command in Syntax.commands {
      let named = Self.options(in: sections[command.name] ?? "")
      let own = Set(command.ownOptions.map(\.spelling))
      #expect(named == own, "tictactoe(6), \(command.name): \(named.symmetricDifference(own))")
    }
  }

  @Test func theCommandLinePageNamesOnlyRealOptions() throws {
    let named = Self.options(in: try Self.page("tictactoe.6"))
    let real = Set(Syntax.commands.flatMap { $0.options.map(\.spelling) })
    #expect(named == real, "tictactoe(6): \(named.symmetricDifference(real))")
  }

  @Test func theDesktopPageNamesExactlyTheDesktopOptions() throws {
    let roff = try Self.page("tictactoe-gtk.6")
    let section = roff.split(separator: "\n.SH OPTIONS").last?.split(separator: "\n.SH ").first
    let named = Self.options(in: String(section ?? ""))
    let real = Set(Syntax.desktop.options.map(\.spelling))
    #expect(named == real, "tictactoe-gtk(6): \(named.symmetricDifference(real))")
  }
}
