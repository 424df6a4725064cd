import Support
import Foundation
import ModelTestSupport
import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Seeded random timelines (`SplitMix64`, so a failure replays exactly): requests are decided by `RequestDecider`
/// (some are rejected), accepted ones and random device changes are replayed, and at many instants the screen must
/// never show a push that was rejected, dropped, throttled or replaced, and must stay consistent with the entries.
final class DevicePropertyTests: XCTestCase {
    private let topic = "com.example.app"
    private let laTopic = "com.example.app.push-type.liveactivity"
    private let otherActivityToken = String(repeating: "c3", count: 32)

    func testTheScreenNeverShowsARejectedDroppedThrottledOrReplacedPush() {
        var g = SplitMix64(seed: 36)
        var totals = (sequences: 0, accepted: 0, rejected: 0, checks: 0)
        var outcomes: Set<DeviceTimelineEntry.Outcome> = []
        for sequence in 0..<300 {
            let run = randomRun(&g, sequence: sequence)
            totals.sequences += 1
            totals.accepted += run.events.filter { if case .push = $0.kind { return true } else { return false } }.count
            totals.rejected += run.rejected.count
            let timeline = DeviceTimeline(settings: run.settings, events: run.events)
            var instants = Set(run.events.map(\.time))
            if let last = run.events.last?.time {
                instants.formUnion([last + 1, last + 3_600_000, last + 40 * 86_400_000])
            }
            for at in instants.sorted() {
                let (screen, entries) = timeline.replay(until: at)
                outcomes.formUnion(entries.map(\.outcome))
                let problems = check(screen, entries, rejected: run.rejected)
                totals.checks += 1
                if !problems.isEmpty {
                    return XCTFail("sequence \(sequence) at \(at): \(problems.joined(separator: "; "))\nevents: \(describe(run.events))")
                }
            }
        }
        // The generator must reach every case the property is about, or the property proves little.
        XCTAssertEqual(outcomes, Set(DeviceTimelineEntry.Outcome.allCases), "outcomes reached: \(outcomes)")
        XCTAssertGreaterThan(totals.rejected, 100, "too few rejected requests to exercise the property")
        XCTAssertGreaterThan(totals.accepted, 2000)
        XCTAssertGreaterThan(totals.checks, 4000)
    }

    /// Every way the screen could contradict the entries.
    private func check(_ screen: DeviceScreen, _ entries: [DeviceTimelineEntry], rejected: Set<String>) -> [String] {
        var problems: [String] = []
        let goneOutcomes: Set<DeviceTimelineEntry.Outcome> = [.dropped, .throttled, .replaced]
        let gone = Set(entries.filter { goneOutcomes.contains($0.outcome) }.compactMap(\.apnsID))
        let delivered = Set(entries.filter { $0.outcome == .delivered }.compactMap(\.apnsID))
        let shown = screen.notifications.compactMap(\.apnsID)
        let held = screen.stored.compactMap(\.apnsID)
        let started = screen.liveActivities.compactMap(\.startedBy)
        let everything = Set(shown + held + started + screen.sounds.compactMap(\.apnsID) + entries.compactMap(\.apnsID))
        if !everything.isDisjoint(with: rejected) { problems.append("a rejected push appears: \(everything.intersection(rejected))") }
        for (label, ids) in [("notifications", shown), ("stored", held), ("live_activities", started)] {
            if !gone.isDisjoint(with: ids) { problems.append("\(label) show a gone push: \(gone.intersection(ids))") }
            if Set(ids).count != ids.count { problems.append("\(label) list a push twice: \(ids)") }
        }
        if !Set(shown).isSubset(of: delivered) { problems.append("a notification was never delivered: \(shown)") }
        if screen.online, !held.isEmpty { problems.append("online, yet APNs still holds \(held)") }
        let apps = screen.stored.map { DeviceReplay.app(of: $0.push) }
        if Set(apps).count != apps.count { problems.append("more than one stored push per app: \(apps)") }
        if screen.notifications.map(\.time) != screen.notifications.map(\.time).sorted(by: >) {
            problems.append("notifications not newest first")
        }
        let collapseKeys = screen.notifications.compactMap { n in n.collapseID.map { "\(n.push.topic)/\($0)" } }
        if Set(collapseKeys).count != collapseKeys.count { problems.append("two notifications share a collapse id: \(collapseKeys)") }
        if screen.groups.flatMap(\.notifications).count != screen.notifications.count { problems.append("groups lose notifications") }
        if screen.backgroundBudget.used > screen.backgroundBudget.limit { problems.append("budget over its limit") }
        return problems
    }

    /// Events as `+<ms> <apns-id or change>`, one per line, for a failure message.
    private func describe(_ events: [DeviceEvent]) -> String {
        events.map { event in
            switch event.kind {
            case .push(let push): return "+\(event.time - Dev.t0) push \(push.apnsID ?? "-") \(push.pushType.rawValue)"
            case .change(let change): return "+\(event.time - Dev.t0) \(change.json.jsonText())"
            }
        }.joined(separator: "\n")
    }

    // MARK: Generating runs

    private struct Run {
        var settings: DeviceSettings
        var events: [DeviceEvent] = []
        var rejected: Set<String> = []
    }

