import APNsModel

/// The `reason` of an APNs error response: one APNs is known to send, or an unknown string kept verbatim.
public enum APNsErrorReason: Sendable, Hashable, CustomStringConvertible {
    /// A reason from Apple's tables.
    case known(APNsReason)
    /// A reason string this library does not know (or an empty / unparseable body: `""`).
    case unknown(String)

    /// Decodes `text` (e.g. `"BadDeviceToken"`).
    public init(_ text: String) {
        if let reason = APNsReason(responseReason: text) {
            self = .known(reason)
        } else {
            self = .unknown(text)
        }
    }

    /// The known reason, if any.
    public var reason: APNsReason? {
        if case let .known(reason) = self { return reason }
        return nil
    }

    /// The wire spelling.
    public var description: String {
        switch self {
        case let .known(reason): return reason.rawValue
        case let .unknown(text): return text.isEmpty ? "(no reason)" : text
        }
    }

    /// What to do about it, in a sentence.
    public var explanation: String {
        switch self {
        case let .known(reason): return reason.explanation
        case .unknown: return "APNs gave a reason this client does not know; see Apple's \"Handling notification responses\"."
        }
    }
}
