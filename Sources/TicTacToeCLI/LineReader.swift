import Glibc

/// Standard input a line at a time, read in blocks, for the commands that read it to its end
/// (`analyze -`, `gtp`, `pbrain`): each line is held to ``maximumLineBytes``, the rest of a
/// longer one read and dropped, so that no input can take more memory than that, and a read
/// that fails is told apart from the end of input.
final class LineReader {
  /// The most bytes of a line kept; a longer line is marked too long.
  static let maximumLineBytes = PbrainSession.maximumLineBytes

  /// Why standard input could not be read.
  struct Failure: Error {
    /// The `errno` of the read.
    var code: Int32

    /// The sentence to say; for a folder, `The input could not be read (Is a directory).`.
    var message: String { "The input could not be read (\(String(cString: strerror(code))))." }
  }

  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var position = 0
  private var isAtEnd = false

  init(descriptor: Int32 = STDIN_FILENO) {
    self.descriptor = descriptor
  }

  /// The next line without its line ending (`\n` or `\r\n`), or `nil` at the end of input.
  func next() throws(Failure) -> InputLine? {
    var line = InputLine(bytes: [], isTooLong: false)
    var sawByte = false
    while true {
      if position == buffer.count {
        if isAtEnd { return sawByte ? finished(line) : nil }
        try fill()
        continue
      }
      sawByte = true
      let end = buffer[position...].firstIndex(of: UInt8(ascii: "\n"))
      keep(buffer[position..<(end ?? buffer.count)], in: &line)
      position = end.map { $0 + 1 } ?? buffer.count
      if end != nil { return finished(line) }
    }
  }

  private func keep(_ bytes: ArraySlice<UInt8>, in line: inout InputLine) {
    let room = LineReader.maximumLineBytes - line.bytes.count
    line.bytes += bytes.prefix(room)
    if bytes.count > room { line.isTooLong = true }
  }

  private func finished(_ line: InputLine) -> InputLine {
    var line = line
    if line.bytes.last == UInt8(ascii: "\r") { line.bytes.removeLast() }
    return line
  }

  private func fill() throws(Failure) {
    buffer = [UInt8](repeating: 0, count: 1 << 16)
    position = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        let code = errno
        buffer = []
        isAtEnd = true
        throw Failure(code: code)
      }
      buffer.removeSubrange(count...)
      if count == 0 { isAtEnd = true }
      return
    }
  }
}

extension InputLine {
  /// The line as text, invalid UTF-8 replaced.
  var text: String { String(decoding: bytes, as: UTF8.self) }
}
