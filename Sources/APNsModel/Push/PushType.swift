/// The eleven values of the `apns-push-type` header, each with the topic suffix APNs expects
/// and the largest body it accepts.
///
/// Older Apple pages list nine (no `widgets`, `controls`); current ones list all eleven, and so do we.
public enum PushType: String, CaseIterable, Sendable, Hashable, Codable {
    case alert
    case background
    case location
    case voip
    case complication
    case fileprovider
    case mdm
    case liveactivity
    case pushtotalk
    case widgets
    case controls

    /// What must follow the bundle ID in `apns-topic` for this type, or `nil` when the topic is the
    /// bare bundle ID (`alert`, `background`) or, for `mdm`, the certificate's UID.
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .location: return ".location-query"
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The largest request body APNs accepts for this type: 5120 bytes for VoIP, 4096 for the rest.
    public var maximumPayloadBytes: Int {
        self == .voip ? 5120 : 4096
    }
}
