import APNsClient
import APNsModel
import TestSupport
import Foundation
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// The conformance corpus through the client: every device-push case whose credential the client can hold (a
/// well-formed ES256 token for any key ID and team, minted now, or a bundled client certificate) is sent with
/// `APNsRawNotification` (headers and body exactly as the case lists them) and must give the expected typed
/// outcome: success for 200, `.rejected(status:reason:…)` otherwise.
final class ClientConformanceTests: LeakCheckedTestCase {
    private struct ServerKey: Hashable {
        var environment: APNsEnvironment
        var environmentKeyReason: APNsReason
    }

    func testCorpusThroughTheClient() async throws {
        var servers: [ServerKey: ClientTestServer] = [:]
        var failures: [String] = []
        var ran: [String] = []
        var reasons: Set<String> = []
        for url in try ConformanceCase.all() {
            let c = try ConformanceCase(url: url)
            guard let authentication = try Self.authentication(c.auth), let path = c.request["path"]?.stringValue,
                  c.request["method"]?.stringValue == "POST", path.hasPrefix("/3/device/"),
                  c.history.allSatisfy({ $0.atOffset == 0 && $0.auth == c.auth }),
                  // A case sent to one of Apple's names needs the name to resolve to the mock: WireConformanceTests
                  // sends those (the client here reaches the mock by its own address).
                  c.appleHost == nil
            else { continue }
            let key = ServerKey(environment: c.environment, environmentKeyReason: c.environmentKeyReason)
            if servers[key] == nil {
                let started = try await ClientTestServer.start {
                    $0.mock.environment = key.environment
                    $0.mock.environmentKeyReason = key.environmentKeyReason
                }
                addTeardownBlock { await started.stop() }
                servers[key] = started
            }
            let server = servers[key]!
            let client = try APNsClient(configuration: try server.configuration(authentication: authentication, retryPolicy: .never))
            ran.append(c.file)
            for (index, entry) in c.history.enumerated() {
                let outcome = await Self.send(try Self.notification(c, entry.request ?? ConformanceCase.defaultHistoryRequest),
                                              path: entry.request?["path"]?.stringValue ?? ConformanceCase.defaultHistoryRequest["path"]!.stringValue!,
                                              client: client)
                if let status = entry.expectStatus, outcome.status != status {
                    failures.append("\(c.file): history \(index + 1) got \(outcome), expected \(status)")
                }
            }
            let outcome = await Self.send(try Self.notification(c, c.request), path: path, client: client)
            if outcome.status != c.expectedStatus || outcome.reason != c.expectedReason {
                failures.append("\(c.file) (\(c.name)): got \(outcome), expected \(c.expectedStatus) \(c.expectedReason ?? "")")
            }
            reasons.insert(c.expectedReason ?? "accepted")
            await client.shutdown()
        }
        print("client conformance: \(ran.count) cases sent, \(reasons.count) distinct outcomes")
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(ran.count) cases differ:\n" + failures.joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(ran.count, 100, "the client should express most device-push cases")
        // One case at least per reason class the client must type: 400, 403, 404/405, 410, 413, plus success.
        for reason in ["accepted", "BadDeviceToken", "BadTopic", "BadPriority", "InvalidProviderToken", "BadCertificate",
                       "PayloadTooLarge", "DeviceTokenNotForTopic"] {
            XCTAssertTrue(reasons.contains(reason), "no case for \(reason)")
        }
    }

    private struct Outcome: CustomStringConvertible {
        var status: Int?
        var reason: String?
        var error: String?
        var description: String { "\(status.map(String.init) ?? "no status") \(reason ?? "") \(error ?? "")" }
    }

    private static func send(_ notification: APNsRawNotification, path: String, client: APNsClient) async -> Outcome {
        let token = String(path.dropFirst("/3/device/".count))
        do {
            _ = try await client.send(notification, deviceToken: token)
            return Outcome(status: 200)
        } catch {
            if case let .rejected(status, reason, _, apnsID) = error {
                return Outcome(status: status, reason: reason.description, error: apnsID.isEmpty ? "no apns-id" : nil)
            }
            return Outcome(error: error.description)
        }
    }

    /// The case's headers and body, verbatim, as a raw notification.
    private static func notification(_ c: ConformanceCase, _ request: JSONValue) throws -> APNsRawNotification {
        let model = try c.makeRequest(request, auth: .object([.init("kind", .string("none"))]))
        return APNsRawNotification(pushType: nil, topic: nil, payload: model.body, headers: model.headers)
    }

    /// The credential an auth block names, if the client can present it.
    private static func authentication(_ auth: JSONValue) throws -> APNsAuthentication? {
        switch auth["kind"]?.stringValue {
        case "token":
            guard (auth["alg"]?.stringValue ?? "ES256") == "ES256", (auth["signature"]?.stringValue ?? "valid") == "valid",
                  (auth["omit"]?.arrayElements ?? []).isEmpty, (auth["iat_offset"]?.integerValue ?? 0) == 0,
                  auth["iat_raw"] == nil, auth["iat_form"] == nil
            else { return nil }
            return try ClientTestServer.testKey(keyID: auth["key_id"]?.stringValue ?? "TESTKEY001",
                                                teamID: auth["team_id"]?.stringValue ?? "TESTTEAM01")
        case "certificate":
            return try ClientTestServer.certificate(auth["cert"]?.stringValue ?? "client-app")
        default:
            return nil
        }
    }
}
