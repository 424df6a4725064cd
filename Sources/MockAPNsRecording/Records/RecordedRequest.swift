import APNsModel
import DeviceSimulation

/// One request as the mock saw it and answered it: accepted or rejected, with everything a test or a
/// person needs to tell what the sender did. Immutable once recorded.
///
/// Its JSON form (one line per record in a `--record` file, and the control API's items) uses the
/// snake_case field names documented in docs/records.md ("Fields"); `RecordedRequest+JSON.swift`
/// converts both ways.
public struct RecordedRequest: Sendable, Equatable {
    /// Position in the recording, from 1, in the order requests finished.
    public var seq: UInt64
    /// When the request's last frame arrived, in milliseconds since the Unix epoch.
    public var receivedAtMillis: Int64
    /// The HTTP/2 connection the request came on (unique for the life of the server).
    public var connectionID: UInt64
    /// The HTTP/2 stream id (odd, client-initiated); 0 for the HTTP/1.1 endpoint.
    public var streamID: Int32
    /// The peer's address, `host:port`.
    public var remote: String
    /// `:method` as sent.
    public var method: String
    /// `:path` as sent.
    public var path: String
    /// The device token the request's route names (`POST /3/device/<token>`); nil when its path names no endpoint.
    public var deviceToken: String?
    /// Regular headers in wire order, duplicates kept.
    public var headers: [HeaderField]
    /// The body as sent (at most the server's body cap).
    public var body: [UInt8]
    /// The body as JSON, when it parses.
    ///
    /// The server records a body that parsed as that text (`PayloadSource.text`, the body's own bytes), and this
    /// property parses it when read: records are read rarely and written at the request rate, and a parsed tree is
    /// many small allocations to build, copy and free for every request.
    public var payload: JSONValue? {
        get { payloadSource.payload }
        set {
            payloadSource = .value(newValue)
            readFrom = nil   // the line holds the body's text, which no longer says what the payload is
        }
    }
    /// Where `payload` comes from: `.text` is always `body` itself.
    var payloadSource: PayloadSource
    /// The size of the body in bytes as sent (may exceed `body.count` when the body was over the cap).
    public var payloadBytes: Int
    /// How the request authenticated.
    public var auth: Authentication
    /// What the mock answered.
    public var response: Response
    /// The fault-plan rules that fired for this request, by name.
    public var faults: [String]
    /// Lint findings for the payload (what APNs accepts but a device may mishandle), and the connection's.
    public var lint: [LintFinding]
    /// A finding about the connection the request came on (`new-connection-per-push`), set by the pipeline: the
    /// record's readers put it after the payload's findings, which they compute off the request path (``withLint()``).
    package var connectionFinding: LintFinding? = nil
    /// Time from the request's arrival to the response being handed to the transport, in microseconds.
    public var durationMicros: Int64
    /// The upstream's verdict under `serve --relay` (or why the push was not relayed); nil without a relay.
    /// `response` keeps the mock's own verdict either way.
    public var relay: RelayVerdict? = nil
    /// The mock instance that answered, as a shared store reports it (`--instance-name`); nil for a record read from
    /// one mock's own memory or file, which only that mock answered.
    public var instance: String? = nil
    /// The environment the request's host name implied, when the mock served Apple's names (`serve --apple-hosts`:
    /// `api.push.apple.com` is production, the sandbox names development); nil on the mock's own address, where
    /// the configured environment applies to every request.
    public var environment: APNsEnvironment? = nil
    /// The FCM message this push delivers, when the mock's FCM front door made it (`serve --fcm`); nil for a push
    /// a sender made itself.
    public var fcm: FCMLink? = nil
    /// The JSON line this record was read from and its parsed tree, when it was read from one (a record file, a
    /// store): ``jsonValue()`` serves that tree while the record still encodes to that line, instead of encoding
    /// and parsing it again.
    var readFrom: RecordLineSource? = nil

