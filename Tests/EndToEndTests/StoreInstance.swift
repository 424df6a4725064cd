import APNsModel
import Foundation
import XCTest

/// A `mockapns serve --store URL` the store suites start on free ports: its process and what its ready file says.
struct StoreInstance {
    /// The running `serve`.
    let process: InspectFollowProcess
    /// Its APNs endpoint.
    let apnsURL: String
    /// Its control plane, when started with one.
    let controlURL: String?
    /// Its HTTP/1.1 APNs endpoint, when started with `--http1-port`.
    let http1URL: String?

    /// Starts `serve --store url --instance-name name` (`--control-port 0` when `control`, else `--no-control`) with
    /// `extra` arguments, and waits for its ready file in `directory`; fails the test naming the instance if it never
    /// becomes ready.
    static func start(_ url: String, name: String, in directory: String, control: Bool = false,
                      _ extra: [String] = []) async throws -> StoreInstance {
        let ready = directory + "/\(name).json"
        let process = try InspectFollowProcess(["serve", "--port", "0", "--quiet", "--ready-file", ready, "--store", url,
                                                "--instance-name", name] + (control ? ["--control-port", "0"] : ["--no-control"]) + extra)
        let json = try await InspectCLI.readyFile(at: ready)
        let apns = try XCTUnwrap(json?["apns_url"]?.stringValue, "instance \(name) did not become ready")
        return StoreInstance(process: process, apnsURL: apns, controlURL: json?["control_url"]?.stringValue,
                             http1URL: json?["http1_url"]?.stringValue)
    }
}
