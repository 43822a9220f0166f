// Measures the engine against a plain textbook minimax over an array board.
//
// Run with `swift run -c release tictactoe-benchmarks [--skip-4x4] [--skip-large]`, or
// `... tictactoe-benchmarks --solve ROWSxCOLUMNS:K` to time one solve with progress on stderr.

import Foundation
import GameAI
import GameRules

let arguments = Set(CommandLine.arguments.dropFirst())
let clock = ContinuousClock()

if let index = CommandLine.arguments.firstIndex(of: "--solve"),
  CommandLine.arguments.indices.contains(index + 1)
{
  let numbers = CommandLine.arguments[index + 1].split { "x:".contains($0) }.compactMap {
    Int($0)
  }
  guard numbers.count == 3 else { fatalError("--solve ROWSxCOLUMNS:K, e.g. 5x5:4") }
  let board = try Board(rows: numbers[0], columns: numbers[1], k: numbers[2])
  let result = Engine().solve(board) { progress in
    let line =
      "\(progress.nodes) nodes, \(progress.movesDone)/\(progress.movesTotal) moves, "
      + "\(progress.elapsed)\n"
    FileHandle.standardError.write(Data(line.utf8))
  }
  print("\(numbers[0])×\(numbers[1]), k = \(numbers[2]): \(result.evaluation)")
  print("best: \(result.best.map(\.name).joined(separator: " "))")
  print("nodes: \(result.nodes), time: \(result.duration)")
  exit(0)
}

func seconds(_ duration: Duration) -> Double {
  let (whole, attoseconds) = duration.components
  return Double(whole) + Double(attoseconds) / 1e18
}

func format(_ duration: Duration) -> String {
  let value = seconds(duration)
  if value < 1e-3 { return String(format: "%.1f µs", value * 1e6) }
  if value < 1 { return String(format: "%.2f ms", value * 1e3) }
  return String(format: "%.2f s", value)
}

func grouped(_ number: Int) -> String {
  let digits = String(number)
  var result = ""
  for (index, character) in digits.reversed().enumerated() {
    if index > 0 && index % 3 == 0 { result.append(",") }
    result.append(character)
  }
  return String(result.reversed())
}

func measure<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
  let start = clock.now
  let value = try body()
  return (value, clock.now - start)
}

func row(_ label: String, _ engine: String, _ baseline: String = "", _ ratio: String = "") {
  let padded = label.padding(toLength: 44, withPad: " ", startingAt: 0)
  let engineText = engine.padding(toLength: 22, withPad: " ", startingAt: 0)
  let baselineText = baseline.padding(toLength: 22, withPad: " ", startingAt: 0)
  print("\(padded)\(engineText)\(baselineText)\(ratio)")
}

func ratio(_ slow: Duration, _ fast: Duration) -> String {
  String(format: "×%.0f", seconds(slow) / max(seconds(fast), 1e-9))
}

// MARK: - Baseline: textbook minimax over an array

/// The classic recursive minimax: copy-free but memo-free, over a `[Int]` board (0 empty,
/// 1 X, 2 O), scoring wins as 10 − depth so that faster wins score higher.
struct TextbookMinimax {
  static let lines = [
    [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6],
  ]
  var nodes = 0

  static func winner(_ board: [Int]) -> Int {
    for line in lines where board[line[0]] != 0 {
      if board[line[0]] == board[line[1]] && board[line[1]] == board[line[2]] {
        return board[line[0]]
      }
    }
    return 0
  }

  /// The score for `player`, to move, with `depth` plies already played from the root.
  mutating func minimax(_ board: inout [Int], player: Int, depth: Int) -> Int {
    nodes += 1
    let opponent = 3 - player
    if TextbookMinimax.winner(board) == opponent { return depth - 10 }
    if !board.contains(0) { return 0 }
    var best = Int.min
    for index in 0..<9 where board[index] == 0 {
      board[index] = player
      best = max(best, -minimax(&board, player: opponent, depth: depth + 1))
      board[index] = 0
    }
    return best
  }

