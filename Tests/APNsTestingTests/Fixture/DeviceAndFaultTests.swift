import APNsModel
import APNsTesting
import Foundation
import MockAPNs
import TestSupport
import XCTest

/// The fixture's device-registry and fault-plan shortcuts make the mock answer as they say.
final class DeviceAndFaultTests: LeakCheckedTestCase {
    private var mock: APNsMock!
    private var sender: RawSender!

    override func setUp() async throws {
        mock = try await APNsMock.start()
        sender = try await RawSender.connect(to: mock, requestTimeout: .seconds(2))
    }

    override func tearDown() async throws {
        await sender?.close()
        await mock?.stop()
    }

    private func statusAndReason(to token: String = Tokens.first, topic: String = "com.example.shop") async throws -> String {
        let answer = try await sender.send(Payloads.shipped, to: token, topic: topic)
        return "\(answer.status) \(answer.reason ?? "-")"
    }

    func testUnregister() async throws {
        let since = Date(timeIntervalSince1970: 1_700_000_000)
        mock.unregister(token: Tokens.first, since: since)
        mock.unregister(token: Tokens.second)
        let first = try await statusAndReason()
        XCTAssertEqual(first, "410 Unregistered")
        XCTAssertEqual(mock.notifications.last?.record.response.timestamp, 1_700_000_000_000)
        let second = try await statusAndReason(to: Tokens.second)
        XCTAssertEqual(second, "410 Unregistered")
        XCTAssertNotNil(mock.notifications.last?.record.response.timestamp)
    }

    func testExpireRestrictOtherEnvironmentAndRestore() async throws {
        mock.expire(token: Tokens.first)
        mock.restrict(token: Tokens.second, toTopics: ["com.example.other"])
        mock.moveToOtherEnvironment(token: Tokens.third)
        let expired = try await statusAndReason(to: Tokens.first)
        let wrongTopic = try await statusAndReason(to: Tokens.second)
        let rightTopic = try await statusAndReason(to: Tokens.second, topic: "com.example.other")
        let otherEnvironment = try await statusAndReason(to: Tokens.third)
        XCTAssertEqual([expired, wrongTopic, rightTopic, otherEnvironment],
                       ["410 ExpiredToken", "400 DeviceTokenNotForTopic", "200 -", "400 BadDeviceToken"])

        mock.restore(token: Tokens.first)
        let restored = try await statusAndReason(to: Tokens.first)
        XCTAssertEqual(restored, "200 -")
        XCTAssertEqual(mock.devices.count, 2)
    }

    func testRateLimit() async throws {
        mock.rateLimit(token: Tokens.first, max: 2, per: .seconds(3600))
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await statusAndReason()) }
        XCTAssertEqual(answers, ["200 -", "200 -", "429 TooManyRequests"])
        mock.setDevice(Tokens.first, .topics(["com.example.shop"]))
        let allowed = try await statusAndReason()
        XCTAssertEqual(allowed, "200 -")
    }

    func testFailNextFiresCountTimesThenDelivers() async throws {
        let fault = mock.failNext(2)
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await statusAndReason()) }
        XCTAssertEqual(answers, ["503 ServiceUnavailable", "503 ServiceUnavailable", "200 -"])
        XCTAssertEqual(mock.timesFired(fault), 2)
        XCTAssertEqual(mock.notifications.first?.faults, ["fail 503 ServiceUnavailable"])
        XCTAssertReceived(mock, .rejected(.serviceUnavailable), count: .exactly(2))
    }

    func testFailNextWithAReasonOrRawStatusAndToken() async throws {
        mock.failNext(reason: .internalServerError, token: Tokens.second)
        mock.failNext(status: 500, reason: "Boom", token: Tokens.third)
        let untouched = try await statusAndReason(to: Tokens.first)
        let internalError = try await statusAndReason(to: Tokens.second)
        let raw = try await statusAndReason(to: Tokens.third)
        XCTAssertEqual([untouched, internalError, raw], ["200 -", "500 InternalServerError", "500 Boom"])
    }

    func testDelayNextAnswersNormally() async throws {
        let fault = mock.delayNext(by: .milliseconds(20))
        let answer = try await statusAndReason()
        XCTAssertEqual(answer, "200 -")
        XCTAssertEqual(mock.timesFired(fault), 1)
        XCTAssertEqual(mock.notifications.first?.faults, ["delay 20 ms"])
    }

    func testStallNextIsNeverAnswered() async throws {
        mock.stallNext()
        do {
            _ = try await sender.send(Payloads.shipped)
            XCTFail("a stalled push must not be answered")
        } catch {}
        XCTAssertEqual(mock.notifications.first?.status, 0)
        XCTAssertEqual(mock.notifications.first?.responseText, "not answered (stall)")
    }

    func testDropAndGoAwayCloseTheConnection() async throws {
        mock.dropConnectionOnNext()
        do {
            _ = try await sender.send(Payloads.shipped)
            XCTFail("a dropped connection gives no answer")
        } catch {}
        await sender.close()

        sender = try await RawSender.connect(to: mock, requestTimeout: .seconds(2))
        mock.goAwayOnNext(reason: "Shutdown")
        do {
            _ = try await sender.send(Payloads.shipped)
            XCTFail("GOAWAY gives no answer to the push")
        } catch {}
        XCTAssertEqual(mock.notifications.map(\.faults), [["drop"], ["goaway Shutdown"]])
    }

    func testRemoveFaults() async throws {
        let first = mock.failNext(10)
        mock.addFault(FaultRule(name: "custom", token: Tokens.second, action: .status(429, reason: "TooManyRequests")))
        XCTAssertTrue(mock.removeFault(first))
        XCTAssertFalse(mock.removeFault(first))
        XCTAssertEqual(mock.timesFired(first), 0)
        let delivered = try await statusAndReason()
        let custom = try await statusAndReason(to: Tokens.second)
        XCTAssertEqual([delivered, custom], ["200 -", "429 TooManyRequests"])
        mock.removeAllFaults()
        let afterRemoval = try await statusAndReason(to: Tokens.second)
        XCTAssertEqual(afterRemoval, "200 -")
    }
}
