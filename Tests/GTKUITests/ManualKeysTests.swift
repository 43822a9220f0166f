import AppCore
import Architecture
import CGTK
import Foundation
import GTKUI
import GameCore
import NewGameCore
import TestSupport
import XCTest

/// The keys tictactoe-gtk(6) lists against the keys the window answers: the triggers of every
/// shortcut GTK holds for the window and its widgets (ours, the mnemonics of the buttons, and
/// GTK's own bindings for Tab, the arrows and Enter), read back from GTK.
final class ManualKeysTests: XCTestCase {
  private static let page = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("data/man/tictactoe-gtk.6")

  func testTheManualListsOnlyKeysTheWindowAnswers() throws {
    let folder = NSTemporaryDirectory() + "tictactoe-gtk-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let roff = try String(contentsOf: Self.page, encoding: .utf8)
    try MainActor.assumeIsolated {
      try requireDisplay()
      let documented = try Self.documentedKeys(in: roff)
      XCTAssertFalse(documented.isEmpty, "tictactoe-gtk(6) has a KEYS section")

      let store = makeStoreInAGameOfAnnAndBob()
      let app = AppWindow(
        application: nil, store: store,
        preferences: PreferencesFile(path: folder + "/tictactoe-gtk.ini"))
      defer { app.window.destroy() }
      let game = try XCTUnwrap(app.gameView)

      let answered = Self.triggers(under: app.window.widget)
      for key in documented.sorted() {
        XCTAssertTrue(
          answered.contains(key), "tictactoe-gtk(6) lists \(key), which nothing answers")
      }
      // The Game screen's buttons are the page's Alt keys, no more and no fewer.
      let buttons = [
        game.undoButton, game.redoButton, game.hintButton, game.analysisButton,
        game.playAgainButton,
      ]
      let mnemonics = Set(buttons.flatMap { Self.triggers(under: $0.widget, mnemonicsOnly: true) })
      XCTAssertEqual(mnemonics.count, buttons.count, "each game button has its Alt key")
      XCTAssertEqual(
        documented.filter { $0.hasPrefix("<Alt>") }, mnemonics,
        "tictactoe-gtk(6) lists the Game screen's Alt keys")
      // And the page leaves out nothing the keyboard help lists.
      for command in DesktopCommand.allCases {
        for accelerator in AppWindow.keys(of: command).split(separator: " ") {
          let key = try XCTUnwrap(Self.canonical(String(accelerator)))
          XCTAssertTrue(documented.contains(key), "tictactoe-gtk(6) leaves out \(key)")
        }
      }
    }
  }

  /// The keys named in the page's KEYS section, in GTK's accelerator syntax.
  private static func documentedKeys(in roff: String) throws -> Set<String> {
    let section = roff.split(separator: "\n.SH KEYS").last?.split(separator: "\n.SH ").first ?? ""
    var keys: Set<String> = []
    let spelled =
      /(?:(?:Ctrl|Alt|Shift)\+)+(?:Tab|[A-Za-z0-9?,])|\bF[0-9]+\b|Arrow keys|\bEnter\b|\bSpace\b|\bTab\b/
    for match in section.matches(of: spelled) {
      let text = String(match.output)
      if text == "Arrow keys" {
        keys.formUnion(["Left", "Right", "Up", "Down"])
        continue
      }
      var parts = text.split(separator: "+").map(String.init)
      let key = parts.removeLast()
      let modifiers = parts.map {
        ["Ctrl": "<Control>", "Alt": "<Alt>", "Shift": "<Shift>"][$0] ?? $0
      }
      let name =
        ["Enter": "Return", "Space": "space", "?": "question", ",": "comma"][key]
        ?? (key.count == 1 ? key.lowercased() : key)
      let accelerator = modifiers.joined() + name
      guard let canonical = canonical(accelerator) else {
        XCTFail("tictactoe-gtk(6) names \(text), which GTK cannot read as \(accelerator)")
        continue
      }
      keys.insert(canonical)
    }
    return keys
  }

  /// `accelerator` as GTK writes it, or `nil` when GTK cannot read it.
  private static func canonical(_ accelerator: String) -> String? {
    var key: guint = 0
    var modifiers = GdkModifierType(rawValue: 0)
    guard gtk_accelerator_parse(accelerator, &key, &modifiers) != 0, key != 0,
      let name = gtk_accelerator_name(key, modifiers)
    else { return nil }
    defer { g_free(name) }
    return String(cString: name)
  }

  /// Every key a shortcut of `root` or of a widget inside it answers, or only its mnemonics; a
  /// mnemonic is Alt and its letter.
  @MainActor
  private static func triggers(under root: Widget, mnemonicsOnly: Bool = false) -> Set<String> {
    var found: Set<String> = []
    for widget in widgetTree(root) {
      let controllers = gtk_widget_observe_controllers(widget)
      for index in 0..<g_list_model_get_n_items(controllers) {
        guard let controller = g_list_model_get_item(controllers, index) else { continue }
        defer { g_object_unref(controller) }
        let instance = controller.assumingMemoryBound(to: GTypeInstance.self)
        guard g_type_check_instance_is_a(instance, gtk_shortcut_controller_get_type()) != 0
        else { continue }
        let shortcuts = OpaquePointer(controller)
        for position in 0..<g_list_model_get_n_items(shortcuts) {
          guard let shortcut = g_list_model_get_item(shortcuts, position) else { continue }
          defer { g_object_unref(shortcut) }
          guard let trigger = gtk_shortcut_get_trigger(OpaquePointer(shortcut)),
            let text = gtk_shortcut_trigger_to_string(trigger)
          else { continue }
          defer { g_free(text) }
          for alternative in String(cString: text).split(separator: "|")
          where !mnemonicsOnly || alternative.hasPrefix("<Mnemonic>") {
            let spelled = String(alternative).replacing("<Mnemonic>", with: "<Alt>")
            found.insert(canonical(spelled) ?? spelled)
          }
        }
      }
      g_object_unref(UnsafeMutableRawPointer(controllers))
    }
    return found
  }
}