  /// Counts complete games from `board` by walking every line of play.
  mutating func countGames(_ board: inout [Int], player: Int) -> Int {
    nodes += 1
    if TextbookMinimax.winner(board) != 0 || !board.contains(0) { return 1 }
    var total = 0
    for index in 0..<9 where board[index] == 0 {
      board[index] = player
      total += countGames(&board, player: 3 - player)
      board[index] = 0
    }
    return total
  }
}

func arrayBoard(_ board: Board) -> [Int] {
  board.cells.map { cell in
    switch board[cell] {
    case .x: 1
    case .o: 2
    case nil: 0
    }
  }
}

func reachablePositions() throws -> [Board] {
  var seen: Set<Board> = [.classic]
  var result: [Board] = [.classic]
  var frontier: [Board] = [.classic]
  while !frontier.isEmpty {
    var next: [Board] = []
    for board in frontier where board.outcome == .inProgress {
      for cell in board.emptyCells {
        let child = try board.playing(at: cell)
        if seen.insert(child).inserted {
          next.append(child)
          result.append(child)
        }
      }
    }
    frontier = next
  }
  return result
}

// MARK: - 3×3

print("tictactoe-benchmarks: release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
print()
row("3×3", "engine", "textbook minimax", "speed-up")
row(
  String(repeating: "-", count: 40), String(repeating: "-", count: 18),
  String(repeating: "-", count: 18), "--------")

let engine = Engine()
let (tableAnalysis, tableTime) = measure { engine.analyze(.classic) }
precondition(tableAnalysis.evaluation.value == .draw)

let (solved, solveTime) = measure { engine.solve(.classic, progress: nil) }
precondition(solved.evaluation.value == .draw)
var baseline = TextbookMinimax()
var emptyArray = arrayBoard(.classic)
let (baselineScore, baselineSolveTime) = measure {
  baseline.minimax(&emptyArray, player: 1, depth: 0)
}
precondition(baselineScore == 0)
row(
  "solve empty board (cold table)", format(solveTime), format(baselineSolveTime),
  ratio(baselineSolveTime, solveTime))
row("  nodes", grouped(solved.nodes), grouped(baseline.nodes))
let engineRate = Double(solved.nodes) / seconds(solveTime)
let baselineRate = Double(baseline.nodes) / seconds(baselineSolveTime)
row(
  "  nodes per second", grouped(Int(engineRate)), grouped(Int(baselineRate)))
row("build the 3×3 table once (first analyse)", format(tableTime))

let positions = try reachablePositions()
precondition(positions.count == 5_478)
let (_, analyseTime) = measure {
  var checksum = 0
  for position in positions { checksum &+= engine.analyze(position).best.count }
  return checksum
}
baseline = TextbookMinimax()
let (_, baselineAnalyseTime) = measure {
  var checksum = 0
  for position in positions where position.outcome == .inProgress {
    var array = arrayBoard(position)
    let player = position.toMove == .x ? 1 : 2
    for index in 0..<9 where array[index] == 0 {
      array[index] = player
      checksum &+= baseline.minimax(&array, player: 3 - player, depth: 1)
      array[index] = 0
    }
  }
  return checksum
}
row(
  "analyse all 5,478 reachable positions", format(analyseTime), format(baselineAnalyseTime),
  ratio(baselineAnalyseTime, analyseTime))

let (counts, countTime) = try measure { try Enumeration.count(.classic) }
precondition(counts.games == 255_168)
baseline = TextbookMinimax()
var countArray = arrayBoard(.classic)
let (baselineGames, baselineCountTime) = measure {
  baseline.countGames(&countArray, player: 1)
}
precondition(baselineGames == 255_168)
row(
  "count the full game tree (255,168 games)", format(countTime), format(baselineCountTime),
  ratio(baselineCountTime, countTime))

// MARK: - 4×4, k = 4

if !arguments.contains("--skip-4x4") {
  print()
  let board = try Board(rows: 4, columns: 4, k: 4)
  let (result, time) = measure { engine.solve(board, progress: nil) }
  row("4×4, k = 4: solve the empty board", format(time), "\(result.evaluation)")
  row("  nodes", grouped(result.nodes))
  row("  nodes per second", grouped(Int(Double(result.nodes) / seconds(time))))
}

// MARK: - 15×15, k = 5

if !arguments.contains("--skip-large") {
  print()
  var game = Game(start: try Board(rows: 15, columns: 15, k: 5))
  var generator = SplitMix64(seed: 1)
  var times: [Duration] = []
  for _ in 0..<10 {
    let (move, time) = measure {
      engine.bestMove(for: game.board, difficulty: .unbeatable, using: &generator)
    }
    guard let move else { break }
    times.append(time)
    try game.play(at: move)
  }
  let total = times.reduce(Duration.zero, +)
  row(
    "15×15, k = 5: time per move (budget 1 s)",
    format(total / times.count), "max \(format(times.max() ?? .zero))")
}

// MARK: - Deep solves

if !arguments.contains("--skip-4x4") {
  print()
  let shapes = arguments.contains("--deep") ? [(5, 5, 4), (6, 5, 4)] : [(5, 5, 4)]
  for (rows, columns, k) in shapes {
    let board = try Board(rows: rows, columns: columns, k: k)
    let (result, time) = measure { engine.solve(board, progress: nil) }
    row("\(rows)×\(columns), k = \(k): solve the empty board", format(time), "\(result.evaluation)")
    row(
      "  nodes, nodes per second", grouped(result.nodes),
      grouped(Int(Double(result.nodes) / seconds(time))))
  }
}

// MARK: - Difficulty

/// Plays one game and returns the winner, or `nil` for a draw.
func playGame(
  on start: Board, x: (Board, inout SplitMix64) -> Cell?, o: (Board, inout SplitMix64) -> Cell?,
  seed: UInt64
) throws -> Mark? {
  var generator = SplitMix64(seed: seed)
  var board = start
  while board.outcome == .inProgress {
    guard let move = (board.toMove == .x ? x : o)(board, &generator) else { break }
    try board.play(at: move)
  }
  return board.outcome.winner
}

/// Wins, draws and losses of `player` against `opponent` over `games` games, half as X.
func record(
  on start: Board, games: Int, player: (Board, inout SplitMix64) -> Cell?,
  opponent: (Board, inout SplitMix64) -> Cell?
) throws -> String {
  var (wins, draws, losses) = (0, 0, 0)
  for game in 0..<games {
    let playerIsX = game.isMultiple(of: 2)
    let winner = try playGame(
      on: start, x: playerIsX ? player : opponent, o: playerIsX ? opponent : player,
      seed: UInt64(game))
    switch winner {
    case nil: draws += 1
    case .x: if playerIsX { wins += 1 } else { losses += 1 }
    case .o: if playerIsX { losses += 1 } else { wins += 1 }
    }
  }
  return "\(wins)/\(draws)/\(losses)"
}

func chooser(_ engine: Engine, _ difficulty: Difficulty) -> (Board, inout SplitMix64) -> Cell? {
  { board, generator in engine.bestMove(for: board, difficulty: difficulty, using: &generator) }
}

let randomPlayer: (Board, inout SplitMix64) -> Cell? = { board, generator in
  board.emptyCells.randomElement(using: &generator)
}

if !arguments.contains("--skip-difficulty") {
  print()
  let levels: [(String, Difficulty)] = [
    ("Easy", .easy), ("Medium", .medium), ("Hard", .hard), ("Unbeatable", .unbeatable),
  ]
  print("Difficulty on 3×3: wins/draws/losses over 1,000 games (half as X)")
  row("level", "vs random", "vs Unbeatable")
  for (name, difficulty) in levels {
    let player = chooser(engine, difficulty)
    row(
      name, try record(on: .classic, games: 1_000, player: player, opponent: randomPlayer),
      try record(
        on: .classic, games: 1_000, player: player,
        opponent: chooser(engine, .unbeatable)))
  }
  print()
  let quick = Engine(timeBudget: .milliseconds(20))
  let large = try Board(rows: 7, columns: 7, k: 5)
  let games = arguments.contains("--deep") ? 200 : 40
  print("Difficulty on 7×7, k = 5 (20 ms a move): wins/draws/losses over \(games) games")
  row("level", "vs the level below")
  for index in 1..<levels.count {
    let (name, difficulty) = levels[index]
    let (belowName, below) = levels[index - 1]
    row(
      "\(name) vs \(belowName)",
      try record(
        on: large, games: games, player: chooser(quick, difficulty),
        opponent: chooser(quick, below)))
  }
}
