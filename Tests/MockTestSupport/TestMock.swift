import MockAPNs

/// A mock with no listener of its own and no bundled keys trusted, taking any well-formed token's signature: what the
/// HTTP/1.1 endpoint's and the control plane's tests put behind what they test.
public enum TestMock {
    /// Makes the mock; `configure` adjusts the rest first.
    public static func anySignature(_ configure: (inout MockConfiguration) -> Void = { _ in }) throws -> Mock {
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        configuration.trustAnySignature = true
        configure(&configuration)
        return try Mock(configuration: configuration)
    }
}
