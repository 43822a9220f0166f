/// A rows × columns board on which `k` or more marks in a row win.
///
/// `Board` is a value: ``playing(at:)`` returns a new board and ``play(at:)`` is its mutating
/// twin. The side to move follows from the marks on the board and who moved first; the outcome
/// is kept up to date after every move.
public struct Board: Hashable, Sendable, CustomStringConvertible {
  /// The smallest number of rows or columns.
  public static let minimumSide = 3
  /// The largest number of rows or columns.
  public static let maximumSide = 15

  /// The classic empty 3×3 board with three in a row.
  public static let classic = Board(validRows: 3, columns: 3, k: 3, firstMover: .x)

  /// The number of rows.
  public let rows: Int
  /// The number of columns.
  public let columns: Int
  /// How many marks in a row win.
  public let k: Int
  /// Who made (or makes) the first move.
  public let firstMover: Mark
  private var marks: [Mark?]
  /// The state of the game on this board.
  public private(set) var outcome: Outcome

  /// Creates an empty board.
  ///
  /// - Throws: ``BoardError`` when a side is outside 3…15 or `k` is outside 3 and the longer
  ///   side.
  public init(rows: Int = 3, columns: Int = 3, k: Int = 3, firstMover: Mark = .x)
    throws(BoardError)
  {
    try Board.validate(rows: rows, columns: columns, k: k)
    self.init(validRows: rows, columns: columns, k: k, firstMover: firstMover)
  }

  /// Creates an empty square board of side `size` with the default line length for that size.
  public init(size: Int) throws(BoardError) {
    try self.init(rows: size, columns: size, k: Board.defaultK(rows: size, columns: size))
  }

  private init(validRows rows: Int, columns: Int, k: Int, firstMover: Mark) {
    self.rows = rows
    self.columns = columns
    self.k = k
    self.firstMover = firstMover
    marks = Array(repeating: nil, count: rows * columns)
    outcome = .inProgress
  }

  /// Checks that a board of these dimensions is supported.
  ///
  /// - Throws: ``BoardError`` describing the first problem.
  public static func validate(rows: Int, columns: Int, k: Int) throws(BoardError) {
    guard (minimumSide...maximumSide).contains(rows), (minimumSide...maximumSide).contains(columns)
    else { throw .sizeOutOfRange(rows: rows, columns: columns) }
    guard kRange(rows: rows, columns: columns).contains(k) else {
      throw .lineLengthOutOfRange(k: k, rows: rows, columns: columns)
    }
  }

  /// The shortest line that may win on any board.
  public static let minimumK = 3

  /// The line lengths a board of these dimensions allows: 3 up to its longer side.
  public static func kRange(rows: Int, columns: Int) -> ClosedRange<Int> {
    minimumK...max(minimumK, rows, columns)
  }

  /// The line length used when none is given: the shorter side, but at most five.
  public static func defaultK(rows: Int, columns: Int) -> Int { min(rows, columns, 5) }

  // MARK: - Reading the board

  /// The mark in `cell`, or `nil` when it is empty or off the board.
  public subscript(cell: Cell) -> Mark? {
    contains(cell) ? marks[index(of: cell)] : nil
  }

  /// The mark at a zero-based row and column, or `nil` when empty or off the board.
  public subscript(row: Int, column: Int) -> Mark? { self[Cell(row: row, column: column)] }

  /// Whether `cell` lies on the board.
  public func contains(_ cell: Cell) -> Bool {
    cell.row >= 0 && cell.row < rows && cell.column >= 0 && cell.column < columns
  }

  /// Every cell in reading order: left to right, top to bottom.
  public var cells: [Cell] {
    (0..<rows).flatMap { row in (0..<columns).map { Cell(row: row, column: $0) } }
  }

  /// The empty cells in reading order.
  ///
  /// - Complexity: O(rows × columns).
  public var emptyCells: [Cell] { cells.filter { self[$0] == nil } }

