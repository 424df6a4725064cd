/// Encodes an `Encodable` value to a ``JSONValue`` tree whose object members are in the order the value encoded
/// them: for a synthesized `Encodable`, the order of its `CodingKeys`. Written out with ``JSONValue/jsonText(sortedKeys:)``
/// it is byte for byte what the same tree built by hand would be.
///
/// Foundation's `JSONEncoder` is not used for bodies whose key order matters: on Linux it writes a keyed container's
/// members in hash order (a different order from one process to the next) unless told to sort them, and it escapes
/// `/` unless told not to.
///
/// A ``JSONValue`` met inside the value is taken as it is (key order and integers kept). Integers become
/// ``JSONValue/integer(_:)`` (an unsigned one past `Int64.max` is an error), floating-point numbers
/// ``JSONValue/double(_:)`` (not-a-number and the infinities are errors), `encodeNil` and a nil optional encoded with
/// `encode` become `null`; `encodeIfPresent` of nil writes no member. A key encoded twice keeps its first place and
/// its last value.
public struct JSONValueEncoder {
    /// Makes an encoder.
    public init() {}

    /// `value` as a tree.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONEncodingSlot.encode(value, codingPath: [])
    }
}

extension JSONValue: Encodable {
    /// Encodes the tree member by member, keys in wire order (a duplicate key is written once, with its last value,
    /// by encoders that keep one value per key). ``JSONValueEncoder`` takes the tree as it is instead.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONMemberKey.self)
            for member in members { try container.encode(member.value, forKey: JSONMemberKey(member.key)) }
        }
    }

    /// Any string as a coding key.
    private struct JSONMemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Where one encoded value goes: nothing yet, a finished value, or an object or array still being filled.
private final class JSONEncodingSlot {
    private enum Content {
        case empty
        case value(JSONValue)
        case object(JSONEncodingObject)
        case array(JSONEncodingArray)
    }

    private var content = Content.empty

    /// `value` encoded into a new slot, as a tree.
    static func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        let slot = JSONEncodingSlot()
        try value.encode(to: JSONTreeEncoder(slot: slot, codingPath: codingPath))
        return slot.json
    }

    /// What was encoded (an encoder that encoded nothing gives an empty object, as Foundation's does).
    var json: JSONValue {
        switch content {
        case .empty: return .object([])
        case .value(let value): return value
        case .object(let object): return object.json
        case .array(let array): return array.json
        }
    }

    func set(_ value: JSONValue) { content = .value(value) }

    /// The object being filled here (a new one unless this slot already holds one).
    var object: JSONEncodingObject {
        if case .object(let object) = content { return object }
        let object = JSONEncodingObject()
        content = .object(object)
        return object
    }

    /// The array being filled here (a new one unless this slot already holds one).
    var array: JSONEncodingArray {
        if case .array(let array) = content { return array }
        let array = JSONEncodingArray()
        content = .array(array)
        return array
    }
}

private final class JSONEncodingObject {
    private var keys: [String] = []
    private var slots: [String: JSONEncodingSlot] = [:]

    /// The slot for `key`, made (and placed last) on first use.
    func slot(_ key: String) -> JSONEncodingSlot {
        if let slot = slots[key] { return slot }
        let slot = JSONEncodingSlot()
        keys.append(key)
        slots[key] = slot
        return slot
    }

    var json: JSONValue { .object(keys.map { .init($0, slots[$0]?.json ?? .null) }) }
}

private final class JSONEncodingArray {
    private var slots: [JSONEncodingSlot] = []

    var count: Int { slots.count }

    /// A new slot at the end.
    func append() -> JSONEncodingSlot {
        let slot = JSONEncodingSlot()
        slots.append(slot)
        return slot
    }

    var json: JSONValue { .array(slots.map(\.json)) }
}

/// The scalar conversions every container shares.
private enum JSONScalar {
    static func integer<I: BinaryInteger>(_ value: I, codingPath: [any CodingKey]) throws -> JSONValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is past Int64's range."))
        }
        return .integer(exact)
    }

    static func double(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number."))
        }
        return .double(value)
    }
}

private struct JSONTreeEncoder: Encoder {
    let slot: JSONEncodingSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONKeyedContainer<Key>(object: slot.object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedContainer(array: slot.array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(slot: slot, codingPath: codingPath)
    }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONEncodingObject
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) { object.slot(key.stringValue).set(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONScalar.double(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try JSONScalar.double(Double(value), codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(try JSONScalar.integer(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try JSONScalar.integer(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        set(try JSONScalar.integer(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try JSONEncodingSlot.encode(value, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(object: object.slot(key.stringValue).object, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONUnkeyedContainer(array: object.slot(key.stringValue).array, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeEncoder(slot: object.slot("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTreeEncoder(slot: object.slot(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONEncodingArray
    let codingPath: [any CodingKey]
    var count: Int { array.count }

    /// The key of the next element, for error paths.
    private var nextKey: any CodingKey { JSONIndexKey(intValue: array.count) }

    private func append(_ value: JSONValue) { array.append().set(value) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try JSONScalar.double(value, codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: Float) throws { append(try JSONScalar.double(Double(value), codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: Int) throws { append(try JSONScalar.integer(value, codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(try JSONScalar.integer(value, codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(try JSONScalar.integer(value, codingPath: codingPath + [nextKey])) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try JSONEncodingSlot.encode(value, codingPath: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [nextKey]
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(object: array.append().object, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        return JSONUnkeyedContainer(array: array.append().array, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [nextKey]
        return JSONTreeEncoder(slot: array.append(), codingPath: path)
    }
}

private struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let slot: JSONEncodingSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.set(.null) }
    mutating func encode(_ value: Bool) throws { slot.set(.bool(value)) }
    mutating func encode(_ value: String) throws { slot.set(.string(value)) }
    mutating func encode(_ value: Double) throws { slot.set(try JSONScalar.double(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { slot.set(try JSONScalar.double(Double(value), codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { slot.set(try JSONScalar.integer(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int8) throws { slot.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { slot.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { slot.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { slot.set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { slot.set(try JSONScalar.integer(value, codingPath: codingPath)) }
    mutating func encode(_ value: UInt8) throws { slot.set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { slot.set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { slot.set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { slot.set(try JSONScalar.integer(value, codingPath: codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.set(try JSONEncodingSlot.encode(value, codingPath: codingPath))
    }
}

/// An array index as a coding key (error paths only).
private struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
