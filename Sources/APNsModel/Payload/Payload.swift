import JSON

/// A typed, read-only view over a notification body.
///
/// It wraps the parsed `JSONValue` rather than decoding into structs, so nothing is lost: unknown keys,
/// key order and number kinds stay in `json`, and each accessor answers `nil` when a key is absent *or* has
/// the wrong type (lint rules tell those apart through `json`).
public struct Payload: Sendable, Hashable {
    /// The whole body.
    public var json: JSONValue

    /// Wraps a parsed body.
    public init(_ json: JSONValue) { self.json = json }

    /// Parses and wraps a body; `nil` when it is not a JSON object.
    public init?(bytes: some Collection<UInt8>) {
        guard let value = try? JSONValue.parse(bytes), case .object = value else { return nil }
        self.json = value
    }

    /// The `aps` dictionary, when present and a dictionary.
    public var aps: APS? {
        guard let value = json["aps"], case .object = value else { return nil }
        return APS(value)
    }

    /// Top-level members other than `aps`: the app's own data (`userInfo` beside `aps`), in wire order.
    public var customMembers: [JSONValue.JSONMember] {
        (json.objectMembers ?? []).filter { $0.key != "aps" }
    }

    /// The MDM push's `mdm` value (the device's PushMagic string).
    public var mdmPushMagic: String? { json["mdm"]?.stringValue }
}
