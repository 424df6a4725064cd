/// Which APNs endpoint a request addresses, decided from `:method` and `:path` alone.
///
/// Routing is the first rule: APNs cannot apply header or credential rules before it knows which API
/// the request is for.
public enum Route: Sendable, Hashable {
    /// `POST /3/device/<token>`: a push to one device (the token is not validated here).
    case device(token: String)
    /// `POST /4/broadcasts/apps/<bundleID>`: a Live Activity broadcast push to a channel.
    case broadcast(bundleID: String)
    /// `POST|GET|DELETE /1/apps/<bundleID>/channels`: create, read or delete a broadcast channel.
    case channels(bundleID: String)
    /// `GET /1/apps/<bundleID>/all-channels`: list the app's channels.
    case allChannels(bundleID: String)

    /// What a channel-management request asks for, derived from the route and method.
    public enum ChannelOperation: String, Sendable, Hashable, Codable {
        /// `POST …/channels`.
        case create
        /// `GET …/channels` with `apns-channel-id`.
        case read
        /// `DELETE …/channels` with `apns-channel-id`.
        case delete
        /// `GET …/all-channels`.
        case list
    }

    /// The bundle ID in a broadcast or channel path; `nil` for device pushes.
    public var bundleID: String? {
        switch self {
        case .device: return nil
        case .broadcast(let id), .channels(let id), .allChannels(let id): return id
        }
    }

    /// The channel operation for a channel-management route and its method, else `nil`.
    public func channelOperation(method: String) -> ChannelOperation? {
        switch (self, method) {
        case (.channels, "POST"): return .create
        case (.channels, "GET"): return .read
        case (.channels, "DELETE"): return .delete
        case (.allChannels, "GET"): return .list
        default: return nil
        }
    }

    /// The methods the channel-management and broadcast APIs use somewhere. On those APIs a method from this
    /// set on the wrong path is a "wrong method or path combination" (`404 BadPath`, Apple's broadcast error
    /// table); any other method (`PUT`, `PATCH`, `HEAD`…) is `405 MethodNotAllowed`.
    static let broadcastAPIMethods: Set<String> = ["GET", "POST", "DELETE"]

    /// Resolves `:method` and `:path` to a route, or the reason APNs gives when it cannot.
    ///
    /// - `/3/device/<token>`: `POST` only, any other method → `405 MethodNotAllowed` (checked first: Apple says
    ///   every non-POST method gets 405). `/3/device` and `/3/device/` → `400 MissingDeviceToken`. A token
    ///   segment containing `/` is not a device path → `404 BadPath`.
    /// - `/4/broadcasts/apps/<bundle>` (POST), `/1/apps/<bundle>/channels` (POST, GET, DELETE),
    ///   `/1/apps/<bundle>/all-channels` (GET). A wrong GET/POST/DELETE → `404 BadPath` ("wrong method or path
    ///   combination"); another method → `405 MethodNotAllowed`. An empty bundle ID → `404 BadPath`.
    /// - Anything else → `404 BadPath`.
    ///
    /// Query strings: APNs paths never carry one, and what APNs does with one is not documented. We take the
    /// lenient reading and ignore everything from the first `?` (RFC 3986: the query is not part of the path).
    /// Method names are matched exactly (HTTP methods are case-sensitive).
    public static func resolve(method: String, path rawPath: String) -> Result<Route, APNsReason> {
        if let token = plainDeviceToken(method: method, path: rawPath) { return .success(.device(token: token)) }
        let path = rawPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? rawPath

        if path == "/3/device" || path.hasPrefix("/3/device/") {
            guard method == "POST" else { return .failure(.methodNotAllowed) }
            let token = path.dropFirst("/3/device/".count)
            if path == "/3/device" || token.isEmpty { return .failure(.missingDeviceToken) }
            if token.contains("/") { return .failure(.badPath) }
            return .success(.device(token: String(token)))
        }

        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "/4/broadcasts/apps/<b>" → ["", "4", "broadcasts", "apps", b]
        if segments.count == 5, segments[0].isEmpty, segments[1] == "4", segments[2] == "broadcasts",
           segments[3] == "apps", !segments[4].isEmpty {
            return check(method, allowed: ["POST"], route: .broadcast(bundleID: segments[4]))
        }
        // "/1/apps/<b>/channels" → ["", "1", "apps", b, "channels"]
        if segments.count == 5, segments[0].isEmpty, segments[1] == "1", segments[2] == "apps", !segments[3].isEmpty {
            switch segments[4] {
            case "channels":
                return check(method, allowed: ["POST", "GET", "DELETE"], route: .channels(bundleID: segments[3]))
            case "all-channels":
                return check(method, allowed: ["GET"], route: .allChannels(bundleID: segments[3]))
            default:
                break
            }
        }
        return .failure(.badPath)
    }

    /// The token of the common request, `POST /3/device/<token>` with an ASCII path, no query and no `/` in
    /// the token, found on bytes; `nil` for anything else, which `resolve` then routes the general way.
    /// For such paths the bytes give exactly what the `Character`-based rules above give.
    private static func plainDeviceToken(method: String, path: String) -> String? {
        guard method == "POST" else { return nil }
        let prefix: StaticString = "/3/device/"
        let prefixCount = prefix.utf8CodeUnitCount
        return path.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.count > prefixCount, ASCIIByte.hasPrefix(bytes, prefix) else { return nil }
            let token = UnsafeBufferPointer(rebasing: bytes[prefixCount...])
            guard ASCIIByte.lacksSlashQueryAndHighBytes(token) else { return nil }
            return String(decoding: token, as: UTF8.self)
        } ?? nil
    }

    private static func check(_ method: String, allowed: Set<String>, route: Route) -> Result<Route, APNsReason> {
        if allowed.contains(method) { return .success(route) }
        return .failure(broadcastAPIMethods.contains(method) ? .badPath : .methodNotAllowed)
    }
}
