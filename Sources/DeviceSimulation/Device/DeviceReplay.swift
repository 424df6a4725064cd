import APNsModel
/// The state machine behind ``DeviceTimeline``: a device's state after the events applied so far, and the timeline
/// entries they produced. Internal: callers ask ``DeviceTimeline`` for a screen or entries at an instant.
///
/// Each event first lets time pass (``advance(to:)``: stored pushes whose time ran out are dropped), then applies.
struct DeviceReplay {
    private(set) var settings: DeviceSettings
    private(set) var online = true
    /// Notification Center, newest first.
    private(set) var notifications: [DeviceNotification] = []
    /// What APNs holds, oldest first; at most one per app.
    private(set) var stored: [DeviceStoredPush] = []
    private(set) var badge = 0
    private(set) var sounds: [DeviceSound] = []
    /// When silent pushes woke the app, oldest first (only those still in the rolling hour are kept).
    private(set) var budgetUses: [Int64] = []
    private(set) var activities: [DeviceLiveActivity] = []
    private(set) var entries: [DeviceTimelineEntry] = []

    init(settings: DeviceSettings) {
        self.settings = settings
    }

    // MARK: Time

    /// Lets time pass up to `time`: a stored push is dropped at the first instant it is no longer deliverable.
    mutating func advance(to time: Int64) {
        let expired = stored.enumerated().filter { $0.element.deliverableUntil <= time }
            .sorted { ($0.element.deliverableUntil, $0.offset) < ($1.element.deliverableUntil, $1.offset) }
            .map(\.element)
        guard !expired.isEmpty else { return }
        stored.removeAll { $0.deliverableUntil <= time }
        for push in expired {
            let stayed = DeviceTime.describe(DeviceTime.difference(push.deliverableUntil, push.time))
            switch push.limitedBy {
            case .apnsExpiration:
                record(push.apnsID, at: push.deliverableUntil, .dropped, .expiredWhileStored,
                       "Its apns-expiration passed while the device was offline (stored \(stayed)): APNs discarded it.")
            case .storageLimit:
                record(push.apnsID, at: push.deliverableUntil, .dropped, .storageLimit,
                       "The device stayed offline longer than the storage limit (\(stayed), a model number): APNs discarded it.")
            }
        }
    }

    /// Applies one event, after letting time pass up to it.
    mutating func apply(_ event: DeviceEvent) {
        advance(to: event.time)
        switch event.kind {
        case .push(let push):
            if online {
                deliver(push, at: event.time, storedSince: nil)
            } else {
                store(push, at: event.time)
            }
        case .change(let change):
            apply(change, at: event.time)
        }
    }

    // MARK: Rule 11: store and forward

    private mutating func store(_ push: AcceptedPush, at time: Int64) {
        if push.expiration == 0 {
            return record(push.apnsID, at: time, .dropped, .expirationZero,
                          "The device was offline and apns-expiration is 0: APNs tries once and does not store it.")
        }
        let expiry = push.expiration.map { DeviceTime.millis(seconds: $0) }
        if let expiry, expiry <= time {
            return record(push.apnsID, at: time, .dropped, .alreadyExpired,
                          "The device was offline and apns-expiration (\(push.expiration ?? 0)) had already passed: APNs does not store it.")
        }
        let limit = DeviceTime.adding(settings.storageLimitMillis, to: time)
        let until = min(expiry ?? limit, limit)
        let limitedBy: DeviceStoredPush.Limit = until == limit ? .storageLimit : .apnsExpiration
        let app = Self.app(of: push)
        if let index = stored.firstIndex(where: { Self.app(of: $0.push) == app }) {
            let previous = stored.remove(at: index)
            record(previous.apnsID, at: time, .replaced, .oneStoredPerApp,
                   "APNs stores one push per app for an offline device and keeps the latest: \(push.apnsID ?? "a newer push") for \(app) replaced it.")
        }
        stored.append(DeviceStoredPush(
            apnsID: push.apnsID, time: time, deliverableUntil: until, limitedBy: limitedBy, push: push))
        let bound = limitedBy == .storageLimit
            ? "the storage limit, a model number" : "its apns-expiration"
        record(push.apnsID, at: time, .stored, .storeAndForward,
               "The device is offline: APNs stores it for up to \(DeviceTime.describe(DeviceTime.difference(until, time))) (\(bound)) and delivers it when the device comes back online.")
    }

