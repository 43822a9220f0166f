import GameAI
import GameRules
import Testing

struct EnumerationTests {
  @Test func classicBoardHasTheKnownPositionCounts() throws {
    let counts = try Enumeration.count(.classic)
    #expect(counts.positions == 5_478)
    #expect(counts.positionsByMarks == [1, 9, 72, 252, 756, 1_260, 1_520, 1_140, 390, 78])
    #expect(counts.positionsUpToSymmetry == 765)
    #expect(counts.terminalPositions == 958)
    #expect(counts.xWinPositions == 626)
    #expect(counts.oWinPositions == 316)
    #expect(counts.drawPositions == 16)
  }

  @Test func classicBoardHasTheKnownGameCounts() throws {
    let counts = try Enumeration.count(.classic)
    #expect(counts.games == 255_168)
    #expect(counts.xWinGames == 131_184)
    #expect(counts.oWinGames == 77_904)
    #expect(counts.drawGames == 46_080)
  }

  @Test func countOnThreeByFourAgreesWithBruteForce() throws {
    let start = try Board(rows: 3, columns: 4, k: 3)
    let counts = try Enumeration.count(start)
    var brute = BruteForceCounter(rows: 3, columns: 4, k: 3)
    brute.walk()
    #expect(counts.positions == brute.positions.count)
    #expect(counts.positionsByMarks == brute.positionsByMarks)
    #expect(counts.terminalPositions == brute.terminal.count)
    #expect(counts.xWinPositions == brute.terminal.values.count { $0 == "x" })
    #expect(counts.oWinPositions == brute.terminal.values.count { $0 == "o" })
    #expect(counts.drawPositions == brute.terminal.values.count { $0 == "-" })
    #expect(counts.games == brute.games.x + brute.games.o + brute.games.draw)
    #expect(counts.xWinGames == brute.games.x)
    #expect(counts.oWinGames == brute.games.o)
    #expect(counts.drawGames == brute.games.draw)
  }

  @Test func boardsOfMoreThanSixteenCellsAreRefused() throws {
    let large = try Board(rows: 5, columns: 4, k: 4)
    #expect(throws: EnumerationError.tooLarge(rows: 5, columns: 4)) {
      try Enumeration.count(large)
    }
    #expect(
      EnumerationError.tooLarge(rows: 5, columns: 4).description
        == "A 5×4 board is too large to count; counting works on boards of up to 16 cells.")
  }

  @Test func countingStartsFromTheGivenPosition() throws {
    let counts = try Enumeration.count(try board("xo./.x./..."))
    // O to move with five empty cells: the count must include the start and stop at wins.
    #expect(counts.positions > 1)
    #expect(counts.positionsByMarks[3] == 1)
    #expect(counts.positionsByMarks[..<3].allSatisfy { $0 == 0 })
  }
}

/// Counts positions and games by walking the game tree over plain arrays, with its own lines.
private struct BruteForceCounter {
  let rows: Int
  let columns: Int
  let lines: [[Int]]
  /// Every reachable position, as a string of `x`, `o` and `.`.
  var positions: Set<String> = []
  /// Finished positions and who won (`x`, `o`, or `-` for a draw).
  var terminal: [String: Character] = [:]
  var positionsByMarks: [Int]
  /// Games from each position to the end, by result.
  private var gamesFrom: [String: (x: Int, o: Int, draw: Int)] = [:]
  var games = (x: 0, o: 0, draw: 0)

  init(rows: Int, columns: Int, k: Int) {
    self.rows = rows
    self.columns = columns
    positionsByMarks = Array(repeating: 0, count: rows * columns + 1)
    var lines: [[Int]] = []
    for row in 0..<rows {
      for column in 0..<columns {
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
          let cells = (0..<k).map { (row + dr * $0, column + dc * $0) }
          if cells.allSatisfy({ $0.0 >= 0 && $0.0 < rows && $0.1 >= 0 && $0.1 < columns }) {
            lines.append(cells.map { $0.0 * columns + $0.1 })
          }
        }
      }
    }
    self.lines = lines
  }

  mutating func walk() {
    games = count(Array(repeating: ".", count: rows * columns), toMove: "x")
  }

  private func winner(_ cells: [Character]) -> Character? {
    for line in lines where cells[line[0]] != "." {
      if line.allSatisfy({ cells[$0] == cells[line[0]] }) { return cells[line[0]] }
    }
    return nil
  }

  private mutating func count(_ cells: [Character], toMove: Character) -> (
    x: Int, o: Int, draw: Int
  ) {
    let key = String(cells)
    if let known = gamesFrom[key] { return known }
    positions.insert(key)
    positionsByMarks[cells.count { $0 != "." }] += 1
    var result = (x: 0, o: 0, draw: 0)
    if let winner = winner(cells) {
      terminal[key] = winner
      result = winner == "x" ? (1, 0, 0) : (0, 1, 0)
    } else if !cells.contains(".") {
      terminal[key] = "-"
      result = (0, 0, 1)
    } else {
      for index in cells.indices where cells[index] == "." {
        var next = cells
        next[index] = toMove
        let sub = count(next, toMove: toMove == "x" ? "o" : "x")
        result = (result.x + sub.x, result.o + sub.o, result.draw + sub.draw)
      }
    }
    gamesFrom[key] = result
    return result
  }
}
