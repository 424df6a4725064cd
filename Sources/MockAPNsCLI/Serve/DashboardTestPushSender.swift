import APNsClient
import APNsModel
import Foundation
import MockAPNs
import MockAPNsControl
import MockAPNsHTTP2

/// The dashboard's "send a test push" form, wired to the client library: each push goes to the mock's own
/// HTTP/2 listener, signed with the bundled test key (TESTTEAM01/TESTKEY001) and trusting the bundled CA, so it
/// is checked, recorded and streamed like any other request. The control plane cannot import the client itself.
enum DashboardTestPushSender {
    /// A sender for `server`, or nil when the bundled credentials cannot be found (the form then answers 404).
    static func make(for server: APNsHTTP2Listener) -> TestPushSender? {
        guard let credentials = try? BundledCredentials.locate(),
              let key = try? String(contentsOfFile: credentials.directory + "/AuthKey_TESTKEY001.p8", encoding: .utf8)
        else { return nil }
        let ca = try? String(contentsOfFile: credentials.caPath, encoding: .utf8)
        return TestPushSender { push in
            // Read when a push is sent: the listener binds its port after the control plane is made.
            let configuration = APNsClientConfiguration(
                environment: .custom(url: server.url), authentication: .token(privateKeyPEM: key, keyID: "TESTKEY001", teamID: "TESTTEAM01"),
                trustRootsPEM: ca, requestTimeout: .seconds(10), retryPolicy: .never)
            // One short-lived client per push: the form is used by hand, and nothing is left running after it.
            let client = try APNsClient(configuration: configuration)
            var headers: [HeaderField] = []
            if let priority = push.priority { headers.append(HeaderField(name: "apns-priority", value: String(priority))) }
            let notification = APNsRawNotification(pushType: push.pushType, topic: push.topic, payload: push.payload, headers: headers)
            let outcome: Result<TestPushResult, any Error>
            do {
                let response = try await client.send(notification, deviceToken: push.token)
                outcome = .success(TestPushResult(status: 200, reason: nil, apnsID: response.apnsID))
            } catch APNsClientError.rejected(let status, let reason, _, let apnsID) {
                outcome = .success(TestPushResult(status: status, reason: reason.description, apnsID: apnsID))
            } catch {
                outcome = .failure(error)
            }
            await client.shutdown()
            return try outcome.get()
        }
    }
}
