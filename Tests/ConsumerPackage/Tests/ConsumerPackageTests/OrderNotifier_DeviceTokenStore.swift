import APNsTesting

// Examples/OrderNotifier/Sources/OrderNotifier/DeviceTokenStore.swift: the sender under test,
// compiled into this target with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the example, not this file)

/// Where the sender keeps each customer's device tokens (a database table in a real service).
public protocol DeviceTokenStore: Sendable {
    /// The customer's device tokens (hex).
    func tokens(for customerID: String) async -> [String]
    /// Stops sending to `token`: APNs said the app is gone from that device.
    func forget(_ token: String) async
}

/// A `DeviceTokenStore` in memory, for tests and demos.
public actor InMemoryTokenStore: DeviceTokenStore {
    private var tokensByCustomer: [String: [String]]

    /// Makes a store holding `tokens` per customer ID.
    public init(_ tokens: [String: [String]] = [:]) {
        tokensByCustomer = tokens
    }

    /// The customer's tokens.
    public func tokens(for customerID: String) -> [String] {
        tokensByCustomer[customerID] ?? []
    }

    /// Removes `token` from every customer.
    public func forget(_ token: String) {
        for (customer, tokens) in tokensByCustomer {
            tokensByCustomer[customer] = tokens.filter { $0 != token }
        }
    }
}
