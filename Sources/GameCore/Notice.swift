public import GameRules

/// Something said to the player about their last action.
///
/// A refusal, or what undo, redo or a hint did. Its sentence lives in the presentation; front
/// ends show it.
public struct Notice: Equatable, Sendable {
  /// What is said.
  public var kind: Kind
  /// The notice's place among all notices posted, so that saying the same twice is a change.
  public var number: Int

  /// What a notice says.
  public enum Kind: Equatable, Sendable {
    /// The move is illegal: the cell is taken, off the board, or the game is over.
    case refused(MoveError)
    /// It is the computer's move.
    case notYourTurn
    /// The last change is still being written.
    case stillSaving
    /// A question waits for yes or no.
    case answerYesOrNo
    /// The game stopped after a failed write.
    case stopped
    /// Undo has no move of a person to take back.
    case nothingToUndo
    /// Redo has nothing undone to play again.
    case nothingToRedo
    /// Undo took back this many moves.
    case undone(Int)
    /// Redo played this many moves again.
    case redone(Int)
    /// The engine suggests this cell.
    case hint(Cell)
    /// The analysis arrived (or was asked for again).
    case analysis
    /// The player answered no: the game goes on.
    case keptPlaying
    /// The engine found no move to play.
    case noMoveFound
    /// A digit was typed on a board other than 3×3.
    case digitsNeedTheClassicBoard
    /// Plain mode asked for help.
    case help
    /// Plain mode asked to see the board.
    case board
    /// Plain mode typed something that is not a cell or a command.
    case unknownCommand(String)
  }
}
