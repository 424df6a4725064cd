import Foundation
import APNsClient
import APNsModel

/// Which device and which body push number `n` of a `mockapns send --count` run goes to.
///
/// A real sender pushes each message to its own device and often with its own content; `--token-file` and
/// `--payload-template` let one run look like that (benchmarks, load tests) instead of repeating one request.
struct SendPlan: Sendable {
    /// The device tokens, used in turn (push `n` goes to `tokens[n % tokens.count]`); never empty.
    let tokens: [String]
    /// The notification as resolved from the flags; its body is the template when `templateParts` is set.
    let notification: APNsRawNotification
    /// The body split at each `{{n}}` placeholder, when the payload is a template.
    private let templateParts: [[UInt8]]?

    /// The placeholder `--payload-template` replaces with the push's number.
    static let placeholder: [UInt8] = Array("{{n}}".utf8)

    init(tokens: [String], notification: APNsRawNotification, template: Bool) {
        precondition(!tokens.isEmpty, "SendPlan needs at least one device token")
        self.tokens = tokens
        self.notification = notification
        templateParts = template ? Self.split(notification.payload, at: Self.placeholder) : nil
    }

    /// The device token for push number `index` (from 0).
    func token(_ index: Int) -> String { tokens[index % tokens.count] }

    /// The notification for push number `index`: the template with `{{n}}` spelled as `index`, or the one body.
    func notification(_ index: Int) -> APNsRawNotification {
        guard let templateParts else { return notification }
        var numbered = notification
        let digits = Array(String(index).utf8)
        var body: [UInt8] = []
        body.reserveCapacity(notification.payload.count + templateParts.count * digits.count)
        for (position, part) in templateParts.enumerated() {
            if position > 0 { body.append(contentsOf: digits) }
            body.append(contentsOf: part)
        }
        numbered.payload = body
        return numbered
    }

    /// `bytes` cut at every occurrence of `separator` (which is not kept).
    static func split(_ bytes: [UInt8], at separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<index + separator.count].elementsEqual(separator) {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    /// The tokens of a `--token-file`: one hex token per line; blank lines and `#` comments are skipped.
    static func tokens(inFile text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
