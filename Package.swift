// swift-tools-version:6.2

import Foundation
import PackageDescription

let package = Package(
  name: "tic-tac-toe",
  products: [
    .executable(name: "tictactoe", targets: ["tictactoe"]),
    .executable(name: "pbrain-tictactoe", targets: ["pbrain-tictactoe"]),
    .executable(name: "tictactoe-benchmarks", targets: ["tictactoe-benchmarks"]),
    .executable(name: "tictactoe-load", targets: ["tictactoe-load"]),
  ],
  targets: [
    // MARK: - C libraries
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CLinux"),
    .target(name: "CFuzz"),
    .target(name: "Console"),

    // MARK: - Pure core
    .target(name: "GameRules"),
    .target(name: "GameAI", dependencies: ["GameRules"]),
    .target(name: "Architecture"),
    .target(name: "GameProtocol", dependencies: ["GameRules"]),

    // MARK: - Wrappers of C libraries
    .target(name: "SQLite", dependencies: ["CSQLite"]),
    .target(name: "Crypto", dependencies: ["CCrypto"]),
    .target(name: "TLS", dependencies: ["CSSL"]),
    .target(name: "NetworkIO", dependencies: ["CLinux", "GameProtocol", "TLS"]),

    // MARK: - Clients
    .target(name: "AuthenticationClient", dependencies: ["GameRules"]),
    .target(name: "DatabaseClient", dependencies: ["GameRules"]),
    .target(name: "OnlineClient", dependencies: ["AuthenticationClient", "GameProtocol"]),
    .target(
      name: "AuthenticationClientLive",
      dependencies: [
        "AuthenticationClient", "Crypto", "DatabaseClientLive", "GameRules", "SQLite",
      ]
    ),
    .target(name: "DatabaseClientLive", dependencies: ["DatabaseClient", "GameRules", "SQLite"]),

    // MARK: - Features
    .target(
      name: "GameCore",
      dependencies: ["Architecture", "DatabaseClient", "GameAI", "GameRules"]
    ),
    .target(
      name: "NewGameCore",
      dependencies: [
        "Architecture", "AuthenticationClient", "DatabaseClient", "GameCore", "GameProtocol",
        "GameRules", "OnlineClient", "OnlineCore", "StatsCore",
      ]
    ),
    .target(
      name: "TwoFactorCore", dependencies: ["Architecture", "AuthenticationClient", "GameRules"]),
    .target(
      name: "LoginCore",
      dependencies: [
        "Architecture", "AuthenticationClient", "GameProtocol", "GameRules", "OnlineClient",
        "TwoFactorCore",
      ]
    ),
    .target(name: "StatsCore", dependencies: ["Architecture", "DatabaseClient", "GameRules"]),
    .target(
      name: "OnlineCore",
      dependencies: [
        "Architecture", "AuthenticationClient", "GameCore", "GameProtocol", "GameRules",
        "OnlineClient",
      ]),
    .target(
      name: "ServerCore",
      dependencies: ["Architecture", "AuthenticationClient", "GameProtocol", "GameRules"]
    ),
    .target(
      name: "AppCore",
      dependencies: [
        "Architecture", "AuthenticationClient", "DatabaseClient", "GameCore", "GameProtocol",
        "GameRules", "LoginCore", "NewGameCore", "OnlineClient", "OnlineCore", "StatsCore",
        "TwoFactorCore",
      ]
    ),

    // MARK: - Live world and front ends
    .target(
      name: "OnlineClientLive",
      dependencies: [
        "AuthenticationClient", "DatabaseClient", "DatabaseClientLive", "GameProtocol",
        "GameRules", "NetworkIO", "OnlineClient", "OnlineCore", "SQLite", "TLS",
      ]
    ),
    .target(
      name: "ServerLive",
      dependencies: [
        "Architecture", "AuthenticationClient", "AuthenticationClientLive", "Crypto",
        "Console", "DatabaseClient", "DatabaseClientLive", "GameProtocol", "GameRules",
        "NetworkIO", "ServerCore", "SQLite", "TLS",
      ]
    ),
    .target(
      name: "AppLive",
      dependencies: [
        "AppCore", "AuthenticationClientLive", "Crypto", "DatabaseClientLive", "GameAI",
        "OnlineClient", "OnlineClientLive",
      ]
    ),
    .target(
      name: "TerminalUI",
      dependencies: [
        "AppCore", "Architecture", "Console", "DatabaseClient", "GameCore", "GameProtocol",
        "GameRules", "LoginCore", "NewGameCore", "OnlineCore", "StatsCore", "TwoFactorCore",
        "AuthenticationClient",
      ]
    ),
    .target(
      name: "TicTacToeCLI",
      dependencies: [
        "AppCore", "AppLive", "Architecture", "AuthenticationClient", "AuthenticationClientLive",
        "Console", "Crypto", "DatabaseClient", "DatabaseClientLive", "GameAI", "GameCore",
        "GameProtocol",
        "GameRules", "NetworkIO", "NewGameCore", "OnlineClient", "OnlineClientLive", "OnlineCore",
        "ServerLive", "TerminalUI", "TLS",
      ]
    ),
    .executableTarget(name: "tictactoe", dependencies: ["TicTacToeCLI"]),
    .executableTarget(name: "pbrain-tictactoe", dependencies: ["TicTacToeCLI"]),
    .target(name: "BenchmarkOptions", dependencies: ["Console", "GameRules"]),
    .executableTarget(
      name: "tictactoe-benchmarks",
      dependencies: ["BenchmarkOptions", "Console", "GameAI", "GameRules"],
      path: "Benchmarks",
      exclude: ["rapfi-wins.txt", "rapfi-early-wins.txt"]),
    .executableTarget(
      name: "tictactoe-load",
      dependencies: [
        "BenchmarkOptions", "CLinux", "Console", "Crypto", "GameProtocol", "GameRules", "NetworkIO",
        "ServerLive", "SQLite", "TLS",
      ],
      path: "LoadBenchmark"),
    .executableTarget(
      name: "fuzz-notation", dependencies: ["CFuzz", "GameRules"], path: "Fuzz/Notation"),
    .executableTarget(
      name: "fuzz-arguments", dependencies: ["CFuzz", "TicTacToeCLI"], path: "Fuzz/Arguments"),
    .executableTarget(
      name: "fuzz-protocol", dependencies: ["CFuzz", "GameProtocol", "GameRules"],
      path: "Fuzz/Protocol"),

    // MARK: - Test support
    .target(name: "ArchitectureTesting", dependencies: ["Architecture"]),
    .target(
      name: "TestSupport",
      dependencies: [
        "ArchitectureTesting", "AuthenticationClient", "DatabaseClient", "GameAI", "GameCore",
        "GameProtocol", "GameRules", "OnlineClient",
      ]
    ),

    // MARK: - Tests
    .testTarget(name: "GameRulesTests", dependencies: ["GameRules"]),
    .testTarget(name: "GameAITests", dependencies: ["GameAI", "GameRules"]),
    .testTarget(name: "GameProtocolTests", dependencies: ["GameProtocol", "GameRules"]),
    .testTarget(name: "BenchmarkOptionsTests", dependencies: ["BenchmarkOptions"]),
    .testTarget(name: "ConsoleTests", dependencies: ["Console"]),
    .testTarget(
      name: "ArchitectureTests", dependencies: ["Architecture", "ArchitectureTesting"]),
    .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
    .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
    .testTarget(name: "TLSTests", dependencies: ["TLS"]),
    .testTarget(name: "NetworkIOTests", dependencies: ["GameProtocol", "NetworkIO", "TLS"]),
    .testTarget(
      name: "DatabaseClientLiveTests",
      dependencies: [
        "DatabaseClient", "DatabaseClientLive", "GameRules", "SQLite", "TestSupport",
      ]
    ),
    .testTarget(
      name: "AuthenticationClientLiveTests",
      dependencies: [
        "AuthenticationClient", "AuthenticationClientLive", "Crypto", "DatabaseClient",
        "DatabaseClientLive", "SQLite", "TestSupport",
      ]
    ),
    .testTarget(name: "GameCoreTests", dependencies: ["GameCore", "TestSupport"]),
    .testTarget(
      name: "NewGameCoreTests",
      dependencies: [
        "AuthenticationClient", "DatabaseClient", "GameProtocol", "NewGameCore", "OnlineClient",
        "OnlineCore", "StatsCore",
        "TestSupport",
      ]),
    .testTarget(
      name: "LoginCoreTests",
      dependencies: ["GameProtocol", "LoginCore", "OnlineClient", "TestSupport"]),
    .testTarget(name: "TwoFactorCoreTests", dependencies: ["TwoFactorCore", "TestSupport"]),
    .testTarget(name: "StatsCoreTests", dependencies: ["StatsCore", "TestSupport"]),
    .testTarget(
      name: "AppCoreTests",
      dependencies: ["AppCore", "GameProtocol", "OnlineClient", "OnlineCore", "TestSupport"]),
    .testTarget(
      name: "OnlineCoreTests",
      dependencies: [
        "ArchitectureTesting", "GameCore", "GameProtocol", "GameRules", "OnlineClient",
        "OnlineCore",
        "TestSupport",
      ]
    ),
    .testTarget(
      name: "ServerLiveTests",
      dependencies: [
        "AuthenticationClient", "AuthenticationClientLive", "Crypto", "DatabaseClient",
        "DatabaseClientLive", "GameProtocol", "GameRules", "ServerCore", "ServerLive", "SQLite",
        "TestSupport", "TLS",
      ]
    ),
    .testTarget(
      name: "ServerCoreTests",
      dependencies: [
        "Architecture", "ArchitectureTesting", "AuthenticationClient", "GameProtocol", "GameRules",
        "ServerCore", "TestSupport",
      ]
    ),
    .testTarget(
      name: "TerminalUITests",
      dependencies: [
        "Architecture", "GameAI", "GameCore", "GameProtocol", "GameRules", "OnlineCore",
        "TerminalUI", "TestSupport",
      ]
    ),
    .testTarget(
      name: "TicTacToeCLITests",
      dependencies: [
        "Crypto", "DatabaseClient", "DatabaseClientLive", "GameAI", "GameProtocol", "GameRules",
        "ServerLive",
        "SQLite", "TestSupport", "TicTacToeCLI", "pbrain-tictactoe", "tictactoe",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

/// Whether to build the desktop front end (GTK 4 and libadwaita): `TICTACTOE_GTK=1`/`0`, else
/// whether `pkg-config` finds both `gtk4` and `libadwaita-1`.
let buildsGTK: Bool = {
  if let choice = ProcessInfo.processInfo.environment["TICTACTOE_GTK"] { return choice == "1" }
  let probe = Process()
  probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  probe.arguments = ["pkg-config", "--exists", "gtk4", "libadwaita-1"]
  probe.standardOutput = FileHandle.nullDevice
  probe.standardError = FileHandle.nullDevice
  guard (try? probe.run()) != nil else { return false }
  probe.waitUntilExit()
  return probe.terminationStatus == 0
}()

if buildsGTK {
  package.products.append(.executable(name: "tictactoe-gtk", targets: ["tictactoe-gtk"]))
  package.targets += [
    .systemLibrary(name: "CGTK", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
    .systemLibrary(
      name: "CAdw", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
    .target(
      name: "GTKUI",
      dependencies: [
        "AppCore", "Architecture", "CAdw", "CGTK", "Console", "GameCore", "GameProtocol",
        "GameRules", "LoginCore", "NewGameCore", "OnlineCore", "StatsCore", "TwoFactorCore",
      ],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    .executableTarget(
      name: "tictactoe-gtk",
      dependencies: [
        "AppCore", "AppLive", "Architecture", "CGTK", "Console", "DatabaseClient", "GTKUI",
        "TicTacToeCLI",
      ]
    ),
    .testTarget(
      name: "GTKUITests",
      dependencies: [
        "AppCore", "Architecture", "CAdw", "CGTK", "DatabaseClient", "GameAI", "GameCore",
        "GameProtocol", "GameRules", "GTKUI", "LoginCore", "NewGameCore", "OnlineClient",
        "OnlineCore", "StatsCore", "TestSupport",
      ]
    ),
  ]
}

// Last, so the GTK targets get the same settings.
let upcoming = [
  "ExistentialAny", "InternalImportsByDefault", "MemberImportVisibility",
  "NonisolatedNonsendingByDefault", "InferIsolatedConformances",
]
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + upcoming.map { .enableUpcomingFeature($0) }
    + [.treatAllWarnings(as: .error)]
}
