import APNsModel
import ArgumentParser
import MockAPNs
import MockAPNsControl

/// `mockapns stats`: totals by status, reason and push type.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count recorded notifications by status, reason and push type.",
        discussion: "Exit status: 0 ok, 2 usage error or source unreadable."
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            let stats: JSONValue
            switch try source.resolve() {
            case .live(let client): stats = try await client.statistics()
            case .file(let file): stats = try StatsSummary.json(of: file)
            case .store(let store): stats = try await store.statistics().jsonValue()
            }
            if output.json {
                output.printJSON(stats)
            } else {
                StandardStreams.write(Self.render(stats, style: output.style))
            }
            return true
        }
    }

    /// Totals, then one table per breakdown.
    static func render(_ stats: JSONValue, style: TerminalStyle) -> String {
        func number(_ key: String) -> String { stats[key]?.integerValue.map(String.init) ?? "0" }
        var out = "\(style.bold("Total")) \(number("total"))   \(style.green("accepted")) \(number("accepted"))   \(style.red("rejected")) \(number("rejected"))\n"
        for (key, title) in [("by_status", "STATUS"), ("by_reason", "REASON"), ("by_push_type", "PUSH TYPE")] {
            guard let members = stats[key]?.objectMembers, !members.isEmpty else { continue }
            var table = TablePrinter(headers: [title, "COUNT"])
            for member in members { table.append([member.key, member.value.jsonText()]) }
            out += "\n" + table.render(style: style)
        }
        // A relaying server (`serve --relay`): the oracle's count, disagreements between the mock and the upstream.
        if let relay = stats["relay"] {
            func count(_ key: String) -> String { relay[key]?.integerValue.map(String.init) ?? "0" }
            out += "\n\(style.bold("Relay")) relayed \(count("relayed"))   disagreements \(count("disagreements"))   "
                + "upstream errors \(count("upstream_errors"))\n"
        }
        if let hooks = stats["webhooks"]?.arrayElements, !hooks.isEmpty {
            var table = TablePrinter(headers: ["WEBHOOK", "URL", "DELIVERED", "RETRIED", "FAILED", "DROPPED"])
            for hook in hooks {
                table.append(["webhook", "url", "delivered", "retried", "failed", "dropped"].map { key in
                    hook[key]?.stringValue ?? hook[key]?.integerValue.map(String.init) ?? ""
                })
            }
            out += "\n" + table.render(style: style)
        }
        return out
    }
}
