@_exported import HTTPFields

/// One HTTP header field (``HTTPField``): received names are lowercase as on the wire (HTTP/2 requires it); names you
/// send are lowercased by `init(name:value:)`. Mark a field whose value is new on every message `valueIsUnique`.
public typealias HTTPHeaderField = HTTPField
