import COpenSSL

/// Reads and empties OpenSSL's per-thread error queue.
///
/// Every failure path in this module drains the queue, so a stale entry never leaks into an
/// unrelated OpenSSL call later on the same thread (TLS code checks that queue after each call).
enum OpenSSLErrorQueue {
    /// All queued errors, oldest first, joined into one line; the queue is empty afterwards.
    static func drain() -> String {
        var messages: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            let message = buffer.withUnsafeMutableBufferPointer { pointer -> String in
                ERR_error_string_n(code, pointer.baseAddress, pointer.count)
                return String(cString: pointer.baseAddress!)
            }
            messages.append(message)
        }
        return messages.isEmpty ? "no detail from OpenSSL" : messages.joined(separator: "; ")
    }

    /// Empties the queue without reading it.
    static func clear() {
        ERR_clear_error()
    }
}
