import Foundation
import TicTacToeCLI

let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
