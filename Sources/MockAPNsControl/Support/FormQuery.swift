import Foundation
import Hummingbird
import HummingbirdCore

extension Request {
    /// The query's parameters as a form encodes them (`application/x-www-form-urlencoded`): `+` is a space, then
    /// `%XX` is decoded. What Python's `urlencode`, Go's `url.Values.Encode` and browsers send; Hummingbird's
    /// `queryParameters` decodes `%XX` only, so `where=aps.alert.body=Order+42` would be read as `Order+42`. A `+`
    /// meant as a plus is sent as `%2B`. A value that is not valid percent-encoding is kept as written.
    var formQueryParameters: FlatDictionary<Substring, Substring> {
        guard let query = uri.query, !query.isEmpty else { return FlatDictionary() }
        var pairs: [(key: Substring, value: Substring)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (rawKey, rawValue) = part.firstIndex(of: "=").map { (part[..<$0], part[part.index(after: $0)...]) }
                ?? (part, part[part.endIndex...])
            pairs.append((Self.formDecoded(rawKey), Self.formDecoded(rawValue)))
        }
        return FlatDictionary(pairs)
    }

    private static func formDecoded(_ text: Substring) -> Substring {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return Substring(spaced.removingPercentEncoding ?? spaced)
    }
}
