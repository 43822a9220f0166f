import GameProtocol
import GameRules
import ServerCore
import Testing

/// Every reachable 3×3 position, each with one sequence of moves that reaches it.
let reachablePositions = Board.classic.reachablePositions()

/// Cells on the board and the nearest ones off it (the wire allows up to 14).
let candidateCells =
  (0..<3).flatMap { row in (0..<3).map { Cell(row: row, column: $0) } }
  + [Cell(row: 0, column: 3), Cell(row: 3, column: 0), Cell(row: 14, column: 14)]

/// The refusal a move must get, worked out from the rules alone (or `nil`: stored).
func expectedRefusal(
  board: Board, signedIn: Bool, sender: Mark?, ply: Int, cell: Cell
) -> ErrorCode? {
  guard signedIn else { return .notSignedIn }
  guard let sender else { return .notAPlayer }
  if board.outcome.isOver { return .gameOver }
  if ply != board.markCount { return .staleMove }
  if sender != board.toMove { return .notYourTurn }
  if !board.contains(cell) { return .cellOutOfBounds }
  if board[cell] != nil { return .cellTaken }
  return nil
}

struct MoveRefusalTests {
  @Test func reachablePositionsAreAllThere() {
    #expect(reachablePositions.count == 5_478)
  }

  /// In every reachable position, every player's move at the expected number, one too early
  /// and one too late, in every cell: refused with the rules' reason and changing nothing, or
  /// (only when legal) stored without announcing anything yet.
  ///
  /// The positions are split in eight parts so the parts run in parallel.
  @Test(arguments: 0..<8)
  func everyMoveInEveryPositionIsJudgedByTheRules(part: Int) throws {
    var stored = 0
    var refused: [ErrorCode: Int] = [:]
    let positions = reachablePositions.indices.filter { $0 % 8 == part }.map {
      reachablePositions[$0]
    }
    for (board, moves) in positions {
      var match = try playingMatch(moves: moves)
      if let ending = match.boardEnding {
        match.phase = .finished(
          GameEnd(winner: ending.winner, reason: .completed, xRating: 1_200, oRating: 1_200))
      }
      let state = serverState(match)
      let senders: [(ClientID, Mark?)] = [
        (annClient, .x), (bobClient, .o), (guestClient, nil), (catClient, nil),
      ]
      for (client, mark) in senders {
        // Non-players are checked once per position, and a wrong number in one cell: after
        // the number is wrong, the cell does not matter.
        let plies = mark == nil ? [moves.count] : [moves.count - 1, moves.count, moves.count + 1]
        for ply in plies where ply >= 0 {
          let cells =
            mark != nil && ply == moves.count ? candidateCells : [Cell(row: 1, column: 1)]
          for cell in cells {
            let action = GameServer.Action.received(
              client, .move(code: code, ply: ply, cell: cell))
            let (after, hasEffect) = reduced(state, action)
            if let expected = expectedRefusal(
              board: board, signedIn: client != guestClient, sender: mark, ply: ply, cell: cell)
            {
              refused[expected, default: 0] += 1
              var unchanged = state
              let detail = expected == .staleMove ? UInt32(moves.count) : 0
              unchanged.outbox = [
                .init(client, .message(.refused(Refusal(expected, request: 0x14, detail: detail))))
              ]
              #expect(after == unchanged, "\(board) \(client) ply \(ply) \(cell)")
              #expect(!hasEffect)
            } else {
              stored += 1
              var committing = state
              committing.matches[code]?.phase = .committing(ply: ply, cell: cell)
              #expect(after == committing, "\(board) \(client) ply \(ply) \(cell)")
              #expect(hasEffect)
            }
          }
        }
      }
    }
    // Every reason showed up, and every legal move of every unfinished position was stored once.
    #expect(
      Set(refused.keys) == [
        .notSignedIn, .notAPlayer, .gameOver, .staleMove, .notYourTurn, .cellOutOfBounds,
        .cellTaken,
      ])
    let legalMoves = positions.reduce(0) {
      $0 + ($1.board.outcome.isOver ? 0 : $1.board.emptyCells.count)
    }
    #expect(stored == legalMoves)
  }

  /// While a move is being stored, nothing else is: the mover's second move is refused as busy,
  /// the opponent's as out of turn, and a repeat of the number in flight as stale once stored.
  @Test func aMoveInFlightHoldsTheGame() throws {
    for (board, moves) in reachablePositions where !board.outcome.isOver {
      var match = try playingMatch(moves: moves)
      let mover = board.toMove
      let firstLegal = try #require(board.emptyCells.first)
      match.phase = .committing(ply: moves.count, cell: firstLegal)
      let state = serverState(match)
      let moverClient = mover == .x ? annClient : bobClient
      let otherClient = mover == .x ? bobClient : annClient
      for cell in board.emptyCells {
        let again = reduced(
          state, .received(moverClient, .move(code: code, ply: moves.count, cell: cell)))
        var expected = state
        expected.outbox = [.init(moverClient, .message(.refused(Refusal(.busy, request: 0x14))))]
        #expect(again.state == expected)
        #expect(!again.hasEffect)
        let other = reduced(
          state, .received(otherClient, .move(code: code, ply: moves.count, cell: cell)))
        expected.outbox = [
          .init(otherClient, .message(.refused(Refusal(.notYourTurn, request: 0x14))))
        ]
        #expect(other.state == expected)
      }
    }
  }

  /// Before an opponent has joined, and while the game is being created or joined, no move is
  /// stored.
  @Test func noMoveBeforeTheGameStarts() throws {
    var waiting = try playingMatch()
    waiting.o = nil
    for phase in [Match.Phase.creating, .waiting, .seating(waiting.x)] {
      waiting.phase = phase
      let state = serverState(waiting)
      for cell in candidateCells {
        let (after, hasEffect) = reduced(
          state, .received(annClient, .move(code: code, ply: 0, cell: cell)))
        var expected = state
        expected.outbox = [
          .init(annClient, .message(.refused(Refusal(.gameNotStarted, request: 0x14))))
        ]
        #expect(after == expected)
        #expect(!hasEffect)
      }
    }
  }

  @Test func movesNeedAnAccountAndAGame() throws {
    let state = serverState(try playingMatch())
    for (client, text, refusal) in [
      (guestClient, code, ErrorCode.notSignedIn), (annClient, "ZZZZZZ", .noSuchGame),
      (annClient, "not a code", .noSuchGame),
    ] {
      let (after, hasEffect) = reduced(
        state, .received(client, .move(code: text, ply: 0, cell: Cell(row: 0, column: 0))))
      var expected = state
      expected.outbox = [.init(client, .message(.refused(Refusal(refusal, request: 0x14))))]
      #expect(after == expected)
      #expect(!hasEffect)
    }
  }

  @Test func codesAreReadInAnyCase() throws {
    let state = serverState(try playingMatch())
    let (after, hasEffect) = reduced(
      state, .received(annClient, .move(code: "abc-234", ply: 0, cell: Cell(row: 1, column: 1))))
    #expect(after.matches[code]?.phase == .committing(ply: 0, cell: Cell(row: 1, column: 1)))
    #expect(hasEffect)
  }
}

/// A connection signed out of its account (its password changed elsewhere) and signed in as
/// another plays and resigns no more in the first account's seat.
struct SeatOwnershipTests {
  @Test func aConnectionSignedInAsAnotherAccountCannotPlayOrResignTheSeat() throws {
    var state = serverState(try playingMatch())
    state.clients[annClient]?.account = cat
    let move = ClientMessage.move(code: code, ply: 0, cell: Cell(row: 1, column: 1))
    var (after, hasEffect) = reduced(state, .received(annClient, move))
    #expect(!hasEffect)
    #expect(
      after.outbox == [
        .init(annClient, .message(.refused(Refusal(.notAPlayer, request: move.type))))
      ])
    (after, hasEffect) = reduced(state, .received(annClient, .resign(code: code)))
    #expect(!hasEffect)
    #expect(
      after.outbox == [
        .init(annClient, .message(.refused(Refusal(.notAPlayer, request: 0x15))))
      ])
    #expect(after.matches[code] == state.matches[code])
  }
}
