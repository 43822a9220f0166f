// The TicTacToeCLI module.