    // MARK: Delivery (rules 12, 13, 14, 15 and the per-push simulation)

    private mutating func deliver(_ push: AcceptedPush, at time: Int64, storedSince: Int64?) {
        let simulation = DeliverySimulator.simulate(SimulationInput(push: push), on: settings.profile)
        let forwarded = storedSince.map {
            " Forwarded when the device came back online (stored \(DeviceTime.describe(DeviceTime.difference(time, $0))))."
        } ?? ""
        // What the Push Notifications Console would call it (device-rules §16): from storage, or disabled by the user.
        let fromStorage = storedSince != nil
        let denied = settings.profile.authorization == .denied
            && (push.payload["aps"].flatMap { ApsFacts(aps: $0) }?.isUserFacing ?? false)
        var decided: (DeviceRule, String)?

        if wakesAppInBackground(push, simulation) {
            budgetUses.removeAll { $0 <= DeviceTime.difference(time, DeviceTime.hour) }
            let limit = settings.backgroundBudgetPerHour
            guard Int64(budgetUses.count) < limit else {
                return record(push.apnsID, at: time, .throttled, .backgroundBudget,
                              "Over the background budget: \(budgetUses.count) silent pushes already woke the app in the rolling hour and the model allows \(limit) (a model number; Apple says \"not more than two or three per hour\")." + forwarded,
                              fromStorage: fromStorage)
            }
            budgetUses.append(time)
            decided = (.backgroundBudget,
                       "Woke the app in the background: silent push \(budgetUses.count) of \(limit) in the rolling hour (the budget is a model number).")
        }

        if let event = simulation.events.first(where: Self.liveActivityEvents.contains) {
            let (rule, text, applied) = applyLiveActivity(push, event: event, at: time)
            guard applied else {
                return record(push.apnsID, at: time, .dropped, rule, text + forwarded, fromStorage: fromStorage)
            }
            decided = (rule, text)
        }

        let rule: DeviceRule
        var text: String
        if let decided {
            (rule, text) = decided
            text += forwarded
        } else if let storedSince {
            rule = .deliveredOnReconnect
            text = "Delivered when the device came back online (stored \(DeviceTime.describe(DeviceTime.difference(time, storedSince))))."
        } else if push.priority != .immediate {
            rule = .lowPriorityInOrder
            text = "Priority \(push.priority.rawValue): APNs may hold such pushes and deliver them in bursts; the model delivers them in order, at once."
        } else {
            rule = .deliveredOnline
            text = "Delivered at once: the device is online."
        }
        if let unknown = simulation.unknown {
            text += " The per-push model does not cover what it shows (\(unknown)), so the screen leaves it out."
        }
        record(push.apnsID, at: time, .delivered, rule, text, simulation: simulation, fromStorage: fromStorage,
               notificationsDenied: denied)
        if simulation.unknown == nil { present(push, simulation.presentation, at: time) }
    }

    /// Rule 13 applies to a silent push that runs the app's background callback while the app is not in the
    /// foreground (in the foreground the app is running and receives it directly; a force-quit app gets nothing).
    private func wakesAppInBackground(_ push: AcceptedPush, _ simulation: Simulation) -> Bool {
        guard settings.profile.state == .background || settings.profile.state == .notRunning else { return false }
        guard let aps = push.payload["aps"], let facts = ApsFacts(aps: aps), facts.isSilent else { return false }
        return simulation.events.contains(.didReceiveRemoteNotification)
    }

    /// Rule 14: what the presentation puts on the screen: a Notification Center entry (banner or list, not a Live
    /// Activity's alert), the badge, the sound.
    private mutating func present(_ push: AcceptedPush, _ presentation: Presentation, at time: Int64) {
        if presentation.kind == .banner || presentation.kind == .list, push.pushType != .liveactivity,
            let aps = push.payload["aps"], let facts = ApsFacts(aps: aps)
        {
            let collapseID = push.collapseID.flatMap { $0.isEmpty ? nil : $0 }
            if let collapseID,
                let index = notifications.firstIndex(where: {
                    $0.collapseID == collapseID && Self.app(of: $0.push) == Self.app(of: push)
                })
            {
                let previous = notifications.remove(at: index)
                record(previous.apnsID, at: time, .replaced, .collapseIDReplacement,
                       "\(push.apnsID ?? "A later push") with the same apns-collapse-id \"\(collapseID)\" replaced it in Notification Center.")
            }
            notifications.insert(DeviceNotification(
                apnsID: push.apnsID, title: facts.title, body: facts.body, threadID: aps["thread-id"]?.stringValue,
                collapseID: collapseID, time: time, push: push), at: 0)
        }
        if let value = presentation.badge { badge = value }
        if presentation.sound { sounds.append(DeviceSound(apnsID: push.apnsID, time: time, sound: Self.soundName(push))) }
    }

