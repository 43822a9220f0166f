import GameProtocol
import ServerLive
import Testing
import TicTacToeCLI

struct OnlineParsingTests {
  private func online(_ arguments: [String]) throws -> OnlinePlay? {
    guard case .play(let options) = try Command.parse(arguments) else {
      Issue.record("expected play")
      return nil
    }
    return options.online
  }

  @Test func newJoinAndWatchPlayOnline() throws {
    #expect(
      try online([
        "play", "--server", "example.org", "--user", "ann", "--new", "--size", "4", "--k", "3",
        "--first", "random",
      ]) == .create(GameOptions(rows: 4, columns: 4, k: 3, first: .random)))
    #expect(
      try online(["play", "--server", "[::1]:7000", "--user", "ann", "--join", "abc-234"])
        == .join(code: "ABC234"))
    #expect(try online(["play", "--server", "h:1", "--watch", "ABC234"]) == .watch(code: "ABC234"))
    #expect(try online(["play", "--x", "Ada"]) == nil)
    // Without one of them, full screen opens Sign in with the server filled in.
    #expect(try online(["play", "--server", "h:1", "--user", "ann"]) == .signIn)
    #expect(try online(["play", "--server", "h:1"]) == .signIn)
  }

  @Test func onlineOptionsThatDoNotFitAreRefused() {
    for arguments in [
      ["play", "--new"],
      ["play", "--join", "ABC234"],
      ["play", "--server", "h", "--user", "ann", "--plain"],
      ["play", "--server", "h", "--user", "ann", "--password-stdin"],
      ["play", "--server", "h", "--user", "ann", "--new", "--join", "ABC234"],
      ["play", "--server", "h", "--new"],
      ["play", "--server", "h", "--user", "ann", "--new", "--computer", "o"],
      ["play", "--server", "h", "--user", "ann", "--new", "--first", "alternate"],
      ["play", "--server", "h", "--user", "ann", "--join", "ABC234", "--size", "5"],
      ["play", "--server", "h", "--user", "ann", "--watch", "ABC234"],
      ["play", "--server", "h", "--user", "ann", "--join", "ABC1O0"],
      ["play", "--server", "not a host", "--user", "ann", "--new"],
      ["play", "--server", "h:99999", "--user", "ann", "--new"],
      ["games"],
      ["games", "--server", "h", "--server-fingerprint", "SHA256:abc"],
      ["account", "list", "--server", "h"],
      ["stats", "ann", "--server-fingerprint", "SHA256:" + String(repeating: "a", count: 64)],
      ["history", "ann", "--server", "not a host"],
      ["replay", "12", "--server-fingerprint", "SHA256:00"],
      ["serve", "--listen", "nowhere:port"],
      ["serve", "--reconnect-grace", "0"],
      ["serve", "--user", "ann"],
    ] {
      #expect(throws: UsageError.self, "\(arguments)") { try Command.parse(arguments) }
    }
  }

  @Test func addressNotOnThisComputerIsRefusedWithoutTheHintOfAnotherServer() throws {
    let database = try TemporaryDatabase()
    // 192.0.2.1 (TEST-NET-1) is never an address of this computer: bind fails with
    // EADDRNOTAVAIL, which says nothing of another server.
    let result = try database.run(
      "serve", "--listen", "192.0.2.1:0", "--database", database.path)
    #expect(result.status == 1)
    // The address is tried first, so nothing else is said or made.
    #expect(
      result.error
        == "tictactoe serve: Cannot listen on 192.0.2.1:0: Cannot assign requested address.\n")
  }

  @Test func serverWithoutAGameOffTheTerminalSaysWhatIsMissing() throws {
    let database = try TemporaryDatabase()
    let result = try database.run("play", "--server", "127.0.0.1:1", "--user", "ann")
    #expect(result.status == 2)
    #expect(
      result.error
        == "tictactoe: Playing on a server needs --new, --join CODE or --watch CODE (or a "
        + "terminal, for Sign in).\n")
    #expect(result.output.isEmpty)
  }

  @Test func serveTakesAnAddressADatabaseAndAGrace() throws {
    guard
      case .serve(let options) = try Command.parse([
        "serve", "--listen", "127.0.0.1:0", "--database", "/tmp/s.sqlite", "--reconnect-grace",
        "5",
      ])
    else {
      Issue.record("expected serve")
      return
    }
    #expect(options.listen == ServerAddress(host: "127.0.0.1", port: 0))
    #expect(options.database == "/tmp/s.sqlite")
    #expect(options.reconnectGraceSeconds == 5)
    guard case .serve(let defaults) = try Command.parse(["serve"]) else {
      Issue.record("expected serve")
      return
    }
    #expect(defaults.listen == nil)
    #expect(defaults.reconnectGraceSeconds == 60)
  }

  @Test func addressesAreReadAsTyped() throws {
    #expect(ServerAddress(parsing: "example.org") == ServerAddress(host: "example.org", port: 7457))
    #expect(
      ServerAddress(parsing: "example.org:80") == ServerAddress(host: "example.org", port: 80))
    #expect(ServerAddress(parsing: "[::1]:9") == ServerAddress(host: "::1", port: 9))
    #expect(ServerAddress(parsing: "::1") == ServerAddress(host: "::1", port: 7457))
    #expect(ServerAddress(parsing: "[::1]") == ServerAddress(host: "::1", port: 7457))
    #expect(ServerAddress(parsing: "[::1]:9")?.description == "[::1]:9")
    #expect(
      ServerAddress(parsing: "2001:db8:0:0:0:0:0:1")
        == ServerAddress(host: "2001:db8:0:0:0:0:0:1", port: 7457))
    let bad = [
      "", ":80", "host:", "host:x", "host:70000", "[::1", "[host]:1", "a b", "h\u{1B}",
      "127.0.0.1:7457:1", "host:1:2",
    ]
    for bad in bad {
      #expect(ServerAddress(parsing: bad) == nil, "\(bad)")
    }
    // Port 0 is any free port to a server listening, and no port to connect to.
    #expect(ServerAddress(parsing: "127.0.0.1:0")?.port == 0)
    for free in ["localhost:0", "[::1]:0"] {
      #expect(ServerAddress(connectingTo: free) == nil, "\(free)")
    }
    #expect(ServerAddress(connectingTo: "example.org") == ServerAddress(host: "example.org"))
    let refused = try run(arguments: ["games", "--server", "localhost:0"])
    #expect(refused.status == 2)
    #expect(
      refused.error
        == "tictactoe: The option --server needs HOST or HOST:PORT with a port from 1 to 65535, "
        + "such as example.org or 127.0.0.1:7457, not \"localhost:0\".\n")
  }
}
