public import DatabaseClient
public import GameRules

/// Who plays: two people, a person against the computer, or the computer against itself.
public enum GameMode: Hashable, Sendable, CaseIterable {
  /// Two people at one keyboard.
  case hotSeat
  /// A person against the computer.
  case versusComputer
  /// The computer against itself, to watch.
  case computerVersusComputer
}

/// Who makes the first move of each game.
public enum StartingRule: Hashable, Sendable, CaseIterable {
  /// X always starts.
  case x
  /// O always starts.
  case o
  /// The sides take turns starting, X first.
  case alternate
  /// A coin toss before each game.
  case random

  /// Who starts a game under this rule.
  ///
  /// - Parameters:
  ///   - previous: Who started the game before, or `nil` for the first game.
  ///   - random: The coin for ``random``.
  /// - Returns: The first mover.
  public func firstMover(after previous: Mark?, random: RandomClient) -> Mark {
    switch self {
    case .x: .x
    case .o: .o
    case .alternate: previous?.opponent ?? .x
    case .random: random.int(0..<2) == 0 ? .x : .o
    }
  }
}

/// Everything chosen on the New game screen.
public struct GameSettings: Equatable, Sendable {
  /// X's name, trimmed.
  public var xName: String
  /// O's name, trimmed.
  public var oName: String
  /// Who plays.
  public var mode: GameMode
  /// The computer's side when ``mode`` is ``GameMode/versusComputer``.
  public var computerMark: Mark
  /// The computer's strength.
  public var difficulty: Difficulty
  /// The board's rows.
  public var rows: Int
  /// The board's columns.
  public var columns: Int
  /// How many in a row win.
  public var k: Int
  /// Who starts each game.
  public var startingRule: StartingRule
  /// The signed-in account, or `nil` for a guest.
  public var accountID: Int64?
  /// In a game of two people, the side the signed-in account plays: X unless O carries the
  /// account's name and X does not.
  public var hotSeatAccountSide: Mark = .x

  /// Creates settings; the defaults are a classic hot-seat game.
  public init(
    xName: String, oName: String, mode: GameMode = .hotSeat, computerMark: Mark = .o,
    difficulty: Difficulty = .unbeatable, rows: Int = 3, columns: Int = 3, k: Int = 3,
    startingRule: StartingRule = .x, accountID: Int64? = nil
  ) {
    self.xName = xName
    self.oName = oName
    self.mode = mode
    self.computerMark = computerMark
    self.difficulty = difficulty
    self.rows = rows
    self.columns = columns
    self.k = k
    self.startingRule = startingRule
    self.accountID = accountID
  }

  /// Whether the computer plays `mark`.
  public func isComputer(_ mark: Mark) -> Bool {
    switch mode {
    case .hotSeat: false
    case .versusComputer: mark == computerMark
    case .computerVersusComputer: true
    }
  }

  /// The name of the player of `mark`.
  public func name(of mark: Mark) -> String { mark == .x ? xName : oName }

  /// Whose records the games go to.
  public var owner: RecordOwner { accountID.map(RecordOwner.account) ?? .guest }

  /// The name the computer plays `mark` under: `Computer`, or `Computer X` and `Computer O`
  /// when it plays both sides.
  public static func computerName(of mark: Mark, mode: GameMode) -> String {
    mode == .computerVersusComputer ? "Computer \(mark.symbol)" : "Computer"
  }

  /// The name a person plays `mark` under when none is given: `Player X`, `Player O`.
  public static func playerName(of mark: Mark) -> String { "Player \(mark.symbol)" }

  /// Whether `name` is one of the names given when none was chosen.
  static func isDefaultName(_ name: String) -> Bool {
    name.trimmingWhitespace().isEmpty
      || Mark.allCases.contains { mark in
        name == playerName(of: mark)
          || GameMode.allCases.contains { name == computerName(of: mark, mode: $0) }
      }
  }

