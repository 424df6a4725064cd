import JSON

/// Reads a JSON value against a ``ProtoMessage`` as Google's JSON front end does (fcm-rules §3.1), and writes the
/// value again in a normal form for the rules after it: keys in their proto (snake_case) spelling, `null` members
/// dropped (proto3: absent), enum names in their canonical upper case, integers as integers, map keys unique.
///
/// Every problem is collected, not only the first, since Google's front end reports them all (one field
/// violation each, the message their descriptions joined by newlines); at most ``maximumViolations`` are kept, so a
/// hostile body cannot make the answer grow without bound. The descriptions follow the front end's wording:
/// `Invalid JSON payload received. Unknown name "x" at 'message': Cannot find field.` and
/// `Invalid value at 'message.data[0].value' (TYPE_STRING), 12`.
struct SchemaWalker {
    /// The problems found, in the order met.
    private(set) var violations: [FCMError.FieldViolation] = []
    /// The most violations one answer reports.
    static let maximumViolations = 50
    /// The most characters of an offending value quoted in a description.
    static let maximumQuotedValue = 100

    /// Where the walk is: the fields and list places from the root down, written out as a path
    /// (`message.data[0]`) only when a problem is reported there, so a valid request builds no path text.
    private var trail: [Step] = {
        var trail: [Step] = []
        trail.reserveCapacity(8)   // FCM's messages nest four deep: one allocation, no growth
        return trail
    }()
    private enum Step {
        case field(String)
        case index(Int)
    }

    /// How many values the walk wrote in a form of their own (a key in lowerCamelCase, a `null` dropped, an enum's
    /// canonical name…): a message none of whose members changed is handed back as sent, with no copy made.
    private var rewrites = 0

