import APNsModel

/// A fuzz input read as a short script of HTTP/2 requests on one connection, in a text form that seed files
/// can be written in by hand and that mutations keep mostly well formed:
///
/// ```
/// @env production          (optional: development (default) or production)
/// @now 1800000000          (optional: the server clock, clamped to 2001…2100 so only wire values are extreme)
/// @cert client-app         (optional: a certificate connection, see `FuzzCredentials.certificates`)
/// POST /3/device/<hex>
/// apns-topic: com.example.app
/// authorization: bearer <jwt>
///
/// {"aps":{"alert":"hi"}}
/// ---
/// (the next request on the same connection)
/// ```
///
/// Lines end with `\n` (a trailing `\r` is dropped); at most `maximumRequests` requests are read. Directives
/// hold from where they appear, so `@now` before a later request moves the clock for it.
public struct RequestScript {
    /// One request and the server clock when it arrives.
    public struct Step {
        /// The request.
        public var request: APNsRequest
        /// The server clock, epoch seconds.
        public var now: Int64
    }

    /// The environment the server plays.
    public var environment: APNsEnvironment = .development
    /// The server clock for the next request, epoch seconds.
    private var now: Int64 = FuzzCredentials.now
    /// The certificate the connection presented, if any.
    public var certificate: CertificateFacts?
    /// The requests, in order.
    public var steps: [Step] = []

    /// The requests without their times.
    public var requests: [APNsRequest] { steps.map(\.request) }

    /// More requests than this on one connection add nothing the first few do not already exercise.
    public static let maximumRequests = 8

    /// Reads `bytes` (any bytes: invalid UTF-8 is repaired, missing parts default).
    public init(_ bytes: [UInt8]) {
        let separator: [UInt8] = Array("\n---\n".utf8)
        for part in Self.split(bytes, on: separator).prefix(Self.maximumRequests) {
            if let request = parseRequest(part) { steps.append(Step(request: request, now: now)) }
        }
    }

    private mutating func parseRequest(_ bytes: ArraySlice<UInt8>) -> APNsRequest? {
        let blank: [UInt8] = Array("\n\n".utf8)
        let (head, body): (ArraySlice<UInt8>, ArraySlice<UInt8>)
        if let range = Self.firstRange(of: blank, in: bytes) {
            head = bytes[bytes.startIndex..<range.lowerBound]
            body = bytes[range.upperBound...]
        } else {
            head = bytes
            body = []
        }
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line -> String in
            var text = String(decoding: line, as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            return text
        }[...]
        while let line = lines.first, line.hasPrefix("@") {
            applyDirective(line)
            lines = lines.dropFirst()
        }
        guard let requestLine = lines.popFirst() else { return nil }
        let words = requestLine.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let method = words.count > 1 ? String(words[0]) : "POST"
        let path = words.count > 1 ? String(words[1]) : requestLine
        var headers: [HeaderField] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                headers.append(HeaderField(line, ""))
                continue
            }
            var value = line[line.index(after: colon)...]
            while value.first == " " { value = value.dropFirst() }
            headers.append(HeaderField(String(line[..<colon]), String(value)))
        }
        return APNsRequest(method: method, path: path, headers: headers, body: Array(body))
    }

    private mutating func applyDirective(_ line: String) {
        let words = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        guard let name = words.first else { return }
        let argument = words.count > 1 ? words[1] : ""
        switch name {
        case "env":
            environment = APNsEnvironment(rawValue: argument) ?? .development
        case "now":
            // The clock is the server's own, not a wire value: keep it to plausible dates.
            now = min(max(Int64(argument) ?? FuzzCredentials.now, 1_000_000_000), 4_102_444_800)
        case "cert":
            certificate = FuzzCredentials.certificates[argument]
        default:
            break
        }
    }

    static func split(_ bytes: [UInt8], on separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        while let range = firstRange(of: separator, in: rest) {
            parts.append(rest[rest.startIndex..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }

    static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
                return index..<index + needle.count
            }
            index += 1
        }
        return nil
    }
}