    private func randomRun(_ g: inout SplitMix64, sequence: Int) -> Run {
        var settings = DeviceSettings(
            token: Dev.token,
            profile: DeviceProfile(
                state: AppState.allCases.randomElement(using: &g)!,
                authorization: [.authorized, .authorized, .provisional, .denied].randomElement(using: &g)!,
                inAppRouting: Bool.random(using: &g)),
            backgroundBudgetPerHour: Int64.random(in: 0...3, using: &g))
        settings.storageLimitMillis = [10_000, 3_600_000, 30 * 86_400_000].randomElement(using: &g)!
        settings.liveActivityMaximumDurationMillis = [600_000, 8 * 3_600_000].randomElement(using: &g)!
        var run = Run(settings: settings)
        var connection = TokenConnectionState()
        let context = DecisionContext(environment: .development, credential: TestCredentials.tokenCredential(), now: TestCredentials.now)
        var time = Dev.t0
        var ids: [String] = []
        for index in 0..<Int.random(in: 10...30, using: &g) {
            time += [0, 1000, 60_000, 600_000, 1_800_000, 7_200_000].randomElement(using: &g)!
            if Int.random(in: 0..<10, using: &g) < 6 {
                let id = String(format: "%08x-%04x-4000-8000-000000000000", sequence, index)
                let request = randomRequest(&g, id: id, now: time)
                switch RequestDecider.decide(request, context: context, connection: &connection) {
                case .accepted(let push):
                    run.events.append(.push(push, at: time))
                    ids.append(id)
                case .rejected:
                    run.rejected.insert(id)
                }
            } else {
                run.events.append(.change(randomChange(&g, known: ids), at: time))
            }
        }
        return run
    }

    private func randomChange(_ g: inout SplitMix64, known ids: [String]) -> DeviceChange {
        switch Int.random(in: 0..<7, using: &g) {
        case 0, 1: return .offline
        case 2: return .online
        case 3: return .appState(AppState.allCases.randomElement(using: &g)!)
        case 4: return .tap(apnsID: ids.randomElement(using: &g) ?? "none", action: Bool.random(using: &g) ? nil : "REPLY")
        case 5: return .liveActivityStarted(token: Dev.activityToken, contentState: .object([]))
        default: return .liveActivityToken(startedBy: ids.randomElement(using: &g) ?? "none", token: otherActivityToken)
        }
    }

    private func randomRequest(_ g: inout SplitMix64, id: String, now: Int64) -> APNsRequest {
        let seconds = now / 1000
        var token = Dev.token
        var headers = [HeaderField("apns-id", id)]
        var body: String
        switch Int.random(in: 0..<10, using: &g) {
        case 0, 1, 2, 3:
            headers += [HeaderField("apns-topic", topic), HeaderField("apns-push-type", "alert")]
            body = randomAlert(&g)
        case 4, 5:
            headers += [HeaderField("apns-topic", topic), HeaderField("apns-push-type", "background")]
            body = #"{"aps": {"content-available": 1}}"#
        case 6, 7:
            headers += [HeaderField("apns-topic", laTopic), HeaderField("apns-push-type", "liveactivity")]
            token = [Dev.activityToken, otherActivityToken, String(repeating: "d4", count: 32)].randomElement(using: &g)!
            let event = ["update", "update", "end", "start"].randomElement(using: &g)!
            let stamp = seconds + Int64.random(in: -100...100, using: &g)
            let stale = Bool.random(using: &g) ? #", "stale-date": \#(seconds + Int64.random(in: -60...600, using: &g))"# : ""
            let start = event == "start" ? #", "attributes-type": "A", "attributes": {}, "alert": {"title": "t", "body": "b"}"# : ""
            body = #"{"aps": {"event": "\#(event)", "timestamp": \#(stamp), "content-state": {"n": \#(stamp)}\#(stale)\#(start)}}"#
        case 8:
            headers += [HeaderField("apns-topic", topic), HeaderField("apns-push-type", "bogus")]
            body = randomAlert(&g)
        default:
            headers += [HeaderField("apns-topic", topic)]
            body = Bool.random(using: &g) ? "[1]" : randomAlert(&g)
        }
        switch Int.random(in: 0..<6, using: &g) {
        case 0: headers.append(HeaderField("apns-priority", "10"))
        case 1: headers.append(HeaderField("apns-priority", "5"))
        case 2: headers.append(HeaderField("apns-priority", "1"))
        default: break
        }
        switch Int.random(in: 0..<6, using: &g) {
        case 0: headers.append(HeaderField("apns-expiration", "0"))
        case 1: headers.append(HeaderField("apns-expiration", String(seconds + Int64.random(in: 1...7200, using: &g))))
        case 2: headers.append(HeaderField("apns-expiration", String(max(1, seconds - 10))))
        default: break
        }
        switch Int.random(in: 0..<6, using: &g) {
        case 0: headers.append(HeaderField("apns-collapse-id", "k1"))
        case 1: headers.append(HeaderField("apns-collapse-id", "k2"))
        case 2: headers.append(HeaderField("apns-collapse-id", String(repeating: "x", count: 65)))
        default: break
        }
        return APNsRequest(method: "POST", path: "/3/device/\(token)", headers: headers, body: Array(body.utf8))
    }

    private func randomAlert(_ g: inout SplitMix64) -> String {
        var aps = [#""alert": {"title": "t", "body": "b"}"#]
        if Bool.random(using: &g) { aps.append(#""badge": \#(Int.random(in: 0...5, using: &g))"#) }
        if Bool.random(using: &g) { aps.append(#""sound": "default""#) }
        if Bool.random(using: &g) { aps.append(#""thread-id": "\#(["t1", "t2"].randomElement(using: &g)!)""#) }
        if Int.random(in: 0..<4, using: &g) == 0 { aps.append(#""content-available": 1"#) }
        if Int.random(in: 0..<4, using: &g) == 0 { aps.append(#""category": "MSG""#) }
        let custom = Int.random(in: 0..<4, using: &g) == 0 ? ##", "inAppSymbol": "bolt", "inAppColor": "#ffffff""## : ""
        return #"{"aps": {\#(aps.joined(separator: ", "))}\#(custom)}"#
    }
}
