extension JSONValue {
    /// The elements, when this is an array.
    public var arrayElements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is an object.
    public var isJSONObject: Bool {
        if case .object = self { return true }
        return false
    }
}
