import APNsModel
import XCTest

final class APNsReasonTests: XCTestCase {
    func testStatusOfEveryReason() {
        let expected: [Int: [APNsReason]] = [
            400: [.badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
                  .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
                  .missingTopic, .payloadEmpty, .topicDisallowed, .featureNotEnabled, .missingChannelId,
                  .badChannelId, .channelNotRegistered, .badRequestParams, .badRequestPayload, .missingPushType,
                  .cannotCreateChannelConfig],
            403: [.badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden,
                  .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken,
                  .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken, .topicMismatch],
            404: [.badPath], 405: [.methodNotAllowed], 410: [.expiredToken, .unregistered], 413: [.payloadTooLarge],
            429: [.tooManyProviderTokenUpdates, .tooManyRequests], 500: [.internalServerError],
            503: [.serviceUnavailable, .shutdown],
        ]
        XCTAssertEqual(expected.values.map(\.count).reduce(0, +), APNsReason.allCases.count, "every reason listed once")
        for (status, reasons) in expected {
            for reason in reasons { XCTAssertEqual(reason.status, status, reason.rawValue) }
        }
    }

    func testWireSpellings() {
        XCTAssertEqual(APNsReason(rawValue: "BadEnvironmentKeyIdInToken"), .badEnvironmentKeyIdInToken)
        XCTAssertEqual(APNsReason(rawValue: "BadEnvironmentKeyInToken"), .badEnvironmentKeyInToken)
        XCTAssertEqual(APNsReason(rawValue: "TooManyProviderTokenUpdates"), .tooManyProviderTokenUpdates)
        XCTAssertEqual(Set(APNsReason.allCases.map(\.rawValue)).count, APNsReason.allCases.count)
        for reason in APNsReason.allCases {
            XCTAssert(reason.rawValue.first!.isUppercase && !reason.rawValue.contains(" "), reason.rawValue)
        }
    }

    func testRetryGuidance() {
        for reason: APNsReason in [.badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered, .payloadTooLarge] {
            XCTAssertFalse(reason.mayRetryAfterFix, reason.rawValue)
            XCTAssertFalse(reason.isRetryable, reason.rawValue)
        }
        for reason: APNsReason in [.tooManyRequests, .tooManyProviderTokenUpdates, .internalServerError, .serviceUnavailable, .shutdown] {
            XCTAssertTrue(reason.isRetryable, reason.rawValue)
        }
        XCTAssertFalse(APNsReason.badPriority.isRetryable)
        XCTAssertTrue(APNsReason.badPriority.mayRetryAfterFix)
        XCTAssertFalse(APNsReason.unregistered.countsAsConnectionError)
        XCTAssertTrue(APNsReason.badDeviceToken.countsAsConnectionError)
    }

    func testEveryReasonHasAnExplanation() {
        for reason in APNsReason.allCases {
            XCTAssertGreaterThan(reason.explanation.count, 20, reason.rawValue)
            XCTAssert(reason.explanation.hasSuffix("."), reason.rawValue)
        }
    }

    func testCodableUsesTheWireString() throws {
        let data = try JSONEncoder().encode([APNsReason.badTopic])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["BadTopic"]"#)
        XCTAssertEqual(try JSONDecoder().decode([APNsReason].self, from: data), [.badTopic])
    }
}

final class APNsReasonResponseTests: XCTestCase {
    func testResponseBodies() {
        XCTAssertEqual(APNsReason.badTopic.responseBody(), #"{"reason":"BadTopic"}"#)
        XCTAssertEqual(APNsReason.unregistered.responseBody(timestampMilliseconds: 1_800_000_000_123),
                       #"{"reason":"Unregistered","timestamp":1800000000123}"#)
        for reason in APNsReason.allCases {
            let decoded = APNsReason.decodeResponseBody(Array(reason.responseBody(timestampMilliseconds: 5).utf8))
            XCTAssertEqual(decoded?.reason, reason)
            XCTAssertEqual(decoded?.timestampMilliseconds, 5)
        }
        XCTAssertEqual(APNsReason(responseReason: "Service Unavailable"), .serviceUnavailable)
        XCTAssertNil(APNsReason(responseReason: "SomethingNew"))
        XCTAssertNil(APNsReason.decodeResponseBody(Array("not json".utf8)))
        XCTAssertNil(APNsReason.decodeResponseBody(Array(#"{"reason":1}"#.utf8)))
        XCTAssertEqual(APNsReason.decodeResponseBody(Array(#"{"reason":"Shutdown"}"#.utf8))?.timestampMilliseconds, nil)
    }
}

extension APNsReasonResponseTests {
    func testOddTimestamps() {
        XCTAssertEqual(APNsReason.decodeResponseBody(Array(#"{"reason":"Unregistered","timestamp":1.5e3}"#.utf8))?.timestampMilliseconds, 1500)
        XCTAssertEqual(APNsReason.decodeResponseBody(Array(#"{"reason":"Unregistered","timestamp":1e300}"#.utf8))?.reason, .unregistered)
        XCTAssertNil(APNsReason.decodeResponseBody(Array(#"{"reason":"Unregistered","timestamp":1e300}"#.utf8))?.timestampMilliseconds)
    }
}
