import APNsModel
import DeviceSimulation
import ArgumentParser
import Foundation
import JSON

/// `mockapns simulate PAYLOAD`: what an iPhone does with the push (device-rules §1–§10), for one app state or all.
///
/// Exit status: 0 when the simulation ran (even when its answer is `unknown`), 2 when the payload file or
/// an option value cannot be used.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Show what an iPhone does with a push: which code runs and what the user sees.",
        discussion: "The model is docs/device-rules.md; cases it does not cover are reported as unknown, never guessed."
    )

    @Argument(help: "The payload: a .json body or a Simulator .apns file.")
    var payload: String

    @OptionGroup var headers: PushHeaderOptions

    @Option(help: "apns-collapse-id.")
    var collapseId: String?

    @Option(help: "App state: \(AppState.allCases.map(\.rawValue).joined(separator: ", ")).")
    var state: String = AppState.foreground.rawValue

    @Option(help: "Notification permission: \(Authorization.allCases.map(\.rawValue).joined(separator: ", ")).")
    var authorization: String = Authorization.authorized.rawValue

    @Option(help: "An entitlement the app holds (repeatable): criticalAlerts, timeSensitive.")
    var entitlement: [String] = []

    @Flag(help: "The app routes foreground pushes with inAppSymbol/inAppColor to in-app notifications.")
    var inAppRouting = false

    @Flag(help: "The app has a Notification Service Extension.")
    var serviceExtension = false

    @Flag(help: "The app lacks the Background Modes › Remote notifications capability.")
    var noBackgroundMode = false

    @Flag(help: "The app sets no UNUserNotificationCenter delegate (foreground alerts are swallowed).")
    var noDelegate = false

    @Option(
        help: "Also simulate a tap: 'default' for the notification itself, or an action identifier of the payload's category."
    )
    var tap: String?

    @Flag(help: "Simulate every app state: one row per state.")
    var allStates = false

    @Flag(help: "Print JSON (with --all-states: an array of objects with a \"state\" key).")
    var json = false

    func run() throws {
        let file: PayloadFile
        let resolved: PushHeaderOptions.Resolved
        let device: DeviceProfile
        do {
            file = try PayloadFile.load(path: payload)
            resolved = try headers.resolve()
            device = try profile()
        } catch {
            throw CommandFailure.exit(reporting: error)
        }
        let input = SimulationInput(
            pushType: resolved.pushType, priority: resolved.priority, topic: resolved.topic ?? file.targetBundle,
            collapseID: collapseId, payload: file.payload)
        let states = allStates ? AppState.allCases : [device.state]
        let action = tap == "default" ? nil : tap
        let results = states.map { state in
            var profile = device
            profile.state = state
            return SimulationReport.Result(
                state: state, simulation: DeliverySimulator.simulate(input, on: profile),
                tap: tap == nil ? nil : DeliverySimulator.simulateTap(input, on: profile, actionIdentifier: action))
        }
        if !inAppRouting, let key = Self.inAppRoutingKey(in: file.payload) {
            // On stderr, so --json output stays one JSON document.
            FileHandle.standardError.write(Data(("Hint: the payload has \(key) (in-app routing, e.g. SwiftyLaunch); "
                + "add --in-app-routing to simulate an app that shows it as an in-app notification when open.\n").utf8))
        }
        if json {
            print(try allStates ? SimulationReport.json(results) : SimulationReport.json(results[0]))
        } else if allStates {
            print(SimulationReport.table(results))
        } else {
            print(SimulationReport.text(results[0]))
        }
    }

    /// `inAppSymbol` or `inAppColor` when the payload carries one at any depth (OneSignal nests custom data), else nil.
    static func inAppRoutingKey(in value: JSONValue) -> String? {
        switch value {
        case .object(let members):
            if let member = members.first(where: { $0.key == "inAppSymbol" || $0.key == "inAppColor" }) { return member.key }
            return members.lazy.compactMap { inAppRoutingKey(in: $0.value) }.first
        case .array(let items):
            return items.lazy.compactMap { inAppRoutingKey(in: $0) }.first
        default:
            return nil
        }
    }

    /// The device profile the options describe.
    func profile() throws(CommandFailure) -> DeviceProfile {
        guard let appState = AppState(rawValue: state) else {
            throw .usage("--state \(state) is not one of \(AppState.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let permission = Authorization(rawValue: authorization) else {
            throw .usage(
                "--authorization \(authorization) is not one of \(Authorization.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var entitlements: Set<Entitlement> = []
        for name in entitlement {
            guard let value = Entitlement(rawValue: name) else {
                throw .usage("--entitlement \(name) is not criticalAlerts or timeSensitive")
            }
            entitlements.insert(value)
        }
        return DeviceProfile(
            state: appState, authorization: permission,
            foregroundPresentation: noDelegate ? .noDelegate : .standard,
            backgroundModesRemoteNotification: !noBackgroundMode, notificationServiceExtension: serviceExtension,
            inAppRouting: inAppRouting, entitlements: entitlements)
    }
}

/// How `simulate` prints a `Simulation`: prose for one state, a table for all, or JSON.
enum SimulationReport {
    /// What `simulate` computed for one app state.
    struct Result {
        /// The app state simulated.
        var state: AppState
        /// What the push does.
        var simulation: Simulation
        /// What a tap does, when `--tap` was given.
        var tap: TapSimulation?
    }

    /// One state's result as `--json` prints it: the simulation's keys (sorted), plus `"tap"` with `--tap`.
    static func json(_ result: Result) throws -> String {
        try object(result, withState: false).prettyText()
    }

    /// One object per state, each with a `"state"` key before the simulation's keys.
    static func json(_ results: [Result]) throws -> String {
        JSONValue.array(try results.map { try object($0, withState: true) }).prettyText()
    }

    private static func object(_ result: Result, withState: Bool) throws -> JSONValue {
        var members = try value(of: result.simulation).objectMembers ?? []
        if withState { members.insert(JSONValue.JSONMember("state", .string(result.state.rawValue)), at: 0) }
        if let tap = result.tap { members.append(JSONValue.JSONMember("tap", try value(of: tap))) }
        return .object(members)
    }

    /// The order keys are printed in: the documented JSON shapes' order; other keys follow, sorted.
    static let keyOrder = [
        "state", "id", "severity", "path", "message", "presentation", "kind", "style", "symbol", "color", "size",
        "haptics", "sound", "badge", "actionIdentifier", "events", "handler", "process", "warnings", "unknown", "tap",
    ]

    /// An encodable value as a `JSONValue`, keys in ``keyOrder`` so the output is stable and reads top-down.
    static func value(of encodable: some Encodable) throws -> JSONValue {
        ordered(try JSONValueEncoder().encode(encodable))
    }

    private static func ordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(ordered))
        case .object(let members):
            let rank = { (key: String) in keyOrder.firstIndex(of: key) ?? keyOrder.count }
            return .object(
                members.enumerated().sorted { a, b in
                    (rank(a.element.key), a.offset) < (rank(b.element.key), b.offset)
                }.map { JSONValue.JSONMember($0.element.key, ordered($0.element.value)) })
        default:
            return value
        }
    }

    /// A one-line summary of a presentation, e.g. `banner, sound, badge 3` or `inApp bolt.fill #ae0000 compact error`.
    static func summary(_ presentation: Presentation) -> String {
        var parts = [presentation.kind.rawValue]
        if let style = presentation.style {
            parts[0] += " (\(style.symbol) \(style.color) \(style.size.rawValue) \(style.haptics.rawValue))"
        }
        if presentation.sound { parts.append("sound") }
        if let badge = presentation.badge { parts.append("badge \(badge)") }
        return parts.joined(separator: ", ")
    }

    /// Events as one line: `[app] handler → [extension] handler`, or `none`.
    static func chain(_ events: [DeliveryEvent]) -> String {
        events.isEmpty ? "none" : events.map { "[\($0.process.rawValue)] \($0.handler)" }.joined(separator: " → ")
    }

    /// The tap's outcome as one line.
    static func tapLine(_ tap: TapSimulation) -> String {
        var line = "tap (\(tap.actionIdentifier)): \(chain(tap.events))"
        for warning in tap.warnings { line += "; \(warning)" }
        if let unknown = tap.unknown { line += "; unknown: \(unknown)" }
        return line
    }

    /// The simulation for one state, as prose.
    static func text(_ result: Result) -> String {
        let simulation = result.simulation
        var lines = ["Presentation: \(summary(simulation.presentation))"]
        if simulation.events.isEmpty {
            lines.append("Events: none")
        } else {
            lines.append("Events:")
            for (index, event) in simulation.events.enumerated() {
                lines.append("  \(index + 1). [\(event.process.rawValue)] \(event.handler)")
            }
        }
        for warning in simulation.warnings { lines.append("Warning: \(warning)") }
        if let unknown = simulation.unknown { lines.append("Unknown: \(unknown)") }
        if let tap = result.tap { lines.append("T" + tapLine(tap).dropFirst()) }
        return lines.joined(separator: "\n")
    }

    /// One row per state (state, presentation, events), each followed by its warnings, unknown reason and tap.
    static func table(_ results: [Result]) -> String {
        let rows = [["STATE", "PRESENTATION", "EVENTS"]]
            + results.map { [$0.state.rawValue, summary($0.simulation.presentation), chain($0.simulation.events)] }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines: [String] = []
        for (index, row) in rows.enumerated() {
            let cells = (0..<2).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) } + [row[2]]
            lines.append(cells.joined(separator: "  "))
            guard index > 0 else { continue }
            let result = results[index - 1]
            lines += result.simulation.warnings.map { "    warning: \($0)" }
            if let unknown = result.simulation.unknown { lines.append("    unknown: \(unknown)") }
            if let tap = result.tap { lines.append("    " + tapLine(tap)) }
        }
        return lines.joined(separator: "\n")
    }
}
