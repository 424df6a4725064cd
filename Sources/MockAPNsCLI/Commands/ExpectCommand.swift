import APNsModel
import ArgumentParser
import MockAPNs
import MockAPNsFCM

/// `mockapns expect`: check that the recording holds the notifications a test expects; on failure
/// print what was expected, what arrived and the closest records, and exit 1.
struct ExpectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expect",
        abstract: "Check the recording for expected notifications (for CI jobs).",
        discussion: """
            Filters and --where conditions all apply; by default at least one record must meet them.
            Example: mockapns expect --topic com.example.app --where aps.alert.title=Shipped --count 1
            Exit status: 0 the expectation holds, 1 it does not, 2 usage error or source unreadable.
            """
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var fcm: FCMOptions

    @Option(help: ArgumentHelp("Exactly this many matching records.", valueName: "n"))
    var count: Int?

    @Option(name: .customLong("at-least"), help: ArgumentHelp("At least this many matching records (default 1).", valueName: "n"))
    var atLeast: Int?

    @Flag(help: "No record may match.")
    var none = false

    @Option(name: .customLong("where"), help: ArgumentHelp("Payload condition PATH=VALUE, e.g. aps.alert.title=Shipped (repeatable).", valueName: "path=value"))
    var conditions: [String] = []

    @Option(help: ArgumentHelp("Keep checking for up to this many seconds until the expectation holds.", valueName: "seconds"))
    var timeout: Double = 0

    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            if fcm.fcm { return try await expectFCM() }
            try fcm.refuseWithoutFCM()
            let expectation = Expectation(
                filter: filters.filter, conditions: try conditions.map { text throws(InspectError) in
                    do { return try PayloadCondition(parsing: text) } catch {
                        throw .usage("--where needs PATH=VALUE, e.g. --where aps.alert.title=Shipped; got '\(text)'.")
                    }
                },
                quantity: try quantity()
            )
            let recordSource = try source.resolve()
            let scope = RecordFilter(since: filters.since)
            let clock = ContinuousClock()
            let deadline = clock.now + .milliseconds(Int(max(0, timeout) * 1000))
            var result = try await Self.evaluate(expectation, over: recordSource, scope: scope)
            while !result.met, clock.now < deadline {
                try? await Task.sleep(for: .milliseconds(200))
                result = try await Self.evaluate(expectation, over: recordSource, scope: scope)
            }
            return show(result.report, source: recordSource.label)
        }
    }

    /// `expect --fcm`: the quantity of FCM records meeting the filters, checked by the mock (`GET /api/v1/fcm/expect`)
    /// until it holds or `--timeout` ends.
    private func expectFCM() async throws(InspectError) -> Bool {
        guard conditions.isEmpty else {
            throw .usage("--where checks APNs payloads: with --fcm, check the APNs pushes the messages became with `expect --where … --token APNS_TOKEN`.")
        }
        let (filter, _) = try FCMInspection.filter(filters, project: fcm.project, name: fcm.name)   // refuses the APNs-only filters
        let expectation = FCMExpectation(filter: filter, quantity: try quantity())
        let inspection = try FCMInspection(try source.resolve())
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(max(0, timeout) * 1000))
        var answer = try await inspection.expect(expectation)
        while answer["met"]?.boolValue != true, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(200))
            answer = try await inspection.expect(expectation)
        }
        if output.json {
            output.printJSON(answer)
        } else {
            StandardStreams.write(ExpectationReport.Marks(output.style).mark(answer["message"]?.stringValue ?? ""))
        }
        return answer["met"]?.boolValue == true
    }

    /// Prints `report` (as JSON with `--json`) and returns whether it was met.
    private func show(_ report: ExpectationReport, source: String) -> Bool {
        if output.json {
            output.printJSON(report.json(source: source))
        } else {
            StandardStreams.write(report.message(source: source, marks: .init(output.style)))
        }
        return report.met
    }

    /// The expectation checked against the source's records in `scope`; a recording is streamed through a tally.
    private static func evaluate(_ expectation: Expectation, over source: InspectSource, scope: RecordFilter) async throws(InspectError) -> ExpectationResult {
        guard case .file(let file) = source else {
            return expectation.evaluate(try await source.records(matching: scope))
        }
        var tally = ExpectationTally(expectation)
        try file.forEachRecord { record in
            if scope.matches(record) { tally.add(record) }
            return true
        }
        return tally.result()
    }

    /// The one quantity flag given (default: at least 1).
    private func quantity() throws(InspectError) -> Expectation.Quantity {
        let given = [count != nil, atLeast != nil, none].filter { $0 }.count
        guard given <= 1 else { throw .usage("Give only one of --count, --at-least and --none.") }
        guard filters.limit == nil else { throw .usage("--limit does not apply to expect; narrow the records with --since or the filters.") }
        guard timeout >= 0 else { throw .usage("--timeout must be 0 or more seconds.") }
        if let count {
            guard count >= 0 else { throw .usage("--count must be 0 or more.") }
            return .exactly(count)
        }
        if let atLeast {
            guard atLeast >= 0 else { throw .usage("--at-least must be 0 or more.") }
            return .atLeast(atLeast)
        }
        return none ? .exactly(0) : .atLeast(1)
    }
}
