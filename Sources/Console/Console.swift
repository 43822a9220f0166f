import Glibc
import Synchronization

/// Standard output and standard error, written straight to their file descriptors, with every
/// byte accounted for.
///
/// Nothing is buffered, so a script or a controller reading the output sees each line as it is
/// said. A write that fails (a full disk, a closed descriptor) does not stop the program: the
/// first failure of standard output is kept, and ``outputFailure`` says it, so that a command
/// can end with that sentence and status 1 rather than claim success for output that was lost.
/// A failure of standard error is dropped, as nothing is left to say it on.
public enum Console {
  /// The `errno` of the first write to standard output that failed.
  private static let firstOutputError = Mutex<Int32?>(nil)

  /// Writes all of `text` to standard output.
  public static func write(_ text: String) {
    guard let error = writeAll(text, to: STDOUT_FILENO) else { return }
    firstOutputError.withLock { $0 = $0 ?? error }
  }

  /// Writes `text` and a newline to standard output.
  public static func line(_ text: String) { write(text + "\n") }

  /// The first sentence ``announce(_:)`` could not write.
  private static let lostAnnouncement = Mutex<String?>(nil)

  /// Writes a sentence saying what a command changed (`Created the account ann.`) and a
  /// newline to standard output; lost there, ``finished(_:program:)`` says it on standard error,
  /// so that the change is told even when the output is not.
  public static func announce(_ sentence: String) {
    let wasLost = outputFailure != nil
    write(sentence + "\n")
    if !wasLost, outputFailure != nil { lostAnnouncement.withLock { $0 = $0 ?? sentence } }
  }

  /// Writes all of `text` to standard error, as far as it can be written.
  public static func error(_ text: String) { _ = writeAll(text, to: STDERR_FILENO) }

  /// Keeps a standard stream the program was started without closed to it.
  ///
  /// Such a descriptor is given to `/dev/null`, opened the other way, so that reading a closed
  /// standard input (or writing a closed output) still fails with `EBADF`, and no file the
  /// program opens (its database) takes the number and passes for the stream. Called first
  /// thing.
  public static func holdClosedStandardStreams() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      if descriptor == STDOUT_FILENO { outputClosedAtStart.withLock { $0 = true } }
      let placeholder = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
      if placeholder >= 0, placeholder != descriptor {
        dup2(placeholder, descriptor)
        close(placeholder)
      }
    }
  }

  /// Whether the program was started with standard output closed
  /// (``holdClosedStandardStreams()`` found it so): nothing it writes there can be seen.
  public static var isOutputClosedAtStart: Bool { outputClosedAtStart.withLock { $0 } }

  private static let outputClosedAtStart = Mutex(false)

  /// Why standard output lost some of what was written to it, in one sentence, or `nil` when
  /// everything reached it.
  public static var outputFailure: String? {
    firstOutputError.withLock { $0 }.map {
      "The output could not be written (\(String(cString: strerror($0))))."
    }
  }

  /// `status`, or, when standard output lost some of what was written to it, 1 (unless
  /// `status` already tells a failure) after its sentence on standard error as `program:
  /// sentence`.
  ///
  /// A reader that went away (`tictactoe history | head -1`, in a program that ignores SIGPIPE
  /// for its network connections) is not a failure to report: the status is then the one the
  /// signal would have given, 141, and nothing is said, as for the commands that SIGPIPE ends.
  ///
  /// A change the lost output announced is told after the failure (`…; it said: Created the
  /// account ann.`).
  public static func finished(_ status: Int32, program: String) -> Int32 {
    guard let failure = outputFailure else { return status }
    if firstOutputError.withLock({ $0 }) == EPIPE { return 128 + SIGPIPE }
    if let sentence = lostAnnouncement.withLock({ $0 }) {
      error("\(program): \(failure.dropLast()); it said: \(sentence)\n")
    } else {
      error("\(program): \(failure)\n")
    }
    return status == 0 ? 1 : status
  }

  /// Writes all of `text` to `descriptor`, and returns the `errno` of a failure.
  private static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeMutableBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      // A write of nothing would repeat for ever.
      guard written > 0 else { return EIO }
      offset += written
    }
    bytes.removeAll()
    return nil
  }
}
