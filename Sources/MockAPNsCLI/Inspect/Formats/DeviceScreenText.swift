import APNsModel
import MockAPNsRecording

/// `mockapns device` for a person: the screen as a phone would stack it, then the timeline, each entry with its rule
/// and the Push Notifications Console's state for it.
enum DeviceScreenText {
    /// The screen and the timeline entries (the control API's JSON) as text.
    static func render(screen: JSONValue, entries: JSONValue, style: TerminalStyle) -> String {
        func text(_ value: JSONValue?) -> String { value?.stringValue ?? value?.integerValue.map(String.init) ?? "" }
        let at = screen["at"]?.integerValue ?? 0
        let online = screen["online"] == .bool(true) ? style.green("online") : style.yellow("offline")
        var out = "\(style.bold("Device")) \(text(screen["token"]))  \(online)  app \(text(screen["app_state"]))  "
            + "badge \(text(screen["badge"]))  at \(RecordText.timestamp(at))\n"

        out += "\n\(style.bold("Lock screen")) (newest first)\n"
        let groups = screen["groups"]?.arrayElements ?? []
        if groups.isEmpty { out += "  nothing shown\n" }
        for group in groups {
            let notifications = group["notifications"]?.arrayElements ?? []
            let thread = group["thread_id"]?.stringValue.map { "thread \($0)" } ?? "no thread"
            out += "  \(style.dim("[\(thread), \(notifications.count)]"))\n"
            for item in notifications {
                let title = text(item["title"]), body = text(item["body"])
                let line = [title, body].filter { !$0.isEmpty }.joined(separator: " — ")
                out += "    \(line.isEmpty ? "(no text)" : line)  \(style.dim(text(item["apns_id"])))\n"
            }
        }
        if let stored = screen["stored"]?.arrayElements, !stored.isEmpty {
            out += "\n\(style.bold("Stored by APNs")) while offline\n"
            for item in stored {
                out += "  \(text(item["apns_id"]))  \(text(item["topic"]))  until \(RecordText.timestamp(item["deliverable_until"]?.integerValue ?? 0))\n"
            }
        }
        if let activities = screen["live_activities"]?.arrayElements, !activities.isEmpty {
            out += "\n\(style.bold("Live Activities"))\n"
            for activity in activities {
                var marks: [String] = []
                for key in ["stale", "ended", "dismissed"] where activity[key] == .bool(true) { marks.append(key) }
                out += "  \(text(activity["token"]).isEmpty ? "(awaiting token)" : text(activity["token"]))  "
                    + "\(activity["content_state"]?.jsonText() ?? "{}")  \(marks.joined(separator: ", "))\n"
            }
        }
        let list = entries.arrayElements ?? []
        out += "\n\(style.bold("Timeline"))\n"
        if list.isEmpty { out += "  no push yet\n" }
        // Beside each rule, the Push Notifications Console's name for the entry (device-rules §16), "-" where it has none.
        var table = TablePrinter(headers: ["TIME", "OUTCOME", "RULE", "CONSOLE STATE", "APNS-ID"])
        for entry in list {
            let outcome = text(entry["outcome"])
            let coloured = outcome == "delivered" ? style.green(outcome) : (outcome == "stored" ? outcome : style.yellow(outcome))
            let console = entry["console_state"]?.stringValue ?? "-"
            table.append([RecordedRequest.clockText(entry["time"]?.integerValue ?? 0), coloured, text(entry["rule"]), console,
                          text(entry["apns_id"])])
        }
        if !list.isEmpty { out += table.render(style: style) }
        return out
    }
}
