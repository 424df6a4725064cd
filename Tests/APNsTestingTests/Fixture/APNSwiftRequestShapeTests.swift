import APNsCrypto
import APNsModel
import APNsTesting
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TestSupport
import XCTest

/// `APNsMock`'s HTTP/1.1 listener driven the way an unpatched APNSwift (6.x, `.custom(url: "http://127.0.0.1",
/// port:)`) drives it: a pool of keep-alive HTTP/1.1 connections with many pushes in flight, APNSwift's own token
/// (`iat` a JSON string, `kid` repeated in the claims) and headers, every answer read as APNSwift reads it
/// (`apns-id` and `apns-unique-id` headers; on an error the body's `reason` and `timestamp`).
///
/// APNSwift is not in this machine's package set, so this is docs/swift-test-kit.md's "Testing a sender built on APNSwift"
/// snippet's proof: the same bytes on the wire.
final class APNSwiftRequestShapeTests: LeakCheckedTestCase {
    private static let topic = "com.example.shop"
    private static let poolSize = 8
    private static let pushes = 400

    /// APNSwift's provider token, byte for byte as its `APNSAuthenticationTokenManager` writes it: header
    /// `{"alg","typ","kid"}` and claims `{"iss","iat" as a JSON string,"kid"}`, pretty-printed, ES256 raw R‖S.
    private func apnswiftToken(_ key: TestSigningKey) throws -> String {
        let header = """
        {
            "alg": "ES256",
            "typ": "JWT",
            "kid": "\(key.keyID)"
        }
        """
        let claims = """
        {
            "iss": "\(key.teamID)",
            "iat": "\(Int(Date().timeIntervalSince1970))",
            "kid": "\(key.keyID)"
        }
        """
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try P256PrivateKey(pemRepresentation: key.privateKeyPEM).signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The request APNSwift's `APNSClient.send` writes: its headers, in its order, as it spells them.
    private static func apnswiftPush(token: String, device: String, apnsID: String, body: String) -> HTTP1KeepAliveClient.Request {
        HTTP1KeepAliveClient.Request(path: "/3/device/\(device)", headers: [
            ("content-type", "application/json"),
            ("user-agent", "APNS/swift-nio"),
            ("apns-push-type", "alert"),
            ("apns-id", apnsID),
            ("apns-expiration", String(Int(Date().timeIntervalSince1970) + 3600)),
            ("apns-priority", "10"),
            ("apns-topic", Self.topic),
            ("apns-collapse-id", "order-42"),
            ("authorization", "bearer \(token)"),
        ], body: Array(body.utf8))
    }

    /// What APNSwift reads from an error answer's body (`APNSErrorResponse`).
    private struct ErrorBody: Decodable {
        let reason: String
        let timestamp: Int64?
    }

    func testAPNSwiftShapedPushesOverAKeepAlivePoolAreAnsweredAndRecordedOnceEach() async throws {
        var options = APNsMockOptions()
        options.http1 = true
        let mock = try await APNsMock.start(options)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await runPool(mock: mock, group: group)
            try await runErrorAnswers(mock: mock, group: group)
        } catch {
            await mock.stop()
            try await group.shutdownGracefully()
            throw error
        }
        await mock.stop()
        try await group.shutdownGracefully()
    }

