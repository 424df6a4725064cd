// Imported, not re-exported: the model's name for the field is `HeaderField`, so the `HTTPFields` module does not
// come along with the model (the transport, which speaks `HTTPField`, imports it itself).
import HTTPFields

/// One HTTP header as it arrived: a lowercase name and its value — the project's one field type (``HTTPField``), so
/// the transport's fields are the model's without a copy. `init(name:value:)` lowercases, so rules compare names
/// with `==`.
public typealias HeaderField = HTTPField
