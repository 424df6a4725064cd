import APNsCrypto
import Foundation
import JSON
import PeerSupport
import TestSupport
import XCTest

/// `serve --fcm` between real processes: curl speaks to the FCM front door over HTTP/1.1 and HTTP/2 on one TLS port,
/// trusting the private CA the ready file names; the OAuth grant is made from the service-account file the ready file
/// names, as google-auth makes it; the iOS message reaches the mock's APNs recording; the control API registers
/// devices and serves the FCM records.
final class ServeFCMTests: LeakCheckedTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("serve-fcm")
    }

    /// Starts `serve --fcm` on free ports with a data folder of the test's own.
    private func start(_ extra: [String] = []) async throws -> ServedMock {
        try await ServedMock.start(["--port", "0", "--control-port", "0", "--fcm", "--fcm-port", "0", "--fcm-https-port", "0",
                                    "--ca-dir", directory + "/ca", "--quiet"] + extra,
                                   readyFile: directory + "/ready.json", environment: ["XDG_DATA_HOME": directory + "/data"])
    }

    /// curl `method url` with `headers` and `body` (``FCMCurl``).
    private func curl(_ url: String, http: String, headers: [String] = [], body: String? = nil, ca: String,
                      method: String = "POST") throws -> (exit: Int32, status: Int, body: String, version: String) {
        try FCMCurl(directory: directory).run(url, http: http, headers: headers, body: body, ca: ca, method: method)
    }

    private func grantBody(serviceAccount path: String) throws -> String {
        try FCMCurl.grantBody(serviceAccount: path)
    }

    func testAnIOSMessageOverHTTP1AndHTTP2ReachesTheAPNsRecordingAndIsRecordedAsFCM() async throws {
        let served = try await start()
        defer { served.stop() }
        let ready = served.ready
        let fcm = try XCTUnwrap(ready["fcm_url"]?.stringValue)
        let ca = try XCTUnwrap(ready["fcm_ca_file"]?.stringValue)
        XCTAssertEqual(ca, directory + "/ca/ca.pem", "the private CA of --ca-dir, never the bundled one")
        XCTAssertNotNil(ready.value(at: ["fcm_ports", "443"])?.integerValue)
        let account = try XCTUnwrap(ready["fcm_service_account"]?.stringValue)
        XCTAssertTrue(account.hasPrefix(directory + "/data/mockapns/fcm/"), account)
        let control = try XCTUnwrap(served.controlURL)

        let registered = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", "-H", "content-type: application/json",
                                                               "--data-binary", #"{"project":"mockapns-test","platform":"ios","bundle_id":"com.example.app"}"#,
                                                               control + "/api/v1/fcm/registrations"], timeout: 20)
        let registration = try JSONValue.parse(registered.stdout)
        let token = try XCTUnwrap(registration["token"]?.stringValue, registered.stdout)
        let apnsToken = try XCTUnwrap(registration["apns_token"]?.stringValue)

        let exchanged = try curl(fcm + "/token", http: "--http1.1", headers: ["content-type: application/x-www-form-urlencoded"],
                                 body: try grantBody(serviceAccount: account), ca: ca)
        XCTAssertEqual(exchanged.status, 200, exchanged.body)
        let bearer = try XCTUnwrap(try JSONValue.parse(exchanged.body)["access_token"]?.stringValue)

        let send = fcm + "/v1/projects/mockapns-test/messages:send"
        let message = #"{"message":{"token":"\#(token)","notification":{"title":"Hello","body":"From FCM"}}}"#
        var names: [String] = []
        for http in ["--http1.1", "--http2"] {
            let sent = try curl(send, http: http, headers: ["authorization: Bearer " + bearer, "content-type: application/json"],
                                body: message, ca: ca)
            XCTAssertEqual(sent.exit, 0)
            XCTAssertEqual(sent.status, 200, sent.body)
            XCTAssertEqual(sent.version, http == "--http2" ? "2" : "1.1", "ALPN picks what the client offers")
            names.append(try XCTUnwrap(try JSONValue.parse(sent.body)["name"]?.stringValue))
        }
        let bad = try curl(send, http: "--http2", headers: ["authorization: Bearer " + bearer, "content-type: application/json"],
                           body: #"{"message":{"token":"\#(token)","data":{"count":1}}}"#, ca: ca)
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.body.contains("message.data"), "the field violation names message.data: \(bad.body)")
        let unauthenticated = try curl(send, http: "--http2", headers: ["content-type: application/json"], body: message, ca: ca)
        XCTAssertEqual(unauthenticated.status, 401)
        XCTAssertEqual(try curl(fcm + "/nowhere", http: "--http2", ca: ca).status, 404)

        let pushes = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", control + "/api/v1/notifications?token=" + apnsToken],
                                         timeout: 20)
        let records = try XCTUnwrap(try JSONValue.parse(pushes.stdout)["notifications"]?.arrayElements)
        XCTAssertEqual(records.count, 2, pushes.stdout)
        XCTAssertEqual(records.first?.value(at: ["payload", "aps", "alert", "title"])?.stringValue, "Hello", pushes.stdout)
        XCTAssertNotNil(records.first?.value(at: ["payload", "gcm.message_id"]), pushes.stdout)

        let listed = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", control + "/api/v1/fcm/messages?project=mockapns-test"],
                                         timeout: 20)
        let fcmRecords = try XCTUnwrap(try JSONValue.parse(listed.stdout)["messages"]?.arrayElements)
        XCTAssertEqual(fcmRecords.map { $0["status"]?.integerValue }, [200, 200, 400, 401])
        XCTAssertEqual(fcmRecords.prefix(2).compactMap { $0["name"]?.stringValue }, names)
        XCTAssertEqual(fcmRecords.first?["transport"]?.stringValue, "http/1.1")
        XCTAssertEqual(fcmRecords[1]["transport"]?.stringValue, "h2")
        let linked = fcmRecords.prefix(2).flatMap { $0["apns_ids"]?.arrayElements?.compactMap(\.stringValue) ?? [] }
        XCTAssertEqual(Set(linked).count, 2, "each accepted FCM record names the APNs push it produced")
    }

    func testTheDefaultServiceAccountIsMadeOnceAndStaysTrustedAcrossRestarts() async throws {
        let first = try await start()
        let account = try XCTUnwrap(first.ready["fcm_service_account"]?.stringValue)
        let text = try String(contentsOfFile: account, encoding: .utf8)
        let mode = try FileManager.default.attributesOfItem(atPath: account)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "a key file is its owner's only")
        first.stop()
        _ = try await first.waitForExit(timeout: .seconds(30))

        let second = try await start()
        defer { second.stop() }
        XCTAssertEqual(second.ready["fcm_service_account"]?.stringValue, account)
        XCTAssertEqual(try String(contentsOfFile: account, encoding: .utf8), text, "the same file, not a new key")
        let fcm = try XCTUnwrap(second.ready["fcm_url"]?.stringValue)
        let ca = try XCTUnwrap(second.ready["fcm_ca_file"]?.stringValue)
        let exchanged = try curl(fcm + "/token", http: "--http2", headers: ["content-type: application/x-www-form-urlencoded"],
                                 body: try grantBody(serviceAccount: account), ca: ca)
        XCTAssertEqual(exchanged.status, 200, exchanged.body)
    }

    func testTheServiceAccountCommandMakesAFileTheRunningMockTrusts() async throws {
        let served = try await start()
        defer { served.stop() }
        let file = directory + "/other.json"
        let made = try await InspectCLI.run(["fcm", "service-account", "--project", "other-project", "--output", file,
                                             "--ready-file", directory + "/ready.json"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int, 0o600)
        let account = try JSONValue.parse(Array(try XCTUnwrap(FileManager.default.contents(atPath: file))))
        XCTAssertEqual(account["project_id"]?.stringValue, "other-project")
        let fcm = try XCTUnwrap(served.ready["fcm_url"]?.stringValue)
        let ca = try XCTUnwrap(served.ready["fcm_ca_file"]?.stringValue)
        let exchanged = try curl(fcm + "/token", http: "--http2", headers: ["content-type: application/x-www-form-urlencoded"],
                                 body: try grantBody(serviceAccount: file), ca: ca)
        XCTAssertEqual(exchanged.status, 200, exchanged.body)
        let refused = try await InspectCLI.run(["fcm", "service-account", "--project", "Bad_Project", "--ready-file", directory + "/ready.json"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is not a project id"), refused.stderr)
    }

    func testTheCLIListsShowsAndExpectsFCMMessagesBesideTheAPNsPushesTheyBecame() async throws {
        let served = try await start()
        defer { served.stop() }
        let ready = directory + "/ready.json"
        let (token, name) = try FCMCurl(directory: directory).sendNotification(ready: served.ready, control: try XCTUnwrap(served.controlURL),
                                                                                title: "Parcel")

        let listed = try await InspectCLI.run(["list", "--fcm", "--ready-file", ready])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("mockapns-test") && listed.stdout.contains("Parcel"), listed.stdout)
        let json = try await InspectCLI.run(["list", "--fcm", "--ready-file", ready, "--token", token, "--json"])
        XCTAssertEqual(try JSONValue.parse(json.stdout)["messages"]?.arrayElements?.first?["name"]?.stringValue, name, json.stdout)

        let shown = try await InspectCLI.run(["show", "--fcm", name, "--ready-file", ready])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("APNs push #1"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("banner"), "what the phone does with it: \(shown.stdout)")
        let push = try await InspectCLI.run(["show", "1", "--ready-file", ready])
        XCTAssertTrue(push.stdout.contains("FCM         " + name), "the APNs record names its message: \(push.stdout)")

        let met = try await InspectCLI.run(["expect", "--fcm", "--ready-file", ready, "--token", token, "--count", "1"])
        XCTAssertEqual(met.status, 0, met.stdout + met.stderr)
        let missed = try await InspectCLI.run(["expect", "--fcm", "--ready-file", ready, "--token", token, "--status", "404"])
        XCTAssertEqual(missed.status, 1, missed.stdout)
        XCTAssertTrue(missed.stdout.contains("Closest FCM records:") && missed.stdout.contains("missed: status=404 (found 200 "), missed.stdout)
        let fromFile = try await InspectCLI.run(["list", "--fcm", "--file", directory + "/nothing.jsonl"])
        XCTAssertEqual(fromFile.status, 2)
        XCTAssertTrue(fromFile.stderr.contains("running mock"), fromFile.stderr)
        let apnsFilter = try await InspectCLI.run(["list", "--fcm", "--ready-file", ready, "--push-type", "alert"])
        XCTAssertEqual(apnsFilter.status, 2)
        let withoutFCM = try await InspectCLI.run(["list", "--project", "mockapns-test", "--ready-file", ready])
        XCTAssertEqual(withoutFCM.status, 2)
        XCTAssertTrue(withoutFCM.stderr.contains("add --fcm"), withoutFCM.stderr)
    }

    func testTheFCMCertificateCarriesTheTLSNamesSendersReachTheMockBy() async throws {
        let served = try await start(["--tls-name", "mockapns.test"])
        defer { served.stop() }
        let ca = try XCTUnwrap(served.ready["fcm_ca_file"]?.stringValue)
        let port = try XCTUnwrap(served.ready["fcm_url"]?.stringValue?.split(separator: ":").last.map(String.init))
        // A network alias, as a container's: the name resolves to the mock and the certificate verifies for it.
        let run = try PeerProcess.run("/usr/bin/curl", ["-sS", "--http2", "--max-time", "10", "--cacert", ca,
                                                        "--resolve", "mockapns.test:\(port):127.0.0.1", "-o", "/dev/null",
                                                        "-w", "%{http_code}", "https://mockapns.test:\(port)/nowhere"], timeout: 20)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "404")
    }

    func testFCMFlagsWithoutFCMAndOnePortForBothNamesOnLoopsOfItsOwnAreUsageErrors() async throws {
        let lone = try await InspectCLI.run(["serve", "--fcm-port", "0"])
        XCTAssertNotEqual(lone.status, 0)
        XCTAssertTrue(lone.stderr.contains("--fcm-port goes with --fcm"), lone.stderr)
        // One port for Apple's and Google's names is handed over by server name on the shared loops only.
        let both = try await InspectCLI.run(["serve", "--apple-hosts", "--fcm", "--loops", "2", "--ca-dir", directory + "/ca"])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.stderr.contains("share port 443 only on the shared event loops"), both.stderr)
    }

    // MARK: Unmodified senders under Google's names

    /// Runs `command` as a CI job that sends to both services would: Google's and Apple's names resolve to `address`
    /// (a hosts file bound over `/etc/hosts` in a mount namespace of its own) and the CA variables requests and httpx
    /// read name the mock's CA. Nothing in the senders is patched or pointed elsewhere.
    private func routed(address: String, ca: String, _ command: [String]) throws -> PeerProcess.Output {
        let hosts = directory + "/hosts-\(address)"
        let names = ["fcm.googleapis.com", "oauth2.googleapis.com", "iid.googleapis.com", "api.push.apple.com", "api.sandbox.push.apple.com"]
        try ((["127.0.0.1 localhost", "::1 localhost"] + names.map { "\(address) \($0)" }).joined(separator: "\n") + "\n")
            .write(toFile: hosts, atomically: true, encoding: .utf8)
        let script = #"hosts=$1; ca=$2; shift 2; mount --bind "$hosts" /etc/hosts && SSL_CERT_FILE="$ca" REQUESTS_CA_BUNDLE="$ca" exec "$@""#
        return try PeerProcess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                        hosts, ca] + command, timeout: 180)
    }

    /// Runs `Tests/Peers/fcm_send.py arguments…` under Google's names (``routed(address:ca:_:)``); its last line.
    private func runRouted(address: String, ca: String, _ arguments: [String]) throws -> JSONValue {
        let run = try routed(address: address, ca: ca, [RepoPaths.python, RepoPaths.peers + "/fcm_send.py"] + arguments)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONValue.parse(line)
    }

    /// Google's names and Apple's on one 443 (`--apple-hosts` beside `--fcm`), told apart by each ClientHello's server
    /// name: the Firebase senders reach the front door and curl reaches the APNs endpoint through the same port.
    func testUnmodifiedFirebaseSendersReachGooglesNamesOn443BesideApples() async throws {
        guard getuid() == 0 else {
            XCTFail("routing Google's names needs root (port 443 and `unshare -m` with a hosts file): run the suite as root, as make test and CI do")
            return
        }
        var served: ServedMock?
        var address = ""
        for _ in 0..<20 where served == nil {
            address = "127.\(Int.random(in: 1...254)).\(Int.random(in: 1...254)).\(Int.random(in: 2...254))"
            served = try? await ServedMock.start(["--host", address, "--port", "0", "--control-port", "0", "--apple-hosts",
                                                  "--manage-sandbox-port", "0", "--manage-production-port", "0", "--fcm", "--fcm-port", "0", "--fcm-https-port", "443",
                                                  "--ca-dir", directory + "/ca", "--quiet"],
                                                 readyFile: directory + "/ready.json", environment: ["XDG_DATA_HOME": directory + "/data"])
        }
        let mock = try XCTUnwrap(served, "no loopback address had 443 free")
        defer { mock.stop() }
        XCTAssertEqual(mock.ready.value(at: ["fcm_ports", "443"])?.integerValue, 443)
        XCTAssertEqual(mock.ready.value(at: ["apple_ports", "443"])?.integerValue, 443)
        let ca = try XCTUnwrap(mock.ready["fcm_ca_file"]?.stringValue)
        let account = try XCTUnwrap(mock.ready["fcm_service_account"]?.stringValue)
        let control = try XCTUnwrap(mock.controlURL)
        func register() throws -> (token: String, apns: String) {
            let run = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", "-H", "content-type: application/json", "--data-binary",
                                                            #"{"project":"mockapns-test","platform":"ios","bundle_id":"com.example.app"}"#,
                                                            control + "/api/v1/fcm/registrations"], timeout: 20)
            let json = try JSONValue.parse(run.stdout)
            return (try XCTUnwrap(json["token"]?.stringValue), try XCTUnwrap(json["apns_token"]?.stringValue))
        }
        let device = try register()
        let base = ["--service-account", account, "--token", device.token]

        let sent = try runRouted(address: address, ca: ca, base + ["--library", "firebase-admin", "--mode", "send", "--title", "Routed"])
        XCTAssertEqual(sent["ok"], .bool(true), sent.jsonText())
        XCTAssertTrue(sent["name"]?.stringValue?.hasPrefix("projects/mockapns-test/messages/") == true, sent.jsonText())
        let async = try runRouted(address: address, ca: ca, base + ["--library", "firebase-admin", "--mode", "send_each_async", "--count", "20"])
        XCTAssertEqual(async["success_count"]?.integerValue, 20, async.jsonText())
        let dry = try runRouted(address: address, ca: ca, base + ["--library", "firebase-admin", "--mode", "dry_run"])
        XCTAssertEqual(dry["name"]?.stringValue, "projects/mockapns-test/messages/fake_message_id", dry.jsonText())
        let stale = try runRouted(address: address, ca: ca, ["--service-account", account, "--library", "firebase-admin", "--mode", "send",
                                                            "--token", "cAbCdEfGhIjKlMnOpQrStU:APA91b" + String(repeating: "q", count: 134)])
        XCTAssertEqual(stale["error_class"]?.stringValue, "UnregisteredError", stale.jsonText())
        let pyfcm = try runRouted(address: address, ca: ca, base + ["--library", "pyfcm", "--mode", "send"])
        XCTAssertEqual(pyfcm["ok"], .bool(true), pyfcm.jsonText())
        let asyncFirebase = try runRouted(address: address, ca: ca, base + ["--library", "async-firebase", "--mode", "send"])
        XCTAssertEqual(asyncFirebase["ok"], .bool(true), asyncFirebase.jsonText())

        // An APNs sender on the same port under Apple's name, and after it one under Google's again, over HTTP/1.1 (curl
        // reads its own CA bundle, not SSL_CERT_FILE, so it is given the mock's CA).
        let jwt = try TestTokens.jwt()
        let direct = try routed(address: address, ca: ca, ["/usr/bin/curl", "-sS", "--max-time", "20", "--cacert", ca, "--http2", "-o", "/dev/null",
                                                           "-w", "%{http_code} %{http_version}", "-H", "authorization: bearer \(jwt)",
                                                           "-H", "apns-topic: com.example.app", "-d", #"{"aps":{"alert":"Direct"}}"#,
                                                           "https://api.push.apple.com/3/device/" + device.apns])
        XCTAssertEqual(direct.stdout, "200 2", direct.stderr)
        let google = try routed(address: address, ca: ca, ["/usr/bin/curl", "-sS", "--max-time", "20", "--cacert", ca, "--http1.1", "-o", "/dev/null",
                                                           "-w", "%{http_code} %{http_version}", "-X", "POST",
                                                           "https://fcm.googleapis.com/v1/projects/mockapns-test/messages:send"])
        XCTAssertEqual(google.stdout, "401 1.1", "the front door's answer without a bearer token: " + google.stderr)

        let pushes = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", control + "/api/v1/notifications?token=" + device.apns],
                                         timeout: 20)
        let records = try XCTUnwrap(try JSONValue.parse(pushes.stdout)["notifications"]?.arrayElements)
        XCTAssertEqual(records.count, 24, "send, 20 of send_each_async, pyfcm, async-firebase and curl's; the dry run delivered nothing")
        XCTAssertTrue(records.contains { $0.value(at: ["payload", "aps", "alert", "title"])?.stringValue == "Routed" })
        XCTAssertEqual(records.last?.value(at: ["payload", "aps", "alert"])?.stringValue, "Direct")
        XCTAssertNil(records.last?["fcm"], "curl's push came to Apple's name, not through the front door")
    }
}
