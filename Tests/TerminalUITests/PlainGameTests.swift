import GameCore
import GameRules
import TestSupport
import Testing

@testable import TerminalUI

struct PlainGameTests {
  private func state(
    _ settings: GameSettings = .hotSeat, moves: [Cell] = []
  ) throws -> GameFeature.State {
    GameFeature.State(
      settings: settings, game: try Game(start: .classic, moves: moves), startedAt: 0)
  }

  @Test func commandsAndMovesParse() {
    func parse(_ line: String, size: Int = 3) -> PlainCommand {
      PlainCommand(parsing: line, rows: size, columns: size)
    }
    #expect(parse("b2") == .play(.b2))
    #expect(parse("  B2 \r") == .play(.b2))
    #expect(parse("5") == .play(.b2))
    #expect(parse("9") == .play(.c3))
    #expect(parse("5", size: 4) == .unknown("5"))
    #expect(parse("0") == .unknown("0"))
    #expect(parse("undo") == .undo)
    #expect(parse("u") == .undo)
    #expect(parse("redo") == .redo)
    #expect(parse("hint") == .hint)
    #expect(parse("new") == .newGame)
    #expect(parse("play again") == .newGame)
    #expect(parse("quit") == .quit)
    #expect(parse("Q") == .quit)
    #expect(parse("help") == .help)
    #expect(parse("") == .nothing)
    #expect(parse("dance") == .unknown("dance"))
  }

  @Test func takenAndOffBoardMovesAreRefusedWithTheCoreSentence() throws {
    let state = try state(moves: [.b2])
    #expect(PlainGame.respond(to: "b2", state: state) == .say("b2 is taken."))
    #expect(PlainGame.respond(to: "z9", state: state) == .say("z9 is not on the board."))
    #expect(PlainGame.respond(to: "a1", state: state) == .send([.cellTapped(.a1)]))
  }

  @Test func unknownCommandSaysWhatWorks() throws {
    let response = PlainGame.respond(to: "dance", state: try state())
    #expect(response == .say("Unknown command \"dance\". \(PlainGame.help)"))
  }

  @Test func quitQuestionTakesYesOrNo() throws {
    var state = try state(moves: [.b2])
    state.isConfirmingQuit = true
    #expect(PlainGame.respond(to: "yes", state: state) == .send([.quitConfirmed]))
    #expect(PlainGame.respond(to: "n", state: state) == .send([.quitCancelled]))
    #expect(
      PlainGame.respond(to: "b1", state: state)
        == .say("Quit this game? It will not be saved. Type yes or no."))
  }

  @Test func narratorSaysEachMoveOnceThenTheBoardAndTitle() throws {
    var narrator = PlainGame.Narrator()
    #expect(
      narrator.lines(for: try state()) == [
        Board.classic.diagram, "Blob, place your X",
      ])
    let afterMove = try state(moves: [.b2])
    #expect(
      narrator.lines(for: afterMove) == [
        "X plays b2.", afterMove.board.diagram, "Blob Jr, place your O",
      ])
    #expect(narrator.lines(for: afterMove).isEmpty)
  }

  @Test func narratorWaitsForTheComputerBeforeTheBoard() throws {
    var narrator = PlainGame.Narrator()
    _ = narrator.lines(for: try state(.versusComputer))
    var thinking = try state(.versusComputer, moves: [.b2])
    thinking.isThinking = true
    #expect(narrator.lines(for: thinking) == ["X plays b2.", "Computer is thinking…"])
    let answered = try state(.versusComputer, moves: [.b2, .a1])
    #expect(
      narrator.lines(for: answered) == [
        "O plays a1.", answered.board.diagram, "Blob, place your X",
      ])
  }

  @Test func narratorAnnouncesTheResultAfterTheBoard() throws {
    var narrator = PlainGame.Narrator()
    _ = narrator.lines(for: try state(moves: [.a1, .b1, .b2, .c1]))
    let won = try state(moves: [.a1, .b1, .b2, .c1, .c3])
    #expect(
      narrator.lines(for: won) == [
        "X plays c3.", won.board.diagram, "X wins with a1, b2, c3.",
        "Winner! Congrats Blob!",
      ])
  }

  @Test func narratorSaysUndoAndShowsTheBoard() throws {
    var narrator = PlainGame.Narrator()
    _ = narrator.lines(for: try state(moves: [.a1, .b2]))
    let undone = try state(moves: [.a1])
    #expect(
      narrator.lines(for: undone) == [
        "One move taken back.", undone.board.diagram, "Blob Jr, place your O",
      ])
    let empty = try state()
    _ = narrator.lines(for: try state(moves: [.a1, .b2]))
    #expect(
      narrator.lines(for: empty) == [
        "2 moves taken back.", empty.board.diagram, "Blob, place your X",
      ])
  }

  @Test func narratorSaysHintsAndQuestions() throws {
    var narrator = PlainGame.Narrator()
    var state = try state(moves: [.a1])
    _ = narrator.lines(for: state)
    state.hint = .b2
    #expect(narrator.lines(for: state) == ["Hint: b2."])
    state.isConfirmingQuit = true
    #expect(narrator.lines(for: state) == ["Quit this game? It will not be saved. Type yes or no."])
  }

  @Test func colorModeHonoursNoColorAndTheFlag() {
    #expect(ColorMode.detect(noColorFlag: false, environment: [:]) == .color)
    #expect(ColorMode.detect(noColorFlag: true, environment: [:]) == .monochrome)
    #expect(ColorMode.detect(noColorFlag: false, environment: ["NO_COLOR": "1"]) == .monochrome)
    #expect(ColorMode.detect(noColorFlag: false, environment: ["NO_COLOR": ""]) == .color)
    #expect(ColorMode.detect(noColorFlag: false, environment: ["TERM": "dumb"]) == .none)
  }
}
