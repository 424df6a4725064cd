import APNsModel
/// Why a device setting or device change written as JSON (a fixture, a control-API request) cannot be read.
///
/// Each case names the key and says what to write instead, so the message can go to the user as is.
public enum DeviceModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `key` holds the wrong kind of value; `expected` says what it must hold.
    case badValue(key: String, expected: String)
    /// `key` is not one the object may have; `allowed` lists those it may.
    case unknownKey(String, allowed: [String])
    /// A required key is absent.
    case missingKey(String)
    /// `change` names no device change the model knows; `known` lists those it does.
    case unknownChange(String, known: [String])

    /// A sentence naming the problem and the fix.
    public var description: String {
        switch self {
        case .badValue(let key, let expected):
            return "'\(key)' must be \(expected)."
        case .unknownKey(let key, let allowed):
            return "'\(key)' is not a device setting or change field; use one of: \(allowed.joined(separator: ", "))."
        case .missingKey(let key):
            return "'\(key)' is required here; add it."
        case .unknownChange(let change, let known):
            return "'\(change)' is not a device change; use one of: \(known.joined(separator: ", "))."
        }
    }
}
