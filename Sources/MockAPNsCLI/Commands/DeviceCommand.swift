import APNsModel
import DeviceSimulation
import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsPostgres

/// `mockapns device TOKEN`: what a virtual device shows at an instant and what happened to each of its pushes, from a
/// running mock (its control API), a record file or the shared store.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Show what a virtual device shows after its pushes: lock screen, badge, stored pushes, Live Activities, timeline.",
        discussion: """
            From a running mock the device's changes (online/offline, app state, settings) are the server's; from a \
            --file or --store only the pushes are recorded, so give the device's changes with --devices FILE (the \
            `serve --devices` format: online, offline_until, app_state, settings, push_to_start_tokens, at). \
            The rules and the model's numbers: docs/device-model.md. Exit status: 0 ok, 2 usage error or source unreadable.
            """
    )

    @Argument(help: "The device token (hex).") var token: String
    @Option(help: ArgumentHelp("The instant: milliseconds since 1970, an ISO 8601 time (2027-01-15T08:00:00Z) or now (default).", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("With --file or --store: the device's changes, in the serve --devices format.", valueName: "path"))
    var devices: String?
    @OptionGroup var source: SourceOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            guard !token.isEmpty, token.allSatisfy(\.isHexDigit) else {
                throw InspectError.usage("A device token is hexadecimal (0-9, a-f); '\(token)' is not.")
            }
            let instant = try Self.instant(at)
            let screen: JSONValue
            let entries: JSONValue
            switch try source.resolve() {
            case .live(let client):
                if devices != nil { throw InspectError.usage("--devices goes with --file or --store; a running mock has its own.") }
                (screen, entries) = try await client.device(token, at: instant)
            case let other:
                let changes = DeviceChangeLog()
                if let devices { try Self.load(devices, into: changes) }
                if let store = source.store { try await Self.loadShared(store, namespace: source.storeNamespace, into: changes) }
                var records: [RecordedRequest] = []
                for each in [token] + changes.relatedTokens(device: token) {
                    records += try await other.records(matching: RecordFilter(token: each))
                }
                let timeline = changes.timeline(token: token, records: records)
                let now = instant ?? Int64(Date().timeIntervalSince1970 * 1000)
                let (shown, happened) = timeline.replay(until: now)
                (screen, entries) = (shown.json, DeviceTimeline.json(happened))
            }
            if output.json {
                output.printJSON(.object([.init("screen", screen), .init("timeline", entries)]))
            } else {
                StandardStreams.write(DeviceScreenText.render(screen: screen, entries: entries, style: output.style))
            }
            return true
        }
    }

    /// `--at` as milliseconds since 1970; nil for now.
    static func instant(_ text: String?) throws(InspectError) -> Int64? {
        guard let text, text != "now" else { return nil }
        if let millis = Int64(text), millis >= 0 { return millis }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        throw .usage("--at takes milliseconds since 1970, an ISO 8601 time such as 2027-01-15T08:00:00Z, or now; got '\(text)'.")
    }

    /// Adds the changes the shared store holds (made through any instance's control API) to `changes`.
    static func loadShared(_ store: String, namespace: String?, into changes: DeviceChangeLog) async throws(InspectError) {
        let url: PostgresStoreURL
        do { url = try PostgresStoreURL(parsing: store) } catch { throw .usage(error.description) }
        let shared = PostgresSharedState(url: url, namespace: namespace ?? "", logger: StoreLogger.make())
        let snapshot: PostgresSharedState.Snapshot
        do {
            snapshot = try await shared.load()
        } catch {
            await shared.close()
            throw .usage("cannot read the device changes in the store \(url.redacted): \(String(reflecting: error))")
        }
        await shared.close()
        var merged = changes.all()
        for (token, events) in snapshot.deviceChanges { merged[token, default: []] += events }
        changes.replaceChanges(with: merged)
    }

    /// Reads a `serve --devices` file's changes (the states are APNs's answers, not the device's, and are passed over).
    static func load(_ path: String, into changes: DeviceChangeLog) throws(InspectError) {
        do {
            try DeviceRegistry().load(contentsOf: path, changes: changes)
        } catch {
            throw .usage("--devices \(path): \(error)")
        }
    }
}
