import HTTPFields
import JSON
import Support

/// The APNs request FCM makes for an iOS registration (fcm-rules §5): the headers and the payload. The device
/// path (`/3/device/<token>`) and the provider token are the caller's: the path's token is the registration's APNs
/// device token, or ``liveActivityToken`` when there is one.
///
/// What FCM documents is followed; where it is silent, the mock's model is written in fcm-rules §5 and here:
///
/// **Headers** (§5.1). Every `apns.headers` entry the sender gave is kept (its name lower-cased; a repeated name
/// keeps its last value), except `authorization` (FCM signs with its own credential) and the connection's own
/// fields (`host`, `content-length`, pseudo-headers). Missing ones get FCM's defaults:
/// - `apns-push-type`: `liveactivity` with a `live_activity_token`, `background` for a data-only message
///   (``FCMMessage/isDataOnlyForApple``), else `alert`;
/// - `apns-topic`: the app's bundle id, with `.push-type.liveactivity` after it for a Live Activity;
/// - `apns-priority`: 10 (Google's stated default), 5 for a data-only message or a `background` push;
/// - `apns-expiration`: now plus 30 days (Google's stated default).
///
/// **Payload** (§5.2–§5.4): `aps` first — the sender's `apns.payload.aps`, with an `alert` of
/// `notification.title`/`.body` put first when the sender's `aps` has none (`apns.payload` overrides the
/// notification); nothing is added to a data-only message's `aps` (FCM documents no `content-available` of its
/// own: a sender who wants the app woken sets it). Then the `data` entries, `apns.payload`'s other keys (which win
/// over a `data` key of the same name), FCM's keys — `gcm.message_id`, `google.c.a.e`, `google.c.fid`,
/// `google.c.sender.id`, `google.c.a.m_l` when there is an analytics label, `from` for a topic send — as strings
/// (firebase-ios-sdk logs a notification only when `google.c.a.e` is the string `"1"`), and last
/// `fcm_options: {image}` when there is an image (`apns.fcm_options.image`, else `notification.image`). A `data` key
/// named `aps` or like one of FCM's keys is left out.
public struct APNsTranslation: Sendable, Hashable {
    /// The request's headers, without `authorization` and `:path`.
    public var headers: [HTTPField]
    /// The payload as sent.
    public var payload: [UInt8]
    /// The payload as JSON (parsed again from ``payload``: for tests and tools, not the push path).
    public var payloadJSON: JSONValue { (try? JSONValue.parse(payload)) ?? .null }
    /// The `apns-push-type` sent.
    public var pushType: String
    /// The token the request goes to instead of the registration's, for a Live Activity (`apns.live_activity_token`).
    public var liveActivityToken: String?

    /// `apns-expiration`'s default distance from now: 30 days.
    public static let defaultExpirationSeconds: Int64 = 30 * 24 * 60 * 60
    /// The suffix of a Live Activity's topic.
    public static let liveActivityTopicSuffix = ".push-type.liveactivity"
    /// Sender headers FCM does not pass on.
    static let droppedHeaders: Set<String> = [
        "authorization", "host", "content-length", "connection", "transfer-encoding", "te", "upgrade", "keep-alive",
        "proxy-connection",
    ]

    /// The headers FCM sets itself (a sender's own value of one replaces FCM's, at FCM's place).
    static let fixedHeaders: Set<String> = ["apns-topic", "apns-push-type", "apns-priority", "apns-expiration"]

    /// The request FCM makes for `message` to the iOS registration whose installation id is `fid`, of the project
    /// whose number (the sender id) is `senderID`, for the app `bundleID`. `messageID` is FCM's `gcm.message_id`;
    /// `topic` the topic the send came through (nil for a token, installation or condition send); `nowSeconds` the
    /// time the expiration is counted from.
    public static func translate(_ message: FCMMessage, fid: String, senderID: String, messageID: UInt64, topic: String?,
                                 bundleID: String, nowSeconds: Int64) -> APNsTranslation {
        let dataOnly = message.isDataOnlyForApple
        let liveActivityToken = message.apns?.liveActivityToken
        let given = senderHeaders(message.apns?.headers ?? [])
        func sent(_ name: String) -> String? { given.last { $0.name == name }?.value }

        let pushType = sent("apns-push-type") ?? (liveActivityToken != nil ? "liveactivity" : dataOnly ? "background" : "alert")
        let topicHeader = sent("apns-topic") ?? (pushType == "liveactivity" ? bundleID + liveActivityTopicSuffix : bundleID)
        let priority = sent("apns-priority") ?? (dataOnly || pushType == "background" ? "5" : "10")
        let (later, overflow) = nowSeconds.addingReportingOverflow(defaultExpirationSeconds)
        let expiration = sent("apns-expiration") ?? String(overflow ? Int64.max : later)
        var headers = [
            HTTPField(lowercaseName: "apns-topic", value: topicHeader),
            HTTPField(lowercaseName: "apns-push-type", value: pushType),
            HTTPField(lowercaseName: "apns-priority", value: priority),
            HTTPField(lowercaseName: "apns-expiration", value: expiration),
        ]
        headers += given.filter { !fixedHeaders.contains($0.name) }

        let payload = Self.payload(message, fid: fid, senderID: senderID, messageID: messageID, topic: topic)
        return APNsTranslation(headers: headers, payload: payload, pushType: pushType, liveActivityToken: liveActivityToken)
    }

