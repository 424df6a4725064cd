import APNsModel
import Foundation
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// Every `Fixtures/devices` scenario over the wire: its pushes go to a listening mock over HTTP/2 (curl, TLS), its
/// device changes through `POST /api/v1/devices/{token}/changes`, and the screen and timeline the control plane
/// computes from the recording must hold what the scenario expects, as they do in the model (`DeviceFixtureTests`).
/// The mock's clock is frozen at each step's instant, so records carry the times the scenario was written with.
final class DeviceScenarioWireTests: LeakCheckedTestCase {
    func testEveryDeviceScenarioOverTheWire() async throws {
        let scenarios = try DeviceScenario.all()
        XCTAssertGreaterThanOrEqual(scenarios.count, 15)
        let mock = try await TestServer.start()
        addTeardownBlock { await mock.stop() }
        let control = ControlServer(mock: mock.mock, configuration: ControlConfiguration(host: "127.0.0.1", port: 0))
        addTeardownBlock { await control.stop() }
        let client = HTTPTestClient(base: "http://127.0.0.1:\(try await control.start())")
        let clock = mock.mock.clock
        var checked = 0
        do {
            for scenario in scenarios {
                checked += try await run(scenario, mock: mock, client: client, clock: clock)
            }
        } catch {
            XCTFail("\(error)")
        }
        clock.unfreeze()
        await control.stop()
        await mock.stop()
        XCTAssertGreaterThanOrEqual(checked, 30, "the scenarios should check at least 30 screens and timelines")
    }

    /// Plays one scenario against the mock; answers how many screens and timelines it checked.
    private func run(_ scenario: DeviceScenario, mock: TestServer, client: HTTPTestClient, clock: MockClock) async throws -> Int {
        let token = try XCTUnwrap(scenario.settings.token, "\(scenario.file): the wire run needs settings.token")
        _ = try await client.send("DELETE", "/api/v1/notifications")
        _ = try await client.send("DELETE", "/api/v1/devices")
        let times = scenario.steps.map(\.time) + scenario.expectations.map(\.at)
        let start = try XCTUnwrap(times.min())
        let settings = try await client.send(
            "PUT", "/api/v1/devices/\(token)",
            body: JSONValue.object([
                .init("settings", scenario.settingsJSON), .init("at", .integer(start - 1)),
                .init("push_to_start_tokens", .array(scenario.pushToStartTokens.map(JSONValue.string))),
            ]).jsonText())
        XCTAssertEqual(settings.status, 200, "\(scenario.file): \(settings.text)")

        for (index, step) in scenario.steps.enumerated() {
            switch step {
            case .change(_, let json):
                let answer = try await client.send("POST", "/api/v1/devices/\(token)/changes", body: json.jsonText())
                XCTAssertEqual(answer.status, 201, "\(scenario.file) step \(index): \(answer.text)")
            case .push(let request, let at, let status, _):
                clock.freeze(atMillis: at)
                let answered = try push(request, to: mock, mockNowSeconds: at / 1000)
                XCTAssertEqual(answered, status, "\(scenario.file) step \(index): the mock answered \(answered)")
            }
        }
        var checked = 0
        for expectation in scenario.expectations {
            if let expected = expectation.screen {
                let screen = try await client.send("GET", "/api/v1/devices/\(token)/screen?at=\(expectation.at)")
                for problem in DeviceScenario.mismatches(expected: expected, actual: try screen.json()) {
                    XCTFail("\(scenario.file) at \(expectation.at), over the wire: screen.\(problem)\n  [\(scenario.name)]")
                }
                checked += 1
            }
            if let expected = expectation.timeline {
                let timeline = try await client.send("GET", "/api/v1/devices/\(token)/timeline?until=\(expectation.at)")
                let entries = try timeline.json()["entries"] ?? .null
                for problem in DeviceScenario.mismatches(expected: expected, actual: entries) {
                    XCTFail("\(scenario.file) at \(expectation.at), over the wire: timeline\(problem)\n  [\(scenario.name)]")
                }
                checked += 1
            }
        }
        return checked
    }

    /// Sends `request` with curl over HTTP/2 and TLS, signed by a token issued at the mock's `now`; the status.
    private func push(_ request: APNsRequest, to mock: TestServer, mockNowSeconds: Int64) throws -> Int {
        let jwt = try TestTokens.jwt(offset: mockNowSeconds - Int64(Date().timeIntervalSince1970))
        var arguments = ["-sS", "--http2", "--max-time", "20", "--cacert", RepoPaths.cert("ca.pem"), "-o", "/dev/null",
                         "-w", "%{http_code}", "-X", request.method, "-H", "authorization: bearer " + jwt]
        for header in request.headers { arguments += ["-H", "\(header.name): \(header.value)"] }
        arguments += ["--data-binary", String(decoding: request.body, as: UTF8.self), mock.url + request.path]
        let output = try PeerProcess.run("/usr/bin/curl", arguments, timeout: 30)
        XCTAssertEqual(output.status, 0, output.stderr)
        return Int(output.stdout) ?? 0
    }
}

extension DeviceScenario.Step {
    /// When the step happens.
    var time: Int64 {
        switch self {
        case .push(_, let at, _, _): return at
        case .change(let event, _): return event.time
        }
    }
}
