import Console
import DatabaseClient
import Foundation
import GameAI
import GameRules
import Synchronization

/// The `tictactoe` command line: parses arguments, runs a subcommand, returns the exit code.
public enum CLI {
  /// One engine per process, so its tables serve every request.
  private static let engine = Engine()

  /// Exit codes: success, failure (I/O, wrong password), and bad usage or input.
  public enum ExitCode {
    /// Everything worked.
    public static let success: Int32 = 0
    /// Something outside the input failed.
    public static let failure: Int32 = 1
    /// The command line or its input was malformed.
    public static let usage: Int32 = 2
  }

  /// Runs the command line `arguments` (without the program's name).
  public static func run(_ arguments: [String]) async -> Int32 {
    Console.holdClosedStandardStreams()
    return Console.finished(await command(arguments), program: "tictactoe")
  }

  private static func command(_ arguments: [String]) async -> Int32 {
    let parsed: (command: Command, common: CommonOptions)
    do {
      parsed = try Command.parseWithCommon(arguments)
    } catch {
      printError(error.message)
      return ExitCode.usage
    }
    switch parsed.command {
    case .help(let topic):
      Console.line(Help.text(for: topic))
      return ExitCode.success
    case .version:
      Console.line(Help.version)
      return ExitCode.success
    case .completions(let shell):
      Console.write(Completions.script(for: shell))
      return ExitCode.success
    case .account(let options):
      return await account(options, common: parsed.common)
    case .login(let options):
      return await login(options, common: parsed.common)
    case .stats(let options):
      return await stats(options, common: parsed.common)
    case .history(let user, let json):
      return await history(user: user, json: json, common: parsed.common)
    case .replay(let gameID):
      return await replay(gameID: gameID, common: parsed.common)
    case .analyze(let position, let k, let json):
      return position == "-" ? analyzeLines(k: k, json: json) : analyze(position, k: k, json: json)
    case .bestMove(let position, let k, let difficulty, let seed, let seconds, let json):
      return bestMove(
        position, k: k, difficulty: difficulty, seed: seed, seconds: seconds, json: json)
    case .solve(let shape, let json, let valueOnly):
      return valueOnly ? solveValue(shape, json: json) : await solve(shape, json: json)
    case .count(let shape, let json):
      return count(shape, json: json)
    case .gtp(let k, let difficulty, let seconds):
      return gtp(k: k, difficulty: difficulty, seconds: seconds)
    case .pbrain(let k, let difficulty, let seconds):
      return pbrain(k: k, difficulty: difficulty, seconds: seconds)
    case .play(let options):
      return await play(options, common: parsed.common)
    case .serve(let options):
      return await serve(options)
    case .games(let json):
      return await games(json: json, common: parsed.common)
    }
  }

  /// Writes one sentence to stderr; anything not printable in it (such as an echoed argument)
  /// is escaped, so no message can drive the terminal.
  static func printError(_ message: String, program: String = "tictactoe") {
    Console.error("\(program): \(message.escapingControlCharacters)\n")
  }

  private static func board(_ position: String, k: Int?) -> Result<Board, UsageError> {
    do {
      return .success(try Board(notation: position, k: k))
    } catch {
      return .failure(UsageError(error.description))
    }
  }

  // MARK: - analyze

  private static func analyze(_ position: String, k: Int?, json: Bool) -> Int32 {
    switch board(position, k: k) {
    case .failure(let error):
      printError(error.message)
      return ExitCode.usage
    case .success(let board):
      let analysis = engine.analyze(board)
      Console.line(
        json
          ? Formatting.analysisJSON(board, analysis) : Formatting.analysisText(board, analysis))
      return ExitCode.success
    }
  }

