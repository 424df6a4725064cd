/// One mock and everything it serves through: the mock itself, its HTTP/2 listener, its HTTP/1.1 listener when there
/// is one, and its control plane when there is one. `mockapns serve` makes one from its flags, `APNsMockOptions`
/// from a test's options and the tests' server from a closure; each part is built from its own field.
public struct MockDeployment: Sendable {
    /// What the mock is.
    public var mock = MockConfiguration()
    /// The HTTP/2 listener: TLS on 127.0.0.1:2197 by default.
    public var listener = ListenerConfiguration()
    /// The plain HTTP/1.1 listener (`--http1-port`, `APNsMockOptions.http1`); nil = none.
    public var http1: ListenerConfiguration?
    /// The control plane (`serve`'s, on 2198 by default); nil = none.
    public var control: ControlConfiguration?

    /// The mock with its HTTP/2 listener's defaults, no HTTP/1.1 listener and no control plane.
    public init() {}
}
