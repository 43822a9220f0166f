import Console
import Glibc
import Testing

/// The one reader of input lines, on pipes and files it is given.
struct LineReaderTests {
  /// A file holding `text`, already unlinked, open for reading from its start.
  private func file(holding text: [UInt8]) throws -> Int32 {
    var template = Array("/tmp/line-reader-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    try #require(descriptor >= 0)
    unlink(template)
    let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    try #require(written == text.count)
    try #require(lseek(descriptor, 0, SEEK_SET) == 0)
    return descriptor
  }

  private func lines(_ reader: LineReader) throws -> [InputLine] {
    var result: [InputLine] = []
    while let line = try reader.next() { result.append(line) }
    return result
  }

  @Test(arguments: [true, false])
  func linesEndWithANewlineOrACarriageReturnAndNewlineOrTheEnd(readsAhead: Bool) throws {
    let descriptor = try file(holding: Array("a1\r\nb2\n\nc3".utf8))
    defer { close(descriptor) }
    let reader = LineReader(descriptor: descriptor, maximumLineBytes: 8, readsAhead: readsAhead)
    #expect(try lines(reader).map(\.text) == ["a1", "b2", "", "c3"])
    #expect(try reader.next() == nil)
  }

  @Test(arguments: [true, false])
  func aLongLineIsCutAndTheNextStartsWhereItShould(readsAhead: Bool) throws {
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
    let descriptor = try file(holding: long + Array("\nb2\n".utf8))
    defer { close(descriptor) }
    let reader = LineReader(descriptor: descriptor, maximumLineBytes: 5, readsAhead: readsAhead)
    #expect(
      try lines(reader) == [
        InputLine(bytes: Array("xxxxx".utf8), isTooLong: true), InputLine(bytes: Array("b2".utf8)),
      ])
  }

  /// A line of exactly the limit is whole with either ending: the CR of CR LF does not count.
  @Test(arguments: [true, false])
  func aLineAtTheLimitIsWholeWithEitherEnding(readsAhead: Bool) throws {
    let descriptor = try file(holding: Array("12345\r\nabcde\n123456\r\n".utf8))
    defer { close(descriptor) }
    let reader = LineReader(descriptor: descriptor, maximumLineBytes: 5, readsAhead: readsAhead)
    #expect(
      try lines(reader) == [
        InputLine(bytes: Array("12345".utf8)), InputLine(bytes: Array("abcde".utf8)),
        InputLine(bytes: Array("12345".utf8), isTooLong: true),
      ])
  }

  /// Without reading ahead, the reader takes nothing past its line: the next reader of the
  /// same input (the moves after a password) starts at the next line.
  @Test func withoutReadingAheadTheRestIsLeftForTheNextReader() throws {
    let descriptor = try file(holding: Array("secret\nb2\nc3\n".utf8))
    defer { close(descriptor) }
    let first = LineReader(descriptor: descriptor, maximumLineBytes: 64, readsAhead: false)
    #expect(try first.next()?.text == "secret")
    let rest = LineReader(descriptor: descriptor, maximumLineBytes: 64)
    #expect(try lines(rest).map(\.text) == ["b2", "c3"])
  }

  /// A line too long comes as soon as it is, from a pipe whose writer has not ended it.
  ///
  /// Endless input without a newline cannot hold a reader that answers it. The rest of that
  /// line, however it arrives, is dropped, and the next line is whole.
  @Test(arguments: [true, false])
  func aLineTooLongComesBeforeItEndsAndItsRestIsDropped(readsAhead: Bool) throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    func send(_ bytes: [UInt8]) throws {
      let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
      try #require(written == bytes.count)
    }
    try send([UInt8](repeating: 0, count: 100))
    let reader = LineReader(descriptor: ends[0], maximumLineBytes: 10, readsAhead: readsAhead)
    #expect(
      try reader.next() == InputLine(bytes: [UInt8](repeating: 0, count: 10), isTooLong: true))
    try send([UInt8](repeating: 1, count: 100))
    try send(Array("\nb2\nc3".utf8))
    close(ends[1])
    #expect(try lines(reader).map(\.text) == ["b2", "c3"])
  }

  @Test func aFolderIsNotTheEndOfInput() throws {
    let descriptor = open("/", O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let reader = LineReader(descriptor: descriptor, maximumLineBytes: 64)
    #expect(throws: LineReader.Failure(code: EISDIR)) { try reader.next() }
    #expect(
      LineReader.Failure(code: EISDIR).message == "The input could not be read (Is a directory).")
    #expect(try reader.next() == nil)
  }
}
