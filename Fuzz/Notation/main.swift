import CFuzz
import GameRules
import Glibc

/// Parses the bytes as a position and checks what a parsed position promises.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzNotation(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
  guard let board = try? Board(notation: text) else { return 0 }
  // A parsed position prints back to text that parses to the same board.
  guard let again = try? Board(notation: board.notation), again == board else {
    preconditionFailure("notation did not round-trip: \(text)")
  }
  guard board.count(of: .x) - board.count(of: .o) <= 1 else {
    preconditionFailure("accepted impossible counts: \(text)")
  }
  return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzNotation))
