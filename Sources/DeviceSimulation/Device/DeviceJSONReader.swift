import APNsModel
import JSON

/// Reads one JSON object of the device model's input (settings, a change) strictly: every key must be known, every
/// value of the right kind, and each problem is a ``DeviceModelError`` naming the key. Also converts the delivery
/// model's `Codable` types (``DeviceProfile``, ``Simulation``, ``TapSimulation``) to and from ``JSONValue``, so
/// their JSON shape is written once, by their `Codable` conformance.
struct DeviceJSONReader {
    /// The object's members.
    let members: [JSONValue.JSONMember]
    /// Where the object sits, prefixed to key names in errors (e.g. `settings.`).
    let prefix: String

    /// Checks that `value` is an object with only `allowed` keys.
    init(_ value: JSONValue, allowed: [String], prefix: String = "") throws(DeviceModelError) {
        guard let members = value.objectMembers else {
            throw .badValue(key: prefix.isEmpty ? "(the value)" : String(prefix.dropLast()), expected: "a JSON object")
        }
        for member in members where !allowed.contains(member.key) {
            throw .unknownKey(prefix + member.key, allowed: allowed)
        }
        self.members = members
        self.prefix = prefix
    }

    /// The value of `key` (the last one when it repeats), or `nil` when absent.
    subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// A required string.
    func string(_ key: String) throws(DeviceModelError) -> String {
        guard let value = self[key] else { throw .missingKey(prefix + key) }
        guard let text = value.stringValue else { throw .badValue(key: prefix + key, expected: "a string") }
        return text
    }

    /// An optional string; JSON `null` reads as absent.
    func optionalString(_ key: String) throws(DeviceModelError) -> String? {
        guard let value = self[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw .badValue(key: prefix + key, expected: "a string or null") }
        return text
    }

    /// An optional integer that must not be negative.
    func count(_ key: String) throws(DeviceModelError) -> Int64? {
        guard let value = self[key] else { return nil }
        guard let number = value.integerValue, number >= 0 else {
            throw .badValue(key: prefix + key, expected: "a whole number, 0 or more")
        }
        return number
    }

    /// Decodes a delivery-model type from its JSON form.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, key: String) throws(DeviceModelError) -> T {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch {
            throw .badValue(key: key, expected: "a \(type) as the simulate API takes it (\(error))")
        }
    }

    /// Encodes a delivery-model type to its JSON form, keys sorted at every level (the order the device API has
    /// always answered in).
    ///
    /// The types passed here (`DeviceProfile`, `Simulation`, `TapSimulation`) hold strings, integers, booleans and
    /// enums only, which `JSONValueEncoder` always encodes; `null` would stand for an encoding failure that cannot occur.
    static func encode(_ value: some Encodable) -> JSONValue {
        guard let tree = try? JSONValueEncoder().encode(value) else { return .null }
        return sortingKeys(tree)
    }

    private static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.sorted { $0.key < $1.key }.map { .init($0.key, sortingKeys($0.value)) })
        case .array(let elements):
            return .array(elements.map(sortingKeys))
        default:
            return value
        }
    }
}
