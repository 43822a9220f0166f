import DatabaseClientLive
import Dispatch
import SQLite

/// Moves the write-ahead log into the database file in the background, on a connection of its
/// own, so that no commit ever waits for a checkpoint and its syncs.
///
/// The server's own connection stops checkpointing by itself; this one copies every second
/// what the commits left in the log, without blocking them (a passive checkpoint).
final class Checkpointer {
  private let timer: any DispatchSourceTimer

  /// Starts checkpointing the database at `path`, whose main connection is `database`.
  ///
  /// - Returns: `nil` for an in-memory database, or when a second connection cannot be opened
  ///   (SQLite then keeps checkpointing on the main connection, only less evenly).
  init?(path: String, database: LocalDatabase) {
    guard path != ":memory:",
      let connection = try? Database(path: path, mode: .readWrite),
      (try? database.withConnection({ (connection: Database) throws(SQLiteError) in
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
      })) != nil
    else { return nil }
    let box = ConnectionBox(connection)
    let queue = DispatchQueue(label: "tictactoe.server.checkpoint", qos: .utility)
    timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler { _ = try? box.connection.query("PRAGMA wal_checkpoint(PASSIVE)") }
    timer.resume()
  }

  /// Stops, leaving what is left in the log for SQLite to move when the last connection closes.
  func stop() { timer.cancel() }
}

/// The checkpoint connection, used on the checkpoint queue only.
private final class ConnectionBox: @unchecked Sendable {
  let connection: Database
  init(_ connection: Database) { self.connection = connection }
}