  /// Reads one position a line from standard input and writes one result a line, each as soon
  /// as its line is read, so that a program feeding positions one at a time gets each answer.
  ///
  /// A bad line is reported on stderr with its number, and with `json` also in its place on
  /// stdout (`{"line":4,"error":"…"}`), so that the results still match the lines one to one;
  /// the exit code is then 2.
  private static func analyzeLines(k: Int?, json: Bool) -> Int32 {
    var status = ExitCode.success
    var lineNumber = 0
    let reader = LineReader.commandInput()
    // Once the output is lost, reading on would only lose more.
    while Console.outputFailure == nil {
      let line: InputLine
      do {
        guard let next = try reader.next() else { break }
        line = next
      } catch {
        printError(error.message)
        return ExitCode.failure
      }
      lineNumber += 1
      let text = line.text.trimmingWhitespace()
      if text.isEmpty && !line.isTooLong { continue }
      let parsed =
        line.isTooLong
        ? .failure(
          UsageError(
            "The line is longer than \(LineReader.commandLineBytes) bytes, far more than a "
              + "position of the largest board."))
        : board(text, k: k)
      switch parsed {
      case .failure(let error):
        if json { Console.line(Formatting.lineErrorJSON(line: lineNumber, error.message)) }
        printError("line \(lineNumber): \(error.message)")
        status = ExitCode.usage
      case .success(let board):
        let analysis = engine.analyze(board)
        Console.line(
          json
            ? Formatting.analysisJSON(board, analysis)
            : Formatting.analysisText(board, analysis).replacingOccurrences(of: "\n", with: " "))
      }
    }
    return status
  }

  // MARK: - bestmove

  private static func bestMove(
    _ position: String, k: Int?, difficulty: Difficulty, seed: UInt64?, seconds: Double?,
    json: Bool
  ) -> Int32 {
    let board: Board
    switch Self.board(position, k: k) {
    case .failure(let error):
      printError(error.message)
      return ExitCode.usage
    case .success(let parsed): board = parsed
    }
    var generator = SplitMix64(seed: seed ?? UInt64.random(in: .min ... .max))
    let searcher = seconds.map { Engine(timeBudget: .milliseconds(Int64($0 * 1_000))) } ?? engine
    guard let move = searcher.bestMove(for: board, difficulty: difficulty, using: &generator) else {
      printError(
        "The game is over (\(Formatting.outcomeText(board.outcome))); there is no move to make.")
      return ExitCode.usage
    }
    Console.line(json ? Formatting.bestMoveJSON(board, move, difficulty) : move.name)
    return ExitCode.success
  }

  // MARK: - solve

  private static func solve(_ shape: BoardShape, json: Bool) async -> Int32 {
    let board = shape.board()
    let line = ProgressLine()
    let result = engine.solve(board) { progress in
      line.show(
        "Solving: \(progress.movesDone) of \(progress.movesTotal) first moves, "
          + "\(progress.nodes) nodes, "
          + "\(Formatting.formatted(Formatting.seconds(progress.elapsed))) s")
    }
    line.finish()
    Console.line(json ? Formatting.solveJSON(board, result) : Formatting.solveText(board, result))
    return ExitCode.success
  }

  /// `solve --value`: whether the first player forces a line, by the proof-number search.
  private static func solveValue(_ shape: BoardShape, json: Bool) -> Int32 {
    let board = shape.board()
    guard board.cellCount <= 64 else {
      printError(
        "solve --value proves boards of up to 64 cells; \(board.rows)×\(board.columns) has "
          + "\(board.cellCount).")
      return ExitCode.usage
    }
    let clock = ContinuousClock()
    let start = clock.now
    let line = ProgressLine()
    // A table of 2^24 slots (512 MB) where a long proof needs it, small ones elsewhere.
    let bits = board.cellCount <= 16 ? 16 : board.cellCount <= 30 ? 20 : 24
    let proof = Engine.proveWin(board, tableBits: bits) { nodes, proof, disproof in
      line.show(
        "Proving: \(nodes) nodes, proof number \(proof), disproof number \(disproof), "
          + "\(Formatting.formatted(Formatting.seconds(clock.now - start))) s")
    }
    line.finish()
    guard let moverWins = proof.moverWins else {
      printError("The proof search stopped before it settled the value.")
      return ExitCode.failure
    }
    let value = ProvedValue(
      board: board, firstPlayerWins: moverWins, nodes: proof.nodes, duration: clock.now - start)
    Console.line(json ? Formatting.valueJSON(value) : Formatting.valueText(value))
    return ExitCode.success
  }

  // MARK: - gtp

