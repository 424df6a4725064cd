@testable import FCMModel
import XCTest

/// The proto3 JSON forms of durations and timestamps (fcm-rules §3.9), read from the wire without trapping.
final class ProtoValueTests: XCTestCase {
    func testDurations() {
        let cases: [(String, (Int64, Int32)?, String?)] = [
            ("3s", (3, 0), "3s"),
            ("0s", (0, 0), "0s"),
            ("3.5s", (3, 500_000_000), "3.500s"),
            ("3.000000001s", (3, 1), "3.000000001s"),
            ("0.100000000s", (0, 100_000_000), "0.100s"),
            ("-1.5s", (-1, -500_000_000), "-1.500s"),
            ("-0.5s", (0, -500_000_000), "-0.500s"),
            ("2419200s", (2_419_200, 0), "2419200s"),
            ("315576000000s", (315_576_000_000, 0), "315576000000s"),
            ("315576000001s", nil, nil),
            ("99999999999999999999999s", nil, nil),
            ("3", nil, nil), ("s", nil, nil), ("3.s", nil, nil), (".5s", nil, nil), ("3.0000000001s", nil, nil),
            ("+3s", nil, nil), ("3 s", nil, nil), ("3m", nil, nil), ("1e3s", nil, nil), ("--1s", nil, nil), ("", nil, nil),
        ]
        for (text, value, canonical) in cases {
            let duration = ProtoDuration(text)
            XCTAssertEqual(duration.map { [$0.seconds, Int64($0.nanos)] }, value.map { [$0.0, Int64($0.1)] }, text)
            XCTAssertEqual(duration?.description, canonical, text)
        }
        XCTAssertTrue(ProtoDuration("-0.5s")!.isNegative)
        XCTAssertFalse(ProtoDuration("0s")!.isNegative)
        XCTAssertEqual(ProtoDuration("3.9s")?.wholeSeconds, 3)
    }

    func testTimestamps() {
        let valid = ["2026-05-01T12:30:00Z", "2026-05-01T12:30:00.123456Z", "2026-05-01T12:30:00.123456789Z", "2026-05-01t12:30:00z",
                     "2026-05-01T14:30:00+02:00", "2026-05-01T08:30:00-04:00", "2016-12-31T23:59:60Z"]
        let invalid = ["2026-05-01", "2026-05-01T12:30:00", "2026-13-01T12:30:00Z", "2026-05-32T12:30:00Z", "2026-05-01T24:00:00Z",
                       "2026-05-01T12:60:00Z", "2026-05-01T12:30:00.Z", "2026-05-01T12:30:00.1234567890Z", "2026-05-01T12:30:00+2:00",
                       "2026-05-01 12:30:00Z", "yesterday", "", "2026-05-01T12:30:00Zjunk"]
        for text in valid { XCTAssertTrue(ProtoTimestamp.isValid(text), text) }
        for text in invalid { XCTAssertFalse(ProtoTimestamp.isValid(text), text) }
    }
}