    // MARK: Rule 15: Live Activities

    private static let liveActivityEvents: [DeliveryEvent] = [.liveActivityStart, .liveActivityUpdate, .liveActivityEnd]

    /// Applies a Live Activity push ActivityKit accepted (start, update or end); `applied` is false when
    /// ActivityKit ignores it (no activity with that token, already ended, older timestamp).
    private mutating func applyLiveActivity(_ push: AcceptedPush, event: DeliveryEvent, at time: Int64)
        -> (rule: DeviceRule, text: String, applied: Bool)
    {
        let aps = push.payload["aps"]
        let timestamp = DeviceTime.millis(secondsValue: aps?["timestamp"])
        let staleDate = DeviceTime.millis(secondsValue: aps?["stale-date"])
        let contentState = aps?["content-state"] ?? .object([])
        if event == .liveActivityStart {
            let type = aps?["attributes-type"]?.stringValue
            activities.append(DeviceLiveActivity(
                token: nil, startedBy: push.apnsID, attributesType: type, contentState: contentState,
                startedAt: time, timestamp: timestamp, staleDate: staleDate))
            return (.liveActivityStart,
                    "Push-to-start started a Live Activity (\(type ?? "no attributes-type")); updates reach it once the app reports its push token.",
                    true)
        }
        let verb = event == .liveActivityEnd ? "end" : "update"
        let token = push.deviceToken?.lowercased()
        guard let token, let index = activities.lastIndex(where: { $0.token?.lowercased() == token }) else {
            return (.liveActivityUnknownToken,
                    "No Live Activity on this device has push token \(push.deviceToken ?? "(none)"): ActivityKit ignores the \(verb).",
                    false)
        }
        let current = activities[index].observed(at: time, settings: settings)
        if let endedAt = current.endedAt {
            let how = current.endedBy == .maximumDuration
                ? "after the maximum duration of \(DeviceTime.describe(settings.liveActivityMaximumDurationMillis))"
                : "by an end push"
            activities[index] = current
            return (.liveActivityEnded,
                    "The Live Activity ended \(DeviceTime.describe(DeviceTime.difference(time, endedAt))) earlier, \(how): ActivityKit ignores the \(verb).",
                    false)
        }
        if let timestamp, let last = current.timestamp, timestamp < last {
            return (.liveActivityOutOfDate,
                    "Its timestamp is older than that of the last push applied to the Live Activity: ActivityKit ignores the \(verb).",
                    false)
        }
        activities[index].contentState = contentState
        activities[index].updatedAt = time
        activities[index].timestamp = timestamp ?? current.timestamp
        activities[index].staleDate = staleDate
        guard event == .liveActivityEnd else {
            return (.liveActivityUpdate, "ActivityKit set the Live Activity's content state.", true)
        }
        activities[index].end(
            at: time, by: .push, requestedDismissal: DeviceTime.millis(secondsValue: aps?["dismissal-date"]),
            settings: settings)
        let dismissal = activities[index].dismissalDate ?? time
        let source = activities[index].dismissalSource == .payload
            ? "its dismissal-date" : "the model's dismissal time; Apple says up to four hours"
        return (.liveActivityEnd,
                "ActivityKit ended the Live Activity; it stays on the lock screen for \(DeviceTime.describe(DeviceTime.difference(dismissal, time))) (\(source)).",
                true)
    }

    // MARK: Device changes

    private mutating func apply(_ change: DeviceChange, at time: Int64) {
        switch change {
        case .online:
            guard !online else { return }
            online = true
            let pending = stored
            stored = []
            for push in pending { deliver(push.push, at: time, storedSince: push.time) }
        case .offline:
            online = false
        case .appState(let state):
            settings.profile.state = state
        case .settings(var new):
            if new.token == nil { new.token = settings.token }   // a settings change without a token is this device's
            settings = new
        case .tap(let apnsID, let action):
            tap(apnsID, action: action, at: time)
        case .liveActivityStarted(let token, let contentState):
            activities.append(DeviceLiveActivity(
                token: token, startedBy: nil, attributesType: nil, contentState: contentState, startedAt: time,
                timestamp: nil, staleDate: nil))
        case .liveActivityToken(let startedBy, let token):
            if let index = activities.lastIndex(where: { $0.startedBy == startedBy }) {
                activities[index].token = token
            }
        }
    }

