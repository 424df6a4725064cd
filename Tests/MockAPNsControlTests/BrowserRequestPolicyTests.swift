import XCTest
@testable import MockAPNsControl
import MockTestSupport

/// The Host/Origin rules on their own, for spellings curl cannot easily send (IPv6, odd ports, junk).
final class BrowserRequestPolicyTests: LeakCheckedTestCase {
    private let open = BrowserRequestPolicy(requiresLoopbackHost: true)
    private let tokenProtected = BrowserRequestPolicy(requiresLoopbackHost: false)

    func testHostsWithoutAToken() {
        let allowed = ["127.0.0.1", "127.0.0.1:2198", "localhost", "LocalHost:80", "[::1]", "[::1]:2198", "a.b.localhost:1",
                       "localhost.", "127.255.255.254:65535"]
        for host in allowed {
            XCTAssertNil(open.refusal(host: host, origins: []), host)
        }
        let refused = ["evil.example", "evil.example:2198", "localhost.evil.example", "127.0.0.1.nip.io", "0.0.0.0:2198",
                       "[::ffff:127.0.0.1]", "::1", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:", "[::1", "user@localhost",
                       "localhost/x", "", "192.168.1.2", "10.0.0.1:2198"]
        for host in refused {
            XCTAssertNotNil(open.refusal(host: host, origins: []), host)
            XCTAssertNil(tokenProtected.refusal(host: host, origins: []), "with a token any Host passes: \(host)")
        }
        XCTAssertNil(open.refusal(host: nil, origins: []), "HTTP/1.0 tools send no Host")
    }

    func testOriginsMustBeTheControlPlanesOwn() {
        let same: [(String, String)] = [
            ("127.0.0.1:2198", "http://127.0.0.1:2198"), ("localhost:2198", "HTTP://LOCALHOST:2198"),
            ("[::1]:2198", "http://[::1]:2198"), ("localhost", "http://localhost"), ("localhost", "http://localhost:80"),
            ("localhost:80", "http://localhost"),
        ]
        for (host, origin) in same {
            XCTAssertNil(open.refusal(host: host, origins: [origin]), "\(host) \(origin)")
            XCTAssertNil(tokenProtected.refusal(host: host, origins: [origin]), "\(host) \(origin)")
        }
        let foreign: [(String?, [String])] = [
            ("127.0.0.1:2198", ["http://evil.example"]), ("127.0.0.1:2198", ["null"]), ("127.0.0.1:2198", ["http://localhost:2198"]),
            ("127.0.0.1:2198", ["http://127.0.0.1:2199"]), ("127.0.0.1:2198", ["https://127.0.0.1:2198"]),
            ("127.0.0.1:2198", ["http://127.0.0.1"]), ("localhost", ["http://localhost:8080"]),
            ("127.0.0.1:2198", ["http://127.0.0.1:2198/"]), ("127.0.0.1:2198", ["127.0.0.1:2198"]), ("127.0.0.1:2198", [""]),
            ("127.0.0.1:2198", ["http://127.0.0.1:2198", "http://127.0.0.1:2198"]), (nil, ["http://127.0.0.1:2198"]),
        ]
        for (host, origins) in foreign {
            XCTAssertNotNil(open.refusal(host: host, origins: origins), "\(String(describing: host)) \(origins)")
            XCTAssertNotNil(tokenProtected.refusal(host: host, origins: origins), "\(String(describing: host)) \(origins)")
        }
        XCTAssertNil(tokenProtected.refusal(host: "mock.internal:2198", origins: ["http://mock.internal:2198"]))
    }
}
