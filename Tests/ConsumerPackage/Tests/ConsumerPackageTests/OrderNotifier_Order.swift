import APNsTesting

// Examples/OrderNotifier/Sources/OrderNotifier/Order.swift: the sender under test,
// compiled into this target with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the example, not this file)

/// An order that has just left the warehouse.
public struct Order: Sendable, Hashable {
    /// The order number shown to the customer, e.g. `42`.
    public var id: String
    /// Who ordered it; their devices get the push.
    public var customerID: String
    /// The carrier, e.g. `UPS`.
    public var carrier: String
    /// A gift message or delivery note, copied into the push for the app to show.
    public var note: String?

    /// Makes an order.
    public init(id: String, customerID: String, carrier: String, note: String? = nil) {
        self.id = id
        self.customerID = customerID
        self.carrier = carrier
        self.note = note
    }
}
