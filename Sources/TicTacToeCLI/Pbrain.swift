package import GameAI
package import GameRules

/// A Gomocup (Piskvork) protocol session: the brain side, one line of the manager's in, the
/// brain's lines out.
///
/// Coordinates are `x,y` with `x` the column and `y` the row, both from 0 at the top left.
/// The brain plays freestyle k in a row (five by default: five or more in a row win) on boards
/// of up to 15×15, and thinks within the time the manager allows: `timeout_turn` for a move
/// and a share of `time_left` for the rest of the match, less a reserve for reading and
/// writing.
package struct PbrainSession {
  /// What the brain is told to think with.
  package struct Limits: Equatable {
    /// Milliseconds for a move; 0 asks for the fastest move.
    package var turn: Int?
    /// Milliseconds for the whole match; 0 means none.
    package var match: Int?
    /// Milliseconds left in the match.
    package var left: Int?
    /// Bytes the brain may use; 0 means no limit.
    package var memory: Int?

    package init(turn: Int? = nil, match: Int? = nil, left: Int? = nil, memory: Int? = nil) {
      self.turn = turn
      self.match = match
      self.left = left
      self.memory = memory
    }
  }

  /// Chooses the move for the side to move of `board` within `budget`, keeping to
  /// `memoryLimit` bytes when given; a search report with it becomes a `MESSAGE` line.
  var chooseMove: (_ board: Board, _ budget: Duration, _ memoryLimit: Int?) -> ChosenMove?
  /// Gets ready to play on boards shaped like `board` within `memoryLimit` bytes, at START,
  /// which has no turn limit.
  package var prepare: (_ board: Board, _ memoryLimit: Int?) -> Void = { _, _ in }
  /// The line length to win.
  let k: Int
  /// How long a move may take when the manager says nothing.
  let defaultTurn: Duration
  package private(set) var limits = Limits()
  package private(set) var game: Game?
  /// The mark the brain plays in `game`, from its first move; `nil` before it.
  ///
  /// A `TAKEBACK` of the brain's own move leaves it to move, and the next `TURN` would
  /// otherwise play the opponent's stone with the brain's mark.
  private var brainMark: Mark?
  /// Whether `END` was received.
  package private(set) var hasEnded = false
  /// The stones of a `BOARD` command being read, as (x, y, field).
  private var boardLines: [(x: Int, y: Int, field: Int)]?
  /// Why the `BOARD` being read will be refused at its `DONE`: its first malformed line.
  private var boardRefusal: String?

  /// The bytes the brain needs whatever its tables: the program itself and the engine's
  /// smallest tables take about 35 MB at their peak (VmHWM, 15×15).
  package static let leastMemory = 40_000_000

  /// The most bytes of a line the brain reads.
  package static let maximumLineBytes = 65_536

  /// The brain's name, as `ABOUT` gives it.
  static let about =
    "name=\"pbrain-tictactoe\", version=\"\(Help.version.split(separator: " ").last ?? "")\", "
    + "author=\"TicTacToe for Linux\", country=\"-\""

  package init(
    k: Int = 5, defaultTurn: Duration = .seconds(1),
    chooseMove: @escaping (_ board: Board, _ budget: Duration, _ memoryLimit: Int?) -> ChosenMove?
  ) {
    self.k = k
    self.defaultTurn = defaultTurn
    self.chooseMove = chooseMove
  }

  /// The lines to write for one line of input (none for `INFO`, blank lines and the stones of
  /// `BOARD`).
  ///
  /// A line `isTooLong` (cut short as it was read) is refused whatever it began with; in a
  /// `BOARD`, at its `DONE`.
  package mutating func respond(to line: String, isTooLong: Bool = false) -> [String] {
    let text = line.protocolText.trimmingWhitespace()
    if isTooLong {
      let refusal = "a line is longer than \(PbrainSession.maximumLineBytes) bytes"
      guard boardLines == nil else {
        boardRefusal = boardRefusal ?? refusal
        return []
      }
      return ["ERROR \(refusal), so it was not read"]
    }
    if boardLines != nil { return boardLine(text) }
    guard !text.isEmpty else { return [] }
    let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
    let command = parts[0].uppercased()
    let argument = parts.count > 1 ? parts[1].trimmingWhitespace() : ""
    switch command {
    case "START":
      guard let size = Int(argument) else {
        // A whole number too large to hold is said to be that.
        if argument.wholeMatch(of: /[0-9]+/) != nil {
          return ["ERROR START \(argument) is too large a board; this brain plays up to 15"]
        }
        return ["ERROR START needs the board size, such as START 15"]
      }
      return start(rows: size, columns: size)
    case "RECTSTART":
      let numbers = argument.split(separator: ",").map { Int(String($0).trimmingWhitespace()) }
      guard numbers.count == 2, let width = numbers[0], let height = numbers[1] else {
        return ["ERROR RECTSTART needs width,height, such as RECTSTART 15,10"]
      }
      return start(rows: height, columns: width)
    case "RESTART":
      guard let game else { return ["ERROR no board yet; send START first"] }
      self.game = Game(start: game.start)
      brainMark = nil
      return ["OK"]
    case "BEGIN":
      guard let game else { return ["ERROR no board yet; send START first"] }
      guard game.board.markCount == 0 else {
        return ["ERROR BEGIN is for an empty board; send TURN with the opponent's move"]
      }
      return move()
    case "TURN":
      return turn(argument)
    case "BOARD":
      // Read to DONE even before START, so that the stones are not taken for commands and the
      // manager gets one answer.
      boardLines = []
      return []
    case "INFO":
      return info(argument)
    case "TAKEBACK":
      return takeBack(argument)
    case "END":
      hasEnded = true
      return []
    case "ABOUT":
      return [PbrainSession.about]
    default:
      return [
        "UNKNOWN \(command.count > 20 ? String(command.prefix(20)) + "…" : command) is not a command of this brain"
      ]
    }
  }

  /// The manager's `max_memory`, or `nil` when it gave none or 0 (no limit).
  private var memoryLimit: Int? { limits.memory.flatMap { $0 > 0 ? $0 : nil } }

  // MARK: - Commands

  private mutating func start(rows: Int, columns: Int) -> [String] {
    let sides = max(Board.minimumSide, k)...Board.maximumSide
    guard sides.contains(rows), sides.contains(columns) else {
      // A side of zero or less is no board at all, so it is not named as a size.
      let size = rows < 1 || columns < 1 ? "no board" : "unsupported size \(columns)×\(rows)"
      return [
        "ERROR \(size): this brain plays boards of \(sides.lowerBound) to \(sides.upperBound) "
          + "on each side"
      ]
    }
    guard let board = try? Board(rows: rows, columns: columns, k: k) else {
      return ["ERROR unsupported size \(columns)×\(rows)"]
    }
    game = Game(start: board)
    brainMark = nil
    prepare(board, memoryLimit)
    return ["OK"]
  }

  /// The cell of `x,y` on the current board, or why it is not one.
  private func cell(_ text: String) -> Result<Cell, PbrainError> {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
      .map { Int(String($0).trimmingWhitespace()) }
    guard numbers.count == 2, let x = numbers[0], let y = numbers[1] else {
      return .failure(PbrainError("a move is x,y, such as 7,7"))
    }
    guard let game, x >= 0, y >= 0, x < game.board.columns, y < game.board.rows else {
      return .failure(PbrainError("\(x),\(y) is off the board"))
    }
    return .success(Cell(row: y, column: x))
  }

  private mutating func turn(_ argument: String) -> [String] {
    guard let board = game?.board else { return ["ERROR no board yet; send START first"] }
    if board.markCount > 0, board.outcome == .inProgress, board.toMove == brainMark {
      return [
        "ERROR it is this brain's turn, since its last move was taken back; take back the "
          + "opponent's move too, or send BOARD"
      ]
    }
    switch cell(argument) {
    case .failure(let error): return ["ERROR \(error.message)"]
    case .success(let cell):
      do {
        try game?.play(at: cell)
      } catch {
        return ["ERROR \(argument) cannot be played: \(PbrainSession.reason(error))"]
      }
      return move()
    }
  }

  private static func reason(_ error: MoveError) -> String {
    switch error {
    case .occupied: "the point is taken"
    case .outOfBounds: "the point is off the board"
    case .gameOver: "the game is over"
    }
  }

  /// The brain's move on the current board, played into the game.
  private mutating func move() -> [String] {
    guard let board = game?.board else { return ["ERROR no board yet; send START first"] }
    guard board.outcome == .inProgress else { return ["ERROR the game is over"] }
    let budget = PbrainSession.budget(
      limits, default: defaultTurn, emptyCells: board.emptyCells.count)
    let memory = memoryLimit
    let clock = ContinuousClock()
    let start = clock.now
    guard let chosen = chooseMove(board, budget, memory),
      (try? game?.play(at: chosen.cell)) != nil
    else { return ["ERROR no move found"] }
    brainMark = board.toMove
    let elapsed = clock.now - start
    var lines = ["DEBUG budget \(PbrainSession.milliseconds(budget)) ms"]
    if let search = chosen.search {
      lines.append("MESSAGE " + PbrainSession.message(search, elapsed: elapsed))
    }
    return lines + ["\(chosen.cell.column),\(chosen.cell.row)"]
  }

  /// What a manager's log shows of a search: `depth 12 | eval +35 | nodes 812345 | 431 ms`,
  /// with `eval win in 2` or `eval loss in at most 8` where the result is proven (a forced line
  /// the search found, perhaps not the fastest).
  package static func message(_ search: SearchReport, elapsed: Duration) -> String {
    let value =
      search.estimate.map { $0 > 0 ? "+\($0)" : "\($0)" } ?? search.evaluation.description
    return
      "depth \(search.depth) | eval \(value) | nodes \(search.nodes) | \(milliseconds(elapsed)) ms"
  }

  private mutating func boardLine(_ text: String) -> [String] {
    if text.uppercased() == "END" {
      boardLines = nil
      boardRefusal = nil
      hasEnded = true
      return []
    }
    if text.uppercased() == "DONE" {
      let stones = boardLines ?? []
      boardLines = nil
      guard game != nil else {
        boardRefusal = nil
        return ["ERROR no board yet; send START first"]
      }
      if let refusal = boardRefusal {
        boardRefusal = nil
        return ["ERROR \(refusal); the board is left as it was"]
      }
      return setUp(stones)
    }
    let numbers = text.split(separator: ",").map { Int(String($0).trimmingWhitespace()) }
    guard numbers.count == 3, let x = numbers[0], let y = numbers[1], let field = numbers[2]
    else {
      // Read on to DONE, so that the lines after it are not taken for commands and the
      // manager gets one answer to the BOARD.
      let shown = text.count > 20 ? String(text.prefix(20)) + "…" : text
      boardRefusal =
        boardRefusal ?? "\"\(shown)\" is not a BOARD line, which is x,y,field such as 7,7,1"
      return []
    }
    boardLines?.append((x, y, field))
    return []
  }

  /// Sets up the position of a `BOARD` command and answers with the brain's move.
  private mutating func setUp(_ stones: [(x: Int, y: Int, field: Int)]) -> [String] {
    guard let start = game?.start else { return ["ERROR no board yet; send START first"] }
    guard stones.allSatisfy({ $0.field == 1 || $0.field == 2 }) else {
      return ["ERROR only fields 1 (own) and 2 (opponent) are supported; the board is unchanged"]
    }
    if let off = stones.first(where: {
      $0.x < 0 || $0.y < 0 || $0.x >= start.columns || $0.y >= start.rows
    }) {
      return ["ERROR \(off.x),\(off.y) is off the board; the board is unchanged"]
    }
    var seen: Set<[Int]> = []
    for stone in stones where !seen.insert([stone.x, stone.y]).inserted {
      return ["ERROR \(stone.x),\(stone.y) is given twice; the board is unchanged"]
    }
    let own = stones.filter { $0.field == 1 }
    let theirs = stones.filter { $0.field == 2 }
    // The brain is to move: it moved first when the counts are equal.
    guard own.count == theirs.count || theirs.count == own.count + 1 else {
      return [
        "ERROR \(own.count) own and \(theirs.count) opponent's stones cannot be a position with "
          + "this brain to move; the board is unchanged"
      ]
    }
    let (first, second) = own.count == theirs.count ? (own, theirs) : (theirs, own)
    var position = Game(start: start)
    for index in 0..<first.count + second.count {
      let stone = index.isMultiple(of: 2) ? first[index / 2] : second[index / 2]
      do {
        try position.play(at: Cell(row: stone.y, column: stone.x))
      } catch {
        return [
          "ERROR \(stone.x),\(stone.y) cannot be played: \(PbrainSession.reason(error)); "
            + "the board is unchanged"
        ]
      }
    }
    game = position
    brainMark = position.board.toMove
    return move()
  }

  private mutating func info(_ argument: String) -> [String] {
    let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
    guard let key = parts.first?.lowercased() else { return [] }
    let value = parts.count > 1 ? Int(parts[1].trimmingWhitespace()) : nil
    let units = [
      "timeout_turn": "milliseconds", "timeout_match": "milliseconds",
      "time_left": "milliseconds", "max_memory": "bytes",
    ]
    let text = parts.count > 1 ? parts[1].trimmingWhitespace() : ""
    // A whole number too large to hold is said to be that, not "not a whole number".
    if units[key] != nil || key == "rule", value == nil, text.wholeMatch(of: /-?[0-9]+/) != nil {
      return ["ERROR INFO \(key) \(text.quotable) is too large; the setting is left as it was"]
    }
    if let unit = units[key], value == nil {
      return [
        "ERROR INFO \(key) needs a whole number of \(unit), such as INFO \(key) 5000; "
          + "the setting is left as it was"
      ]
    }
    // What 0 means differs: the fastest move for a turn, no limit for a match.
    let zero = ["timeout_turn": "0 asks for the fastest move", "timeout_match": "0 means no limit"]
    if let meaning = zero[key], let value, value < 0 {
      return [
        "ERROR INFO \(key) \(value) is not a time (\(meaning)); the setting is left as it was"
      ]
    }
    switch key {
    case "timeout_turn": limits.turn = value
    case "timeout_match": limits.match = value
    // A manager tells a brain over its match time so: none is left.
    case "time_left": limits.left = value.map { max(0, $0) }
    case "max_memory":
      if let value, value < 0 {
        return [
          "ERROR max_memory \(value) is not a number of bytes (0 means no limit); the setting "
            + "is left as it was"
        ]
      }
      limits.memory = value
      // Managers send it after START: the tables are made for it now, not in the first move.
      if let game { prepare(game.board, memoryLimit) }
      if let value, value > 0, value < PbrainSession.leastMemory {
        return [
          "ERROR max_memory \(value) is less than the \(PbrainSession.leastMemory / 1_000_000) MB "
            + "this brain needs; it plays on in as little as it can"
        ]
      }
    case "rule":
      guard let value else { return ["ERROR INFO rule needs a number"] }
      guard value >= 0 else {
        return [
          "ERROR rule \(value) is not a Gomocup rule (a sum of 1, 2, 4 and 8); this brain plays "
            + "freestyle, rule 0"
        ]
      }
      guard value == 0 else {
        return ["ERROR rule \(value) is not supported: \(PbrainSession.ruleReason(value))"]
      }
    default:
      // game_type, folder, evaluate and keys of later versions need no answer.
      break
    }
    return []
  }

  private static func ruleReason(_ rule: Int) -> String {
    var names: [String] = []
    if rule & 1 != 0 { names.append("exactly five (overlines do not win)") }
    if rule & 2 != 0 { names.append("a continuous game") }
    if rule & 4 != 0 { names.append("renju") }
    if rule & 8 != 0 { names.append("caro") }
    let asked = names.isEmpty ? "that rule" : names.joined(separator: " and ")
    return "this brain plays only freestyle (rule 0: five or more in a row win), not \(asked)"
  }

  private mutating func takeBack(_ argument: String) -> [String] {
    guard let current = game else { return ["ERROR no board yet; send START first"] }
    switch cell(argument) {
    case .failure(let error): return ["ERROR \(error.message)"]
    case .success(let cell):
      guard let last = current.moves.last else {
        return ["ERROR there is no move to take back"]
      }
      guard last == cell else {
        return ["ERROR only the last move can be taken back, and \(argument) is not it"]
      }
      _ = game?.undo()
      return ["OK"]
    }
  }

  // MARK: - Time

  /// The time to think for a move: the turn's limit, or a share of the match's time left
  /// when that is smaller, less a reserve for reading, writing and stopping the search.
  package static func budget(_ limits: Limits, default turn: Duration, emptyCells: Int)
    -> Duration
  {
    var limit = limits.turn.map { Duration.milliseconds($0) } ?? turn
    if limits.turn == 0 { limit = .milliseconds(20) }
    // Before the manager says what is left, the whole match is.
    if let left = limits.left ?? limits.match, limits.match != 0 {
      // Spread what is left over the moves that may still come, at most half a board.
      let moves = max(6, emptyCells / 4)
      limit = min(limit, .milliseconds(max(0, left) / moves))
    }
    let reserve = min(limit * 0.1, .milliseconds(60)) + .milliseconds(5)
    return max(.milliseconds(1), limit - reserve)
  }

  package static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}

/// Why a line of the protocol was refused.
struct PbrainError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
