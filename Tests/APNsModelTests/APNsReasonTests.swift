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
