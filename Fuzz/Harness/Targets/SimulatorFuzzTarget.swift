import APNsModel
import DeviceSimulation

/// The delivery simulator: a device profile from the first two bytes, then each request of a `RequestScript`
/// whose body is JSON, simulated on that device.
///
/// Beyond "does not crash": simulation is deterministic.
public enum SimulatorFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        var choices = FuzzBytes(Array(bytes.prefix(2)))
        let profile = device(&choices)
        for request in RequestScript(Array(bytes.dropFirst(2))).requests {
            guard let input = try? SimulationInput(request: request) else { continue }
            let simulation = DeliverySimulator.simulate(input, on: profile)
            precondition(simulation == DeliverySimulator.simulate(input, on: profile), "the simulator is not deterministic")
        }
    }

    /// A device profile from two bytes: state, authorization, presentation, and five switches.
    static func device(_ choices: inout FuzzBytes) -> DeviceProfile {
        let first = choices.byte()
        let second = choices.byte()
        let presentations: [ForegroundPresentation] = [
            .standard, .noDelegate, .options([]), .options([.list, .sound]), .options([.banner, .list, .sound, .badge]),
        ]
        var entitlements = Set<Entitlement>()
        if second & 0x10 != 0 { entitlements.insert(.criticalAlerts) }
        if second & 0x20 != 0 { entitlements.insert(.timeSensitive) }
        return DeviceProfile(
            state: AppState.allCases[Int(first & 3) % AppState.allCases.count],
            authorization: Authorization.allCases[Int(first >> 2 & 3) % Authorization.allCases.count],
            foregroundPresentation: presentations[Int(first >> 4) % presentations.count],
            backgroundModesRemoteNotification: second & 1 != 0,
            notificationServiceExtension: second & 2 != 0,
            inAppRouting: second & 4 != 0,
            entitlements: entitlements,
            reportsIncomingCalls: second & 8 != 0)
    }
}
