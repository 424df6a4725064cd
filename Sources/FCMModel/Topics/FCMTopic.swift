/// Topic names (fcm-rules §3.4): one or more of `a-z A-Z 0-9 - _ . ~ %`, the pattern the Admin SDKs check and
/// FCM's pages give.
///
/// In `message.topic` the name goes without the `/topics/` prefix, as the REST reference says: the Admin SDKs
/// strip the prefix before they send, so a `/` can only come from a sender writing the JSON itself, and the mock
/// refuses it as an invalid name. IID's `batchAdd` and `batchRemove` take the prefixed form (`"to": "/topics/news"`),
/// which ``name(fromIIDTarget:)`` reads.
public enum FCMTopic {
    /// The prefix IID's topic management puts before a topic name.
    public static let iidPrefix = "/topics/"

    /// Whether `name` is a topic name: non-empty, every character one of `a-zA-Z0-9-_.~%`.
    public static func isValidName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isNameByte)
    }

    /// The topic of an IID target `/topics/NAME`, or `nil` when `target` is not one.
    public static func name(fromIIDTarget target: String) -> String? {
        guard target.hasPrefix(iidPrefix) else { return nil }
        let name = String(target.dropFirst(iidPrefix.count))
        return isValidName(name) ? name : nil
    }

    /// Checks `message.topic`; throws 400 `INVALID_ARGUMENT` naming the field.
    static func check(_ name: String) throws(FCMError) {
        guard isValidName(name) else {
            let hint = name.hasPrefix(iidPrefix) ? " (leave out the /topics/ prefix)" : ""
            throw FCMError.invalidArgument("Invalid topic name \(quoted(name)): a topic name is one or more of a-z A-Z 0-9 - _ . ~ %\(hint).",
                                           field: "message.topic")
        }
    }

    /// Whether `byte` may appear in a topic name.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    /// `name` in double quotes, cut to 80 characters, for messages.
    static func quoted(_ name: String) -> String {
        "\"" + (name.count > 80 ? String(name.prefix(80)) + "…" : name) + "\""
    }
}
