import CLinux
import Glibc

/// A system call that failed, with `errno`'s meaning.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The call, such as `bind`.
  public var call: String
  /// `errno` after the call.
  public var code: Int32

  init(_ call: String, code: Int32 = errno) {
    self.call = call
    self.code = code
  }

  /// `strerror`'s text, such as `Address already in use`.
  public var reason: String { String(cString: strerror(code)) }

  public var description: String { "\(call) failed: \(reason)" }
}

/// What a non-blocking read or write came to.
enum IOResult: Equatable {
  /// This many bytes moved (above 0).
  case bytes(Int)
  /// Nothing to do until the descriptor is ready again.
  case wouldBlock
  /// The peer closed its end (reads only).
  case endOfFile
}

/// Every system call the transport makes, in one place: each retries on `EINTR` and turns
/// failure into a ``SystemError``.
enum System {
  // MARK: - Descriptors

  static func close(_ descriptor: Int32) {
    // Linux releases the descriptor even when close reports EINTR, so it is never retried.
    _ = Glibc.close(descriptor)
  }

  static func setNonBlocking(_ descriptor: Int32) throws(SystemError) {
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
      throw SystemError("fcntl")
    }
  }

  static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
    throws(SystemError) -> IOResult
  {
    while true {
      let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfFile }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
      throw SystemError("read")
    }
  }

  static func write(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError)
    -> IOResult
  {
    while true {
      let count = Glibc.write(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return .bytes(count) }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
      throw SystemError("write")
    }
  }

  // MARK: - Sockets

  static func socket(family: Int32) throws(SystemError) -> Int32 {
    let descriptor = Glibc.socket(
      family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw SystemError("socket") }
    return descriptor
  }

  static func setOption(_ descriptor: Int32, level: Int32, name: Int32, value: Int32)
    throws(SystemError)
  {
    var value = value
    guard
      setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    else { throw SystemError("setsockopt") }
  }

  /// Turns off Nagle's algorithm, so a small frame leaves at once.
  static func setNoDelay(_ descriptor: Int32) {
    try? setOption(descriptor, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
  }

  static func bind(_ descriptor: Int32, to address: SocketAddress) throws(SystemError) {
    let result = address.withSockAddr { pointer, length in Glibc.bind(descriptor, pointer, length) }
    guard result == 0 else { throw SystemError("bind") }
  }

  static func listen(_ descriptor: Int32, backlog: Int32) throws(SystemError) {
    guard Glibc.listen(descriptor, backlog) == 0 else { throw SystemError("listen") }
  }

  /// Accepts one pending connection, non-blocking; `nil` when none is waiting.
  static func accept(_ descriptor: Int32) throws(SystemError) -> (Int32, SocketAddress)? {
    while true {
      var storage = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let accepted = withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          accept4(descriptor, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
        }
      }
      if accepted >= 0 { return (accepted, SocketAddress(storage: storage, length: length)) }
      switch errno {
      case EINTR, ECONNABORTED, EPROTO: continue
      case EAGAIN, EWOULDBLOCK: return nil
      default: throw SystemError("accept")
      }
    }
  }

  /// Starts connecting; `true` when connected at once, `false` while in progress.
  static func connect(_ descriptor: Int32, to address: SocketAddress) throws(SystemError) -> Bool {
    let result = address.withSockAddr { pointer, length in
      Glibc.connect(descriptor, pointer, length)
    }
    if result == 0 { return true }
    if errno == EINPROGRESS || errno == EINTR { return false }
    throw SystemError("connect")
  }

  /// The pending error of a socket, as after a non-blocking connect (0 when none).
  static func pendingError(_ descriptor: Int32) -> Int32 {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
    return value
  }

  static func localAddress(_ descriptor: Int32) throws(SystemError) -> SocketAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    guard result == 0 else { throw SystemError("getsockname") }
    return SocketAddress(storage: storage, length: length)
  }

  /// Resolves a host name or address and a port to socket addresses.
  static func resolve(host: String, port: UInt16, passive: Bool) throws(ResolutionError)
    -> [SocketAddress]
  {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_family = AF_UNSPEC
    hints.ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
    guard status == 0 else {
      throw ResolutionError(host: host, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(list) }
    var addresses: [SocketAddress] = []
    var entry = list
    while let current = entry {
      if let pointer = current.pointee.ai_addr {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
          target.copyMemory(
            from: UnsafeRawBufferPointer(start: pointer, count: Int(current.pointee.ai_addrlen)))
        }
        let address = SocketAddress(storage: storage, length: current.pointee.ai_addrlen)
        if !addresses.contains(address) { addresses.append(address) }
      }
      entry = current.pointee.ai_next
    }
    return addresses
  }

  // MARK: - epoll and eventfd

  static func epollCreate() throws(SystemError) -> Int32 {
    let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
    guard descriptor >= 0 else { throw SystemError("epoll_create1") }
    return descriptor
  }

  static func epollControl(_ epoll: Int32, _ operation: Int32, _ descriptor: Int32, events: UInt32)
    throws(SystemError)
  {
    var event = epoll_event()
    event.events = events
    event.data.fd = descriptor
    guard epoll_ctl(epoll, operation, descriptor, &event) == 0 else {
      throw SystemError("epoll_ctl")
    }
  }

  static func epollWait(
    _ epoll: Int32, into events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32
  ) throws(SystemError) -> Int {
    while true {
      let count = epoll_wait(epoll, events.baseAddress, Int32(events.count), timeoutMilliseconds)
      if count >= 0 { return Int(count) }
      if errno == EINTR { continue }
      throw SystemError("epoll_wait")
    }
  }

  static func eventCreate() throws(SystemError) -> Int32 {
    let descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    guard descriptor >= 0 else { throw SystemError("eventfd") }
    return descriptor
  }

  static func eventSignal(_ descriptor: Int32) {
    var one: UInt64 = 1
    _ = withUnsafeBytes(of: &one) { Glibc.write(descriptor, $0.baseAddress, 8) }
  }

  static func eventDrain(_ descriptor: Int32) {
    var value: UInt64 = 0
    _ = withUnsafeMutableBytes(of: &value) { Glibc.read(descriptor, $0.baseAddress, 8) }
  }

  // MARK: - Process

  /// Makes writing to a closed socket return `EPIPE` instead of killing the process.
  static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Raises the soft limit on open descriptors to the hard limit, for thousands of sockets.
  ///
  /// - Returns: The limit in force afterwards.
  @discardableResult
  static func raiseDescriptorLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    if limit.rlim_cur < limit.rlim_max {
      limit.rlim_cur = limit.rlim_max
      _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
      _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(clamping: limit.rlim_cur)
  }

  /// Milliseconds on the monotonic clock, for timeouts.
  static func monotonicMilliseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
  }
}

/// A host name that did not resolve.
public struct ResolutionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The host as given.
  public var host: String
  /// The resolver's reason.
  public var reason: String

  public var description: String { "\(host) could not be resolved (\(reason))" }
}
