// Measures the engine against a plain textbook minimax over an array board and measures each
// difficulty's strength; prints Markdown tables for the README. `tictactoe-benchmarks --help`
// lists the options.

import BenchmarkOptions
import Console
import Dispatch
import Foundation
import GameAI
import GameRules
import Synchronization

let commandLine = BenchmarkCommandLine(
  program: "tictactoe-benchmarks",
  introduction: """
    Measures the engine against a textbook minimax, times solves of empty boards and plays
    each difficulty against the others; prints Markdown tables.

    Usage: tictactoe-benchmarks [--skip-4x4] [--skip-large] [--skip-difficulty] [--skip-ladder]
                                [--skip-holding] [--games N] [--ladder-games N]
                                [--ladder-side 7|15] [--holding-games N]
                                [--holding-budget-ms N] [--seed N] [--deep]
           tictactoe-benchmarks --solve ROWSxCOLUMNS:K
           tictactoe-benchmarks --win ROWSxCOLUMNS:K [--fastest]
           tictactoe-benchmarks --threats FILE [--threat-ms N]

    Exit codes: 0 success, 1 a file that cannot be read, 2 bad usage or input.
    """,
  options: [
    BenchmarkOption("--skip-4x4", summary: "skip the exact solves of larger boards"),
    BenchmarkOption("--skip-large", summary: "skip the 15×15 move times and searches"),
    BenchmarkOption("--skip-difficulty", summary: "skip the 3×3 difficulty games"),
    BenchmarkOption("--skip-ladder", summary: "skip the difficulty ladders on 7×7 and 15×15"),
    BenchmarkOption("--skip-holding", summary: "skip Unbeatable on 7×7"),
    BenchmarkOption(
      "--games", .number(atLeast: 1, placeholder: "N"),
      summary: "games per 3×3 difficulty pairing (default 1000)"),
    BenchmarkOption(
      "--ladder-games", .number(atLeast: 1, placeholder: "N"),
      summary: "games per ladder step (default 20, 200 with --deep)"),
    BenchmarkOption(
      "--ladder-side", .number(atLeast: 1, placeholder: "7|15"),
      summary: "only the ladder on this board side"),
    BenchmarkOption(
      "--holding-games", .number(atLeast: 1, placeholder: "N"),
      summary: "games on each side for Unbeatable on 7×7 (default 4, 100 with --deep)"),
    BenchmarkOption(
      "--holding-budget-ms", .number(atLeast: 1, placeholder: "N"),
      summary: "Unbeatable's budget a move on 7×7, in ms (default 100)"),
    BenchmarkOption(
      "--seed", .number(atLeast: 0, placeholder: "N"),
      summary: "the first game's seed, so that runs add up to more games (default 0)"),
    BenchmarkOption("--deep", summary: "add the long solves and more games"),
    BenchmarkOption(
      "--solve", .text(placeholder: "ROWSxCOLUMNS:K", takes: "ROWSxCOLUMNS:K, for example 5x5:4"),
      summary: "time one solve, with progress on standard error, and stop"),
    BenchmarkOption(
      "--win", .text(placeholder: "ROWSxCOLUMNS:K", takes: "ROWSxCOLUMNS:K, for example 5x5:4"),
      summary: "prove whether the first player wins, by proof numbers, and stop"),
    BenchmarkOption("--fastest", summary: "with --win, also the length of the fastest win"),
    BenchmarkOption(
      "--threats",
      .text(
        placeholder: "FILE",
        takes: "a file of positions, for example Benchmarks/rapfi-wins.txt"),
      summary: "count the positions of FILE the threat searches win, and stop"),
    BenchmarkOption(
      "--threat-ms", .number(atLeast: 1, placeholder: "N"),
      summary: "with --threats, the budget a position, in ms (default 1000)"),
  ])

/// The options given, every one checked before any work.
let options = commandLine.options(from: Array(CommandLine.arguments.dropFirst()))
let clock = ContinuousClock()

/// Stops with a one-sentence error on standard error and the exit code of a usage error.
func fail(_ message: String) -> Never {
  commandLine.stop(message)
}

/// The number given after `name` (as in `--games 100`), already checked, when `name` is given.
func option(_ name: String) -> Int? {
  options.number(name)
}

if let side = option("--ladder-side"), ![7, 15].contains(side) {
  fail("--ladder-side takes 7 or 15.")
}

