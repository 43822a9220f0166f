import DatabaseClientLive
import Dispatch
import SQLite
import Synchronization

/// Writes to the database in group commits: the writes that arrive while one commit is being
/// synced go into the next commit together, each in a savepoint of its own.
///
/// Every write still returns only after the commit that holds it is on disk, but a thousand
/// games share one sync instead of paying one each.
final class GroupCommit: Sendable {
  private let database: LocalDatabase
  private let queue = DispatchQueue(label: "tictactoe.server.database")
  private let pending = Mutex<(jobs: [Job], isDraining: Bool)>(([], false))

  /// A write waiting for the next commit.
  private struct Job: Sendable {
    /// Runs the write in its savepoint; a failure rolls back this write alone.
    let run: @Sendable (Database) -> Void
    /// Reports the outcome once the commit is done (or failed, with its error).
    let finish: @Sendable (SQLiteError?) -> Void
  }

  init(database: LocalDatabase) {
    self.database = database
  }

  /// Runs `body` in the next group commit and returns its result once committed.
  ///
  /// - Throws: `SQLiteError` from the body, or from the commit.
  func submit<Value: Sendable>(
    _ body: @escaping @Sendable (Database) throws(SQLiteError) -> Value
  ) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = Outcome<Value>()
      let job = Job(
        run: { database in
          do throws(SQLiteError) {
            outcome.result = .success(
              try database.transaction { () throws(SQLiteError) in try body(database) })
          } catch {
            outcome.result = .failure(error)
          }
        },
        finish: { commitError in
          if let commitError {
            continuation.resume(throwing: commitError)
          } else if let result = outcome.result {
            continuation.resume(with: result)
          }
        })
      let startsDraining = pending.withLock { pending -> Bool in
        pending.jobs.append(job)
        defer { pending.isDraining = true }
        return !pending.isDraining
      }
      if startsDraining { queue.async { self.drain() } }
    }
  }

  /// Commits everything waiting, then again while more arrived meanwhile.
  private func drain() {
    while true {
      let jobs = pending.withLock { pending -> [Job] in
        let jobs = pending.jobs
        pending.jobs.removeAll()
        if jobs.isEmpty { pending.isDraining = false }
        return jobs
      }
      guard !jobs.isEmpty else { return }
      let commitError: SQLiteError?
      do throws(SQLiteError) {
        try database.withConnection { database throws(SQLiteError) in
          try database.transaction { () throws(SQLiteError) in
            for job in jobs { job.run(database) }
          }
        }
        commitError = nil
      } catch {
        commitError = error
      }
      for job in jobs { job.finish(commitError) }
    }
  }
}

/// A job's result, written and read on the database queue only.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
  var result: Result<Value, SQLiteError>?
}
