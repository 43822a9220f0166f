public import DatabaseClient
import GameRules
import Glibc

/// Where the database file lives.
///
/// In order: the `--database` path, `TICTACTOE_DATABASE`, then
/// `$XDG_DATA_HOME/tictactoe/tictactoe.sqlite` with `XDG_DATA_HOME` defaulting to
/// `~/.local/share`.
public struct DatabaseLocation: Equatable, Sendable {
  /// The file name inside the default folder.
  public static let fileName = "tictactoe.sqlite"

  /// The database file.
  public let path: String

  /// Whether the path is the default one, whose folder the program may create.
  ///
  /// A path the player chose is used as given: a missing folder there is an error.
  public let isDefault: Bool

  /// Resolves the location.
  ///
  /// - Parameters:
  ///   - explicitPath: A `--database` path, if given.
  ///   - environment: The process environment.
  /// - Throws: ``DatabaseError`` when no home folder is known.
  public init(explicitPath: String?, environment: [String: String]) throws(DatabaseError) {
    // A value whose bytes are not UTF-8 reaches the program with U+FFFD in their place: the
    // path it names is another one, where the player's games are not.
    func variable(_ name: String) throws(DatabaseError) -> String? {
      guard let value = environment[name], value.contains("\u{FFFD}") else {
        return environment[name]
      }
      throw DatabaseError(
        "\(name) holds bytes that are not UTF-8 text, so it cannot name the database's place; "
          + "pass --database PATH.")
    }
    if let explicitPath, !explicitPath.isEmpty {
      path = explicitPath
      isDefault = false
    } else if let override = try variable("TICTACTOE_DATABASE") {
      // Empty, it is most likely a script's variable left unset by mistake: the player's own
      // database is not taken in its place. Blank, or holding a control character, it is no
      // path anyone means.
      guard !override.trimmingWhitespace().isEmpty else {
        throw DatabaseError(
          "TICTACTOE_DATABASE is set but empty; unset it to use the usual database, or set it "
            + "to a path.")
      }
      guard !override.unicodeScalars.contains(where: { !$0.isPrintable }) else {
        throw DatabaseError(
          "TICTACTOE_DATABASE holds a control character (\(override.escapingControlCharacters)); "
            + "set it to a path.")
      }
      path = override
      isDefault = false
    } else {
      // The XDG spec says to ignore a relative XDG_DATA_HOME.
      let dataHome: String
      if let xdg = try variable("XDG_DATA_HOME"), xdg.hasPrefix("/") {
        dataHome = xdg
      } else if let home = try variable("HOME"), home.hasPrefix("/") {
        dataHome = home + "/.local/share"
      } else {
        throw DatabaseError(
          "No home folder is set, so there is nowhere to keep the database; pass --database PATH.")
      }
      path = dataHome + "/tictactoe/" + Self.fileName
      isDefault = true
    }
  }

  /// The folder that holds the file.
  public var folder: String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Creates the folder and any missing parents; the folder itself gets mode 0700.
  ///
  /// - Throws: ``DatabaseError`` when a folder cannot be created.
  public func createFolder() throws(DatabaseError) {
    var prefix = ""
    let components = folder.split(separator: "/")
    for (index, component) in components.enumerated() {
      prefix += "/" + component
      let isLast = index == components.count - 1
      if mkdir(prefix, isLast ? 0o700 : 0o755) != 0, errno != EEXIST {
        let reason = String(cString: strerror(errno))
        throw DatabaseError("The folder \(prefix) could not be created (\(reason)).")
      }
    }
    // The folder is ours: keep it private even if something loosened it.
    if chmod(folder, 0o700) != 0 {
      let reason = String(cString: strerror(errno))
      throw DatabaseError("The folder \(folder) could not be made private (\(reason)).")
    }
  }
}
