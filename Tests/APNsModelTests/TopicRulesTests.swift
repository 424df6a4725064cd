import APNsModel
import ModelTestSupport
import XCTest

final class TopicRulesTests: XCTestCase {
    private let app = "com.example.app"
    private let token = TestCredentials.tokenCredential()

    /// Every push type against every suffixed topic: only the type's own suffix (or none, for alert/background;
    /// anything, for mdm) is accepted; a mismatch is DeviceTokenNotForTopic.
    func testSuffixPerPushType() {
        let topics = [app] + PushType.allCases.compactMap(\.topicSuffix).map { app + $0 }
        for type in PushType.allCases {
            for topic in topics {
                let fits: Bool
                switch type {
                case .mdm: fits = true
                case .alert, .background: fits = topic == app
                default: fits = topic == app + type.topicSuffix!
                }
                let result = TopicRules.resolve(topicHeader: topic, pushType: type, credential: token)
                XCTAssertEqual(result, fits ? .success(topic) : .failure(.deviceTokenNotForTopic), "\(type) → \(topic)")
            }
        }
    }

    func testSuffixParsing() {
        XCTAssertEqual(TopicRules.suffix(of: "a.voip-ptt"), ".voip-ptt")
        XCTAssertEqual(TopicRules.suffix(of: "a.voip"), ".voip")
        XCTAssertEqual(TopicRules.suffix(of: "a.push-type.liveactivity"), ".push-type.liveactivity")
        XCTAssertNil(TopicRules.suffix(of: "com.example.app"))
        XCTAssertNil(TopicRules.suffix(of: ".voip"), "a suffix alone has no bundle ID")
        XCTAssertEqual(TopicRules.bundleID(of: "com.x.pushkit.fileprovider"), "com.x")
    }

    func testMissingAndMalformedTopics() {
        XCTAssertEqual(TopicRules.resolve(topicHeader: nil, pushType: .alert, credential: token), .failure(.missingTopic))
        for bad in ["", " ", "com.example app", "com.example.app\t", ".voip", "com.x\u{7f}"] {
            XCTAssertEqual(TopicRules.resolve(topicHeader: bad, pushType: .alert, credential: token), .failure(.badTopic), bad)
        }
    }

    func testCertificateScope() {
        let appCert = TestCredentials.certificate("client-app")
        let single = TestCredentials.certificate("client-single-topic")
        let allCert = TestCredentials.certificate("client-all-topics"), all = "com.example.all"
        let topicKey = TestCredentials.tokenCredential(key: "TOPICKEY01")
        let mdmCert = TestCredentials.certificate("client-mdm"), mdm = "com.apple.mgmt.External.0c0ffee0-test"
        let cases: [(String?, PushType, ProviderCredential, Result<String, APNsReason>)] = [
            (app, .alert, appCert, .success(app)),
            (app + ".voip", .voip, appCert, .success(app + ".voip")),
            (app + ".complication", .complication, appCert, .success(app + ".complication")),
            (nil, .alert, appCert, .failure(.missingTopic)),
            ("com.other.app", .alert, appCert, .failure(.topicDisallowed)),
            (app + ".location-query", .location, appCert, .failure(.topicDisallowed)),
            (app + ".voip-ptt", .pushtotalk, appCert, .failure(.topicDisallowed)),
            // A certificate sends only to topics it lists, for every push type (none is implied by the app's).
            (app + ".push-type.liveactivity", .liveactivity, appCert, .failure(.topicDisallowed)),
            (app + ".push-type.widgets", .widgets, appCert, .failure(.topicDisallowed)),
            (app + ".push-type.controls", .controls, appCert, .failure(.topicDisallowed)),
            (app + ".pushkit.fileprovider", .fileprovider, appCert, .failure(.topicDisallowed)),
            (all + ".push-type.liveactivity", .liveactivity, allCert, .success(all + ".push-type.liveactivity")),
            (all + ".push-type.widgets", .widgets, allCert, .success(all + ".push-type.widgets")),
            (all + ".push-type.controls", .controls, allCert, .success(all + ".push-type.controls")),
            (all + ".pushkit.fileprovider", .fileprovider, allCert, .success(all + ".pushkit.fileprovider")),
            (all + ".voip-ptt", .pushtotalk, allCert, .success(all + ".voip-ptt")),
            (all + ".location-query", .location, allCert, .failure(.topicDisallowed)),
            ("com.other.app.push-type.widgets", .widgets, appCert, .failure(.topicDisallowed)),
            (app, .voip, appCert, .failure(.deviceTokenNotForTopic)),
            (app + ".voip", .alert, appCert, .failure(.deviceTokenNotForTopic)),
            // mdm only over an MDM certificate (UID com.apple.mgmt.…), to that UID.
            (nil, .mdm, appCert, .failure(.topicDisallowed)),
            (app, .mdm, appCert, .failure(.topicDisallowed)),
            (nil, .mdm, mdmCert, .success(mdm)),
            (mdm, .mdm, mdmCert, .success(mdm)),
            (mdm, .alert, mdmCert, .success(mdm)),
            ("com.example.mdm", .mdm, appCert, .failure(.topicDisallowed)),
            (nil, .alert, single, .success("com.example.single")),
            ("com.example.single", .background, single, .success("com.example.single")),
            (nil, .voip, single, .failure(.deviceTokenNotForTopic)),
            ("com.example.single.voip", .voip, single, .failure(.topicDisallowed)),
            ("com.example.single.push-type.liveactivity", .liveactivity, single, .failure(.topicDisallowed)),
            ("anything.at.all", .mdm, token, .success("anything.at.all")),
            // A topic-specific key: its bundle ID and that app's suffixed topics, nothing else.
            (app, .alert, topicKey, .success(app)),
            (app + ".voip", .voip, topicKey, .success(app + ".voip")),
            ("com.other.app", .alert, topicKey, .failure(.topicDisallowed)),
            ("com.other.app.voip", .voip, topicKey, .failure(.topicDisallowed)),
            (nil, .alert, topicKey, .failure(.missingTopic)),
            (app + ".location-query", .location, token, .success(app + ".location-query")),
        ]
        for (topic, type, credential, expected) in cases {
            XCTAssertEqual(TopicRules.resolve(topicHeader: topic, pushType: type, credential: credential), expected,
                           "\(topic ?? "nil") \(type)")
        }
    }

    func testPushTypeInference() {
        let alertBody = Array(#"{"aps":{"alert":"x"}}"#.utf8)
        let bgBody = Array(#"{"aps":{"content-available":1}}"#.utf8)
        let bgWithBadge = Array(#"{"aps":{"content-available":1,"badge":1}}"#.utf8)
        XCTAssertEqual(PushTypeInference.infer(topic: app, body: alertBody), .alert)
        XCTAssertEqual(PushTypeInference.infer(topic: app, body: bgBody), .background)
        XCTAssertEqual(PushTypeInference.infer(topic: app, body: bgWithBadge), .alert)
        XCTAssertEqual(PushTypeInference.infer(topic: app, body: Array("junk".utf8)), .alert)
        XCTAssertEqual(PushTypeInference.infer(topic: nil, body: []), .alert)
        for type in PushType.allCases {
            guard let suffix = type.topicSuffix else { continue }
            XCTAssertEqual(PushTypeInference.infer(topic: app + suffix, body: bgBody), type, suffix)
        }
    }
}
