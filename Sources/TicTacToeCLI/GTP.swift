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
  private(set) var game: Game
  /// Whether `quit` was received.
  private(set) var hasQuit = false

  /// Every command the session knows, as `list_commands` prints them.
  static let commands = [
    "protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
    "clear_board", "play", "genmove", "undo", "showboard", "quit",
  ]

  /// Starts a session on an empty board: 3×3 for three in a row, else 15×15.
  init(k: Int?, chooseMove: @escaping (Board) -> Cell?) throws(BoardError) {
    self.k = k
    self.chooseMove = chooseMove
    let side = (k ?? 3) == 3 ? 3 : Board.maximumSide
    game = Game(start: try Board(rows: side, columns: side, k: k ?? 3))
  }

  /// Answers one line of input, or returns `nil` for a line with no command.
  mutating func respond(to line: String) -> String? {
    var text = String(
      line.unicodeScalars.compactMap { scalar -> Character? in
        if scalar == "\t" { return " " }
        return scalar.value < 32 || scalar.value == 127 ? nil : Character(scalar)
      })
    if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
    var words = text.split(separator: " ").map(String.init)
    guard !words.isEmpty else { return nil }
    var id = ""
    if let number = Int(words[0]), number >= 0 {
      id = words.removeFirst()
      guard !words.isEmpty else { return "?\(id) missing command\n\n" }
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
      game = Game(start: game.start)
      return .success("")
    case "play": return play(arguments)
    case "genmove": return generateMove(arguments)
    case "undo":
      guard game.undo() != nil else { return .failure(GTPError("cannot undo")) }
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
    guard
      let board = try? Board(
        rows: size, columns: size, k: k ?? Board.defaultK(rows: size, columns: size))
    else { return .failure(GTPError("unacceptable size")) }
    game = Game(start: board)
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
    guard let cell = cell(arguments[1]) else { return .failure(GTPError("invalid coordinate")) }
    guard mark == game.board.toMove else {
      return .failure(GTPError("illegal move: it is \(game.board.toMove.symbol)'s turn"))
    }
    do {
      try game.play(at: cell)
      return .success("")
    } catch {
      return .failure(GTPError("illegal move: \(description(error))"))
    }
  }

  private func description(_ error: MoveError) -> String {
    switch error {
    case .occupied: "the point is occupied"
    case .outOfBounds: "the point is off the board"
    case .gameOver: "the game is over"
    }
  }

  private mutating func generateMove(_ arguments: [String]) -> Result<String, GTPError> {
    guard arguments.count == 1, let mark = mark(arguments[0]) else {
      return .failure(GTPError("invalid color"))
    }
    guard !game.board.outcome.isOver else { return .failure(GTPError("the game is over")) }
    guard mark == game.board.toMove else {
      return .failure(GTPError("it is \(game.board.toMove.symbol)'s turn"))
    }
    guard let cell = chooseMove(game.board), (try? game.play(at: cell)) != nil else {
      return .failure(GTPError("no move"))
    }
    return .success(vertex(cell))
  }

  /// The column letters GTP uses: the alphabet without `I`.
  private static let letters = Array("ABCDEFGHJKLMNOPQRSTUVWXYZ")

  /// Parses a vertex such as `C3` on the current board.
  func cell(_ text: String) -> Cell? {
    let upper = Array(text.uppercased())
    guard let letter = upper.first, let column = GTPSession.letters.firstIndex(of: letter),
      let number = Int(String(upper.dropFirst())), upper.count <= 3,
      number >= 1, number <= game.board.rows, column < game.board.columns
    else { return nil }
    return Cell(row: game.board.rows - number, column: column)
  }

  /// The vertex of a cell on the current board.
  func vertex(_ cell: Cell) -> String {
    "\(GTPSession.letters[cell.column])\(game.board.rows - cell.row)"
  }

  /// The board as text with GTP coordinates, the top row first.
  func showBoard() -> String {
    let board = game.board
    let header =
      "   " + GTPSession.letters.prefix(board.columns).map(String.init).joined(separator: " ")
    var lines = [header]
    for row in 0..<board.rows {
      let number = board.rows - row
      let label = number < 10 ? " \(number)" : "\(number)"
      let cells = (0..<board.columns).map { board[row, $0]?.symbol ?? "." }
      lines.append("\(label) \(cells.joined(separator: " ")) \(number)")
    }
    lines.append(header)
    switch board.outcome {
    case .inProgress: lines.append("\(board.toMove.symbol) to move, k = \(board.k)")
    case .win(let mark, _): lines.append("\(mark.symbol) has won")
    case .draw: lines.append("drawn")
    }
    return lines.joined(separator: "\n")
  }
}
