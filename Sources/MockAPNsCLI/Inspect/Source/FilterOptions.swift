import ArgumentParser
import MockAPNsRecording

/// The record filters shared by `list`, `tail`, `export`, `expect` (and the control API's query).
struct FilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only this device token.", valueName: "hex"))
    var token: String?

    @Option(help: ArgumentHelp("Only this apns-topic.", valueName: "topic"))
    var topic: String?

    @Option(name: .customLong("push-type"), help: ArgumentHelp("Only this apns-push-type (alert, background, …).", valueName: "type"))
    var pushType: String?

    @Option(help: ArgumentHelp("Only this HTTP status (200, 400, 410…).", valueName: "code"))
    var status: Int?

    @Option(help: ArgumentHelp("Only this APNs reason (BadDeviceToken…).", valueName: "reason"))
    var reason: String?

    @Option(help: ArgumentHelp("Only records after this sequence number.", valueName: "seq"))
    var since: UInt64?

    @Option(help: ArgumentHelp("At most this many (the newest).", valueName: "n"))
    var limit: Int?

    /// The filter as the recorder and the API understand it.
    var filter: RecordFilter {
        RecordFilter(token: token, topic: topic, pushType: pushType, status: status, reason: reason, since: since, limit: limit)
    }

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
    }
}