    /// The sender's headers, names lower-cased, each name once (its last value, at its first place), without the
    /// ones FCM does not pass on.
    static func senderHeaders(_ entries: [FCMKeyValue]) -> [HTTPField] {
        var order: [String] = []
        var values: [String: String] = [:]
        for entry in entries {
            let name = entry.key.lowercased()
            guard !name.isEmpty, !name.hasPrefix(":"), !droppedHeaders.contains(name) else { continue }
            if values[name] == nil { order.append(name) }
            values[name] = entry.value
        }
        return order.map { HTTPField(lowercaseName: $0, value: values[$0]!) }
    }

    /// The payload (see the type's documentation), written straight to its bytes: every iOS message makes one, and
    /// no tree is built only to be written out.
    static func payload(_ message: FCMMessage, fid: String, senderID: String, messageID: UInt64, topic: String?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        func key(_ name: String) {
            JSONEscaping.append(name, to: &out)
            out.append(UInt8(ascii: ":"))
        }
        func member(_ name: String, _ value: String) {
            out.append(UInt8(ascii: ","))
            key(name)
            JSONEscaping.append(value, to: &out)
        }

        out += #"{"aps":{"#.utf8
        let aps = message.apns?.aps?.objectMembers ?? []
        var first = true
        if !aps.contains(where: { $0.key == "alert" }), let notification = message.notification, notification.hasText {
            out += #""alert":{"#.utf8
            var fields = 0
            if let title = notification.title, !title.isEmpty {
                out += #""title":"#.utf8
                JSONEscaping.append(title, to: &out)
                fields += 1
            }
            if let body = notification.body, !body.isEmpty {
                out += fields > 0 ? #","body":"#.utf8 : #""body":"#.utf8
                JSONEscaping.append(body, to: &out)
            }
            out.append(UInt8(ascii: "}"))
            first = false
        }
        for entry in aps {
            if !first { out.append(UInt8(ascii: ",")) }
            key(entry.key)
            entry.value.appendJSON(to: &out)
            first = false
        }
        out.append(UInt8(ascii: "}"))

        // FCM's own keys are a handful: a switch. The sender's custom keys may be many: a set, made only when there are some.
        let label = message.apns?.analyticsLabel ?? message.analyticsLabel
        let image = message.apns?.image ?? message.notification?.image
        func taken(_ key: String) -> Bool {
            switch key {
            case "aps", "gcm.message_id", "google.c.a.e", "google.c.fid", "google.c.sender.id": return true
            case "google.c.a.m_l": return label != nil
            case "from": return topic != nil
            case "fcm_options": return image != nil
            default: return false
            }
        }
        let custom = (message.apns?.payload?.objectMembers ?? []).filter { !taken($0.key) }
        let customKeys: Set<String> = custom.isEmpty ? [] : Set(custom.map(\.key))
        for entry in message.data where !taken(entry.key) && !customKeys.contains(entry.key) {
            member(entry.key, entry.value)
        }
        for entry in custom {
            out.append(UInt8(ascii: ","))
            key(entry.key)
            entry.value.appendJSON(to: &out)
        }
        // FCM's keys, spelled here: written as they are, with no escape to look for.
        out += #","gcm.message_id":""#.utf8
        DecimalDigits.withDigits(of: messageID) { out.append(contentsOf: $0) }
        out += #"","google.c.a.e":"1","google.c.fid":"#.utf8
        JSONEscaping.append(fid, to: &out)
        out += #","google.c.sender.id":"#.utf8
        JSONEscaping.append(senderID, to: &out)
        if let label {
            out += #","google.c.a.m_l":"#.utf8
            JSONEscaping.append(label, to: &out)
        }
        if let topic {
            out += #","from":"#.utf8
            JSONEscaping.append(FCMTopic.iidPrefix + topic, to: &out)
        }
        if let image {
            out += #","fcm_options":{"image":"#.utf8
            JSONEscaping.append(image, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
