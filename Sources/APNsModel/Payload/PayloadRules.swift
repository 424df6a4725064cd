import JSON

/// The body rules shared by device and broadcast pushes.
public enum PayloadRules {
    /// The largest body of a broadcast (channel) Live Activity push: 5120 bytes.
    public static let maximumBroadcastBytes = 5120

    /// Checks a body in APNs's order: empty → `PayloadEmpty`; larger than `limit` → `413 PayloadTooLarge`
    /// (measured on the raw bytes before parsing, as APNs must: a too-large body is refused whatever it holds,
    /// and parsing it would be wasted work); not a JSON object → `malformedReason`. Returns the parsed object.
    public static func check(_ body: [UInt8], limit: Int, malformedReason: APNsReason) -> Result<JSONValue, APNsReason> {
        guard !body.isEmpty else { return .failure(.payloadEmpty) }
        guard body.count <= limit else { return .failure(.payloadTooLarge) }
        guard let value = try? JSONValue.parse(body), case .object = value else { return .failure(malformedReason) }
        return .success(value)
    }

    /// `check` without building the parsed object: the same rules and reasons, for callers that keep the body.
    public static func checkText(_ body: [UInt8], limit: Int, malformedReason: APNsReason) -> APNsReason? {
        guard !body.isEmpty else { return .payloadEmpty }
        guard body.count <= limit else { return .payloadTooLarge }
        let isObject = body.withUnsafeBufferPointer { JSONValidator.isObject($0) }
        return isObject ? nil : malformedReason
    }
}
