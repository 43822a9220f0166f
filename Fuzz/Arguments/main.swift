import CFuzz
import Glibc
import TicTacToeCLI

/// Splits the bytes at NUL into arguments and parses them as a command line.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let data else { return 0 }
  let bytes = UnsafeBufferPointer(start: data, count: count)
  let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  // Every input either parses or is refused with a sentence; neither may crash.
  do {
    _ = try Command.parse(arguments)
  } catch {
    guard !error.message.isEmpty else { preconditionFailure("empty usage message") }
  }
  return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzArguments))
