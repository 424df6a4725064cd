#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex. Used instead of `Synchronization.Mutex` because the latter's
/// futex-based lock is invisible to ThreadSanitizer on Linux (false race reports); pthread mutexes are
/// intercepted by TSan. Public, in a target of its own, so every module locks the same TSan-visible way
/// without importing the transport for it.
// @unchecked Sendable: `value` is only accessed inside `withLock`, under `mutex`.
public final class Locked<Value>: @unchecked Sendable {
    // Inlinable (with the state it touches) so that callers in other modules get `withLock` specialised for their
    // value and closure, instead of a generic call through metadata on every request.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
