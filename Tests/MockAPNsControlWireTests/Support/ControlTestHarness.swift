import MockAPNs
import MockAPNsControl
import XCTest
import TestSupport

/// A mock with no APNs listener at all, and a control plane over it on a free loopback port.
struct ControlTestHarness {
    /// The mock whose state the control plane exposes.
    let mock: Mock
    /// The control plane under test.
    let control: ControlServer
    /// Its bound port.
    let port: Int
    /// A client pointed at it.
    var client: HTTPTestClient { HTTPTestClient(base: "http://127.0.0.1:\(port)") }

    /// Starts a control plane with `token` (nil = open).
    static func start(token: String? = nil) async throws -> ControlTestHarness {
        let mock = try TestMock.anySignature()
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(host: "127.0.0.1", port: 0, controlToken: token))
        let port = try await control.start()
        return ControlTestHarness(mock: mock, control: control, port: port)
    }

    /// Stops the control plane and the mock.
    func stop() async {
        await control.stop()
        mock.shutdown()
    }
}