/// The board named by the argument after `flag`, `ROWSxCOLUMNS:K`, when `flag` is given.
func boardArgument(after flag: String) -> Board? {
  guard let text = options.values[flag] else { return nil }
  let parts = text.split(separator: ":", omittingEmptySubsequences: false)
  let sides = parts.first?.split(separator: "x", omittingEmptySubsequences: false) ?? []
  let numbers = (sides + parts.dropFirst()).compactMap { Int($0) }
  guard parts.count == 2, sides.count == 2, numbers.count == 3 else {
    fail(commandLine.usage(of: flag))
  }
  do {
    return try Board(rows: numbers[0], columns: numbers[1], k: numbers[2])
  } catch {
    fail("\(flag) \(text): \(error)")
  }
}

if let board = boardArgument(after: "--solve") {
  let result = Engine().solve(board) { progress in
    let line =
      "\(progress.nodes) nodes, \(progress.movesDone)/\(progress.movesTotal) moves, "
      + "\(progress.elapsed)\n"
    Console.error(line)
  }
  Console.line("\(board.rows)×\(board.columns), k = \(board.k): \(result.evaluation)")
  Console.line("best: \(result.best.map(\.name).joined(separator: " "))")
  Console.line(
    "nodes: \(result.nodes.map(String.init) ?? "not counted"), time: \(result.duration)")
  exit(Console.finished(0, program: "tictactoe-benchmarks"))
}

if let board = boardArgument(after: "--win") {
  let start = clock.now
  let proof = Engine.proveWin(board, tableBits: 24, fastest: options.has("--fastest")) {
    nodes, proof, disproof in
    let line = "\(nodes) nodes, proof \(proof), disproof \(disproof), \(clock.now - start)\n"
    Console.error(line)
  }
  Console.line(
    "\(board.rows)×\(board.columns), k = \(board.k): first player wins: \(proof.moverWins.map(String.init) ?? "unknown")"
  )
  Console.line("fastest win: \(proof.plies.map(String.init) ?? "not asked") plies")
  Console.line("nodes: \(proof.nodes), time: \(clock.now - start)")
  exit(Console.finished(0, program: "tictactoe-benchmarks"))
}

if let path = options.values["--threats"] {
  // One 15×15 position a line, as Gomocup `x,y` moves from the empty board (other words
  // ignored): how many of them the threat searches win within the budget.
  let budget = Duration.milliseconds(option("--threat-ms") ?? 1_000)
  // A file that is missing, a folder or not readable is a failure, not a usage error; one that
  // is not text is bad input.
  guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
    commandLine.stop("cannot read \(path).", status: 1)
  }
  guard let text = String(data: data, encoding: .utf8) else {
    fail("\(path) is not UTF-8 text.")
  }
  var found = 0
  var total = 0
  var elapsed = Duration.zero
  for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
    .enumerated() where line.contains(",")
  {
    var board = try Board(rows: 15, columns: 15, k: 5)
    for (place, word) in line.split(separator: " ").enumerated() where word.contains(",") {
      let xy = word.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
      guard xy.count == 2, let x = xy[0], let y = xy[1],
        (0..<board.columns).contains(x), (0..<board.rows).contains(y)
      else {
        fail("\(path), line \(number + 1), word \(place + 1): not a move x,y on 15×15.")
      }
      do {
        try board.play(at: Cell(row: y, column: x))
      } catch {
        fail("\(path), line \(number + 1): \(x),\(y): \(error)")
      }
    }
    let start = clock.now
    let result = Engine.threatWin(board, budget: budget)
    let time = clock.now - start
    elapsed += time
    total += 1
    if result.win != nil { found += 1 }
    let answer = result.win.map { "\($0.cell.name) in \($0.plies)" } ?? "none"
    Console.line("\(total): \(board.markCount) stones: \(answer), \(result.nodes) nodes, \(time)")
  }
  Console.line("found \(found) of \(total) within \(budget) each; \(elapsed) in all")
  exit(Console.finished(0, program: "tictactoe-benchmarks"))
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

/// Prints one row of a Markdown table.
func row(_ cells: String...) {
  Console.line("| " + cells.joined(separator: " | ") + " |")
}

