import Testing

/// Records an issue unless `device`'s lock screen shows a notification with `title` (and `body`, when given);
/// returns whether it does. The issue lists what the device shows. For plain checks, `#expect` reads well too:
/// `#expect(mock.device(token).shows(title: "Order 42 shipped"))`, `#expect(mock.device(token).badge == 2)`.
@discardableResult
public func expectShown(
    _ device: VirtualDevice, title: String, body: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let message = device.failureMessage(title: title, body: body) else { return true }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return false
}

/// Records an issue if `device`'s lock screen shows a notification with `title` (and `body`, when given); returns
/// whether it does not.
@discardableResult
public func expectNotShown(
    _ device: VirtualDevice, title: String, body: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard device.shows(title: title, body: body) else { return true }
    Issue.record(Comment(rawValue: "Expected the lock screen not to show \"\(title)\", but " + device.summary),
                 sourceLocation: sourceLocation)
    return false
}
