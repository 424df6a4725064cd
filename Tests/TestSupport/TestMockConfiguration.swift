import MockAPNs
import MockAPNsHTTP2

/// A test's mock and listener settings in one value, so `TestServer.start { $0.recordPath = …; $0.port = … }` sets
/// either without naming which: each name belongs to exactly one of the two.
@dynamicMemberLookup
public struct TestMockConfiguration: Sendable {
    /// The mock's own settings.
    public var mock = MockConfiguration()
    /// The HTTP/2 listener's settings.
    public var server = MockServerConfiguration()

    public init() {}

    public subscript<Value>(dynamicMember path: WritableKeyPath<MockConfiguration, Value>) -> Value {
        get { mock[keyPath: path] }
        set { mock[keyPath: path] = newValue }
    }

    public subscript<Value>(dynamicMember path: WritableKeyPath<MockServerConfiguration, Value>) -> Value {
        get { server[keyPath: path] }
        set { server[keyPath: path] = newValue }
    }

    /// Makes the mock and its listener (not started).
    public func makeServer() throws -> MockAPNsServer {
        let mock = try Mock(configuration: mock)
        do {
            return try MockAPNsServer(mock: mock, configuration: server)
        } catch {
            mock.shutdown()
            throw error
        }
    }
}