    /// Rule 5: a tap on a notification in Notification Center. It was presented, so what the tap runs depends only
    /// on the app's state now; the simulator is asked with a profile that presents it. A tap on the notification
    /// itself opens the app (foreground) and, like an action, removes the notification.
    private mutating func tap(_ apnsID: String, action: String?, at time: Int64) {
        guard let index = notifications.firstIndex(where: { $0.apnsID == apnsID }) else {
            let tap = TapSimulation(
                actionIdentifier: action ?? TapSimulation.defaultActionIdentifier,
                warnings: ["no notification with apns-id \(apnsID) is in Notification Center: nothing to tap"])
            return record(apnsID, at: time, .tapped, .tap,
                          "Nothing to tap: no notification with this apns-id is in Notification Center now.", tap: tap)
        }
        var profile = settings.profile
        profile.authorization = .authorized
        profile.inAppRouting = false
        profile.foregroundPresentation = .standard
        let tap = DeliverySimulator.simulateTap(
            SimulationInput(push: notifications[index].push), on: profile, actionIdentifier: action)
        guard tap.events.contains(.didReceiveResponse) else {
            return record(apnsID, at: time, .tapped, .tap,
                          "The tap ran nothing: \(tap.unknown ?? tap.warnings.joined(separator: "; ")).", tap: tap)
        }
        notifications.remove(at: index)
        if action == nil { settings.profile.state = .foreground }
        let opened = action == nil ? " and the app opened in the foreground" : ""
        record(apnsID, at: time, .tapped, .tap,
               "The user tapped it: \(tap.events.map(\.handler).joined(separator: ", ")) ran; it left Notification Center\(opened).",
               tap: tap)
    }

    // MARK: The screen

    /// The screen at `time` (no later than the next event not yet applied).
    func screen(at time: Int64) -> DeviceScreen {
        let window = budgetUses.filter { $0 > DeviceTime.difference(time, DeviceTime.hour) }
        return DeviceScreen(
            at: time, token: settings.token, online: online, appState: settings.profile.state, badge: badge,
            notifications: notifications, stored: stored,
            liveActivities: activities.map { $0.observed(at: time, settings: settings) }, sounds: sounds,
            backgroundBudget: DeviceBackgroundBudget(
                limit: settings.backgroundBudgetPerHour, windowMillis: DeviceTime.hour, used: Int64(window.count),
                nextFreeAt: window.first.map { DeviceTime.adding(DeviceTime.hour, to: $0) }),
            settings: settings)
    }

    // MARK: Helpers

    private mutating func record(
        _ apnsID: String?, at time: Int64, _ outcome: DeviceTimelineEntry.Outcome, _ rule: DeviceRule,
        _ explanation: String, simulation: Simulation? = nil, tap: TapSimulation? = nil, fromStorage: Bool = false,
        notificationsDenied: Bool = false
    ) {
        entries.append(DeviceTimelineEntry(
            apnsID: apnsID, time: time, outcome: outcome, rule: rule, explanation: explanation,
            simulation: simulation, tap: tap, fromStorage: fromStorage, notificationsDenied: notificationsDenied))
    }

    /// The app a push is for: its topic without the push type's suffix (APNs stores one push per app).
    static func app(of push: AcceptedPush) -> String {
        if let suffix = push.pushType.topicSuffix, push.topic.hasSuffix(suffix) {
            return String(push.topic.dropLast(suffix.count))
        }
        return push.topic
    }

    /// The name of the sound a push plays: `aps.sound`, its `name` when a dictionary, a Live Activity alert's
    /// `sound`; `default` when none is named.
    static func soundName(_ push: AcceptedPush) -> String {
        let aps = push.payload["aps"]
        if let name = aps?["sound"]?.stringValue { return name }
        if let name = aps?["sound"]?["name"]?.stringValue { return name }
        if let name = aps?["alert"]?["sound"]?.stringValue { return name }
        return "default"
    }
}
