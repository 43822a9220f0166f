import AppCore
import AppLive
import Architecture
import CGTK
import Console
import DatabaseClient
import Foundation
import GTKUI
import TicTacToeCLI

setvbuf(cgtk_stdout(), nil, _IOLBF, 0)

let arguments = Array(CommandLine.arguments.dropFirst())
let invocation: Invocation
do {
  invocation = try Invocation(arguments)
} catch {
  Console.error("tictactoe-gtk: \(error.message)\n")
  exit(CLI.ExitCode.usage)
}

guard case .open(let launch, let timeBudget, let database) = invocation else {
  if case .print(let text) = invocation { Console.line(text) }
  exit(Console.finished(CLI.ExitCode.success, program: "tictactoe-gtk"))
}

let clients: LiveClients
do {
  clients = try LiveClients(
    databasePath: database, timeBudget: timeBudget)
} catch {
  Console.error("tictactoe-gtk: \(error.message)\n")
  exit(GTKApplication.runFailure(error.message))
}

let store = Store(initialState: TicTacToe.State(launch: launch)) { clients.app() }
let status = GTKApplication.run(store: store)
if ProcessInfo.processInfo.environment["TICTACTOE_GTK_REPORT_STALLS"] == "1" {
  Console.line("longest main-loop stall: \(Int(GTKApplication.longestStall.rounded())) ms")
  Console.line(
    "longest main-loop stall while the computer thinks: "
      + "\(Int(GTKApplication.longestStallWhileThinking.rounded())) ms")
}
exit(status)
