import AppCore
import AppLive
import Architecture
import CGTK
import DatabaseClient
import Foundation
import GTKUI
import LoginCore
import NewGameCore
import TicTacToeCLI

setvbuf(cgtk_stdout(), nil, _IOLBF, 0)

let arguments = Array(CommandLine.arguments.dropFirst())
let launch: Launch
do {
  launch = try Launch(arguments)
} catch {
  FileHandle.standardError.write(Data("tictactoe-gtk: \(error.message)\n".utf8))
  exit(CLI.ExitCode.usage)
}

var timeBudget = Duration.seconds(1)
switch launch {
case .print(let text):
  print(text)
  exit(CLI.ExitCode.success)
case .play(let options):
  if let seconds = options.seconds { timeBudget = .milliseconds(Int64(seconds * 1_000)) }
case .signIn:
  break
}

let clients: LiveClients
do {
  clients = try LiveClients(
    databasePath: Launch.databasePath(in: arguments), timeBudget: timeBudget)
} catch {
  FileHandle.standardError.write(Data("tictactoe-gtk: \(error.message)\n".utf8))
  exit(CLI.ExitCode.failure)
}

let store: Store<TicTacToe>
switch launch {
case .play(let options):
  store = Store(initialState: .newGame(options.newGameState)) { clients.app() }
  store.send(.newGame(.view(.letsPlayTapped)))
case .signIn(let userName):
  store = Store(initialState: .login(Login.State(userName: userName))) { clients.app() }
case .print:
  preconditionFailure("printing exits before the store is made")
}

let status = GTKApplication.run(store: store)
if ProcessInfo.processInfo.environment["TICTACTOE_GTK_REPORT_STALLS"] == "1" {
  print("longest main-loop stall: \(Int(GTKApplication.longestStall.rounded())) ms")
  print(
    "longest main-loop stall while the computer thinks: "
      + "\(Int(GTKApplication.longestStallWhileThinking.rounded())) ms")
}
exit(status)
