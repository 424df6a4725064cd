import APNsModel
import Foundation
import MockAPNs
import MockAPNsHTTP2
import PeerSupport

/// A mock serving Apple's own names on Apple's ports (`--apple-hosts`: 443, 2197, 2195, 2196) at a loopback address of
/// its own, and a way to run a sender unmodified against it: in a mount namespace whose `/etc/hosts` sends Apple's
/// names to that address, with `SSL_CERT_FILE` naming the mock's CA, as a team's CI job would. No library is patched.
///
/// Binding 443 and making a mount namespace need root (CI runs as root); each server takes a random 127.x.y.z so
/// suites running side by side do not share ports.
public struct AppleHostsTestServer: Sendable {
    /// The running mock.
    public let test: TestServer
    /// The loopback address Apple's names resolve to for the senders.
    public let address: String
    /// The CA the mock's certificate for Apple's names chains to.
    public let caPath: String
    private let directory: String

    /// What stops a routed sender from running here, said so a developer can act on it.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts a mock on a fresh loopback address; `configure` adjusts the defaults.
    public static func start(directory: String, _ configure: (inout MockDeployment) -> Void = { _ in }) async throws -> AppleHostsTestServer {
        guard getuid() == 0 else {
            throw Unavailable(description: "routing Apple's names to the mock needs root (port 443 and `unshare -m` with a hosts file): run the suite as root, as make test and CI do")
        }
        let authority = directory + "/apple-hosts-ca"
        var lastError: Error?
        for _ in 0..<20 {
            let address = "127.\(Int.random(in: 1...254)).\(Int.random(in: 1...254)).\(Int.random(in: 2...254))"
            do {
                let test = try await TestServer.start {
                    $0.listener.host = address
                    $0.listener.port = 2197
                    $0.listener.appleHosts = ListenerConfiguration.AppleHostPorts()
                    $0.listener.tls?.certificateAuthorityDirectory = authority
                    configure(&$0)
                }
                return AppleHostsTestServer(test: test, address: address, caPath: authority + "/ca.pem", directory: directory)
            } catch {
                lastError = error   // an address another suite took: draw again
            }
        }
        throw lastError ?? Unavailable(description: "no free loopback address")
    }

    /// Runs `executable` with `arguments` as an unmodified sender would run: Apple's five names resolve to this mock's
    /// address (a hosts file bound over `/etc/hosts` in a mount namespace of its own) and `SSL_CERT_FILE` is the CA.
    public func runRouted(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300) throws -> PeerProcess.Output {
        let hosts = directory + "/hosts-\(address)"
        let lines = ["127.0.0.1 localhost", "::1 localhost"] + AppleHost.names.map { "\(address) \($0)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: hosts, atomically: true, encoding: .utf8)
        let script = #"hosts=$1; ca=$2; shift 2; mount --bind "$hosts" /etc/hosts && SSL_CERT_FILE="$ca" exec "$@""#
        return try PeerProcess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                        hosts, caPath, executable] + arguments, timeout: timeout)
    }

    /// The bound port.
    public var port: Int { test.port }
    /// Every recorded request.
    public var recorder: Recorder { test.recorder }
    /// The mock.
    public var mock: Mock { test.mock }
    /// Its running HTTP/2 listener.
    public var server: APNsHTTP2Listener { test.server }

    /// Shuts the mock down.
    public func stop() async { await test.stop() }
}
