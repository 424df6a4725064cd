import APNsModel
/// A sound the device played for a delivered push (a presentation with sound: rules 3, 5, 7, 8, 10).
///
/// JSON (``json``): `{"apns_id", "time", "sound"}`; `sound` is the payload's sound name (`aps.sound`, its `name`
/// for a critical-alert dictionary, or a Live Activity alert's `sound`), `"default"` when the dictionary has none.
public struct DeviceSound: Sendable, Hashable {
    /// The push's `apns-id`.
    public var apnsID: String?
    /// When it played, in milliseconds since 1970.
    public var time: Int64
    /// The sound's name as the payload gives it.
    public var sound: String

    /// Makes a sound.
    public init(apnsID: String?, time: Int64, sound: String) {
        self.apnsID = apnsID
        self.time = time
        self.sound = sound
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("apns_id", .string(orNull: apnsID)),
            .init("time", .integer(time)),
            .init("sound", .string(sound)),
        ])
    }
}
