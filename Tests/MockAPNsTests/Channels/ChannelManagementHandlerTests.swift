import APNsModel
import XCTest
@testable import MockAPNs
import TestSupport

/// The channel-management API and a broadcast's channel check, answered from a channel store without a pipeline.
final class ChannelManagementHandlerTests: LeakCheckedTestCase {
    private let app = "com.example.app"
    private let store = ChannelRegistry()
    private var handler: ChannelManagementHandler { ChannelManagementHandler(channels: store) }

    private func request(_ method: String, channel: String? = nil, body: String = "") -> APNsRequest {
        APNsRequest(method: method, path: "/1/apps/\(app)/channels",
                    headers: channel.map { [HeaderField(name: "apns-channel-id", value: $0)] } ?? [],
                    body: Array(body.utf8))
    }

    private func manage(_ request: APNsRequest) throws -> ChannelManagementHandler.Answer {
        try XCTUnwrap(handler.answer(route: .channels(bundleID: app), expiration: nil, request: request))
    }

    func testACreatedChannelIsReadBackThenDeleted() throws {
        let created = try manage(request("POST", body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#))
        XCTAssertNil(created.refusal)
        XCTAssertEqual(created.status, 201)
        let id = try XCTUnwrap(created.headers.first { $0.name == "apns-channel-id" }?.value)

        let read = try manage(request("GET", channel: id))
        XCTAssertEqual(read.status, 200)
        XCTAssertEqual(read.body.map { String(decoding: $0, as: UTF8.self) },
                       #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)

        let listed = try XCTUnwrap(handler.answer(route: .allChannels(bundleID: app), expiration: nil, request: request("GET")))
        XCTAssertEqual(listed.body.map { String(decoding: $0, as: UTF8.self) }, #"{"channels":["\#(id)"]}"#)

        XCTAssertEqual(try manage(request("DELETE", channel: id)).status, 204)
        XCTAssertEqual(try manage(request("DELETE", channel: id)).refusal, .channelNotRegistered, "already deleted")
        XCTAssertEqual(try manage(request("GET", channel: id)).refusal, .channelNotRegistered)
    }

    func testAReadWithoutAChannelIDAndAnotherMethodAreRefused() throws {
        XCTAssertEqual(try manage(request("GET")).refusal, .channelNotRegistered)
        XCTAssertEqual(try manage(request("PUT")).refusal, .methodNotAllowed)
    }

    func testABroadcastNeedsItsChannelAndANoStorageChannelTakesOnlyExpirationZero() throws {
        let created = try manage(request("POST", body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#))
        let id = try XCTUnwrap(created.headers.first?.value)
        func broadcast(channel: String?, expiration: Int64?) -> APNsReason? {
            let push = APNsRequest(method: "POST", path: "/4/broadcasts/apps/\(app)",
                                   headers: channel.map { [HeaderField(name: "apns-channel-id", value: $0)] } ?? [])
            return handler.answer(route: .broadcast(bundleID: app), expiration: expiration, request: push)?.refusal
        }
        XCTAssertNil(broadcast(channel: id, expiration: 0))
        XCTAssertNil(broadcast(channel: id, expiration: nil))
        XCTAssertEqual(broadcast(channel: id, expiration: 1_900_000_000), .badExpirationDate)
        XCTAssertEqual(broadcast(channel: "nope", expiration: 0), .channelNotRegistered)
        XCTAssertEqual(broadcast(channel: nil, expiration: 0), .channelNotRegistered)
    }

    func testADevicePushIsNotTheHandlersToAnswer() {
        XCTAssertNil(handler.answer(route: .device(token: "ab"), expiration: nil, request: request("POST")))
    }
}
