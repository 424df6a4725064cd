import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small wrappers over BSD sockets: resolve, listen, connect, accept, and address formatting.
enum Socket {
    /// Resolves `host:port` into socket addresses (numeric hosts first; names via getaddrinfo).
    static func resolve(host: String, port: Int, passive: Bool) throws(HTTP2Error) -> [sockaddr_storage] {
        var hints = addrinfo()
        hints.ai_socktype = csystem_sock_stream()
        hints.ai_flags = passive ? AI_PASSIVE : 0
        hints.ai_family = AF_UNSPEC
        var result: UnsafeMutablePointer<addrinfo>?
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let rc = getaddrinfo(bareHost, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            let reason = String(cString: gai_strerror(rc))
            throw passive ? .invalidAddress(host: host, port: port, reason: reason)
                          : .unresolvableHost(host: host, port: port, reason: reason)
        }
        defer { freeaddrinfo(first) }
        var addresses: [sockaddr_storage] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
            }
            addresses.append(storage)
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    static func length(of address: sockaddr_storage) -> socklen_t {
        address.ss_family == sa_family_t(AF_INET6)
            ? socklen_t(MemoryLayout<sockaddr_in6>.size) : socklen_t(MemoryLayout<sockaddr_in>.size)
    }

    /// A non-blocking listening socket bound to the first usable address of `host:port`.
    static func listen(host: String, port: Int, backlog: Int32 = 1024) throws(HTTP2Error) -> Int32 {
        let addresses = try resolve(host: host, port: port, passive: true)
        var lastError: HTTP2Error = .invalidAddress(host: host, port: port, reason: "no address")
        for var address in addresses {
            let fd = csystem_stream_socket(Int32(address.ss_family))
            if fd < 0 {
                lastError = .system(operation: "socket", errno: errno)
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if address.ss_family == sa_family_t(AF_INET6) {
                // "::" should also take IPv4 (dual stack); a specific v6 address is v6 either way.
                var zero: Int32 = 0
                _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size))
            }
            let length = Self.length(of: address)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            if bound != 0 {
                let code = errno
                Socket.close(fd)
                if code == EADDRINUSE {
                    lastError = .addressInUse(host: host, port: port)
                } else {
                    lastError = .bindFailed(host: host, port: port, reason: String(cString: strerror(code)))
                }
                continue
            }
            if SystemCalls.listen(fd, backlog) != 0 {
                let code = errno
                Socket.close(fd)
                lastError = code == EADDRINUSE
                    ? .addressInUse(host: host, port: port)
                    : .bindFailed(host: host, port: port, reason: String(cString: strerror(code)))
                continue
            }
            return fd
        }
        throw lastError
    }

    /// The local port a socket is bound to.
    static func localPort(fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return port(of: storage)
    }

    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        if storage.ss_family == sa_family_t(AF_INET6) {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// "127.0.0.1:54321" or "[::1]:54321".
    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port = port(of: storage)
        if storage.ss_family == sa_family_t(AF_INET6) {
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                    var address = a.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                }
            }
            return "[\(cStringBuffer(buffer))]:\(port)"
        }
        withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                var address = a.pointee.sin_addr
                _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            }
        }
        return "\(cStringBuffer(buffer)):\(port)"
    }

    /// Accepts one connection: (fd, peer) or nil on EAGAIN/transient errors.
    static func accept(listener: Int32) -> (Int32, sockaddr_storage)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                csystem_accept_nonblocking(listener, $0, &length)
            }
        }
        guard fd >= 0 else { return nil }
        setNoDelay(fd)
        return (fd, storage)
    }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Starts a non-blocking connect. Returns the fd; completion is signalled by writability.
    static func connect(to address: sockaddr_storage) throws(HTTP2Error) -> Int32 {
        var address = address
        let fd = csystem_stream_socket(Int32(address.ss_family))
        guard fd >= 0 else { throw .system(operation: "socket", errno: errno) }
        let length = Self.length(of: address)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SystemCalls.connect(fd, $0, length) }
        }
        if rc != 0 && errno != EINPROGRESS {
            let code = errno
            Socket.close(fd)
            throw .system(operation: "connect", errno: code)
        }
        setNoDelay(fd)
        return fd
    }

    /// send() without SIGPIPE. Returns bytes written, 0 on EAGAIN, -1 on a fatal error.
    @inline(__always)
    static func send(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        while true {
            let n = csystem_send(fd, pointer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return -1
        }
    }

    /// recv(). Returns bytes read, 0 on EOF, -1 on EAGAIN, -2 on a fatal error.
    @inline(__always)
    static func receive(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            let n = recv(fd, pointer, count, 0)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return -1 }
            return -2
        }
    }
}

extension Socket {
    /// Closes a descriptor.
    static func close(_ fd: Int32) {
        _ = SystemCalls.close(fd)
    }

    /// The error a non-blocking connect ended with (`SO_ERROR`), or nil when it connected.
    static func pendingError(_ fd: Int32) -> String? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return String(cString: strerror(errno)) }
        return error == 0 ? nil : String(cString: strerror(error))
    }
}

/// The text of a NUL-terminated C buffer.
func cStringBuffer(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
