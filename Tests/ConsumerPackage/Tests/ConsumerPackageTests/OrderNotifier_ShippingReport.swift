import APNsTesting

// Examples/OrderNotifier/Sources/OrderNotifier/ShippingReport.swift: the sender under test,
// compiled into this target with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the example, not this file)

/// What happened to each device's "order shipped" push.
public struct ShippingReport: Sendable {
    /// Tokens APNs accepted the push for.
    public var delivered: [String] = []
    /// Tokens APNs said are no longer valid (410); they were removed from the store.
    public var forgotten: [String] = []
    /// Tokens whose push failed for another reason, with the client's error.
    public var failed: [String: APNsClientError] = [:]

    /// An empty report.
    public init() {}
}
