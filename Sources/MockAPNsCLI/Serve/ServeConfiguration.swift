import MockAPNs
import MockAPNsFCM
import MockAPNsHTTP2

/// What `mockapns serve`'s flags and `MOCKAPNS_*` variables ask for: the mock itself, and its HTTP/2 listener.
struct ServeConfiguration {
    /// The mock: trust, pipeline, devices, faults, recording, relay, store.
    var mock = MockConfiguration()
    /// The APNs listener: address, ports, TLS identity, loops, limits.
    var server = MockServerConfiguration()
    /// The FCM front door, with `--fcm`.
    var fcm: FCMConfiguration?
}
