import APNsModel
import Foundation
import JSON

/// The file `serve --ready-file` writes once every listener is up, so scripts can wait for it (`mockapns wait`)
/// and read the URLs. Removed when `serve` starts and when it exits, so a reader never finds a stale one.
///
/// Keys are the properties in snake case (`apnsURL` → `apns_url`, ``CodingKeys``): a new field is one new property
/// and its key.
/// Optional fields are left out when nil (a listener that is off).
struct ReadyFile: Encodable, Equatable {
    /// The HTTP/2 APNs endpoint, e.g. `https://127.0.0.1:40123`.
    var apnsURL: String
    /// The control plane, unless `--no-control`.
    var controlURL: String?
    /// The HTTP/1.1 APNs endpoint, when `--http1-port` was given.
    var http1URL: String?
    /// The dashboard page, unless `--no-dashboard` or `--no-control`.
    var dashboardURL: String?
    /// The CA certificate (PEM file) senders verify the APNs endpoint with, when the mock knows it (not with `--cert`
    /// or `--h2c`); the control plane serves the same at `/api/v1/ca.pem`.
    var caFile: String?
    /// The folder of the test credentials the mock trusts (`keys.json` and its `.p8` keys), when it uses them: where a
    /// kit finds the key to sign its provider tokens with, whichever CA signs the server certificate.
    var certsDir: String? = nil
    /// The serving process, for `kill`.
    var pid: Int32
    /// `mockapns --version`.
    var version: String
    /// Under `--apple-hosts`: Apple's port ("443", "2197", "2195", "2196") → the port the mock listens on, for a
    /// sender's routing of Apple's names.
    var applePorts: [String: Int]? = nil
    /// Under `--fcm`: the mock's own FCM port, `https://127.0.0.1:PORT`.
    var fcmURL: String? = nil
    /// Under `--fcm`: Google's port ("443") → the port the mock serves Google's names on.
    var fcmPorts: [String: Int]? = nil
    /// Under `--fcm`: a service-account key file of the default project `mockapns-test`, trusted by the mock.
    var fcmServiceAccount: String? = nil
    /// Under `--fcm`: the CA (PEM file) the FCM listeners' certificate chains to (the private CA, as `--apple-hosts`').
    var fcmCAFile: String? = nil

    /// The keys as written: snake case, in the order `sortedKeys` gives them.
    enum CodingKeys: String, CodingKey {
        case apnsURL = "apns_url", controlURL = "control_url", http1URL = "http1_url", dashboardURL = "dashboard_url"
        case caFile = "ca_file", certsDir = "certs_dir", pid, version, applePorts = "apple_ports"
        case fcmURL = "fcm_url", fcmPorts = "fcm_ports", fcmServiceAccount = "fcm_service_account", fcmCAFile = "fcm_ca_file"
    }

    /// Writes atomically (a temporary file in the same folder, then rename), so a reader sees no file or the
    /// whole file, never half of one.
    func write(to path: String) throws {
        try Data(JSONValueEncoder().encode(self).jsonText(sortedKeys: true).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Removes the file at `path` if there is one; says why on stderr when it cannot.
    static func remove(at path: String) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            FileHandle.standardError.write(Data("mockapns: cannot remove the old ready file \(path): \(error)\n".utf8))
        }
    }
}
