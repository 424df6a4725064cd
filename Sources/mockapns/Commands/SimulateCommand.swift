import APNsModel
import ArgumentParser
import Foundation

/// `mockapns simulate PAYLOAD`: what an iPhone does with the push (DELIVERY.md), for one app state or all.
///
/// Exit status: 0 when the simulation ran (even when its answer is `unknown`), 2 when the payload file or
/// an option value cannot be used.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Show what an iPhone does with a push: which code runs and what the user sees.",
        discussion: "The model is DELIVERY.md's; cases it does not cover are reported as unknown, never guessed."
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
        let results = states.map { state in
            var profile = device
            profile.state = state
            return (state, DeliverySimulator.simulate(input, on: profile))
        }
        if json {
            print(try allStates ? SimulationReport.json(results) : SimulationReport.json(results[0].1))
        } else if allStates {
            print(SimulationReport.table(results))
        } else {
            print(SimulationReport.text(results[0].1))
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
    /// The simulation as `--json` prints it, keys sorted.
    static func json(_ simulation: Simulation) throws -> String {
        try value(of: simulation).prettyText()
    }

    /// One object per state, each with a `"state"` key before the simulation's keys.
    static func json(_ results: [(AppState, Simulation)]) throws -> String {
        let objects = try results.map { state, simulation in
            JSONValue.object(
                [JSONValue.JSONMember("state", .string(state.rawValue))] + (try value(of: simulation).objectMembers ?? []))
        }
        return JSONValue.array(objects).prettyText()
    }

    /// An encodable value as a `JSONValue`, keys sorted so the output is stable.
    static func value(of encodable: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONValue.parse(Array(encoder.encode(encodable)))
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

    /// The simulation for one state, as prose.
    static func text(_ simulation: Simulation) -> String {
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
        return lines.joined(separator: "\n")
    }

    /// One row per state (state, presentation, events), each followed by its warnings and unknown reason.
    static func table(_ results: [(AppState, Simulation)]) -> String {
        let rows = [["STATE", "PRESENTATION", "EVENTS"]]
            + results.map { state, simulation in
                [
                    state.rawValue, summary(simulation.presentation),
                    simulation.events.isEmpty
                        ? "none" : simulation.events.map { "[\($0.process.rawValue)] \($0.handler)" }.joined(separator: " → "),
                ]
            }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines: [String] = []
        for (index, row) in rows.enumerated() {
            let cells = (0..<2).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) } + [row[2]]
            lines.append(cells.joined(separator: "  "))
            guard index > 0 else { continue }
            let simulation = results[index - 1].1
            lines += simulation.warnings.map { "    warning: \($0)" }
            if let unknown = simulation.unknown { lines.append("    unknown: \(unknown)") }
        }
        return lines.joined(separator: "\n")
    }
}
