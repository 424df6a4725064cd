import APNsModel
/// What an app does with an alert that arrives while it is in the foreground (device-rules §3).
///
/// Encodes as the string `"noDelegate"` or as a sorted array of options, e.g. `["banner","sound","badge"]`.
public enum ForegroundPresentation: Sendable, Hashable, Codable {
    /// The app never set a `UNUserNotificationCenter` delegate: iOS swallows foreground alerts.
    case noDelegate
    /// The options the app's `willPresent` returns; an empty set shows nothing.
    case options(Set<PresentationOption>)

    /// What an app written from the tutorials returns: banner, sound and badge.
    public static let standard: ForegroundPresentation = .options([.banner, .sound, .badge])

    /// Reads `"noDelegate"` or an array of option names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let word = try? container.decode(String.self) {
            guard word == "noDelegate" else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected \"noDelegate\" or an array of presentation options")
            }
            self = .noDelegate
        } else {
            self = .options(Set(try container.decode([PresentationOption].self)))
        }
    }

    /// Writes `"noDelegate"` or the options in a fixed order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .noDelegate: try container.encode("noDelegate")
        case .options(let options): try container.encode(options.sorted())
        }
    }
}
