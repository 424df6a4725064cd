import APNsModel
/// device-rules §1–§9: ordinary notifications (`alert`, `background`, or no push type).
enum NotificationDelivery {
    /// Simulates an ordinary notification.
    static func simulate(_ input: SimulationInput, pushType: PushType?, on device: DeviceProfile) -> Simulation {
        var sim = Simulation()
        guard let aps = input.payload["aps"] else {
            sim.unknown = "the payload has no aps dictionary: the model does not cover what iOS does with it"
            return sim
        }
        guard let content = ApsFacts(aps: aps) else {
            sim.unknown = "aps is a JSON \(aps.typeName), not a dictionary"
            return sim
        }
        if pushType == nil, aps["event"] != nil {
            sim.unknown = "aps.event without apns-push-type liveactivity: the model does not cover untyped Live Activity pushes"
            return sim
        }
        noteIgnoredFlags(aps, into: &sim)
        if content.isSilent {
            silent(input, pushType: pushType, on: device, into: &sim)
            return sim
        }
        guard content.isUserFacing else {
            sim.unknown =
                "aps has no alert, sound or badge and no content-available: 1: the model does not cover what iOS does with it"
            return sim
        }
        if pushType == .background {
            sim.unknown =
                "apns-push-type background with an alert, sound or badge: Apple says a push whose type does not match its payload may be delayed or dropped"
        }
        alert(input, content: content, on: device, into: &sim)
        if content.contentAvailable {
            backgroundCallback(on: device, silent: false, into: &sim)  // Rule 6.
        }
        return sim
    }

    /// Rule 1: a silent push.
    private static func silent(
        _ input: SimulationInput, pushType: PushType?, on device: DeviceProfile, into sim: inout Simulation
    ) {
        if let pushType, pushType != .background {
            sim.warnings.append(
                "silent push sent with apns-push-type \(pushType.rawValue): use background, or iOS may delay or drop it")
        } else if pushType == nil {
            sim.warnings.append("silent push without apns-push-type: send background, or iOS may delay or drop it")
        }
        switch input.priority {
        case .immediate?:
            sim.warnings.append("silent push with apns-priority 10: Apple requires 5; iOS throttles or drops it")
        case nil:
            sim.warnings.append(
                "silent push without apns-priority (APNs assumes 10): Apple requires 5; iOS throttles or drops it")
        default:
            break
        }
        backgroundCallback(on: device, silent: true, into: &sim)
    }

    /// Rule 1's callback, also run for an alert with `content-available: 1` (rule 6).
    private static func backgroundCallback(on device: DeviceProfile, silent: Bool, into sim: inout Simulation) {
        let what = silent ? "silent push" : "content-available: 1"
        switch device.state {
        case .foreground:
            sim.events.append(.didReceiveRemoteNotification)
        case .background, .notRunning:
            guard device.backgroundModesRemoteNotification else {
                sim.warnings.append(
                    "\(what) ignored: the app lacks the Background Modes › Remote notifications capability")
                return
            }
            if device.state == .notRunning { sim.events.append(.launch) }
            sim.events.append(.didReceiveRemoteNotification)
        case .forceQuit:
            sim.warnings.append(silent ? "silent push dropped: app was force-quit" : "\(what) ignored: app was force-quit")
        }
    }