  /// The number of cells.
  public var cellCount: Int { rows * columns }

  /// How many marks are on the board.
  public var markCount: Int { marks.count { $0 != nil } }

  /// How many of `mark` are on the board.
  public func count(of mark: Mark) -> Int { marks.count { $0 == mark } }

  /// Whether every cell holds a mark.
  public var isFull: Bool { !marks.contains(nil) }

  /// Whether nobody has played yet.
  public var isEmpty: Bool { !marks.contains { $0 != nil } }

  /// The side whose turn it is (also on a finished board: the side that would move next).
  public var toMove: Mark { markCount.isMultiple(of: 2) ? firstMover : firstMover.opponent }

  /// Whether the side to move may play in `cell`.
  package func isLegal(_ cell: Cell) -> Bool {
    outcome == .inProgress && contains(cell) && self[cell] == nil
  }

  // MARK: - Playing

  /// Places the side to move's mark in `cell`.
  ///
  /// - Throws: ``MoveError`` when the game is over, the cell is off the board or taken; the
  ///   board is then unchanged.
  /// - Complexity: O(k).
  public mutating func play(at cell: Cell) throws(MoveError) {
    guard outcome == .inProgress else { throw .gameOver }
    guard contains(cell) else { throw .outOfBounds(cell) }
    guard self[cell] == nil else { throw .occupied(cell) }
    let mark = toMove
    marks[index(of: cell)] = mark
    if let line = longestLine(through: cell, for: mark), line.count >= k {
      outcome = .win(mark, line: line)
    } else if isFull {
      outcome = .draw
    }
  }

  /// Returns the board after the side to move plays in `cell`.
  ///
  /// - Throws: ``MoveError`` when the move is illegal.
  public func playing(at cell: Cell) throws(MoveError) -> Board {
    var next = self
    try next.play(at: cell)
    return next
  }

  /// Returns the board with `cell` emptied and the outcome recomputed.
  ///
  /// - Complexity: O(rows × columns × k).
  public func removing(_ cell: Cell) -> Board {
    var copy = self
    guard contains(cell) else { return copy }
    copy.marks[index(of: cell)] = nil
    copy.outcome = copy.evaluatedOutcome()
    return copy
  }

  // MARK: - Lines

  /// The four directions a line can run in: across, down, and both diagonals.
  static let directions = [(0, 1), (1, 0), (1, 1), (1, -1)]

  /// The longest run of `mark` through `cell`, in order, across the four directions.
  private func longestLine(through cell: Cell, for mark: Mark) -> [Cell]? {
    var best: [Cell]?
    for (dr, dc) in Board.directions {
      var start = cell
      while self[start.row - dr, start.column - dc] == mark {
        start = Cell(row: start.row - dr, column: start.column - dc)
      }
      var line: [Cell] = []
      var current = start
      while self[current] == mark {
        line.append(current)
        current = Cell(row: current.row + dr, column: current.column + dc)
      }
      if line.count > best?.count ?? 0 { best = line }
    }
    return best
  }

  /// Every maximal run of `k` or more of `mark`.
  ///
  /// - Complexity: O(rows × columns).
  public func lines(of mark: Mark) -> [[Cell]] {
    var result: [[Cell]] = []
    for (dr, dc) in Board.directions {
      for cell in cells where self[cell] == mark {
        // Start only at the first cell of a run so each run is reported once.
        guard self[cell.row - dr, cell.column - dc] != mark else { continue }
        var line: [Cell] = []
        var current = cell
        while self[current] == mark {
          line.append(current)
          current = Cell(row: current.row + dr, column: current.column + dc)
        }
        if line.count >= k { result.append(line) }
      }
    }
    return result
  }

  /// The outcome found by scanning the whole board.
  private func evaluatedOutcome() -> Outcome {
    for mark in Mark.allCases {
      if let line = lines(of: mark).first { return .win(mark, line: line) }
    }
    return isFull ? .draw : .inProgress
  }

