import GameAI
import GameRules
import Synchronization
import Testing
import TicTacToeCLI

/// The Gomocup protocol's session, every message in every state, with a stand-in engine that
/// plays the first empty cell.
struct PbrainSessionTests {
  /// What the session was asked to think with, by the last move.
  final class Asked {
    var budget: Duration?
    var memory: Int?
  }

  func session(_ asked: Asked = Asked()) -> PbrainSession {
    PbrainSession(k: 5, defaultTurn: .seconds(1)) { board, budget, memory in
      asked.budget = budget
      asked.memory = memory
      return board.emptyCells.first.map { ChosenMove(cell: $0) }
    }
  }

  /// Feeds `lines` and returns the last answer.
  @discardableResult
  func feed(_ session: inout PbrainSession, _ lines: String...) -> [String] {
    var answer: [String] = []
    for line in lines { answer = session.respond(to: line) }
    return answer
  }

  /// The states a session can be in, each reached by a script.
  static let states: [(name: String, script: [String])] = [
    ("before START", []),
    ("empty board", ["START 15"]),
    ("brain to move after BOARD", ["START 15", "BOARD", "7,7,2", "DONE"]),
    ("game in progress", ["START 15", "BEGIN", "TURN 7,8"]),
    ("reading BOARD", ["START 15", "BOARD", "7,7,2"]),
    // The brain answered 0,0 and 1,0; with its move taken back, it is to move again.
    ("brain's move taken back", ["START 15", "BEGIN", "TURN 7,8", "TAKEBACK 1,0"]),
    (
      "game over",
      [
        "START 15", "BOARD", "0,0,1", "1,0,1", "2,0,1", "3,0,1", "0,1,2", "1,1,2", "2,1,2",
        "3,1,2", "DONE", "TURN 5,1",
      ]
    ),
  ]

  /// Every message, with the kind of answer it gets in each state (in `states` order).
  ///
  /// While a BOARD is read, any line but a stone, DONE or END gets no answer of its own: the
  /// BOARD is refused at its DONE, with one error (``aBadBoardLineIsAnsweredOnceAtDone()``).
  static let messages: [(line: String, expected: [Kind])] = [
    ("START 15", [.ok, .ok, .ok, .ok, .none, .ok, .ok]),
    ("START 40", [.error, .error, .error, .error, .none, .error, .error]),
    ("RECTSTART 10,7", [.ok, .ok, .ok, .ok, .none, .ok, .ok]),
    ("RESTART", [.error, .ok, .ok, .ok, .none, .ok, .ok]),
    ("BEGIN", [.error, .move, .error, .error, .none, .error, .error]),
    ("TURN 9,9", [.error, .move, .move, .move, .none, .error, .error]),
    ("TURN 99,9", [.error, .error, .error, .error, .none, .error, .error]),
    ("BOARD", [.none, .none, .none, .none, .none, .none, .none]),
    ("DONE", [.unknown, .unknown, .unknown, .unknown, .move, .unknown, .unknown]),
    ("8,8,2", [.unknown, .unknown, .unknown, .unknown, .none, .unknown, .unknown]),
    ("INFO timeout_turn 500", [.none, .none, .none, .none, .none, .none, .none]),
    ("INFO timeout_turn soon", [.error, .error, .error, .error, .none, .error, .error]),
    ("INFO rule 0", [.none, .none, .none, .none, .none, .none, .none]),
    ("INFO rule 4", [.error, .error, .error, .error, .none, .error, .error]),
    ("TAKEBACK 1,0", [.error, .error, .error, .ok, .none, .error, .error]),
    ("ABOUT", [.about, .about, .about, .about, .none, .about, .about]),
    ("FROBNICATE", [.unknown, .unknown, .unknown, .unknown, .none, .unknown, .unknown]),
    ("END", [.none, .none, .none, .none, .none, .none, .none]),
  ]

  enum Kind: Equatable {
    case none, ok, move, error, unknown, about
  }

  func kind(_ answer: [String]) -> Kind {
    guard let last = answer.last else { return .none }
    if last == "OK" { return .ok }
    if last.hasPrefix("ERROR ") { return .error }
    if last.hasPrefix("UNKNOWN ") { return .unknown }
    if last.hasPrefix("name=") { return .about }
    let parts = last.split(separator: ",")
    if parts.count == 2, parts.allSatisfy({ Int($0) != nil }) { return .move }
    return .none
  }

