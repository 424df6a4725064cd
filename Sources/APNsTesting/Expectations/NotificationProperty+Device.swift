import APNsModel
import DeviceSimulation

/// On-device outcomes, from the delivery simulator: what an iPhone would show and run.
extension NotificationProperty {
    /// On an app in `appState`, the push has `outcome`. The device is ``DeviceOutcome/typicalDevice(in:)``:
    /// the defaults of docs/device-rules.md#inputs, plus in-app routing for `presentsInApp` and a service extension for
    /// `runsServiceExtension`.
    public static func onDevice(_ outcome: DeviceOutcome, appState: AppState = .foreground) -> NotificationProperty {
        onDevice(outcome, device: outcome.typicalDevice(in: appState))
    }

    /// On the app and device described by `device`, the push has `outcome`.
    public static func onDevice(_ outcome: DeviceOutcome, device: DeviceProfile) -> NotificationProperty {
        let deviceWords = DeliveryWords.device(device)
        return NotificationProperty(name: "on \(deviceWords)", expected: outcome.description,
                                    clause: "that, on \(deviceWords), \(outcome)") { notification in
            let simulation = notification.simulate(on: device)
            return PropertyCheck(matched: outcome.matches(simulation), actual: DeliveryWords.simulation(simulation))
        }
    }
}
