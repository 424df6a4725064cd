import APNsModel

extension APNsRequest {
    /// The first value of header `name`, which must be written in lower case (a literal such as `"authorization"`):
    /// `value(_:)` without its lowercasing of the name, which the pipeline's per-request lookups paid every time.
    /// Stored names are lowercase (`HeaderField`), so the answer is the same.
    func value(literalName name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
