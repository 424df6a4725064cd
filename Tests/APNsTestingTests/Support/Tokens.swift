/// Device tokens and payloads the tests share.
enum Tokens {
    static let first = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    static let second = "1111111111111111111111111111111111111111111111111111111111111111"
    static let third = "2222222222222222222222222222222222222222222222222222222222222222"
}

enum Payloads {
    static let shipped = #"{"aps":{"alert":{"title":"Your order shipped","body":"Order 42 is on its way"},"badge":1,"sound":"default"},"orderID":"42"}"#
    static let delayed = #"{"aps":{"alert":{"title":"Order delayed","body":"Order 42 is late"}},"orderID":"42"}"#
    static let silent = #"{"aps":{"content-available":1},"sync":true}"#
    static let inApp = ##"{"aps":{"alert":{"title":"Shipped","body":"Order 42"}},"inAppSymbol":"shippingbox.fill","inAppColor":"#34C759","inAppHaptics":"success"}"##
    static let rich = #"{"aps":{"alert":{"title":"Photo","body":"New photo"},"mutable-content":1}}"#
}
