import Synchronization

/// Transposition tables an engine keeps between its searches, one per board shape and kind of
/// search, so that consecutive moves of one game start from what earlier searches learnt.
///
/// A search borrows a table and gives it back when it is done; a search that finds no table
/// free (another thread holds it) gets a fresh one. The cache holds at most ``capacity``
/// tables, so its memory is bounded by that many of the largest tables lent (2^20 slots of
/// 24 bytes, 24 MB, each).
final class TableCache: Sendable {
  /// Which searches may share a table: the board shape, the kind of search and the size.
  struct Key: Hashable {
    var rows: Int
    var columns: Int
    var k: Int
    /// Exact solves and estimating searches score positions differently.
    var isExact: Bool
    var bits: Int
  }

  static let capacity = 4
  /// Tables above this size are never kept.
  static let largestBits = 20

  private let tables = Mutex<[Key: TranspositionTable]>([:])

  /// The table kept for `key`, taken out of the cache, or a new one.
  func borrow(_ key: Key) -> TranspositionTable {
    let kept = tables.withLock { $0.removeValue(forKey: key) }
    return kept ?? TranspositionTable(bits: key.bits)
  }

  /// Keeps `table` for later searches with `key`, making room by dropping another table.
  func giveBack(_ table: TranspositionTable, for key: Key) {
    guard key.bits <= TableCache.largestBits else { return }
    tables.withLock { tables in
      if tables[key] == nil, tables.count >= TableCache.capacity, let some = tables.keys.first {
        tables[some] = nil
      }
      tables[key] = table
    }
  }

  /// How many tables the cache holds.
  var count: Int { tables.withLock { $0.count } }
}
