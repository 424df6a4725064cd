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
        return out
    }
}
