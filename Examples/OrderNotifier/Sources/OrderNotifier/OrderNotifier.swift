import APNsClient   // the client, and the model it re-exports (`JSONValue`, reasons)

/// Tells a customer's devices that their order shipped.
///
/// For each of the customer's tokens it sends one alert; a token APNs answers `410 Unregistered` (or
/// `ExpiredToken`) for is removed from the store, so it is never pushed to again. Retrying throttled or
/// unavailable answers is left to `APNsClient`.
public struct OrderNotifier: Sendable {
    /// The app's bundle ID (the push topic).
    public let bundleID: String
    private let client: APNsClient
    private let tokens: any DeviceTokenStore

    /// Makes a notifier sending with `client` to the devices in `tokens`.
    public init(client: APNsClient, bundleID: String, tokens: any DeviceTokenStore) {
        self.client = client
        self.bundleID = bundleID
        self.tokens = tokens
    }

    /// The push for `order`: a title and body for the system, the order number for the app, and the in-app
    /// style the app uses when it is open (a green shipping box with a success tap).
    public func notification(for order: Order) -> APNsNotification {
        var payload: [JSONValue.JSONMember] = [
            .init("aps", .object([
                .init("alert", .object([
                    .init("title", .string("Your order shipped")),
                    .init("body", .string("Order #\(order.id) is on its way with \(order.carrier).")),
                ])),
                .init("sound", .string("default")),
                .init("thread-id", .string("order-\(order.id)")),
            ])),
            .init("orderID", .string(order.id)),
            .init("inAppSymbol", .string("shippingbox.fill")),
            .init("inAppColor", .string("#34C759")),
            .init("inAppHaptics", .string("success")),
        ]
        if let note = order.note { payload.append(.init("note", .string(note))) }
        var notification = APNsNotification.alert(bundleID: bundleID, payload: .object(payload))
        notification.collapseID = "order-\(order.id)"
        return notification
    }

    /// Sends the "order shipped" push to every device of the order's customer.
    public func notifyShipped(_ order: Order) async -> ShippingReport {
        let push = notification(for: order)
        var report = ShippingReport()
        for token in await tokens.tokens(for: order.customerID) {
            do {
                _ = try await client.send(push, deviceToken: token)
                report.delivered.append(token)
            } catch let error where Self.meansTokenIsGone(error) {
                await tokens.forget(token)
                report.forgotten.append(token)
            } catch {
                report.failed[token] = error
            }
        }
        return report
    }

    /// 410 `Unregistered` / `ExpiredToken`: the app was removed or the token replaced.
    static func meansTokenIsGone(_ error: APNsClientError) -> Bool {
        guard case let .rejected(status, reason, _, _) = error else { return false }
        return status == 410 || reason.reason == .unregistered || reason.reason == .expiredToken
    }
}
