import Foundation

/// A well-formed ES256-shaped provider token for servers started with `trustAnySignature`. Its `iat` is the current
/// second, so two calls a second apart give different tokens, and a connection that changes token gets
/// `429 TooManyProviderTokenUpdates`: a test sends one token on all its connections.
public enum TokenFixture {
    /// The token.
    public static func bearer() -> String {
        func segment(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        let now = Int(Date().timeIntervalSince1970)
        return "\(segment(#"{"alg":"ES256","kid":"KEY1234567"}"#)).\(segment(#"{"iss":"TEAM123456","iat":\#(now)}"#)).\(segment("sig"))"
    }
}
