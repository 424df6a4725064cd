/// The small fixed-shape answers several routes share, sent with ``JSONResponse/make(encoding:status:)``; each
/// `CodingKeys` is in wire order.
enum ControlBody {
    /// `{"removed": n}`: how many entries a DELETE of a whole collection removed.
    struct RemovedCount: Encodable {
        let removed: Int
        enum CodingKeys: String, CodingKey { case removed }
    }

    /// `{"removed": "<id>"}`: the one entry a DELETE removed.
    struct RemovedID: Encodable {
        let removed: String
        enum CodingKeys: String, CodingKey { case removed }
    }

    /// `{"id": "<id>"}`: the id of what a POST made.
    struct Created: Encodable {
        let id: String
        enum CodingKeys: String, CodingKey { case id }
    }
}