    /// Makes a record; every field is required so nothing is silently defaulted.
    public init(
        seq: UInt64, receivedAtMillis: Int64, connectionID: UInt64, streamID: Int32, remote: String,
        method: String, path: String, deviceToken: String?, headers: [HeaderField], body: [UInt8],
        payload: JSONValue?, payloadBytes: Int, auth: Authentication, response: Response,
        faults: [String], lint: [LintFinding], durationMicros: Int64
    ) {
        self.init(seq: seq, receivedAtMillis: receivedAtMillis, connectionID: connectionID, streamID: streamID,
                  remote: remote, method: method, path: path, deviceToken: deviceToken, headers: headers, body: body,
                  payloadSource: .value(payload), payloadBytes: payloadBytes, auth: auth, response: response,
                  faults: faults, lint: lint, durationMicros: durationMicros)
    }

    /// A record holding its payload as `payloadSource` says: `.text` (parsed only when `payload` is read) must be
    /// `body`, non-empty JSON text that `JSONValue.parse` accepts.
    package init(
        seq: UInt64, receivedAtMillis: Int64, connectionID: UInt64, streamID: Int32, remote: String,
        method: String, path: String, deviceToken: String?, headers: [HeaderField], body: [UInt8],
        payloadSource: PayloadSource, payloadBytes: Int, auth: Authentication, response: Response,
        faults: [String], lint: [LintFinding], durationMicros: Int64, environment: APNsEnvironment? = nil,
        fcm: FCMLink? = nil, connectionFinding: LintFinding? = nil
    ) {
        // The one initializer that sets every field, each once; the public one passes `.value(payload)` in rather
        // than writing `payloadSource` afterwards, which copied the record (the server builds one per request).
        self.seq = seq
        self.receivedAtMillis = receivedAtMillis
        self.connectionID = connectionID
        self.streamID = streamID
        self.remote = remote
        self.method = method
        self.path = path
        self.deviceToken = deviceToken
        self.headers = headers
        self.body = body
        self.payloadSource = payloadSource
        self.payloadBytes = payloadBytes
        self.auth = auth
        self.response = response
        self.faults = faults
        self.lint = lint
        self.durationMicros = durationMicros
        self.environment = environment
        self.fcm = fcm
        self.connectionFinding = connectionFinding
    }

    /// Records are equal when every field is, `payload` compared as JSON whichever way each record holds it.
    public static func == (lhs: RecordedRequest, rhs: RecordedRequest) -> Bool {
        lhs.seq == rhs.seq && lhs.receivedAtMillis == rhs.receivedAtMillis && lhs.connectionID == rhs.connectionID
            && lhs.streamID == rhs.streamID && lhs.remote == rhs.remote && lhs.method == rhs.method
            && lhs.path == rhs.path && lhs.deviceToken == rhs.deviceToken && lhs.headers == rhs.headers
            && lhs.body == rhs.body && lhs.payloadBytes == rhs.payloadBytes && lhs.auth == rhs.auth
            && lhs.response == rhs.response && lhs.faults == rhs.faults && lhs.lint == rhs.lint
            && lhs.connectionFinding == rhs.connectionFinding
            && lhs.durationMicros == rhs.durationMicros && lhs.relay == rhs.relay && lhs.instance == rhs.instance
            && lhs.environment == rhs.environment && lhs.fcm == rhs.fcm
            && (lhs.payloadSource == rhs.payloadSource || lhs.payload == rhs.payload)
    }

    /// The FCM message an APNs push delivers: FCM turns each message to an iOS registration into one APNs push, and
    /// the two records name each other (the FCM record lists the push's `apns-id`).
    public struct FCMLink: Sendable, Equatable {
        /// The message's name, `projects/P/messages/ID`: what FCM answered, unless APNs refused this push, when FCM
        /// answered an error instead and the FCM record has no name.
        public var messageName: String
        /// The Firebase project.
        public var project: String
        /// The registration token the message was sent to (for a topic or condition message, the subscriber's).
        public var registrationToken: String

