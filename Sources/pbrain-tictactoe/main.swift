import Foundation
import TicTacToeCLI

// Gomocup tournament managers run brains named pbrain-*; this is `tictactoe pbrain`.
exit(CLI.runPbrain(Array(CommandLine.arguments.dropFirst())))