/// Prints a Markdown table's header row and the rule under it; the first column is left
/// aligned, the others right aligned.
func header(_ cells: String...) {
  Console.line("| " + cells.joined(separator: " | ") + " |")
  Console.line("| --- |" + String(repeating: " ---: |", count: cells.count - 1))
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

// MARK: - 3×3

let cores = ProcessInfo.processInfo.activeProcessorCount
Console.line("Engine benchmarks: release build, \(cores) cores.")
Console.line("")
header("3×3", "engine", "textbook minimax", "speed-up")

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
  "solve the empty board (cold table)", format(solveTime), format(baselineSolveTime),
  ratio(baselineSolveTime, solveTime))
row(
  "nodes searched", solved.nodes.map(grouped) ?? "not counted",
  grouped(baseline.nodes), "")
row("build the table of all positions (first analysis)", format(tableTime), "", "")

let positions = Board.classic.reachablePositions().map(\.board)
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

// MARK: - Exact solves of larger boards

if !options.has("--skip-4x4") {
  Console.line("")
  header("Solve the empty board", "value", "time", "nodes", "nodes per second")
  // The known values: a draw unless the first player wins.
  var shapes: [(rows: Int, columns: Int, k: Int, firstPlayerWins: Bool)] = [
    (4, 4, 4, false), (5, 5, 4, false), (6, 6, 5, false), (7, 7, 5, false),
  ]
  // 4×9 with four in a row (a first-player win) gets its value from the proof-number search
  // below: the solve of every first move with its length does not settle within an hour yet.
  if options.has("--deep") {
    shapes += [(6, 5, 4, true), (4, 7, 4, false), (4, 8, 4, false)]
  }
  for shape in shapes {
    let board = try Board(rows: shape.rows, columns: shape.columns, k: shape.k)
    // A fresh engine, so that each solve starts from an empty table.
    let (result, time) = measure { Engine().solve(board, progress: nil) }
    precondition(
      result.evaluation.isExact
        && result.evaluation.value == (shape.firstPlayerWins ? .win : .draw),
      "\(shape) solved as \(result.evaluation)")
    row(
      "\(shape.rows)×\(shape.columns), k = \(shape.k)", "\(result.evaluation)", format(time),
      result.nodes.map(grouped) ?? "not counted",
      result.nodes.map { grouped(Int(Double($0) / seconds(time))) } ?? "")
  }
  if options.has("--deep") {
    // The value alone (can the first player force a line?), by the proof-number search with
    // a table of 2^24 slots (512 MB).
    let board = try Board(rows: 4, columns: 9, k: 4)
    let (proof, time) = measure { Engine.proveWin(board, tableBits: 24) }
    precondition(
      proof.moverWins == true, "4×9, k = 4 proved as \(String(describing: proof.moverWins))")
    row(
      "4×9, k = 4 (value only)", "first-player win", format(time), grouped(proof.nodes),
      grouped(Int(Double(proof.nodes) / seconds(time))))
  }
}

// MARK: - 15×15, k = 5

/// A 15×15 board, five in a row, after the cells `names` are played in turn, X first.
func gomoku(playing names: [String]) throws -> Board {
  var board = try Board(rows: 15, columns: 15, k: 5)
  for name in names {
    guard let cell = Cell(name: name) else { fatalError("bad cell \(name)") }
    try board.play(at: cell)
  }
  return board
}

if !options.has("--skip-large") {
  Console.line("")
  let moves = 10
  var game = Game(start: try Board(rows: 15, columns: 15, k: 5))
  var generator = SplitMix64(seed: 1)
  var times: [Duration] = []
  for _ in 0..<moves {
    let (move, time) = measure {
      engine.bestMove(for: game.board, difficulty: .unbeatable, using: &generator)
    }
    guard let move else { break }
    times.append(time)
    try game.play(at: move)
  }
  let total = times.reduce(Duration.zero, +)
  header("15×15, k = 5, budget 1 s a move", "mean", "fastest", "slowest")
  row(
    "time per move, first \(times.count) moves of self-play", format(total / times.count),
    format(times.min() ?? .zero), format(times.max() ?? .zero))
  // Tactics answer before the budget runs out: the threat search proves them.
  let tactics: [(String, [String], [String])] = [
    ("win in one", ["h8", "i8", "j8", "k8", "c3"], ["g8", "a1", "o15", "a15", "a8"]),
    ("forced block", ["d5", "m12", "n3", "b14"], ["e5", "f5", "g5", "h5"]),
    ("three-three through open threes", ["f8", "g8", "h6", "h7"], ["a1", "o15", "a15", "o1"]),
  ]
  for (name, x, o) in tactics {
    let turns = (0..<max(x.count, o.count)).flatMap { index in
      [x, o].compactMap { index < $0.count ? $0[index] : nil }
    }
    let board = try gomoku(playing: turns)
    var generator = SplitMix64(seed: 1)
    let (_, time) = measure {
      engine.bestMove(for: board, difficulty: .unbeatable, using: &generator)
    }
    row("time to answer a \(name)", format(time), "", "")
  }
  // The deepening search alone, to a fixed depth on a new table from the positions of one
  // opening of a match against Rapfi after 4, 6, 8 and 10 stones: what it reads a second,
  // whatever the budget.
  let opening = ["j7", "f10", "h8", "i7", "j8", "i8", "h7", "j9", "h6", "h5"]
  let depth = 9
  let starts = [4, 6, 8, 10]
  var searched = 0
  var elapsed = Duration.zero
  for stones in starts {
    let board = try gomoku(playing: Array(opening.prefix(stones)))
    let (found, time) = measure { Engine.deepen(board, to: depth) }
    searched += found.nodes
    elapsed += time
  }
  Console.line("")
  header("15×15, k = 5, the deepening search alone", "positions", "time", "positions a second")
  row(
    "to depth \(depth) after \(starts.map(String.init).joined(separator: ", ")) stones",
    grouped(searched), format(elapsed),
    grouped(Int(Double(searched) / max(seconds(elapsed), 1e-9))))
}

