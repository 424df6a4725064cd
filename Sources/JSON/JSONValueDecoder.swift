/// Decodes a `Decodable` value from a ``JSONValue`` tree: the reading half of ``JSONValueEncoder``, so a value read
/// from JSON the project has already parsed is not written back to text for Foundation's `JSONDecoder` to parse again.
///
/// Integers are read from ``JSONValue/integer(_:)`` (a fraction or a number past the type's range is an error, never
/// rounded or clamped), floating-point numbers from either number case, `null` and an absent key read as nil for an
/// optional (`decodeIfPresent`). A repeated key reads its last value, as ``JSONValue``'s subscript does.
public struct JSONValueDecoder {
    /// Makes a decoder.
    public init() {}

    /// The value `tree` describes.
    public func decode<T: Decodable>(_ type: T.Type, from tree: JSONValue) throws -> T {
        try T(from: JSONTreeDecoder(value: tree, codingPath: []))
    }
}

/// One position in the tree being decoded.
private struct JSONTreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = value.objectMembers else { throw mismatch(expected: "an object", for: value, at: codingPath) }
        return KeyedDecodingContainer(JSONKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array", for: value, at: codingPath) }
        return JSONUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONSingleValueContainer(value: value, codingPath: codingPath)
    }
}

/// The error for `value` where `expected` was needed.
private func mismatch(expected: String, for value: JSONValue, at path: [any CodingKey]) -> DecodingError {
    DecodingError.typeMismatch(Any.self, DecodingError.Context(
        codingPath: path, debugDescription: "expected \(expected), found \(value.typeName)"))
}

/// Reads one scalar of type `T` from `value`.
private func scalar<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        guard let wide = value.integerValue else { throw mismatch(expected: "a whole number", for: value, at: path) }
        guard let exact = I(exactly: wide) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: "\(wide) does not fit \(I.self)"))
        }
        return exact
    }
    switch type {
    case is Bool.Type:
        guard let bool = value.boolValue else { throw mismatch(expected: "a boolean", for: value, at: path) }
        return bool as! T
    case is String.Type:
        guard let text = value.stringValue else { throw mismatch(expected: "a string", for: value, at: path) }
        return text as! T
    case is Double.Type:
        guard let number = value.numberValue else { throw mismatch(expected: "a number", for: value, at: path) }
        return number as! T
    case is Float.Type:
        guard let number = value.numberValue else { throw mismatch(expected: "a number", for: value, at: path) }
        return Float(number) as! T
    case is Int.Type: return try integer(Int.self) as! T
    case is Int8.Type: return try integer(Int8.self) as! T
    case is Int16.Type: return try integer(Int16.self) as! T
    case is Int32.Type: return try integer(Int32.self) as! T
    case is Int64.Type: return try integer(Int64.self) as! T
    case is UInt.Type: return try integer(UInt.self) as! T
    case is UInt8.Type: return try integer(UInt8.self) as! T
    case is UInt16.Type: return try integer(UInt16.self) as! T
    case is UInt32.Type: return try integer(UInt32.self) as! T
    case is UInt64.Type: return try integer(UInt64.self) as! T
    case is JSONValue.Type: return value as! T
    default: return try T(from: JSONTreeDecoder(value: value, codingPath: path))
    }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [JSONValue.JSONMember]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    private func value(_ key: Key) throws -> JSONValue {
        guard let member = members.last(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\""))
        }
        return member.value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try scalar(type, from: try value(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONTreeDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONTreeDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONTreeDecoder(value: .object(members), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTreeDecoder(value: try value(key), codingPath: codingPath + [key])
    }
}

private struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The key of the element at `currentIndex`, for coding paths.
    private struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try scalar(type, from: value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try JSONTreeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try JSONTreeDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return JSONTreeDecoder(value: value, codingPath: path)
    }
}

private struct JSONSingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try scalar(type, from: value, at: codingPath)
    }
}
