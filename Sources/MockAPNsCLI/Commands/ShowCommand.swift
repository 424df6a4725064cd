import APNsModel
import DeviceSimulation
import ArgumentParser
import MockAPNs

/// `mockapns show SEQ|APNS-ID`: one notification in full — headers, pretty payload, decoded JWT,
/// verdict, faults, lint findings, and what an iPhone would do with it in the foreground and background.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one recorded notification in full.",
        discussion: "Exit status: 0 ok, 2 no such record, usage error or source unreadable."
    )

    @Argument(help: ArgumentHelp("Sequence number or apns-id of the notification.", valueName: "seq|apns-id"))
    var id: String

    @OptionGroup var source: SourceOptions
    @Flag(help: "Show the FCM message with this name (or its last part, or its seq) and the APNs pushes it became (`serve --fcm`; a running mock, or its --store).")
    var fcm = false
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            if fcm {
                let inspection = try FCMInspection(try source.resolve())
                let record = try await inspection.message(id)
                let pushes = try await inspection.pushes(of: record)
                if output.json {
                    output.printJSON(.object([.init("message", record), .init("pushes", .array(pushes.map { $0.jsonValue() }))]))
                } else {
                    StandardStreams.write(FCMInspection.render(record, pushes: pushes, style: output.style))
                }
                return true
            }
            let record = try await source.resolve().record(id)
            let jwt = RecordText.header(record, "authorization").flatMap(JWTInspector.init(authorization:))
            if output.json {
                var json = record.jsonValue()
                if case .object(var members) = json {
                    if let jwt {
                        members.append(.init("jwt", .object([.init("header", jwt.header), .init("claims", jwt.claims)])))
                    }
                    let simulations = Self.simulations(record)
                    if !simulations.isEmpty {
                        members.append(.init("simulation", .object(try simulations.map {
                            JSONValue.JSONMember($0.state.rawValue, try SimulationReport.value(of: $0.simulation))
                        })))
                    }
                    json = .object(members)
                }
                output.printJSON(json)
            } else {
                StandardStreams.write(Self.render(record, jwt: jwt, style: output.style))
            }
            return true
        }
    }

    /// The human-readable page for one record.
    static func render(_ record: RecordedRequest, jwt: JWTInspector?, style: TerminalStyle) -> String {
        var out: [String] = []
        let millis = Double(record.durationMicros) / 1000
        out.append(style.bold("Notification #\(record.seq)") + "  \(RecordText.timestamp(record.receivedAtMillis))  (\(String(format: "%.3f", millis)) ms)")
        out.append("  Verdict     " + style.status(record.response.status, record.verdictText))
        if let id = record.response.apnsID { out.append("  apns-id     \(id)") }
        if let unique = record.response.apnsUniqueID { out.append("  unique-id   \(unique)") }
        if let timestamp = record.response.timestamp { out.append("  timestamp   \(timestamp) (\(RecordText.timestamp(timestamp)))") }
        if let relay = record.relay { out.append("  Upstream    " + RecordText.relayVerdict(relay, style: style)) }
        out.append("  Request     \(record.method) \(record.path)")
        out.append("  Device      \(record.deviceToken ?? "-")")
        out.append("  Connection  \(record.connectionID), stream \(record.streamID), from \(record.remote)")
        if let instance = record.instance { out.append("  Instance    \(instance)") }
        if let fcm = record.fcm {
            out.append("  FCM         \(fcm.messageName), to \(RecordedRequest.shortToken(fcm.registrationToken))")
        }
        var auth = "  Auth        \(record.auth.kind)"
        if let team = record.auth.teamID { auth += ", team \(team)" }
        if let key = record.auth.keyID { auth += ", key \(key)" }
        if !record.auth.topics.isEmpty { auth += ", topics \(record.auth.topics.joined(separator: " "))" }
        out.append(auth)

        out.append("")
        out.append(style.bold("Headers"))
        if record.headers.isEmpty { out.append("  (none)") }
        for header in record.headers { out.append("  \(style.dim(header.name + ":")) \(header.value)") }

        if let jwt {
            out.append("")
            out.append(style.bold("JWT") + style.dim("  (decoded, signature not checked here)"))
            out.append("  header: " + jwt.header.jsonText())
            out.append("  claims: " + jwt.claims.jsonText())
            if let issued = jwt.claims["iat"]?.integerValue {
                let age = (record.receivedAtMillis / 1000) - issued
                let when = age >= 0 ? "\(age) s before the request" : "\(-age) s after the request: clock skew?"
                out.append("  issued: \(RecordText.timestamp(issued * 1000)) (\(when))")
            }
        }

        out.append("")
        out.append(style.bold("Payload") + " (\(record.payloadBytes) bytes)")
        if let payload = record.payload {
            out.append(payload.prettyText().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        } else if record.body.isEmpty {
            out.append("  (empty)")
        } else {
            out.append("  (not JSON) " + RecordedRequest.clip(String(decoding: record.body, as: UTF8.self), 400))
        }

        out.append("")
        out.append(style.bold("Faults") + (record.faults.isEmpty ? "  none" : ""))
        for fault in record.faults { out.append("  " + style.yellow(fault)) }
        out.append(style.bold("Lint") + (record.lint.isEmpty ? "    none" : ""))
        for finding in record.lint {
            let severity = finding.severity == .error ? style.red(finding.severity.rawValue) : style.yellow(finding.severity.rawValue)
            out.append("  \(severity) \(finding.id) at \(finding.path): \(finding.message)")
        }
        let simulations = simulations(record)
        if !simulations.isEmpty {
            out.append("")
            out.append(style.bold("On the device") + style.dim("  (default profile: authorized, banner+sound+badge, background mode on)"))
            for result in simulations {
                out.append("  \(result.state.rawValue): " + SimulationReport.summary(result.simulation.presentation)
                           + " — " + SimulationReport.chain(result.simulation.events))
                for warning in result.simulation.warnings { out.append("    " + style.dim("warning: " + warning)) }
                if let unknown = result.simulation.unknown { out.append("    " + style.dim("unknown: " + unknown)) }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The delivery simulation for the foreground and background states, for device pushes with a JSON payload.
    static func simulations(_ record: RecordedRequest) -> [SimulationReport.Result] {
        guard record.deviceToken != nil, record.payload != nil else { return [] }
        let request = APNsRequest(method: record.method, path: record.path, headers: record.headers, body: record.body)
        guard let input = try? SimulationInput(request: request) else { return [] }
        return [AppState.foreground, .background].map { state in
            var profile = DeviceProfile()
            profile.state = state
            return SimulationReport.Result(state: state, simulation: DeliverySimulator.simulate(input, on: profile), tap: nil)
        }
    }
}
