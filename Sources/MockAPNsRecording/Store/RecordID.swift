/// How a reader names one record: by its number (`seq`, or a shared store's store-wide id) or by the `apns-id` its
/// answer carried, as `mockapns show ID` and `GET /api/v1/notifications/{id}` take it.
public enum RecordID: Sendable, Equatable, CustomStringConvertible {
    /// The record's number.
    case seq(UInt64)
    /// The `apns-id` of the record's answer (compared case-insensitively).
    case apnsID(String)

    /// A number when `text` is all digits, else an `apns-id`.
    public init(parsing text: String) {
        if let number = UInt64(text) { self = .seq(number) } else { self = .apnsID(text) }
    }

    /// The id as a reader typed it.
    public var description: String {
        switch self {
        case .seq(let number): return String(number)
        case .apnsID(let text): return text
        }
    }
}
