#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libc calls whose names the HTTP2 module's own types shadow (`Socket.listen`, `close()` methods), reached
/// through the platform's C module: Glibc on Linux, Darwin on macOS.
enum SystemCalls {
    #if canImport(Glibc)
    static let close = Glibc.close
    static let listen = Glibc.listen
    static let connect = Glibc.connect
    #elseif canImport(Darwin)
    static let close = Darwin.close
    static let listen = Darwin.listen
    static let connect = Darwin.connect
    #endif
}