  /// Renames the sides after the mode or the computer's side changed, so that names follow who
  /// plays.
  ///
  /// A side the computer plays gets the computer's name unless it had one of its own; the name
  /// a person had typed for it is set aside. A side a person takes back from the computer gets
  /// `personName` on the side an account plays. Then the account's name is on that side only,
  /// and a person's side left without a name gets the name of a person whose side the computer
  /// took, or a name set aside, never the other side's name; or nothing, to be filled in.
  ///
  /// - Parameters:
  ///   - old: The settings before the change.
  ///   - personName: The signed-in player's name, if any.
  ///   - setAside: The names people typed for sides the computer has taken, by side.
  public mutating func renameSides(
    after old: GameSettings, personName: String?, setAside: inout [Mark: String]
  ) {
    var displaced: [String] = []
    for mark in Mark.allCases where isComputer(mark) {
      let name = self.name(of: mark)
      if !old.isComputer(mark), !Self.isDefaultName(name), name != personName {
        setAside[mark] = name
        displaced.append(name)
      }
      guard !old.isComputer(mark) || Self.isDefaultName(name) else { continue }
      setName(Self.computerName(of: mark, mode: mode), of: mark)
    }
    let people = Mark.allCases.filter { !isComputer($0) }
    for mark in people where old.isComputer(mark) {
      // A name typed over the computer's is the player's there now.
      let typed = old.name(of: mark)
      let isAccountsSide = personName != nil && accountSide == mark
      if !Self.isDefaultName(typed), typed != personName, !isAccountsSide { continue }
      setName(personName != nil && accountSide == mark ? personName ?? "" : "", of: mark)
    }
    if let personName, people.contains(accountSide) {
      for mark in people where mark != accountSide && self.name(of: mark) == personName {
        setName("", of: mark)
      }
      // The computer took the account's side, and the account plays the other now.
      if Self.isDefaultName(self.name(of: accountSide)) { setName(personName, of: accountSide) }
    }
    for mark in people where Self.isDefaultName(self.name(of: mark)) {
      let other = self.name(of: mark.opponent)
      let candidates = displaced + [setAside[mark], setAside[mark.opponent]].compactMap { $0 }
      guard let name = candidates.first(where: { $0 != other && $0 != personName }) else {
        continue
      }
      setName(name, of: mark)
      displaced.removeAll { $0 == name }
    }
  }

  /// Sets the name of the player of `mark`.
  private mutating func setName(_ name: String, of mark: Mark) {
    if mark == .x { xName = name } else { oName = name }
  }

  /// The side whose record carries the signed-in account: the first side a person plays, or
  /// X when the computer plays both, so that the account's watched games are listed with its
  /// own (they count in no tally).
  public var accountSide: Mark {
    switch mode {
    case .hotSeat: hotSeatAccountSide
    case .versusComputer: computerMark.opponent
    case .computerVersusComputer: .x
    }
  }

  /// The settings of a recorded game, to resume it: players, mode and board from the record.
  ///
  /// - Parameters:
  ///   - record: The recorded game.
  ///   - accountID: The signed-in account, or `nil` for a guest.
  ///   - startingRule: Who starts the games after this one.
  public init(resuming record: GameRecord, accountID: Int64?, startingRule: StartingRule = .x) {
    let mode: GameMode
    var computerMark = Mark.o
    var difficulty = Difficulty.unbeatable
    switch (record.x.computer, record.o.computer) {
    case (nil, nil):
      mode = .hotSeat
    case (let skill?, nil):
      mode = .versusComputer
      computerMark = .x
      difficulty = skill
    case (nil, let skill?):
      mode = .versusComputer
      difficulty = skill
    case (let skill?, _?):
      mode = .computerVersusComputer
      difficulty = skill
    }
    self.init(
      xName: record.x.name, oName: record.o.name, mode: mode, computerMark: computerMark,
      difficulty: difficulty, rows: record.rows, columns: record.columns, k: record.k,
      startingRule: startingRule, accountID: accountID)
    if mode == .hotSeat, record.o.accountID != nil, record.x.accountID == nil {
      hotSeatAccountSide = .o
    }
  }

  /// In a game of two people, puts the signed-in account on the side that carries its name: O
  /// when O's name is the account's and X's is not, else X.
  public mutating func placeAccount(xHasItsName: Bool, oHasItsName: Bool) {
    guard mode == .hotSeat else { return }
    hotSeatAccountSide = oHasItsName && !xHasItsName ? .o : .x
  }

  /// The record of `mark`'s player: the account goes to the first side a person plays.
  func playerRecord(_ mark: Mark) -> PlayerRecord {
    PlayerRecord(
      name: name(of: mark),
      accountID: mark == accountSide ? accountID : nil,
      computer: isComputer(mark) ? difficulty : nil)
  }
}