    /// `pushes` pushes through `poolSize` keep-alive connections, one in flight on each.
    private func runPool(mock: APNsMock, group: MultiThreadedEventLoopGroup) async throws {
        let port = try XCTUnwrap(mock.http1Port, "APNsMockOptions.http1 gave no HTTP/1.1 port")
        XCTAssertEqual(mock.http1URL, "http://127.0.0.1:\(port)")
        let token = try apnswiftToken(mock.testKey)
        let ids = (0..<Self.pushes).map { _ in UUID().uuidString }   // upper-case, as APNSwift sends UUIDs
        XCTAssertEqual(ids[0], ids[0].uppercased())
        let answers = try await withThrowingTaskGroup(of: [(sent: String, response: HTTP1KeepAliveClient.Response)].self) { tasks in
            for lane in 0..<Self.poolSize {
                let mine = stride(from: lane, to: ids.count, by: Self.poolSize).map { ids[$0] }
                tasks.addTask {
                    try await HTTP1KeepAliveClient.withConnection(port: port, group: group) { send in
                        var answers: [(sent: String, response: HTTP1KeepAliveClient.Response)] = []
                        for id in mine {
                            let request = Self.apnswiftPush(token: token, device: Tokens.first, apnsID: id, body: Payloads.shipped)
                            answers.append((id, try await send(request)))
                        }
                        return answers
                    }
                }
            }
            return try await tasks.reduce(into: []) { $0 += $1 }
        }
        XCTAssertEqual(answers.count, Self.pushes)
        for (sent, response) in answers {
            XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
            XCTAssertEqual(response.headers.first(name: "apns-id"), sent, "apns-id not echoed as sent")
            XCTAssertNotNil(response.headers.first(name: "apns-unique-id").flatMap(UUID.init(uuidString:)),
                            "development answers carry apns-unique-id")
            XCTAssertTrue(response.body.isEmpty)
        }
        let received = mock.notifications
        XCTAssertEqual(received.count, Self.pushes)
        XCTAssertEqual(Set(received.compactMap(\.apnsID)), Set(ids), "every push recorded once, under its apns-id")
        XCTAssertEqual(Set(received.map(\.record.connectionID)).count, Self.poolSize, "one record connection per pooled connection")
        XCTAssertTrue(received.allSatisfy {
            $0.isAccepted && $0.topic == Self.topic && $0.collapseID == "order-42" && $0.pushType == .alert && $0.priority == .immediate
                && $0.alertTitle == "Your order shipped"
        })
        XCTAssertEqual(mock.mock.pipeline.churnFlaggedConnections, 0, "a keep-alive pool is not connection churn")
    }

    /// The error answers APNSwift turns into `APNSError`: reason (and for 410 the timestamp) from the body.
    private func runErrorAnswers(mock: APNsMock, group: MultiThreadedEventLoopGroup) async throws {
        let port = try XCTUnwrap(mock.http1Port)
        let token = try apnswiftToken(mock.testKey)
        let unregisteredAt = Date(timeIntervalSince1970: 1_700_000_000)
        mock.unregister(token: Tokens.second, since: unregisteredAt)
        let prefix = #"{"aps":{"alert":"x"},"pad":""#
        let oversized = prefix + String(repeating: "a", count: 4097 - prefix.utf8.count - 2) + #""}"#
        XCTAssertEqual(oversized.utf8.count, 4097)
        try await HTTP1KeepAliveClient.withConnection(port: port, group: group) { send in
            let badID = UUID().uuidString
            let bad = try await send(Self.apnswiftPush(token: token, device: "not-a-device-token", apnsID: badID, body: Payloads.shipped))
            XCTAssertEqual(bad.status, 400)
            XCTAssertEqual(bad.headers.first(name: "apns-id"), badID)
            XCTAssertEqual(try JSONDecoder().decode(ErrorBody.self, from: Data(bad.body)).reason, "BadDeviceToken")

            let gone = try await send(Self.apnswiftPush(token: token, device: Tokens.second, apnsID: UUID().uuidString, body: Payloads.shipped))
            XCTAssertEqual(gone.status, 410)
            let goneBody = try JSONDecoder().decode(ErrorBody.self, from: Data(gone.body))
            XCTAssertEqual(goneBody.reason, "Unregistered")
            XCTAssertEqual(goneBody.timestamp, 1_700_000_000_000, "410's timestamp is milliseconds since 1970")

            let large = try await send(Self.apnswiftPush(token: token, device: Tokens.first, apnsID: UUID().uuidString, body: oversized))
            XCTAssertEqual(large.status, 413)
            XCTAssertEqual(try JSONDecoder().decode(ErrorBody.self, from: Data(large.body)).reason, "PayloadTooLarge")

            // Same connection, still usable after three errors: APNSwift keeps it in its pool.
            let ok = try await send(Self.apnswiftPush(token: token, device: Tokens.first, apnsID: UUID().uuidString, body: Payloads.shipped))
            XCTAssertEqual(ok.status, 200)
        }
        let statuses = mock.notifications.suffix(4).map(\.status)
        XCTAssertEqual(statuses, [400, 410, 413, 200])
    }
}