    /// Rules 2, 3, 4, 5, 7, 8, 9: an alert, sound or badge.
    private static func alert(
        _ input: SimulationInput, content: ApsFacts, on device: DeviceProfile, into sim: inout Simulation
    ) {
        serviceExtension(content: content, on: device, into: &sim)
        let (level, levelWarnings, levelUnknown) = InterruptionLevelRule.effective(
            for: content, entitlements: device.entitlements)
        sim.warnings += levelWarnings
        if let levelUnknown, sim.unknown == nil { sim.unknown = levelUnknown }

        switch device.authorization {
        case .denied:
            sim.warnings.append("notifications are denied: nothing is presented")
            return
        case .notDetermined:
            sim.warnings.append("notification permission was never requested (notDetermined): nothing is presented")
            return
        case .authorized, .provisional:
            break
        }
        var presentation: Presentation
        if device.state == .foreground {
            presentation = foreground(input, content: content, on: device, into: &sim)
        } else {
            presentation = Presentation(
                kind: content.hasVisibleAlert ? .banner : .none, sound: content.playsSound, badge: content.badge)
        }
        if presentation.kind != .inApp {
            if device.authorization == .provisional, presentation.kind == .banner || presentation.sound {
                if presentation.kind == .banner { presentation.kind = .list }
                presentation.sound = false
                sim.warnings.append("provisional authorization: delivered quietly to Notification Center, without sound")
            }
            if level == .passive, presentation.kind == .banner || presentation.sound {
                if presentation.kind == .banner { presentation.kind = .list }
                presentation.sound = false
                sim.warnings.append("interruption-level passive: added to Notification Center without sound or lighting the screen")
            }
            if let collapseID = input.collapseID, presentation.kind == .banner || presentation.kind == .list {
                sim.warnings.append(
                    "apns-collapse-id \"\(collapseID)\": replaces any earlier notification with the same ID in Notification Center")
            }
        }
        sim.presentation = presentation
    }

    /// Rule 2: the Notification Service Extension, which runs before anything else.
    private static func serviceExtension(
        content: ApsFacts, on device: DeviceProfile, into sim: inout Simulation
    ) {
        guard content.mutableContent else { return }
        if !content.hasVisibleAlert {
            sim.warnings.append(
                "mutable-content: 1 without a visible alert: the Notification Service Extension does not run")
        } else if !device.notificationServiceExtension {
            sim.warnings.append(
                "mutable-content: 1 but the app has no Notification Service Extension: the content is shown as sent")
        } else if device.authorization == .denied {
            sim.warnings.append("notifications are denied: the Notification Service Extension does not run")
        } else {
            sim.events.append(.serviceExtension)
            sim.warnings.append(
                "the Notification Service Extension may rewrite the content; this simulation presents it as sent")
        }
    }

    /// Rules 3 and 4: an alert arriving while the app is in the foreground.
    private static func foreground(
        _ input: SimulationInput, content: ApsFacts, on device: DeviceProfile, into sim: inout Simulation
    ) -> Presentation {
        if device.inAppRouting {
            switch InAppRouting.decide(payload: input.payload) {
            case .route(let style, let warnings):
                sim.events.append(.willPresent)
                sim.warnings += warnings
                return .inApp(style)
            case .incomplete(let missing):
                sim.warnings.append(
                    "in-app routing skipped (missing \(missing.joined(separator: ", "))): shown as usual")
            case .notRequested:
                break
            }
        }
        switch device.foregroundPresentation {
        case .noDelegate:
            sim.warnings.append(
                "the app has no UNUserNotificationCenter delegate: iOS does not present notifications in the foreground")
            return .nothing
        case .options(let options):
            sim.events.append(.willPresent)
            let kind: Presentation.Kind =
                !content.hasVisibleAlert ? .none
                : options.contains(.banner) ? .banner
                : options.contains(.list) ? .list : .none
            return Presentation(
                kind: kind,
                sound: options.contains(.sound) && content.playsSound,
                badge: options.contains(.badge) ? content.badge : nil)
        }
    }

    /// Warnings for `content-available`, `mutable-content` and `badge` values the device ignores.
    private static func noteIgnoredFlags(_ aps: JSONValue, into sim: inout Simulation) {
        for key in ["content-available", "mutable-content"] {
            if let value = aps[key], !value.isNumberOne {
                sim.warnings.append("\(key) is \(describe(value)), not 1: treated as absent")
            }
        }
        if let badge = aps["badge"], badge.integerValue.flatMap({ Int(exactly: $0) }) == nil {
            sim.warnings.append("badge is \(describe(badge)), not an integer: the badge is left unchanged")
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        default: return "a JSON \(value.typeName)"
        }
    }
}
