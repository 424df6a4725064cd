/// The shape of a protobuf message as its proto3 JSON form is read (fcm-rules §3.1): field names in both
/// spellings, the kind of each field, and the oneof it belongs to. ``FCMSchema`` holds FCM's messages written in
/// it and ``SchemaWalker`` reads a request against them.
struct ProtoMessage: Sendable {
    /// The full type name, e.g. `google.firebase.fcm.v1.Notification`, for "Invalid value" errors.
    let typeName: String
    /// The fields, in declaration order.
    let fields: [ProtoField]

    init(_ typeName: String, _ fields: [ProtoField]) {
        // The walker marks the fields it met in one 64-bit word.
        precondition(fields.count <= 64, "\(typeName) has more than 64 fields")
        self.typeName = typeName
        self.fields = fields
    }

    /// The place in ``fields`` of the field a JSON key names: its proto name (snake_case, what the Admin SDKs send)
    /// or its JSON name (lowerCamelCase, what discovery clients send), as proto3 JSON parsers accept both.
    func fieldIndex(named key: String) -> Int? {
        fields.firstIndex { $0.name == key || $0.jsonName == key }
    }
}

/// One field of a ``ProtoMessage``.
struct ProtoField: Sendable {
    /// The proto name, snake_case: what error paths and the normalized tree use.
    let name: String
    /// The lowerCamelCase JSON name.
    let jsonName: String
    /// What its value must be.
    let kind: ProtoKind
    /// The oneof it belongs to (`target`), if any.
    let oneof: String?

    init(_ name: String, _ kind: ProtoKind, oneof: String? = nil) {
        self.name = name
        self.jsonName = Self.lowerCamel(name)
        self.kind = kind
        self.oneof = oneof
    }

    /// `fcm_options` → `fcmOptions`.
    static func lowerCamel(_ name: String) -> String {
        var out = ""
        var upper = false
        for character in name {
            if character == "_" {
                upper = true
            } else if upper {
                out += character.uppercased()
                upper = false
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// What a field's JSON value must be.
indirect enum ProtoKind: Sendable {
    /// A JSON string.
    case string
    /// `true` or `false`.
    case bool
    /// A 32-bit integer: a JSON number without a fraction, or a string of one (proto3 JSON accepts both).
    case int32
    /// A float: a JSON number, or a string of one.
    case float
    /// An enum: one of the names (in any ASCII case: the Admin SDKs send `"high"` for `HIGH`) or its number.
    case enumeration(ProtoEnum)
    /// `google.protobuf.Duration`: a string such as `"3.5s"` (``ProtoDuration``).
    case duration
    /// `google.protobuf.Timestamp`: an RFC 3339 string (``ProtoTimestamp``).
    case timestamp
    /// `map<string, string>`: an object of strings.
    case stringMap
    /// `google.protobuf.Struct`: any JSON object, kept as sent.
    case structObject
    /// A nested message.
    case message(ProtoMessage)
    /// A repeated field: a JSON array of elements of this kind.
    case repeated(ProtoKind)
}

/// A protobuf enum: its type name and its values in number order (the first is number 0).
struct ProtoEnum: Sendable {
    /// The full type name, e.g. `google.firebase.fcm.v1.AndroidMessagePriority`.
    let typeName: String
    /// The value names, in number order.
    let values: [String]

    init(_ typeName: String, _ values: [String]) {
        self.typeName = typeName
        self.values = values
    }

    /// The canonical name of `text` compared without ASCII case, or `nil`.
    func value(named text: String) -> String? {
        let upper = text.uppercased()
        return values.first { $0 == upper }
    }
}
