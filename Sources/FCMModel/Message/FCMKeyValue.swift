/// One string entry of a string-to-string map (`data`, `headers`, an `ErrorInfo`'s metadata), kept in the order
/// the sender wrote it: rules report the first bad entry by its index (`message.data[2].value`), and a recording
/// shows the map as sent.
public struct FCMKeyValue: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value.
    public var value: String

    /// Makes an entry.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == FCMKeyValue {
    /// The value of the last entry named `key` (map keys are unique once parsed; fcm-rules §3.1).
    public func value(forKey key: String) -> String? {
        last { $0.key == key }?.value
    }

    /// The value of the last entry whose key equals `key` ignoring ASCII case (HTTP header names).
    public func value(forHeader name: String) -> String? {
        let lowered = name.lowercased()
        return last { $0.key.lowercased() == lowered }?.value
    }
}
