// Tests of TicTacToeCLI.
