import APNsModel
/// The app's own data in a payload, wherever the sender put it (device-rules §4, apns-rules §9).
///
/// | Layout | Detected by | Custom data |
/// |---|---|---|
/// | `oneSignalOSData` | a top-level `os_data` dictionary | every top-level key except `aps` and `os_data` |
/// | `oneSignal` | a top-level `custom` dictionary holding `a` or `i` | the `custom.a` dictionary (empty when absent) |
/// | `topLevel` | anything else | every top-level key except `aps` |
public struct CustomData: Sendable, Hashable {
    /// Where the custom data was found.
    public enum Layout: String, CaseIterable, Sendable, Hashable, Codable {
        /// Plain APNs: keys beside `aps`.
        case topLevel
        /// OneSignal's original layout: additional data in `custom.a`.
        case oneSignal
        /// OneSignal's newer layout: `os_data` beside the additional data.
        case oneSignalOSData
    }

    /// Where the custom data was found.
    public let layout: Layout
    /// The custom keys and values, in payload order.
    public let members: [JSONValue.JSONMember]

    /// Finds the custom data in a payload (an object; anything else has none).
    public init(payload: JSONValue) {
        let top = payload.objectMembers ?? []
        if payload["os_data"]?.objectMembers != nil {
            layout = .oneSignalOSData
            members = top.filter { $0.key != "aps" && $0.key != "os_data" }
        } else if let custom = payload["custom"], custom.objectMembers != nil,
            custom["a"] != nil || custom["i"] != nil
        {
            layout = .oneSignal
            members = custom["a"]?.objectMembers ?? []
        } else {
            layout = .topLevel
            members = top.filter { $0.key != "aps" }
        }
    }

    /// The value of a custom key (the last one when a key repeats).
    public subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// The JSON path of a custom key in the payload, e.g. `custom.a.inAppColor` or `inAppColor`.
    public func path(of key: String) -> String {
        layout == .oneSignal ? "custom.a.\(key)" : key
    }
}
