import APNsModel
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

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

    /// The handler's answer to `request`, accepted by the model on `route` (with a creation's storage policy).
    private func answer(_ request: APNsRequest, route: Route, expiration: Int64? = nil, policy: Int? = nil)
        -> ChannelManagementHandler.Answer?
    {
        let push = AcceptedPush(route: route, topic: app, pushType: .liveactivity, expiration: expiration,
                                payload: .object([]), messageStoragePolicy: policy)
        return handler.answer(to: push, request: request)
    }

    private func manage(_ request: APNsRequest, policy: Int? = nil) throws -> ChannelManagementHandler.Answer {
        try XCTUnwrap(answer(request, route: .channels(bundleID: app), policy: policy))
    }

    func testACreatedChannelIsReadBackThenDeleted() throws {
        let created = try manage(request("POST", body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#), policy: 1)
        XCTAssertNil(created.refusal)
        XCTAssertEqual(created.status, 201)
        let id = try XCTUnwrap(created.headers.first { $0.name == "apns-channel-id" }?.value)

        let read = try manage(request("GET", channel: id))
        XCTAssertEqual(read.status, 200)
        XCTAssertEqual(read.body.map { String(decoding: $0, as: UTF8.self) },
                       #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)

        let listed = try XCTUnwrap(answer(request("GET"), route: .allChannels(bundleID: app)))
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
        let created = try manage(request("POST", body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#), policy: 0)
        let id = try XCTUnwrap(created.headers.first?.value)
        func broadcast(channel: String?, expiration: Int64?) -> APNsReason? {
            let push = APNsRequest(method: "POST", path: "/4/broadcasts/apps/\(app)",
                                   headers: channel.map { [HeaderField(name: "apns-channel-id", value: $0)] } ?? [])
            return answer(push, route: .broadcast(bundleID: app), expiration: expiration)?.refusal
        }
        XCTAssertNil(broadcast(channel: id, expiration: 0))
        XCTAssertNil(broadcast(channel: id, expiration: nil))
        XCTAssertEqual(broadcast(channel: id, expiration: 1_900_000_000), .badExpirationDate)
        XCTAssertEqual(broadcast(channel: "nope", expiration: 0), .channelNotRegistered)
        XCTAssertEqual(broadcast(channel: nil, expiration: 0), .channelNotRegistered)
    }

    func testADevicePushIsNotTheHandlersToAnswer() {
        XCTAssertNil(answer(request("POST"), route: .device(token: "ab")))
    }
}
