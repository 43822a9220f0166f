import Console
import GameRules

/// A Go Text Protocol (version 2) session: one command line in, one response out.
///
/// The engine plays on square boards of 3 to 15 with `k` in a row. Vertices are written as GTP
/// writes them: a column letter from `A`, skipping `I`, then the row counted from the bottom,
/// so `A1` is the bottom-left corner. X moves first, like black in Go.
struct GTPSession {
  /// Chooses the move for the side to move, or returns `nil` when the game is over.
  var chooseMove: (Board) -> Cell?
  /// The line length for every board of the session.
  let k: Int?
  /// The empty board of the current size.
  private(set) var start: Board
  /// The stones played, in order.
  ///
  /// GTP lets either colour play at any time, so the stones need not alternate.
  private(set) var stones: [(mark: Mark, cell: Cell)] = []
  /// Whether `quit` was received.
  private(set) var hasQuit = false

  /// Every command the session knows, as `list_commands` prints them.
  static let commands = [
    "protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
    "clear_board", "komi", "play", "genmove", "undo", "showboard", "quit",
  ]

  /// Starts a session on an empty board: 3×3 for three in a row, else 15×15.
  init(k: Int?, chooseMove: @escaping (Board) -> Cell?) throws(BoardError) {
    self.k = k
    self.chooseMove = chooseMove
    let side = (k ?? 3) == 3 ? 3 : Board.maximumSide
    start = try Board(rows: side, columns: side, k: k ?? 3)
  }

  /// The position of the stones with `mark` to move, when the rules can hold it: the stones
  /// of each colour are played alternately in their order, the side with more (or `mark`,
  /// when equal) first.
  func position(toMove mark: Mark?) -> Board? {
    let xs = stones.filter { $0.mark == .x }.map(\.cell)
    let os = stones.filter { $0.mark == .o }.map(\.cell)
    let first: Mark
    switch xs.count - os.count {
    case 0: first = mark ?? stones.first?.mark ?? .x
    case 1: first = .x
    case -1: first = .o
    default: return nil
    }
    if let mark, xs.count != os.count, first == mark { return nil }
    guard
      var board = try? Board(
        rows: start.rows, columns: start.columns, k: start.k, firstMover: first)
    else { return nil }
    let (leading, trailing) = first == .x ? (xs, os) : (os, xs)
    for index in 0..<xs.count + os.count {
      let cell = index.isMultiple(of: 2) ? leading[index / 2] : trailing[index / 2]
      guard (try? board.play(at: cell)) != nil else { return nil }
    }
    return board
  }

  /// The mark on each occupied cell.
  private var marks: [Cell: Mark] {
    Dictionary(stones.map { ($0.cell, $0.mark) }, uniquingKeysWith: { first, _ in first })
  }