  private static func gtp(k: Int?, difficulty: Difficulty, seconds: Double?) -> Int32 {
    let searcher = seconds.map { Engine(timeBudget: .milliseconds(Int64($0 * 1_000))) } ?? engine
    var generator = SplitMix64(seed: UInt64.random(in: .min ... .max))
    let session: GTPSession
    do {
      session = try GTPSession(k: k) { board in
        searcher.bestMove(for: board, difficulty: difficulty, using: &generator)
      }
    } catch {
      printError(error.description)
      return ExitCode.usage
    }
    var running = session
    let reader = LineReader.commandInput()
    while !running.hasQuit, Console.outputFailure == nil {
      let line: InputLine
      do {
        guard let next = try reader.next() else { break }
        line = next
      } catch {
        printError(error.message)
        return ExitCode.failure
      }
      if let response = running.respond(to: line.text, isTooLong: line.isTooLong) {
        // Written straight to the file descriptor so a controller sees each answer at once.
        Console.write(response)
      }
    }
    return ExitCode.success
  }

  // MARK: - pbrain

  /// Runs `pbrain-tictactoe`: the Gomocup brain, taking the options of `tictactoe pbrain`.
  public static func runPbrain(_ arguments: [String]) -> Int32 {
    Console.holdClosedStandardStreams()
    return Console.finished(pbrainCommand(arguments), program: "pbrain-tictactoe")
  }

  private static func pbrainCommand(_ arguments: [String]) -> Int32 {
    if let request = InfoRequest(arguments) {
      Console.line(request == .help ? Help.pbrain : "pbrain-tictactoe \(Help.versionNumber)")
      return ExitCode.success
    }
    do {
      guard
        case .pbrain(let k, let difficulty, let seconds) = try Command.pbrain(
          arguments, program: "pbrain-tictactoe"
        ).command
      else { return ExitCode.usage }
      return pbrain(k: k, difficulty: difficulty, seconds: seconds, program: "pbrain-tictactoe")
    } catch {
      printError(error.message, program: "pbrain-tictactoe")
      return ExitCode.usage
    }
  }

  private static func pbrain(
    k: Int, difficulty: Difficulty, seconds: Double?, program: String = "tictactoe"
  ) -> Int32 {
    var engines: [Int: Engine] = [:]
    var generator = SplitMix64(seed: UInt64.random(in: .min ... .max))
    func engine(_ memoryLimit: Int?) -> Engine {
      let key = memoryLimit ?? 0
      let engine = engines[key] ?? Engine(memoryLimit: memoryLimit, keepsToBudget: true)
      engines = [key: engine]
      return engine
    }
    let input = ManagerInput()
    var session = PbrainSession(
      k: k, defaultTurn: .milliseconds(Int64((seconds ?? 1) * 1_000))
    ) { board, budget, memoryLimit in
      input.isThinking = true
      defer { input.isThinking = false }
      return engine(memoryLimit).chooseMove(
        for: board, difficulty: difficulty, budget: budget, using: &generator)
    }
    session.prepare = { board, memoryLimit in engine(memoryLimit).prepare(for: board) }
    while !session.hasEnded, Console.outputFailure == nil {
      let line: InputLine
      switch input.next() {
      case .none: return ExitCode.success
      case .some(.failure(let failure)):
        printError(failure.message, program: program)
        return ExitCode.failure
      case .some(.success(let next)): line = next
      }
      let lines = session.respond(to: line.text, isTooLong: line.isTooLong)
      guard !lines.isEmpty else { continue }
      // Written straight to the file descriptor so that the manager sees each answer at once.
      Console.write(lines.map { $0 + "\n" }.joined())
    }
    return ExitCode.success
  }

  // MARK: - count

  private static func count(_ shape: BoardShape, json: Bool) -> Int32 {
    let board = shape.board()
    do {
      let counts = try Enumeration.count(board)
      Console.line(json ? Formatting.countJSON(board, counts) : Formatting.countText(board, counts))
      return ExitCode.success
    } catch {
      printError(error.description)
      return ExitCode.usage
    }
  }
}

/// A long search's progress on stderr: rewritten in place on a terminal; elsewhere (a log, a
/// pipe) a line every 10 seconds, so that the file shows how far the search got.
private final class ProgressLine: Sendable {
  private let isTerminal = isatty(STDERR_FILENO) == 1
  private let lastLine = Mutex<ContinuousClock.Instant?>(nil)

  func show(_ text: String) {
    if isTerminal {
      Console.error("\r\(text)\u{1B}[K")
      return
    }
    let now = ContinuousClock.now
    let isDue = lastLine.withLock { last in
      if let last, now - last < .seconds(10) { return false }
      last = now
      return true
    }
    if isDue { Console.error("\(text)\n") }
  }

  /// Clears the line on a terminal.
  func finish() {
    if isTerminal { Console.error("\r\u{1B}[K") }
  }
}