  private func index(of cell: Cell) -> Int { cell.row * columns + cell.column }

  // MARK: - Notation

  /// Reads a position in text notation, such as `x.o/.x./..o`.
  ///
  /// Rows run top to bottom separated by `/`, each cell `x`, `o` or `.` in any case. X is taken
  /// to have moved first.
  ///
  /// - Parameters:
  ///   - notation: The position.
  ///   - k: The line length; when `nil`, ``defaultK(rows:columns:)``.
  /// - Throws: ``NotationError`` saying why the text is malformed or the position unreachable.
  public init(notation: String, k: Int? = nil) throws(NotationError) {
    let text = notation.filter { !$0.isWhitespace }
    guard !text.isEmpty else { throw .empty }
    let rowTexts = text.split(separator: "/", omittingEmptySubsequences: false)
    let width = rowTexts[0].count
    var parsed: [Mark?] = []
    for (rowIndex, rowText) in rowTexts.enumerated() {
      guard rowText.count == width else {
        throw .raggedRows(row: rowIndex + 1, expected: width, found: rowText.count)
      }
      for (columnIndex, character) in rowText.enumerated() {
        switch character {
        case "x", "X": parsed.append(.x)
        case "o", "O": parsed.append(.o)
        case ".": parsed.append(nil)
        default:
          throw .badCharacter(character, row: rowIndex + 1, column: columnIndex + 1)
        }
      }
    }
    let rows = rowTexts.count
    let lineLength = k ?? Board.defaultK(rows: rows, columns: width)
    do {
      try Board.validate(rows: rows, columns: width, k: lineLength)
    } catch {
      throw .board(error)
    }
    var board = Board(validRows: rows, columns: width, k: lineLength, firstMover: .x)
    board.marks = parsed
    try board.checkReachable()
    board.outcome = board.evaluatedOutcome()
    self = board
  }

  /// The position in text notation, lowercase, such as `x.o/.x./..o`.
  public var notation: String {
    (0..<rows).map { row in
      String(
        (0..<columns).map { column in
          switch self[row, column] {
          case .x: "x"
          case .o: "o"
          case nil: "."
          }
        })
    }.joined(separator: "/")
  }

  public var description: String { notation }

  /// Checks that the marks could arise in a game with X moving first.
  ///
  /// Counts must fit alternate play; at most one side may have a line; if one does, it moved
  /// last, and some cell of its lies on all of its winning runs, so one move completed them all.
  private func checkReachable() throws(NotationError) {
    let xs = count(of: .x)
    let os = count(of: .o)
    guard xs == os || xs == os + 1 else { throw .impossibleCounts(x: xs, o: os) }
    let xLines = lines(of: .x)
    let oLines = lines(of: .o)
    if !xLines.isEmpty && !oLines.isEmpty { throw .bothSidesWin }
    for (mark, winning) in [(Mark.x, xLines), (.o, oLines)] where !winning.isEmpty {
      let movedLast = mark == .x ? xs == os + 1 : xs == os
      guard movedLast else { throw .playedAfterWin(mark) }
      let completesAll = cells.contains { cell in
        self[cell] == mark && removing(cell).lines(of: mark).isEmpty
      }
      guard completesAll else { throw .tooManyLines(mark) }
    }
  }
}

// MARK: - Symmetry

extension Board {
  /// The board with every mark moved by `symmetry`.
  ///
  /// - Precondition: `symmetry` preserves this board's shape.
  public func transformed(by symmetry: Symmetry) -> Board {
    precondition(symmetry.isShapePreserving(rows: rows, columns: columns), "shape changes")
    var result = self
    for cell in cells {
      result.marks[index(of: symmetry.apply(to: cell, rows: rows, columns: columns))] = self[cell]
    }
    result.outcome = result.evaluatedOutcome()
    return result
  }
}