        /// Makes a link.
        public init(messageName: String, project: String, registrationToken: String) {
            self.messageName = messageName
            self.project = project
            self.registrationToken = registrationToken
        }
    }

    /// The credential a request carried, as far as the mock could read it.
    public struct Authentication: Sendable, Equatable {
        /// `token`, `certificate` or `none`.
        public var kind: String
        /// The JWT's `iss` (token) or nil.
        public var teamID: String?
        /// The JWT's `kid` (token) or nil.
        public var keyID: String?
        /// The JWT's `iat` in epoch seconds, when it had a readable one.
        public var issuedAt: Int64?
        /// The client certificate's topics (certificate auth).
        public var topics: [String]

        /// Makes an authentication summary.
        public init(kind: String, teamID: String? = nil, keyID: String? = nil, issuedAt: Int64? = nil, topics: [String] = []) {
            self.kind = kind
            self.teamID = teamID
            self.keyID = keyID
            self.issuedAt = issuedAt
            self.topics = topics
        }
    }

    /// The answer the mock gave (or, for stalls and resets, the one it withheld).
    public struct Response: Sendable, Equatable {
        /// HTTP status; 0 when no response was sent (stall, reset, dropped connection).
        public var status: Int
        /// APNs reason for errors.
        public var reason: String?
        /// `apns-id` returned.
        public var apnsID: String? {
            get { apnsIDSource.text }
            set { apnsIDSource = .text(newValue) }
        }
        /// `apns-unique-id` returned (development environment).
        public var apnsUniqueID: String? {
            get { apnsUniqueIDSource.text }
            set { apnsUniqueIDSource = .text(newValue) }
        }
        /// How `apnsID` is held.
        package var apnsIDSource: IDSource
        /// How `apnsUniqueID` is held.
        package var apnsUniqueIDSource: IDSource

        /// An ID as given, or as generated: the server's own IDs are kept as their 128 bits and spelled when read,
        /// so a record held in memory does not keep one more string per ID.
        package enum IDSource: Sendable, Equatable {
            /// This text (`nil`: no ID).
            case text(String?)
            /// An ID the server generated.
            case generated(APNsIDGenerator.GeneratedID)

            /// The ID's text.
            package var text: String? {
                switch self {
                case .text(let text): return text
                case .generated(let id): return id.text
                }
            }
        }
        /// For 410: milliseconds since the epoch when the token was last known invalid.
        public var timestamp: Int64?

        /// Makes a response summary.
        public init(status: Int, reason: String? = nil, apnsID: String? = nil, apnsUniqueID: String? = nil, timestamp: Int64? = nil) {
            self.status = status
            self.reason = reason
            self.apnsIDSource = .text(apnsID)
            self.apnsUniqueIDSource = .text(apnsUniqueID)
            self.timestamp = timestamp
        }

        /// A response summary with its IDs as held by the server.
        package init(status: Int, reason: String?, apnsID: IDSource, apnsUniqueID: IDSource, timestamp: Int64?) {
            self.status = status
            self.reason = reason
            self.apnsIDSource = apnsID
            self.apnsUniqueIDSource = apnsUniqueID
            self.timestamp = timestamp
        }

        /// Summaries are equal when their fields are, IDs compared as text however each is held.
        public static func == (lhs: Response, rhs: Response) -> Bool {
            lhs.status == rhs.status && lhs.reason == rhs.reason && lhs.timestamp == rhs.timestamp
                && (lhs.apnsIDSource == rhs.apnsIDSource || lhs.apnsID == rhs.apnsID)
                && (lhs.apnsUniqueIDSource == rhs.apnsUniqueIDSource || lhs.apnsUniqueID == rhs.apnsUniqueID)
        }
    }
}
