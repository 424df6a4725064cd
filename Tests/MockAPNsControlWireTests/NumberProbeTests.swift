import APNsModel
import Foundation
import MockAPNs
import MockAPNsControl
import XCTest
import TestSupport

/// Control-plane numbers at and past Int64's ends, negative, fractional or spelled as floats: each gets a 400
/// `{"error": …}` and changes nothing, never a trap, a wrap or a silently ignored field.
final class NumberProbeTests: LeakCheckedTestCase {
    /// Int64.min, 2^63, 2^64-1, 2^64, a 400-digit decimal, floats and exponents, as JSON number text.
    static let jsonProbes = [
        "-9223372036854775808", "9223372036854775808", "18446744073709551615", "18446744073709551616",
        String(repeating: "9", count: 400), "1.5", "1e3", "2.0", "-1",
    ]

    private func assertRefused(_ answer: HTTPAnswer, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(answer.status, 400, "\(what): \(answer.text)", file: file, line: line)
        XCTAssertFalse(try answer.json(file: file, line: line)["error"]?.stringValue?.isEmpty ?? true, what, file: file, line: line)
    }

    func testDeviceNumbersOutOfRangeAre400s() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        for probe in Self.jsonProbes + ["0", "86401", "9223372036854775807"] {
            let window = try await client.send("PUT", "/api/v1/devices/aa",
                                               body: #"{"state":"rateLimited","max":5,"window_seconds":\#(probe)}"#)
            try assertRefused(window, "window_seconds \(probe)")
        }
        for probe in Self.jsonProbes + ["10001", "9223372036854775807"] {
            let max = try await client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"rateLimited","max":\#(probe),"window_seconds":60}"#)
            try assertRefused(max, "max \(probe)")
        }
        for probe in Self.jsonProbes {
            let timestamp = try await client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"unregistered","timestamp":\#(probe)}"#)
            try assertRefused(timestamp, "timestamp \(probe)")
        }
        let stringTimestamp = try await client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"unregistered","timestamp":"1700000000000"}"#)
        try assertRefused(stringTimestamp, "timestamp as a string")
        let nonStringTopic = try await client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"topics","topics":["a",7]}"#)
        try assertRefused(nonStringTopic, "a topic that is a number")
        let untouched = harness.mock.devices.all().isEmpty

        let farFuture = try await client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"unregistered","timestamp":9223372036854775807}"#)
        let longest = try await client.send("PUT", "/api/v1/devices/bb",
                                            body: #"{"state":"rateLimited","max":10000,"window_seconds":86400}"#)
        await harness.stop()
        XCTAssertTrue(untouched, "a refused PUT changed the registry")
        XCTAssertEqual(farFuture.status, 200, farFuture.text)
        XCTAssertEqual(longest.status, 200, longest.text)
        XCTAssertEqual(harness.mock.devices.all()["bb"], .rateLimited(max: 10_000, windowSeconds: 86_400))
    }

    func testFaultNumbersOutOfRangeAre400s() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        var bodies: [String: String] = [:]
        for probe in Self.jsonProbes {
            bodies["count \(probe)"] = #"{"count":\#(probe),"action":{"type":"stall"}}"#
            bodies["status \(probe)"] = #"{"action":{"type":"status","status":\#(probe)}}"#
            bodies["delay \(probe)"] = #"{"action":{"type":"delay","ms":\#(probe)}}"#
            bodies["reset \(probe)"] = #"{"action":{"type":"reset","error_code":\#(probe)}}"#
            bodies["goaway \(probe)"] = #"{"action":{"type":"goaway","error_code":\#(probe)}}"#
        }
        bodies["error_code 2^32"] = #"{"action":{"type":"reset","error_code":4294967296}}"#
        bodies["delay past 600000"] = #"{"action":{"type":"delay","ms":600001}}"#
        bodies["probability as text"] = #"{"probability":"0.5","action":{"type":"stall"}}"#
        bodies["probability 2"] = #"{"probability":2,"action":{"type":"stall"}}"#
        for (what, body) in bodies.sorted(by: { $0.key < $1.key }) {
            try assertRefused(try await client.send("POST", "/api/v1/faults", body: body), what)
        }
        let untouched = harness.mock.faults.entries.isEmpty
        let largestCode = try await client.send("POST", "/api/v1/faults", body: #"{"count":9223372036854775807,"action":{"type":"reset","error_code":4294967295}}"#)
        await harness.stop()
        XCTAssertTrue(untouched, "a refused POST changed the fault plan")
        XCTAssertEqual(largestCode.status, 201, largestCode.text)
        XCTAssertEqual(harness.mock.faults.entries.first?.rule.action, .reset(errorCode: .max))
    }

    func testQueryNumbersOutOfRangeAre400sAndIDsAre404s() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        for name in ["since", "limit", "status"] {
            for probe in ["-1", "18446744073709551616", String(repeating: "9", count: 400), "1.5", "1e3", "0x10", "1%20"] {
                try assertRefused(try await client.send("GET", "/api/v1/notifications?\(name)=\(probe)"), "\(name)=\(probe)")
            }
        }
        let largestSince = try await client.send("GET", "/api/v1/notifications?since=18446744073709551615")
        var unknown: [HTTPAnswer] = []
        for id in ["18446744073709551616", "0", "-1", "9223372036854775808"] {
            unknown.append(try await client.send("GET", "/api/v1/notifications/\(id)"))
        }
        await harness.stop()
        XCTAssertEqual(largestSince.status, 200, largestSince.text)
        for answer in unknown {
            XCTAssertEqual(answer.status, 404, answer.text)
            XCTAssertNotNil(try answer.json()["error"]?.stringValue)
        }
    }
}
