import Foundation
import MockAPNs
import MockAPNsPostgres
import ServiceLifecycle
import Support

/// The device states and fault rules shared through `--store`, as a service: it seeds the namespace with this
/// instance's `--devices`/`--faults` files, takes what the namespace holds, then follows its changes until the group
/// shuts down. ``ready`` is settled once the first load is in, so the ready file is written only after it.
struct SharedStateService: Service, CustomStringConvertible {
    let shared: PostgresSharedState
    let mock: Mock
    let resync: Duration
    /// Settled after the first load (or with why it failed).
    let ready = Readiness<Void>()
    var description: String { "shared state" }

    func run() async throws {
        do {
            try await shared.seed(devices: mock.devices.all(), faults: mock.faults.entries.map(\.rule),
                                  deviceChanges: mock.deviceChanges.all())
            let snapshot = try await shared.load()
            mock.devices.replaceAll(with: snapshot.devices)
            mock.faults.replaceRules(snapshot.faults, fired: snapshot.fired)
            mock.deviceChanges.replaceChanges(with: snapshot.deviceChanges)
        } catch {
            let failure = ServeFailure("cannot read the shared device states and fault rules from \(shared.label): "
                                       + String(reflecting: error))
            ready.fail(failure)
            throw failure
        }
        ready.succeed(())
        let follower = shared.follow(into: mock.devices, faults: mock.faults, deviceChanges: mock.deviceChanges, resync: resync)
        try? await gracefulShutdown()
        follower.cancel()
        await follower.value
    }
}
