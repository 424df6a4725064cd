import APNsModel

/// Properties of the mock's answer.
extension NotificationProperty {
    /// The mock accepted the push (200).
    public static var accepted: NotificationProperty {
        NotificationProperty(name: "response", expected: "accepted (200)") { notification in
            PropertyCheck(matched: notification.isAccepted, actual: notification.responseText)
        }
    }

    /// The mock rejected the push with `reason` (and its status).
    public static func rejected(_ reason: APNsReason) -> NotificationProperty {
        NotificationProperty(name: "response", expected: "rejected \(reason.status) \(reason.rawValue)") { notification in
            PropertyCheck(matched: notification.status == reason.status && notification.reasonText == reason.rawValue,
                          actual: notification.responseText)
        }
    }

    /// The mock answered with HTTP `status`.
    public static func status(_ status: Int) -> NotificationProperty {
        NotificationProperty(name: "response status", expected: "\(status)") { notification in
            PropertyCheck(matched: notification.status == status, actual: notification.responseText)
        }
    }
}