// MARK: - Difficulty

/// Who plays one side of a game.
enum Contestant: Sendable {
  case random
  case level(Difficulty)

  var name: String {
    switch self {
    case .random: "random"
    case .level(let difficulty): difficulty.displayName
    }
  }

  func move(_ board: Board, engine: Engine, using generator: inout SplitMix64) -> Cell? {
    switch self {
    case .random: board.emptyCells.randomElement(using: &generator)
    case .level(let difficulty):
      engine.bestMove(for: board, difficulty: difficulty, using: &generator)
    }
  }
}

/// Plays one game and returns the winner, or `nil` for a draw.
func playGame(
  on start: Board, x: Contestant, o: Contestant, engine: Engine, seed: UInt64
) -> Mark? {
  var generator = SplitMix64(seed: seed)
  var board = start
  while board.outcome == .inProgress {
    let side = board.toMove == .x ? x : o
    guard let move = side.move(board, engine: engine, using: &generator),
      (try? board.play(at: move)) != nil
    else { preconditionFailure("no legal move on \(board.notation)") }
  }
  return board.outcome.winner
}

/// Wins, draws and losses of one player over a series of games.
struct Tally {
  var wins = 0
  var draws = 0
  var losses = 0

  var games: Int { wins + draws + losses }
  /// A win counts 1, a draw ½.
  var score: Double { games == 0 ? 0 : (Double(wins) + Double(draws) / 2) / Double(games) }
  var text: String { "\(grouped(wins)) / \(grouped(draws)) / \(grouped(losses))" }
  var percent: String { String(format: "%.1f %%", score * 100) }
}

/// Wins, draws and losses of `player` against `opponent` over `games` games, half as X (or
/// all as `side`), the games spread over every core, each core with its own engine.
func tally(
  on start: Board, games: Int, budget: Duration, player: Contestant, opponent: Contestant,
  side: Mark? = nil
) -> Tally {
  let totals = Mutex(Tally())
  DispatchQueue.concurrentPerform(iterations: cores) { worker in
    let engine = Engine(timeBudget: budget)
    var tally = Tally()
    for game in stride(from: worker, to: games, by: cores) {
      let playerIsX = side.map { $0 == .x } ?? game.isMultiple(of: 2)
      let winner = playGame(
        on: start, x: playerIsX ? player : opponent, o: playerIsX ? opponent : player,
        engine: engine, seed: UInt64(firstSeed + game))
      switch winner {
      case nil: tally.draws += 1
      case .x: if playerIsX { tally.wins += 1 } else { tally.losses += 1 }
      case .o: if playerIsX { tally.losses += 1 } else { tally.wins += 1 }
      }
    }
    totals.withLock {
      $0.wins += tally.wins
      $0.draws += tally.draws
      $0.losses += tally.losses
    }
  }
  return totals.withLock { $0 }
}

let levels: [Difficulty] = [.easy, .medium, .hard, .unbeatable]
/// The seed of the first game of each series, so that runs can add games to earlier ones.
let firstSeed = option("--seed") ?? 0

