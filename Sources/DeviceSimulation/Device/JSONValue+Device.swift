import APNsModel
extension JSONValue {
    /// A string, or `null` when absent: how the device model's JSON writes an optional string.
    static func string(orNull value: String?) -> JSONValue {
        guard let value else { return .null }
        return .string(value)
    }

    /// An integer, or `null` when absent: how the device model's JSON writes an optional time.
    static func integer(orNull value: Int64?) -> JSONValue {
        guard let value else { return .null }
        return .integer(value)
    }
}
