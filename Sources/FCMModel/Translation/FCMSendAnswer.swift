import JSON
import Support

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
        // Written straight into the string's storage: every accepted message is named, and interpolation builds the
        // string piece by piece.
        JSONEscaping.withUTF8(of: project) { project in
            let capacity = "projects/".utf8.count + project.count + "/messages/0:".utf8.count + 20 + 1 + 16
            return String(unsafeUninitializedCapacity: capacity) { out in
                var at = 0
                func put(_ text: StaticString) {
                    text.withUTF8Buffer { bytes in
                        for byte in bytes { out[at] = byte; at += 1 }
                    }
                }
                put("projects/")
                for byte in project { out[at] = byte; at += 1 }
                put("/messages/")
                if !toTopic { put("0:") }
                DecimalDigits.withDigits(of: messageID) { digits in
                    for byte in digits { out[at] = byte; at += 1 }
                }
                if !toTopic {
                    put("%")
                    let half = fnv1a(project)
                    for _ in 0..<2 {
                        at += writeHex(half, into: UnsafeMutableBufferPointer(rebasing: out[at...]))
                    }
                }
                return at
            }
        }
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
    private static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash
    }

    /// Writes `value` as 8 lower-case hex digits at the start of `out`; returns 8.
    private static func writeHex(_ value: UInt32, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for index in 0..<8 {
                out[index] = digits[Int((value >> UInt32(28 - 4 * index)) & 0xF)]
            }
        }
        return 8
    }
}