if !options.has("--skip-difficulty") {
  let games = option("--games") ?? 1_000
  Console.line("")
  Console.line("Difficulty on 3×3: wins / draws / losses over \(grouped(games)) games, half as X.")
  Console.line("")
  header("Level", "vs random", "vs Unbeatable")
  let (_, smallTime) = measure {
    for difficulty in levels {
      let player = Contestant.level(difficulty)
      row(
        player.name,
        tally(on: .classic, games: games, budget: .seconds(1), player: player, opponent: .random)
          .text,
        tally(
          on: .classic, games: games, budget: .seconds(1), player: player,
          opponent: .level(.unbeatable)
        ).text)
    }
  }
  Console.line("")
  Console.line("(3×3 table: \(format(smallTime)).)")
}

// MARK: - The difficulty ladder on large boards

if !options.has("--skip-ladder") {
  let deep = options.has("--deep")
  let games = option("--ladder-games") ?? (deep ? 200 : 20)
  let budget = Duration.milliseconds(deep ? 50 : 5)
  let sides = option("--ladder-side").map { [$0] } ?? [7, 15]
  for (side, k) in [(7, 5), (15, 5)] where sides.contains(side) {
    let board = try Board(rows: side, columns: side, k: k)
    Console.line("")
    Console.line(
      "Difficulty ladder on \(side)×\(side), k = \(k) at \(format(budget)) a move: each level "
        + "against the one below over \(grouped(games)) games, half as X (a win 1, a draw ½).")
    Console.line("")
    header("Level", "opponent", "wins / draws / losses", "score")
    let (_, time) = measure {
      for (index, difficulty) in levels.enumerated() {
        let player = Contestant.level(difficulty)
        let opponent = index == 0 ? Contestant.random : .level(levels[index - 1])
        let result = tally(
          on: board, games: games, budget: budget, player: player, opponent: opponent)
        row(
          difficulty.displayName(rows: side, columns: side, k: k), opponent.name, result.text,
          result.percent)
      }
    }
    Console.line("")
    Console.line("(\(side)×\(side) ladder: \(format(time)).)")
  }
}

// MARK: - Unbeatable on 7×7, k = 5

if !options.has("--skip-holding") {
  let deep = options.has("--deep")
  let games = option("--holding-games") ?? (deep ? 100 : 4)
  let board = try Board(rows: 7, columns: 7, k: 5)
  var budgets: [Duration] = [.milliseconds(100)]
  if deep { budgets.insert(Engine().timeBudget, at: 0) }
  if let milliseconds = option("--holding-budget-ms") { budgets = [.milliseconds(milliseconds)] }
  Console.line("")
  Console.line(
    "Unbeatable on 7×7, k = 5 (a proven draw): wins / draws / losses over \(grouped(games)) "
      + "games on each side.")
  Console.line("")
  header("Budget a move", "opponent", "as X", "as O")
  var losses = 0
  let (_, time) = measure {
    for budget in budgets {
      for opponent in [Difficulty.medium, .hard, .unbeatable] {
        let results = [Mark.x, .o].map { side in
          tally(
            on: board, games: games, budget: budget, player: .level(.unbeatable),
            opponent: .level(opponent), side: side)
        }
        losses += results.map(\.losses).reduce(0, +)
        row(format(budget), opponent.displayName, results[0].text, results[1].text)
      }
    }
  }
  Console.line("")
  Console.line("(\(grouped(losses)) games lost; table: \(format(time)).)")
  // How long Unbeatable's moves take where its guard proves them: self-play on one thread
  // from a fresh engine, so that the first move proves the empty board from nothing.
  var times: [Duration] = []
  let timing = Engine(timeBudget: .milliseconds(100))
  for seed in 0..<2 {
    var generator = SplitMix64(seed: UInt64(firstSeed + seed))
    var game = board
    while game.outcome == .inProgress {
      let (move, elapsed) = measure {
        timing.bestMove(for: game, difficulty: .unbeatable, using: &generator)
      }
      guard let move else { break }
      times.append(elapsed)
      try game.play(at: move)
    }
  }
  let sorted = times.sorted()
  Console.line("")
  header("7×7, k = 5, budget 100 ms a move", "median", "fastest", "slowest")
  row(
    "Unbeatable's time per move, \(times.count) moves of self-play (fresh engine)",
    format(sorted[sorted.count / 2]), format(sorted.first ?? .zero),
    format(sorted.last ?? .zero))
}

exit(Console.finished(0, program: "tictactoe-benchmarks"))
