import Synchronization

/// A table of search results for one board shape that can be made empty at a given size.
protocol SearchTable: AnyObject, Sendable {
  /// A table of `2^bits` slots for boards of `rows` × `columns` with `k` in a row.
  init(rows: Int, columns: Int, k: Int, bits: Int)
}

extension TranspositionTable: SearchTable {
  convenience init(rows: Int, columns: Int, k: Int, bits: Int) { self.init(bits: bits) }
}

/// What proof searches of one board shape keep between searches: their table of results and
/// the pairing finder with the line patterns it has listed.
final class ProofMemory: SearchTable, @unchecked Sendable {
  let table: ProofTable
  let pairings: PairingFinder

  init(rows: Int, columns: Int, k: Int, bits: Int) {
    table = ProofTable(bits: bits)
    pairings = PairingFinder(rows: rows, columns: columns, k: k)
  }
}

/// Tables an engine keeps between its searches, one per board shape and kind of search, so
/// that consecutive moves of one game start from what earlier searches learnt.
///
/// A search borrows a table and gives it back when it is done; a search that finds no table
/// free (another thread holds it) gets a fresh one. The cache holds at most ``capacity``
/// tables, so its memory is bounded by that many of the largest tables lent (2^20 slots of
/// 24 bytes, 24 MB, each).
final class TableCache<Table: SearchTable>: Sendable {
  /// Which searches may share a table: the board shape, the kind of search and the size.
  struct Key: Hashable {
    var rows: Int
    var columns: Int
    var k: Int
    /// Searches that score or prove positions differently keep separate tables.
    var kind: Kind
    var bits: Int
  }

  /// The kinds of search, each with its own tables.
  enum Kind: Hashable {
    /// The exact search with plies (``Solver``).
    case exact
    /// The estimating search of large boards (``Explorer``).
    case estimate
    /// ``Prover`` under each of its rules.
    case proof(Prover.Rules)
  }

  static var capacity: Int { 4 }
  /// Tables above this size are never kept.
  static var largestBits: Int { 20 }

  private let tables = Mutex<[Key: Table]>([:])

  /// The table kept for `key`, taken out of the cache, or a new one.
  func borrow(_ key: Key) -> Table {
    let kept = tables.withLock { $0.removeValue(forKey: key) }
    return kept ?? Table(rows: key.rows, columns: key.columns, k: key.k, bits: key.bits)
  }

  /// Keeps `table` for later searches with `key`, making room by dropping another table.
  func giveBack(_ table: Table, for key: Key) {
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