  @Test(arguments: states.indices)
  func everyMessageGetsTheRightAnswerInEveryState(state: Int) {
    for message in PbrainSessionTests.messages {
      var brain = session()
      for line in PbrainSessionTests.states[state].script { _ = brain.respond(to: line) }
      let answer = brain.respond(to: message.line)
      #expect(
        kind(answer) == message.expected[state],
        "\(message.line) in state \(PbrainSessionTests.states[state].name): \(answer)")
      if message.line == "END" { #expect(brain.hasEnded) }
      // In a BOARD, a line that is not a stone leaves one error for its DONE.
      if PbrainSessionTests.states[state].name == "reading BOARD", !message.line.hasSuffix(",2"),
        !["DONE", "END"].contains(message.line)
      {
        let done = brain.respond(to: "DONE")
        #expect(done.count == 1 && done[0].hasPrefix("ERROR "), "\(message.line): \(done)")
      }
    }
  }

  /// A manager expects one answer to a BOARD: a bad line among the stones is reported once, at
  /// DONE, and the lines after it are stones, not commands.
  @Test func aBadBoardLineIsAnsweredOnceAtDone() {
    var brain = session()
    feed(&brain, "START 15", "BEGIN")
    let before = brain.game
    let answers = ["BOARD", "7,7,1", "7,8", "8,8,2", "TURN 1,1", "DONE"].map {
      brain.respond(to: $0)
    }
    #expect(
      answers == [
        [], [], [], [], [],
        [
          "ERROR \"7,8\" is not a BOARD line, which is x,y,field such as 7,7,1; the board is "
            + "left as it was"
        ],
      ])
    #expect(brain.game == before)
    #expect(feed(&brain, "ABOUT").first?.hasPrefix("name=") == true)
  }

  @Test func aBoardBeforeStartIsAnsweredOnceAtDone() {
    var brain = session()
    let answers = ["BOARD", "7,7,1", "8,8,2", "DONE"].map { brain.respond(to: $0) }
    #expect(answers == [[], [], [], ["ERROR no board yet; send START first"]])
    #expect(feed(&brain, "START 15") == ["OK"])
  }

  @Test func aStoneGivenTwiceIsNamedWhateverTheCounts() {
    var brain = session()
    feed(&brain, "START 15")
    #expect(
      feed(&brain, "BOARD", "7,7,1", "7,7,1", "8,8,2", "DONE")
        == ["ERROR 7,7 is given twice; the board is unchanged"])
    #expect(feed(&brain, "TAKEBACK 7,7") == ["ERROR there is no move to take back"])
  }

  /// A stone off the board is named as such, whatever the counts of the others.
  @Test func aStoneOffTheBoardIsNamedWhateverTheCounts() {
    var brain = session()
    feed(&brain, "RECTSTART 10,7")
    for line in ["10,1,1", "1,7,2", "-1,0,1"] {
      let stone = line.split(separator: ",").prefix(2).joined(separator: ",")
      #expect(
        feed(&brain, "BOARD", line, "DONE")
          == ["ERROR \(stone) is off the board; the board is unchanged"], "\(line)")
    }
    #expect(brain.game?.board.markCount == 0)
  }

  @Test func movesAreColumnCommaRowFromTheTopLeft() {
    var brain = session()
    feed(&brain, "RECTSTART 10,7")
    #expect(brain.game?.board.rows == 7 && brain.game?.board.columns == 10)
    // The stand-in plays the first empty cell in reading order: 0,0, then 1,0 after 0,0.
    #expect(feed(&brain, "BEGIN").last == "0,0")
    #expect(feed(&brain, "TURN 9,6").last == "1,0")
    #expect(brain.game?.board[Cell(row: 6, column: 9)] == .o)
  }

  @Test func aSearchReportBecomesAMessageBeforeTheMove() {
    var brain = PbrainSession(k: 5, defaultTurn: .seconds(1)) { board, _, _ in
      let cell = board.emptyCells[0]
      let proven = board.markCount > 0
      return ChosenMove(
        cell: cell,
        search: SearchReport(
          depth: proven ? 3 : 11,
          evaluation: Evaluation(value: proven ? .win : .draw, plies: 3, isExact: proven),
          estimate: proven ? nil : 35, nodes: 812_345))
    }
    feed(&brain, "START 15")
    let first = feed(&brain, "BEGIN")
    #expect(first.count == 3 && first[0].hasPrefix("DEBUG budget "), "\(first)")
    #expect(first[1].hasPrefix("MESSAGE depth 11 | eval +35 | nodes 812345 | "), "\(first)")
    #expect(first[1].hasSuffix(" ms") && first[2] == "0,0", "\(first)")
    let second = feed(&brain, "TURN 9,9")
    #expect(second[1].hasPrefix("MESSAGE depth 3 | eval win in 3 | nodes 812345 | "))
    // Without a report, no message.
    var plain = session()
    feed(&plain, "START 15")
    #expect(feed(&plain, "BEGIN").count == 2)
  }

  @Test func startGetsTheEngineReadyForTheBoardAndTheMemoryLimit() {
    var brain = session()
    let asked = Mutex<[String]>([])
    brain.prepare = { board, memory in
      asked.withLock {
        $0.append("\(board.columns)x\(board.rows) \(memory.map(String.init) ?? "-")")
      }
    }
    // A memory limit before any START waits for one.
    feed(&brain, "INFO max_memory 50000000", "START 15")
    // After START, as managers send it, the tables are made for it at once, not in the first
    // move.
    feed(&brain, "INFO max_memory 83886080", "RECTSTART 8,7")
    feed(&brain, "START 99")
    // A refused size prepares nothing; BEGIN and TURN never prepare.
    feed(&brain, "BEGIN")
    #expect(
      asked.withLock { $0 } == ["15x15 50000000", "15x15 83886080", "8x7 83886080"])
  }

  @Test func boardSetsUpThePositionWithTheBrainToMove() {
    var brain = session()
    // Two own stones and two of the opponent's: the brain moved first.
    let answer = feed(&brain, "START 15", "BOARD", "7,7,1", "7,8,2", "8,7,1", "8,8,2", "DONE")
    #expect(answer.last == "0,0")
    #expect(brain.game?.board[Cell(row: 7, column: 7)] == .x)
    #expect(brain.game?.board[Cell(row: 8, column: 7)] == .o)
    // One opponent's stone more: the opponent moved first.
    feed(&brain, "BOARD", "7,7,2", "DONE")
    #expect(brain.game?.board[Cell(row: 7, column: 7)] == .x)
    #expect(brain.game?.board[Cell(row: 0, column: 0)] == .o)
  }

  @Test func badBoardsAreRefusedAndLeaveThePositionAsItWas() {
    var brain = session()
    feed(&brain, "START 15", "BEGIN")
    let before = brain.game
    for script in [
      ["BOARD", "7,7,1", "7,8,1", "DONE"],  // two own, no opponent's: not the brain's turn
      ["BOARD", "7,7,1", "7,7,2", "DONE"],  // one cell twice
      ["BOARD", "7,7,3", "DONE"],  // continuous-game field
      ["BOARD", "17,7,2", "DONE"],  // off the board
      ["BOARD", "seven", "DONE"],  // not a stone
    ] {
      let answers = script.flatMap { brain.respond(to: $0) }
      #expect(answers.contains { $0.hasPrefix("ERROR") }, "\(script): \(answers)")
      #expect(!answers.contains { kind([$0]) == .move }, "\(script): \(answers)")
      #expect(brain.game == before, "\(script)")
    }
  }

  @Test func sizesItDoesNotPlayAreRefusedWithTheRange() {
    var brain = session()
    let range = ": this brain plays boards of 5 to 15 on each side"
    #expect(feed(&brain, "START 20") == ["ERROR unsupported size 20×20" + range])
    #expect(feed(&brain, "RECTSTART 16,4") == ["ERROR unsupported size 16×4" + range])
    #expect(feed(&brain, "START -5") == ["ERROR no board" + range])
    #expect(feed(&brain, "RECTSTART 5,0") == ["ERROR no board" + range])
    #expect(feed(&brain, "BEGIN") == ["ERROR no board yet; send START first"])
  }

  @Test func unsupportedRulesAreRefusedWithTheReason() {
    var brain = session()
    let answers = [1, 2, 4, 8, 5].map { feed(&brain, "INFO rule \($0)").first ?? "" }
    #expect(answers[0].contains("exactly five"))
    #expect(answers[1].contains("continuous"))
    #expect(answers[2].contains("renju"))
    #expect(answers[3].contains("caro"))
    #expect(answers[4].contains("exactly five") && answers[4].contains("renju"))
    #expect(answers.allSatisfy { $0.hasPrefix("ERROR rule ") && $0.contains("freestyle") })
  }

  @Test func theBudgetKeepsToTheTurnAndToAShareOfTheMatch() {
    let asked = Asked()
    var brain = session(asked)
    feed(&brain, "START 15", "INFO timeout_turn 300", "BEGIN")
    // 300 ms less the reserve: a tenth (at most 60 ms) and 5 ms.
    #expect(asked.budget == .milliseconds(265))
    feed(&brain, "INFO timeout_match 100000", "INFO time_left 2000", "TURN 9,9")
    // 2 s over a quarter of the 223 empty cells (55 moves): 36 ms, less 3.6 + 5 ms.
    #expect(asked.budget == .microseconds(27_400))
    feed(&brain, "INFO timeout_turn 0", "INFO time_left 100000", "TURN 9,10")
    #expect(asked.budget == .milliseconds(13))
    feed(&brain, "INFO max_memory 70000000", "TURN 9,11")
    #expect(asked.memory == 70_000_000)
    feed(&brain, "INFO max_memory 0", "TURN 9,12")
    #expect(asked.memory == nil)
  }

  @Test func aMatchLimitWithoutTheTimeLeftIsSharedOverTheMoves() {
    // 1 s for the match, nothing said of what is left: 1 s over 56 moves (17 ms) less 6.7 ms,
    // not the whole match on the first move.
    let budget = PbrainSession.budget(
      .init(match: 1_000), default: .seconds(1), emptyCells: 225)
    #expect(budget == .microseconds(10_300))
  }

  @Test func budgetsNeverExceedTheTurnOrTheTimeLeft() {
    for turn in [0, 1, 5, 50, 100, 1_000, 30_000] {
      for left in [0, 1, 100, 5_000, 1_000_000] {
        for empties in [1, 50, 225] {
          let budget = PbrainSession.budget(
            .init(turn: turn, match: 1_000_000, left: left), default: .seconds(1),
            emptyCells: empties)
          #expect(budget <= .milliseconds(max(turn, 20)), "\(turn) \(left) \(empties)")
          #expect(budget <= .milliseconds(max(left, 1)), "\(turn) \(left) \(empties)")
          #expect(budget > .zero)
        }
      }
    }
  }

  @Test func takeBackRemovesOnlyTheLastMove() {
    var brain = session()
    feed(&brain, "START 15", "BEGIN", "TURN 5,5")
    // The brain answered 1,0 after 0,0 and 5,5.
    #expect(feed(&brain, "TAKEBACK 5,5").last?.hasPrefix("ERROR") == true)
    #expect(feed(&brain, "TAKEBACK 1,0") == ["OK"])
    #expect(feed(&brain, "TAKEBACK 5,5") == ["OK"])
    #expect(brain.game?.moves == [Cell(row: 0, column: 0)])
  }

  @Test func aTakenBackMoveOfTheBrainsLeavesItToMove() {
    var brain = session()
    feed(&brain, "START 15", "BEGIN", "TURN 7,8")
    // The brain played 0,0 and 1,0 as X. With 1,0 taken back, X is to move: a TURN now would
    // give the opponent's stone the brain's mark.
    #expect(feed(&brain, "TAKEBACK 1,0") == ["OK"])
    #expect(feed(&brain, "TURN 9,9").last?.hasPrefix("ERROR it is this brain's turn") == true)
    #expect(brain.game?.moves == [Cell(row: 0, column: 0), Cell(row: 8, column: 7)])
    #expect(feed(&brain, "TAKEBACK 7,8") == ["OK"])
    #expect(feed(&brain, "TURN 9,9").last == "1,0")
    #expect(brain.game?.board[Cell(row: 0, column: 0)] == .x)
    #expect(brain.game?.board[Cell(row: 9, column: 9)] == .o)
    #expect(brain.game?.board[Cell(row: 0, column: 1)] == .x)
    // Taken back to an empty board, either side may start again.
    feed(&brain, "TAKEBACK 1,0", "TAKEBACK 9,9", "TAKEBACK 0,0")
    #expect(feed(&brain, "TURN 7,7").last == "0,0")
    #expect(brain.game?.board[Cell(row: 0, column: 0)] == .o)
  }

  @Test func hostileLinesGetOneShortAnswer() {
    var brain = session()
    let long = String(repeating: "A", count: 100_000)
    let answer = feed(&brain, long)
    #expect(answer.count == 1)
    #expect(answer[0].count < 100)
    let escape = feed(&brain, "\u{1B}[2J START 15\u{7}")
    #expect(escape.allSatisfy { !$0.unicodeScalars.contains { $0.value < 32 } })
    #expect(feed(&brain, "start 15\r") == ["OK"])
    #expect(feed(&brain, "TURN -1,4").last?.hasPrefix("ERROR") == true)
    #expect(feed(&brain, "TURN 4").last?.hasPrefix("ERROR") == true)
    #expect(feed(&brain, "TURN 99999999999999999999,4").last?.hasPrefix("ERROR") == true)
    #expect(
      feed(&brain, "START 99999999999999999999")
        == ["ERROR START 99999999999999999999 is too large a board; this brain plays up to 15"])
    for (key, zero) in [
      ("timeout_turn", "0 asks for the fastest move"), ("timeout_match", "0 means no limit"),
    ] {
      #expect(
        feed(&brain, "INFO \(key) -5")
          == ["ERROR INFO \(key) -5 is not a time (\(zero)); the setting is left as it was"])
    }
    // Over its match time, the brain has none left: it moves at once, as for 0.
    #expect(feed(&brain, "INFO time_left -5").isEmpty)
    #expect(
      feed(&brain, "INFO timeout_turn lots")
        == [
          "ERROR INFO timeout_turn needs a whole number of milliseconds, such as "
            + "INFO timeout_turn 5000; the setting is left as it was"
        ])
    #expect(
      feed(&brain, "INFO max_memory 99999999999999999999")
        == [
          "ERROR INFO max_memory 99999999999999999999 is too large; the setting is left as it was"
        ])
    #expect(
      feed(&brain, "INFO max_memory -5")
        == [
          "ERROR max_memory -5 is not a number of bytes (0 means no limit); the setting is left "
            + "as it was"
        ])
    #expect(
      feed(&brain, "INFO rule -1")
        == [
          "ERROR rule -1 is not a Gomocup rule (a sum of 1, 2, 4 and 8); this brain plays "
            + "freestyle, rule 0"
        ])
    // A limit below what the program itself takes is said, not silently broken.
    #expect(
      feed(&brain, "INFO max_memory 10000000")
        == [
          "ERROR max_memory 10000000 is less than the 40 MB this brain needs; it plays on in as "
            + "little as it can"
        ])
    #expect(feed(&brain, "INFO max_memory 83886080").isEmpty)
    #expect(feed(&brain, "INFO max_memory 0").isEmpty)
  }

  /// C1 controls (U+009B is a one-character CSI to many terminals), direction overrides and
  /// other characters that do not print are never quoted back, whatever the command.
  @Test(arguments: ["\u{9B}31m", "\u{85}", "\u{202E}", "\u{200B}", "\u{E000}", "\u{1B}"])
  func answersQuoteNoCharacterThatDoesNotPrint(hidden: String) {
    var brain = session()
    let lines = [
      "FOO\(hidden)BAR", "START 15", "TURN 3,\(hidden)4", "TAKEBACK \(hidden)", "BOARD",
      "1,\(hidden)1,1", "INFO rule \(hidden)", "RECTSTART \(hidden)",
    ]
    for line in lines {
      for answer in feed(&brain, line) {
        let printable = answer.unicodeScalars.allSatisfy { $0.isPrintable }
        #expect(printable, "\(line.debugDescription)")
      }
    }
    // What is left of a line once such characters are dropped is read as usual.
    var fresh = session()
    #expect(feed(&fresh, "ST\u{202E}AR\u{85}T\u{9B} 15") == ["OK"])
  }
}
