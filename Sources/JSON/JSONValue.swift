import Foundation

/// A parsed JSON value that keeps what APNs rules care about: integers apart from fractions,
/// booleans apart from numbers, and object keys in the order they were written.
///
/// Payload rules ("badge must be an integer", "content-changed must be `true`") need those distinctions,
/// and a recorded payload must print in the order the sender wrote it.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in wire order. A duplicate key keeps its last value when read through `subscript`.
    case object([JSONMember])

    /// One `"key": value` pair of a JSON object.
    public struct JSONMember: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// Makes a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of `key` when this is an object (the last one when a key repeats), else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The value at a dotted path of object keys, e.g. `["aps", "alert", "title"]`.
    public func value(at path: [String]) -> JSONValue? {
        var current: JSONValue? = self
        for key in path { current = current?[key] }
        return current
    }

    /// The object's members, or `nil` when this is not an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The object's keys in wire order, or `nil` when this is not an object.
    public var objectKeys: [String]? { objectMembers?.map(\.key) }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, when this is an integer (a JSON number written without fraction or exponent).
    public var integerValue: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// The number as a `Double`, for integers and fractions alike.
    public var numberValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The JSON type's name as a user would say it ("object", "string", …), for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
