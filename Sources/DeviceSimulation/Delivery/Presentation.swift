import APNsModel
/// What the user sees and hears when the push arrives.
///
/// Encodes as `{"kind": …, "style": {…} (inApp only), "sound": bool, "badge": int or null}`.
public struct Presentation: Sendable, Hashable, Codable {
    /// How the notification appears.
    public enum Kind: String, CaseIterable, Sendable, Hashable, Codable {
        /// A banner on screen (and an entry in Notification Center).
        case banner
        /// Notification Center only, no banner.
        case list
        /// The app drew its own in-app notification; the system showed nothing.
        case inApp
        /// Nothing visible.
        case none
    }

    /// How the notification appears.
    public var kind: Kind
    /// The in-app style; set exactly when `kind` is `inApp`.
    public var style: InAppStyle?
    /// Whether a sound plays.
    public var sound: Bool
    /// The badge the app icon gets, or `nil` when the badge is left as it was.
    public var badge: Int?

    /// Makes a presentation.
    public init(kind: Kind, style: InAppStyle? = nil, sound: Bool = false, badge: Int? = nil) {
        self.kind = kind
        self.style = style
        self.sound = sound
        self.badge = badge
    }

    /// Nothing shown, no sound, badge unchanged.
    public static let nothing = Presentation(kind: .none)

    /// An in-app notification drawn by the app: no system sound or badge.
    public static func inApp(_ style: InAppStyle) -> Presentation {
        Presentation(kind: .inApp, style: style)
    }

    private enum CodingKeys: String, CodingKey { case kind, style, sound, badge }

    /// Reads the JSON form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        style = try c.decodeIfPresent(InAppStyle.self, forKey: .style)
        sound = try c.decode(Bool.self, forKey: .sound)
        badge = try c.decodeIfPresent(Int.self, forKey: .badge)
    }

    /// Writes the JSON form: `style` only when present, `badge` always (null when unchanged).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(style, forKey: .style)
        try c.encode(sound, forKey: .sound)
        if let badge { try c.encode(badge, forKey: .badge) } else { try c.encodeNil(forKey: .badge) }
    }
}