    /// The path of the value being read (`""` at the root).
    private var path: String {
        var text = ""
        for step in trail {
            switch step {
            case .field(let name):
                if !text.isEmpty { text += "." }
                text += name
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Reads `value` as a `type`, found where ``trail`` says (the root for the request itself); `nil` when it is not
    /// an object.
    mutating func message(_ value: JSONValue, _ type: ProtoMessage) -> JSONValue? {
        guard case .object(let members) = value else {
            invalidValue(path: path, label: "type.googleapis.com/" + type.typeName, value: value)
            return nil
        }
        // Made at the first member whose normal form differs from what was sent; until then the members are kept as
        // they are.
        var out: [JSONValue.JSONMember]?
        func rewrite(upTo index: Int) {
            guard out == nil else { return }
            out = Array(members[..<index])
            out!.reserveCapacity(members.count)
        }
        let rewritesBefore = rewrites
        // The fields met so far, one bit per field (a message has at most 64).
        var seen: UInt64 = 0
        // The oneofs set so far: the first kept inline (FCM's messages have one, `target`), so a message allocates none.
        var firstOneof: String?
        var moreOneofs: [String] = []
        for (place, member) in members.enumerated() {
            guard let index = type.fieldIndex(named: member.key) else {
                report(field: path.isEmpty ? nil : path,
                       "Invalid JSON payload received. Unknown name \(JSONEscaping.quoted(member.key))\(Self.at(path)): Cannot find field.")
                rewrite(upTo: place)
                continue
            }
            let field = type.fields[index]
            guard seen & (1 << UInt64(index)) == 0 else {
                report(field: path.isEmpty ? nil : path,
                       "Invalid JSON payload received. Duplicate field \(JSONEscaping.quoted(member.key))\(Self.at(path)).")
                rewrite(upTo: place)
                continue
            }
            seen |= 1 << UInt64(index)
            if case .null = member.value {
                rewrite(upTo: place)
                continue
            }
            if let oneof = field.oneof {
                if firstOneof == oneof || moreOneofs.contains(oneof) {
                    report(field: path.isEmpty ? nil : path,
                           "Invalid value at '\(path)' (oneof), oneof field '\(oneof)' is already set. Cannot set '\(field.name)'")
                    rewrite(upTo: place)
                    continue
                }
                if firstOneof == nil { firstOneof = oneof } else { moreOneofs.append(oneof) }
            }
            if case .array = member.value, !field.kind.isRepeated {
                report(field: path.isEmpty ? nil : path,
                       "Invalid JSON payload received. Unknown name \(JSONEscaping.quoted(member.key))\(Self.at(path)): Proto field is not repeating, cannot start list.")
                rewrite(upTo: place)
                continue
            }
            trail.append(.field(field.name))
            let before = rewrites
            let normal = self.value(member.value, kind: field.kind, owner: type, field: field)
            trail.removeLast()
            guard let normal else {
                rewrite(upTo: place)
                continue
            }
            if rewrites != before || member.key != field.name { rewrite(upTo: place) }
            out?.append(.init(field.name, normal))
        }
        guard let out else { return value }
        rewrites = rewritesBefore + 1
        return .object(out)
    }

    private mutating func value(_ value: JSONValue, kind: ProtoKind, owner: ProtoMessage, field: ProtoField) -> JSONValue? {
        switch kind {
        case .string:
            guard case .string = value else { return invalidValue(path: path, label: "TYPE_STRING", value: value) }
            return value
        case .bool:
            guard case .bool = value else { return invalidValue(path: path, label: "TYPE_BOOL", value: value) }
            return value
        case .int32:
            guard let number = Self.int32(value) else { return invalidValue(path: path, label: "TYPE_INT32", value: value) }
            if case .integer = value { return value }
            rewrites += 1
            return .integer(Int64(number))
        case .float:
            guard let number = Self.float(value) else { return invalidValue(path: path, label: "TYPE_FLOAT", value: value) }
            if case .double = value { return value }
            rewrites += 1
            return .double(number)
        case .enumeration(let type):
            switch value {
            case .string(let text):
                if let name = type.value(named: text) {
                    if name == text { return value }
                    rewrites += 1
                    return .string(name)
                }
            case .integer(let number):
                if number >= 0, number < Int64(type.values.count) {
                    rewrites += 1
                    return .string(type.values[Int(number)])
                }
            default:
                break
            }
            return invalidValue(path: path, label: "type.googleapis.com/" + type.typeName, value: value)
        case .duration:
            guard case .string(let text) = value, ProtoDuration(text) != nil else {
                return invalidValue(path: path, label: "type.googleapis.com/google.protobuf.Duration", value: value)
            }
            return value
        case .timestamp:
            guard case .string(let text) = value, ProtoTimestamp.isValid(text) else {
                return invalidValue(path: path, label: "type.googleapis.com/google.protobuf.Timestamp", value: value)
            }
            return value
        case .stringMap:
            return stringMap(value, owner: owner, field: field)
        case .structObject:
            guard case .object = value else {
                return invalidValue(path: path, label: "type.googleapis.com/google.protobuf.Struct", value: value)
            }
            rewrites += 1
            return value.withUniqueKeys()
        case .message(let type):
            return message(value, type)
        case .repeated(let element):
            guard case .array(let elements) = value else {
                return invalidValue(path: path, label: element.label, value: value)
            }
            var out: [JSONValue] = []
            for (index, item) in elements.enumerated() {
                trail.append(.index(index))
                defer { trail.removeLast() }
                if case .array = item {
                    let itemPath = path
                    report(field: itemPath, "Invalid JSON payload received. Unknown name \(JSONEscaping.quoted(field.jsonName)) at '\(itemPath)': Proto field is not repeating, cannot start list.")
                    continue
                }
                if let normal = self.value(item, kind: element, owner: owner, field: field) { out.append(normal) }
            }
            rewrites += 1
            return .array(out)
        }
    }

    /// A `map<string, string>`: each value a string (its path `path[i].value`, `i` its place as sent), each key once.
    private mutating func stringMap(_ value: JSONValue, owner: ProtoMessage, field: ProtoField) -> JSONValue? {
        guard case .object(let members) = value else {
            let entryType = owner.typeName + "." + Self.upperCamel(field.name) + "Entry"
            return invalidValue(path: path, label: "type.googleapis.com/" + entryType, value: value)
        }
        // A map's entries are checked in place: what is wrong is reported and the whole request refused, so a map is
        // never rewritten. A key is compared with the string entries before it by a scan while there are few, by a
        // set past that (a body may hold thousands).
        var keys: Set<String>?
        for (index, member) in members.enumerated() {
            guard case .string = member.value else {
                invalidValue(path: "\(path)[\(index)].value", label: "TYPE_STRING", value: member.value)
                continue
            }
            let repeated: Bool
            if index < 16 {
                repeated = members[..<index].contains { earlier in
                    guard case .string = earlier.value else { return false }
                    return earlier.key == member.key
                }
            } else {
                if keys == nil {
                    keys = Set(members[..<index].compactMap { earlier in
                        guard case .string = earlier.value else { return nil }
                        return earlier.key
                    })
                }
                repeated = !keys!.insert(member.key).inserted
            }
            if repeated {
                report(field: path, "Invalid JSON payload received. Duplicate map key \(JSONEscaping.quoted(member.key)) at '\(path)'.")
            }
        }
        return value
    }

    @discardableResult
    private mutating func invalidValue(path: String? = nil, label: String, value: JSONValue) -> JSONValue? {
        let path = path ?? self.path
        var text = value.jsonText()
        if text.count > Self.maximumQuotedValue { text = String(text.prefix(Self.maximumQuotedValue)) + "…" }
        report(field: path.isEmpty ? nil : path, "Invalid value at '\(path)' (\(label)), \(text)")
        return nil
    }

    private mutating func report(field: String?, _ description: String) {
        guard violations.count < Self.maximumViolations else { return }
        violations.append(FCMError.FieldViolation(field: field, description: description))
    }

    /// ` at 'path'`, or nothing at the root (Google leaves it out there).
    private static func at(_ path: String) -> String {
        path.isEmpty ? "" : " at '\(path)'"
    }

    /// `headers` → `Headers`, for a map's entry type name.
    private static func upperCamel(_ name: String) -> String {
        let camel = ProtoField.lowerCamel(name)
        return camel.prefix(1).uppercased() + camel.dropFirst()
    }

    /// A 32-bit integer from a JSON number without a fraction, or from a string of decimal digits.
    static func int32(_ value: JSONValue) -> Int32? {
        switch value {
        case .integer(let number): return Int32(exactly: number)
        case .double(let number): return Int32(exactly: number)
        case .string(let text):
            var bytes = Substring(text)
            let negative = bytes.first == "-"
            if negative { bytes = bytes.dropFirst() }
            guard !bytes.isEmpty, bytes.utf8.count <= 10, bytes.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let magnitude = Int64(bytes) else { return nil }
            return Int32(exactly: negative ? -magnitude : magnitude)
        default: return nil
        }
    }

    /// A finite float from a JSON number or a string of one.
    static func float(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .double(let number): return number.isFinite ? number : nil
        case .string(let text):
            guard text.utf8.count <= 64, let number = Double(text), number.isFinite else { return nil }
            return number
        default: return nil
        }
    }
}

extension ProtoKind {
    /// Whether a JSON array is this kind's form.
    var isRepeated: Bool {
        if case .repeated = self { return true }
        return false
    }

    /// The type the front end names in an "Invalid value" description.
    var label: String {
        switch self {
        case .string: return "TYPE_STRING"
        case .bool: return "TYPE_BOOL"
        case .int32: return "TYPE_INT32"
        case .float: return "TYPE_FLOAT"
        case .enumeration(let type): return "type.googleapis.com/" + type.typeName
        case .duration: return "type.googleapis.com/google.protobuf.Duration"
        case .timestamp: return "type.googleapis.com/google.protobuf.Timestamp"
        case .stringMap: return "TYPE_MESSAGE"
        case .structObject: return "type.googleapis.com/google.protobuf.Struct"
        case .message(let type): return "type.googleapis.com/" + type.typeName
        case .repeated(let element): return element.label
        }
    }
}

extension JSONValue {
    /// The value with each object's keys made unique, recursively: a repeated key keeps its first place and its last
    /// value, as a `google.protobuf.Struct` (a map) built from it would.
    func withUniqueKeys() -> JSONValue {
        switch self {
        case .object(let members):
            var order: [String] = []
            var values: [String: JSONValue] = [:]
            for member in members {
                if values[member.key] == nil { order.append(member.key) }
                values[member.key] = member.value.withUniqueKeys()
            }
            return .object(order.map { .init($0, values[$0]!) })
        case .array(let elements):
            return .array(elements.map { $0.withUniqueKeys() })
        default:
            return self
        }
    }
}
