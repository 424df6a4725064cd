import APNsClient
import APNsModel
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// An endpoint that is not there, goes away or comes back: the pool dials with one shared back-off, waiting
/// pushes fail once with `.unreachable` naming the cause, and a server that comes back is reconnected to.
final class ClientOutageTests: LeakCheckedTestCase {
    private let token = ClientTestServer.token
    private let push = APNsNotification.alert(bundleID: "com.example.app", body: "Hello")

    /// A port that was just free: a mock started there and stopped (so it can be started again on it).
    private func vacatedPort() async throws -> Int {
        let server = try await ClientTestServer.start()
        let port = server.port
        await server.stop()
        return port
    }

    private func configuration(port: Int, requestTimeout: Duration, trust: String = "ca.pem") throws -> APNsClientConfiguration {
        APNsClientConfiguration(
            environment: .custom(url: "https://127.0.0.1:\(port)"), authentication: try ClientTestServer.testKey(),
            trustRootsPEM: try RepoPaths.text(trust), requestTimeout: requestTimeout,
            retryPolicy: APNsRetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10), maxDelay: .milliseconds(100)))
    }

    /// Sends `count` pushes at once; every outcome, in no particular order.
    private static func sendConcurrently(_ count: Int, with client: APNsClient) async -> [Result<APNsResponse, APNsClientError>] {
        let push = APNsNotification.alert(bundleID: "com.example.app", body: "Hello"), token = ClientTestServer.token
        return await withTaskGroup(of: Result<APNsResponse, APNsClientError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(APNsClientError) {
                        return .success(try await client.send(push, deviceToken: token))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    func testNothingListeningFailsEachPushOnceNamingTheCause() async throws {
        let port = try await vacatedPort()
        let client = try APNsClient(configuration: try configuration(port: port, requestTimeout: .milliseconds(1500)))
        addTeardownBlock { await client.shutdown() }
        let outcomes = await Self.sendConcurrently(50, with: client)
        XCTAssertEqual(outcomes.count, 50)
        for outcome in outcomes {
            guard case let .failure(.unreachable(failure)) = outcome else { return XCTFail("expected .unreachable, got \(outcome)") }
            XCTAssertEqual(failure.address, "127.0.0.1:\(port)")
            XCTAssertEqual(failure.cause, "connection refused")
            XCTAssertGreaterThanOrEqual(failure.attempts, 1)
            XCTAssertTrue(APNsClientError.unreachable(failure).description.hasPrefix(
                "could not connect to 127.0.0.1:\(port): connection refused, \(failure.attempts) attempt"),
                APNsClientError.unreachable(failure).description)
        }
        // 50 pushes share the pool's back-off (100 ms, 200 ms, 400 ms, …): a handful of attempts, not one per push
        // and retry (the old behaviour dialled at least 50 times in this window).
        let outage = try XCTUnwrap(client.outage)
        XCTAssertLessThan(outage.attempts, 20, "\(outage)")
        XCTAssertEqual(client.openConnections, 0)
    }

    func testServerStartedLaterIsReconnectedAndWaitingPushesSucceed() async throws {
        let port = try await vacatedPort()
        let client = try APNsClient(configuration: try configuration(port: port, requestTimeout: .seconds(60)))
        addTeardownBlock { await client.shutdown() }
        let pushes = Task { await ClientOutageTests.sendConcurrently(20, with: client) }
        // Wait until the pool has failed twice (so the pushes are waiting on its back-off), then start the server.
        let failedTwice = try await Poll.until(every: .milliseconds(20)) { (client.outage?.attempts ?? 0) >= 2 }
        XCTAssertTrue(failedTwice, "the pool never failed twice")
        let server = try await ClientTestServer.start { $0.listener.port = port }
        addTeardownBlock { await server.stop() }
        let outcomes = await pushes.value
        XCTAssertEqual(outcomes.filter { if case .success = $0 { return true } else { return false } }.count, 20, "\(outcomes)")
        XCTAssertNil(client.outage, "a successful connect ends the outage")
        XCTAssertEqual(server.recorder.records().count, 20)
    }

    func testServerGoneThenBackOnTheSamePort() async throws {
        let first = try await ClientTestServer.start()
        addTeardownBlock { await first.stop() }
        let port = first.port
        let client = try APNsClient(configuration: try configuration(port: port, requestTimeout: .seconds(1)))
        addTeardownBlock { await client.shutdown() }
        _ = try await client.send(push, deviceToken: token)
        await first.stop()
        do {
            _ = try await client.send(push, deviceToken: token)
            XCTFail("expected .unreachable with the server stopped")
        } catch {
            guard case let .unreachable(failure) = error else { return XCTFail("expected .unreachable, got \(error)") }
            XCTAssertEqual(failure.cause, "connection refused")
        }
        let second = try await ClientTestServer.start { $0.listener.port = port }
        addTeardownBlock { await second.stop() }
        // The back-off may hold the next attempt past one push's 1 s timeout (it has grown with the failed attempts),
        // so pushes may still fail fast with .unreachable until it fires; then they go through on the new server.
        var response: APNsResponse?
        let deadline = ContinuousClock.now + .seconds(60)
        while response == nil && ContinuousClock.now < deadline {
            do {
                response = try await client.send(push, deviceToken: token)
            } catch {
                guard case .unreachable = error else { throw error }
            }
        }
        XCTAssertEqual(response?.attempts, 1, "reconnected to the server that came back")
        XCTAssertNil(client.outage)
    }

    func testUntrustedServerCertificateFailsWaitingPushesAtOnce() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        let client = try APNsClient(configuration: try configuration(
            port: server.port, requestTimeout: .seconds(60), trust: "untrusted-ca.pem"))
        addTeardownBlock { await client.shutdown() }
        do {
            _ = try await client.send(push, deviceToken: token)
            XCTFail("expected a certificate verification failure")
        } catch {
            guard case let .unreachable(failure) = error else { return XCTFail("expected .unreachable, got \(error)") }
            XCTAssertTrue(failure.cause.hasPrefix("TLS handshake failed: certificate verification failed"), failure.cause)
            // Failed by the first attempt, not after waiting out the back-off to the deadline.
            XCTAssertEqual(failure.attempts, 1)
        }
        XCTAssertEqual(server.recorder.records().count, 0)
    }

    func testCancellingAPushWaitingForAConnectionEndsItAtOnce() async throws {
        let port = try await vacatedPort()
        let client = try APNsClient(configuration: try configuration(port: port, requestTimeout: .seconds(60)))
        addTeardownBlock { await client.shutdown() }
        let push = self.push, token = self.token
        let waiting = Task { () throws(APNsClientError) -> APNsResponse in try await client.send(push, deviceToken: token) }
        let inOutage = try await Poll.until(every: .milliseconds(20)) { client.outage != nil }
        XCTAssertTrue(inOutage, "the client never reported an outage")
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("expected .cancelled")
        } catch {
            XCTAssertEqual(error as? APNsClientError, .cancelled)
        }
    }
}
