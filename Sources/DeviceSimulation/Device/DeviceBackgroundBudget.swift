import APNsModel
/// The state of the device's background budget at one instant (rule 13): how many silent pushes woke the app in the
/// rolling hour up to that instant, out of how many the model allows. The limit is a model number, and the JSON says
/// so (`"source": "model"`).
///
/// JSON (``json``): `{"limit", "window_ms", "used", "remaining", "next_free_at", "source": "model"}`;
/// `next_free_at` is when the oldest use leaves the window (`null` when nothing was used).
public struct DeviceBackgroundBudget: Sendable, Hashable {
    /// Silent pushes allowed per window (``DeviceSettings/backgroundBudgetPerHour``).
    public var limit: Int64
    /// The rolling window, in milliseconds (one hour).
    public var windowMillis: Int64
    /// Silent pushes that woke the app within the window.
    public var used: Int64
    /// When the oldest use in the window leaves it, in milliseconds since 1970; `nil` when none was used.
    public var nextFreeAt: Int64?

    /// Makes a budget state.
    public init(limit: Int64, windowMillis: Int64, used: Int64, nextFreeAt: Int64?) {
        self.limit = limit
        self.windowMillis = windowMillis
        self.used = used
        self.nextFreeAt = nextFreeAt
    }

    /// Uses left in the window (0 when over).
    public var remaining: Int64 { max(0, limit - used) }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("limit", .integer(limit)),
            .init("window_ms", .integer(windowMillis)),
            .init("used", .integer(used)),
            .init("remaining", .integer(remaining)),
            .init("next_free_at", .integer(orNull: nextFreeAt)),
            .init("source", .string("model")),
        ])
    }
}
