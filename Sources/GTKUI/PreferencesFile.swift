public import AppCore
import CGTK

/// Why a preference could not be stored, in one sentence.
nonisolated public struct PreferencesError: Error, Equatable {
  /// What went wrong.
  public var message: String
}

/// The desktop's own preferences (today the appearance), in a small key file of the user's
/// configuration folder.
///
/// A missing, unreadable or damaged file reads as the defaults and is only ever replaced whole:
/// GLib writes a temporary file and renames it, so a write cut short leaves the old file.
nonisolated public struct PreferencesFile: Equatable, Sendable {
  /// The file.
  public var path: String

  private static let group = "Desktop"
  private static let appearanceKey = "appearance"

  /// A file at `path`.
  public init(path: String) {
    self.path = path
  }

  /// `$XDG_CONFIG_HOME/tictactoe/tictactoe-gtk.ini` (`~/.config/…` by default).
  public static var standard: PreferencesFile {
    let folder = String(cString: g_get_user_config_dir())
    return PreferencesFile(path: folder + "/tictactoe/tictactoe-gtk.ini")
  }

  /// The appearance stored, or ``Appearance/system`` when there is none or it cannot be read.
  public var appearance: Appearance {
    let file = g_key_file_new()
    defer { g_key_file_free(file) }
    guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0 else {
      return .system
    }
    guard let value = g_key_file_get_string(file, Self.group, Self.appearanceKey, nil) else {
      return .system
    }
    defer { g_free(value) }
    return Appearance(stored: String(cString: value))
  }

  /// Stores `appearance`, keeping whatever else the file holds.
  ///
  /// - Throws: ``PreferencesError`` when the folder cannot be made or the file written.
  public func save(_ appearance: Appearance) throws(PreferencesError) {
    let file = g_key_file_new()
    defer { g_key_file_free(file) }
    // What else the file holds is kept; a damaged file is replaced.
    _ = g_key_file_load_from_file(file, path, G_KEY_FILE_KEEP_COMMENTS, nil)
    g_key_file_set_string(file, Self.group, Self.appearanceKey, appearance.rawValue)
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    if !folder.isEmpty, g_mkdir_with_parents(folder, 0o700) != 0 {
      throw PreferencesError(message: "The folder \(folder) could not be made.")
    }
    var error: UnsafeMutablePointer<GError>?
    guard g_key_file_save_to_file(file, path, &error) != 0 else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? "it could not be written"
      g_clear_error(&error)
      throw PreferencesError(message: reason)
    }
  }
}
