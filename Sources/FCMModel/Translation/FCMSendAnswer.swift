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
        // Written as bytes: every accepted message is named, and interpolation builds the string piece by piece.
        var out: [UInt8] = []
        out.reserveCapacity(project.utf8.count + 64)
        out += "projects/".utf8
        JSONEscaping.withUTF8(of: project) { out.append(contentsOf: $0) }
        out += "/messages/".utf8
        if toTopic {
            appendDecimal(messageID, to: &out)
        } else {
            out += "0:".utf8
            appendDecimal(messageID, to: &out)
            out.append(UInt8(ascii: "%"))
            let half = fnv1a(project)
            appendHex(half, to: &out)
            appendHex(half, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
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
        // Written as bytes: every accepted send answers one.
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count + 16)
        out += "{\n  \"name\": ".utf8
        JSONEscaping.append(name, to: &out)
        out += "\n}\n".utf8
        return out
    }

    /// 32-bit FNV-1a.
    private static func fnv1a(_ text: String) -> UInt32 {
        JSONEscaping.withUTF8(of: text) { bytes in
            var hash: UInt32 = 0x811C_9DC5
            for byte in bytes {
                hash ^= UInt32(byte)
                hash &*= 0x0100_0193
            }
            return hash
        }
    }

    /// `value` in decimal.
    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        var count = 1, rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value
        for index in stride(from: start + count - 1, through: start, by: -1) {
            out[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }

    /// `value` as 8 lower-case hex digits.
    private static func appendHex(_ value: UInt32, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            var shift: UInt32 = 32
            while shift > 0 {
                shift -= 4
                out.append(digits[Int((value >> shift) & 0xF)])
            }
        }
    }
}
