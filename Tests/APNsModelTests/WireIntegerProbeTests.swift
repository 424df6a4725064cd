import APNsModel
import ModelTestSupport
import XCTest

/// Numbers in request headers and bodies at and past the ends of Int64 (and other shapes that are not the
/// whole numbers expected) get APNs's reason for that header or body, never a trap or a wrapped value.
final class WireIntegerProbeTests: XCTestCase {
    private let app = "com.example.app"
    /// Int64.min/max, 2^63, 2^64-1, 2^64, negative, a huge decimal, floats, exponent and sign spellings.
    static let probes = [
        "-9223372036854775808", "9223372036854775808", "18446744073709551615", "18446744073709551616", "-1", "-0",
        String(repeating: "9", count: 400), "1.0", "1e3", "+1", "0x10", "NaN", "Infinity",
    ]

    func testExpirationProbesGetBadExpirationDate() {
        let good: [(String, String)] = [("apns-topic", app), ("apns-push-type", "alert")]
        for probe in Self.probes {
            let verdict = Requests.decide(Requests.device(good + [("apns-expiration", probe)]))
            XCTAssertEqual(verdict.reason, .badExpirationDate, probe)
        }
        let edge = Requests.decide(Requests.device(good + [("apns-expiration", "9223372036854775807")]))
        XCTAssertEqual(edge.accepted?.expiration, .max, "Int64.max is a valid (far future) expiration")
    }

    func testBroadcastExpirationProbesGetBadExpirationDate() {
        for probe in Self.probes {
            let request = APNsRequest(
                method: "POST", path: "/4/broadcasts/apps/\(app)",
                headers: [HeaderField("apns-channel-id", "dGVzdA=="), HeaderField("apns-push-type", "LiveActivity"),
                          HeaderField("apns-expiration", probe)],
                body: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8))
            XCTAssertEqual(Requests.decide(request).reason, .badExpirationDate, probe)
        }
    }

    func testPriorityProbesGetBadPriority() {
        let good: [(String, String)] = [("apns-topic", app), ("apns-push-type", "alert")]
        for probe in Self.probes + ["9223372036854775807", "10.0", "0010000000000000000000000000000010"] {
            let verdict = Requests.decide(Requests.device(good + [("apns-priority", probe)]))
            XCTAssertEqual(verdict.reason, .badPriority, probe)
        }
    }

    func testChannelStoragePolicyProbesGetBadRequestParams() {
        for probe in Self.probes where probe.allSatisfy({ $0.isNumber || "-+.e".contains($0) }) && probe != "-0" {
            let request = APNsRequest(method: "POST", path: "/1/apps/\(app)/channels",
                                      body: Array(#"{"message-storage-policy":\#(probe)}"#.utf8))
            let reason = Requests.decide(request).reason
            // "+1" and "-0"-like spellings are not JSON at all; every JSON number outside {0, 1} is a bad parameter.
            XCTAssertTrue(reason == .badRequestParams || reason == .badRequestPayload, "\(probe): \(String(describing: reason))")
        }
        let tooBig = APNsRequest(method: "POST", path: "/1/apps/\(app)/channels",
                                 body: Array(#"{"message-storage-policy":18446744073709551615}"#.utf8))
        XCTAssertEqual(Requests.decide(tooBig).reason, .badRequestParams)
    }
}
