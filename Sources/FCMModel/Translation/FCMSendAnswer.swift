import JSON

/// The answer to a send that FCM accepted (fcm-rules §1.1): the `Message` with its `name`,
/// `{"name": "projects/{project}/messages/{id}"}`.
///
/// The id's form is the mock's model after names seen in the wild: `0:<gcm.message_id>%<16 hex digits>` for a
/// message to one device (`0:1500415314455276%31bd1c9631bd1c96`; the hex digits derived here from the project, the
/// same in every run), the bare number for a topic or condition message, and `fake_message_id` for a dry run, as
/// Google answers `validate_only` (3rd-party test fixtures).
public enum FCMSendAnswer {
    /// The id of a dry run's name.
    public static let dryRunMessageID = "fake_message_id"

    /// The name of a message FCM accepted for `project` (as it appeared in the path) with `gcm.message_id`
    /// `messageID`; `toTopic` for a topic or condition message.
    public static func name(project: String, messageID: UInt64, toTopic: Bool) -> String {
        guard !toTopic else { return "projects/\(project)/messages/\(messageID)" }
        let half = hex32(fnv1a(project))
        return "projects/\(project)/messages/0:\(messageID)%\(half)\(half)"
    }

    /// The name a dry run answers: `projects/{project}/messages/fake_message_id`.
    public static func dryRunName(project: String) -> String {
        "projects/\(project)/messages/\(dryRunMessageID)"
    }

    /// The answer's JSON, `{"name": name}`.
    public static func json(name: String) -> JSONValue {
        .object([.init("name", .string(name))])
    }

    /// The answer's body, indented with a final newline as Google's front end writes it.
    public static func body(name: String) -> [UInt8] {
        Array((json(name: name).prettyText() + "\n").utf8)
    }

    /// 32-bit FNV-1a.
    private static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
