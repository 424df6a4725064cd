import JSON

/// The body of `POST /v1/projects/{project}/messages:send`, `{"message": Message, "validate_only": bool}`, read and
/// checked as FCM does (fcm-rules §3).
///
/// Reading goes in two stages, as Google's does. The JSON front end first: the bytes must be one JSON object, every
/// key a field of the schema in either spelling (snake_case, as the Admin SDKs send, or lowerCamelCase, as
/// discovery clients send), every value of its field's type; every problem is reported at once, with a
/// `BadRequest` detail only. Then FCM's own rules (``MessageRules``), the first failure answered with an
/// `FcmError` detail. `validate_only` changes nothing here: a dry run is checked in full (fcm-rules §3.12).
public struct FCMSendRequest: Sendable, Hashable {
    /// The message, checked.
    public var message: FCMMessage
    /// `validate_only`: check everything and deliver nothing (the SDKs' `dry_run`).
    public var validateOnly: Bool
    /// `message` exactly as sent (for records).
    public var rawMessage: JSONValue

    /// Parses and checks a request body; throws the 400 FCM answers.
    public static func parse(_ body: some Collection<UInt8>, limits: FCMLimits = FCMLimits()) throws(FCMError) -> FCMSendRequest {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            let place = error.line > 0 ? " at line \(error.line), column \(error.column)" : " at byte \(error.offset)"
            throw FCMError.invalidJSON([FCMError.FieldViolation(
                field: nil, description: "Invalid JSON payload received. \(Self.sentence(error.message))\(place).")])
        }
        guard json.isJSONObject else {
            throw FCMError.invalidJSON([FCMError.FieldViolation(
                field: nil, description: "Invalid JSON payload received. Unknown name \"\": Root element must be a message.")])
        }
        var walker = SchemaWalker()
        let normal = walker.message(json, FCMSchema.sendMessageRequest)
        guard walker.violations.isEmpty, let normal else { throw FCMError.invalidJSON(walker.violations) }
        let message = try MessageRules.check(normal["message"] ?? .object([]), limits: limits)
        return FCMSendRequest(message: message, validateOnly: normal["validate_only"]?.boolValue ?? false,
                              rawMessage: json["message"] ?? .null)
    }

    /// `text` with its first letter in upper case.
    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
