import APNsCrypto

/// The headers that let a receiver check a delivery: `X-MockAPNs-Delivery` (a unique id per record, the same on
/// every retry, so a receiver can drop duplicates), `X-MockAPNs-Timestamp` (Unix seconds of this attempt) and, with
/// a secret, `X-MockAPNs-Signature: sha256=<hex>` — the HMAC-SHA256 of `<timestamp>.<body>` under the secret. Signing
/// the timestamp with the body (as Stripe does) lets a receiver refuse a replayed delivery whose timestamp is old.
public enum WebhookSignature {
    /// The header names.
    public static let deliveryHeader = "X-MockAPNs-Delivery"
    public static let timestampHeader = "X-MockAPNs-Timestamp"
    public static let signatureHeader = "X-MockAPNs-Signature"

    /// The signature header's value for `body` sent at `timestamp` under `secret`.
    public static func value(secret: [UInt8], timestamp: Int64, body: [UInt8]) -> String {
        "sha256=" + HMACSHA256.hex(key: secret, message: Array("\(timestamp).".utf8) + body)
    }
}