  /// The colour with a line of `k`, if any.
  var winner: Mark? {
    let marks = self.marks
    for (cell, mark) in marks {
      for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        var length = 1
        var next = Cell(row: cell.row + dr, column: cell.column + dc)
        while marks[next] == mark {
          length += 1
          next = Cell(row: next.row + dr, column: next.column + dc)
        }
        if length >= start.k { return mark }
      }
    }
    return nil
  }

  /// Whether a colour has a line of `k` or the board is full.
  var isOver: Bool { stones.count == start.cellCount || winner != nil }

  /// Answers one line of input, or returns `nil` for a line with no command.
  ///
  /// A line `isTooLong` (cut short as it was read) is refused whatever it began with, even
  /// spaces or control characters alone: what was not read may hold a command.
  mutating func respond(to line: String, isTooLong: Bool = false) -> String? {
    var text = line.protocolText
    if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
    var words = text.split(separator: " ").map(String.init)
    guard !words.isEmpty || isTooLong else { return nil }
    var id = ""
    if let first = words.first, let number = Int(first), number >= 0 {
      id = words.removeFirst()
      guard !words.isEmpty || isTooLong else { return "?\(id) missing command\n\n" }
    }
    guard !isTooLong else {
      return "?\(id) the line is longer than \(LineReader.commandLineBytes) bytes\n\n"
    }
    switch execute(words[0], Array(words.dropFirst())) {
    case .success(let answer): return "=\(id)\(answer.isEmpty ? "" : " " + answer)\n\n"
    case .failure(let error): return "?\(id) \(error.message)\n\n"
    }
  }

  private struct GTPError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  private mutating func execute(
    _ command: String, _ arguments: [String]
  ) -> Result<String, GTPError> {
    switch command {
    case "protocol_version": return .success("2")
    case "name": return .success("tictactoe")
    case "version": return .success(Help.version.split(separator: " ").last.map(String.init) ?? "")
    case "known_command":
      return .success(GTPSession.commands.contains(arguments.first ?? "") ? "true" : "false")
    case "list_commands": return .success(GTPSession.commands.joined(separator: "\n"))
    case "boardsize": return boardSize(arguments)
    case "clear_board":
      stones = []
      return .success("")
    case "komi":
      // Controllers set it for every game; k in a row has no komi, so it changes nothing.
      // A decimal number, with a sign.
      let digits = arguments.first.map {
        $0.hasPrefix("-") || $0.hasPrefix("+") ? $0.dropFirst() : $0[...]
      }
      guard arguments.count == 1, let digits, Double(decimal: digits) != nil else {
        return .failure(GTPError("komi not a float"))
      }
      return .success("")
    case "play": return play(arguments)
    case "genmove": return generateMove(arguments)
    case "undo":
      guard !stones.isEmpty else { return .failure(GTPError("cannot undo")) }
      stones.removeLast()
      return .success("")
    case "showboard": return .success("\n" + showBoard())
    case "quit":
      hasQuit = true
      return .success("")
    default: return .failure(GTPError("unknown command"))
    }
  }

  private mutating func boardSize(_ arguments: [String]) -> Result<String, GTPError> {
    guard arguments.count == 1, let size = Int(arguments[0]) else {
      return .failure(GTPError("boardsize not an integer"))
    }
    let k = self.k ?? Board.defaultK(rows: size, columns: size)
    let sides = max(Board.minimumSide, self.k ?? 0)...Board.maximumSide
    guard sides.contains(size), let board = try? Board(rows: size, columns: size, k: k) else {
      let rule = self.k.map { "with \($0) in a row " } ?? ""
      return .failure(
        GTPError(
          "unacceptable size: \(rule)the board is \(sides.lowerBound) to "
            + "\(sides.upperBound) on a side"))
    }
    start = board
    stones = []
    return .success("")
  }

  private func mark(_ text: String) -> Mark? {
    switch text.lowercased() {
    case "x", "b", "black": .x
    case "o", "w", "white": .o
    default: nil
    }
  }

  private mutating func play(_ arguments: [String]) -> Result<String, GTPError> {
    guard arguments.count == 2, let mark = mark(arguments[0]) else {
      return .failure(GTPError("invalid color or coordinate"))
    }
    // A controller passes on the other engine's pass, as genmove answers once the game is
    // over; it places no stone.
    if arguments[1].lowercased() == "pass" { return .success("") }
    guard let cell = cell(arguments[1]) else { return .failure(GTPError("invalid coordinate")) }
    guard marks[cell] == nil else {
      return .failure(GTPError("illegal move: the point is occupied"))
    }
    guard !isOver else { return .failure(GTPError("illegal move: the game is over")) }
    stones.append((mark, cell))
    return .success("")
  }

  private mutating func generateMove(_ arguments: [String]) -> Result<String, GTPError> {
    guard arguments.count == 1, let mark = mark(arguments[0]) else {
      return .failure(GTPError("invalid color"))
    }
    if isOver { return .success("pass") }
    guard let board = position(toMove: mark) else {
      let own = stones.count { $0.mark == mark }
      let other = stones.count - own
      func counted(_ count: Int) -> String { count == 1 ? "1 stone" : "\(count) stones" }
      // Passes, or one colour played twice, may have left it two ahead already, whoever moves;
      // else the move would put `mark` two ahead.
      guard abs(own - other) < 2 else {
        let (x, o) = mark == .x ? (own, other) : (other, own)
        return .failure(
          GTPError(
            "cannot move for \(mark.symbol): X has \(counted(x)) to O's \(o), and this engine "
              + "reads only positions where the colours took turns"))
      }
      let reason =
        own > other
        ? "it has \(counted(own)) to \(mark.opponent.symbol)'s \(other)"
        : "\(mark.opponent.symbol) has \(counted(other)) to its \(own)"
      return .failure(
        GTPError(
          "cannot move for \(mark.symbol): \(reason), and a side may lead by one stone at most"))
    }
    guard let cell = chooseMove(board) else { return .success("pass") }
    stones.append((mark, cell))
    return .success(vertex(cell))
  }

  /// The column letters GTP uses: the alphabet without `I`.
  private static let letters = Array("ABCDEFGHJKLMNOPQRSTUVWXYZ")

  /// Parses a vertex such as `C3` on the current board.
  func cell(_ text: String) -> Cell? {
    let upper = Array(text.uppercased())
    guard let letter = upper.first, let column = GTPSession.letters.firstIndex(of: letter),
      let number = Int(String(upper.dropFirst())), upper.count <= 3,
      number >= 1, number <= start.rows, column < start.columns
    else { return nil }
    return Cell(row: start.rows - number, column: column)
  }

  /// The vertex of a cell on the current board.
  func vertex(_ cell: Cell) -> String {
    "\(GTPSession.letters[cell.column])\(start.rows - cell.row)"
  }

  /// The board as text with GTP coordinates, the top row first.
  func showBoard() -> String {
    let marks = self.marks
    let header =
      "   " + GTPSession.letters.prefix(start.columns).map(String.init).joined(separator: " ")
    var lines = [header]
    for row in 0..<start.rows {
      let number = start.rows - row
      let label = number < 10 ? " \(number)" : "\(number)"
      let cells = (0..<start.columns).map { marks[Cell(row: row, column: $0)]?.symbol ?? "." }
      lines.append("\(label) \(cells.joined(separator: " ")) \(number)")
    }
    lines.append(header)
    if let winner {
      lines.append("\(winner.symbol) has won")
    } else if isOver {
      lines.append("drawn")
    } else if let board = position(toMove: nil) {
      lines.append("\(board.toMove.symbol) to move, k = \(start.k)")
    } else {
      lines.append("k = \(start.k)")
    }
    return lines.joined(separator: "\n")
  }
}
