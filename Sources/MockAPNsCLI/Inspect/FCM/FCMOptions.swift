import ArgumentParser

/// `--fcm` and the filters only FCM records have, for `list` and `expect` (``FCMInspection``).
struct FCMOptions: ParsableArguments {
    @Flag(help: "The FCM front door's records instead of APNs ones (`serve --fcm`; a running mock, or its --store). --token is then the registration token, --topic the FCM topic.")
    var fcm = false

    @Option(help: ArgumentHelp("With --fcm: only this Firebase project.", valueName: "project"))
    var project: String?

    @Option(help: ArgumentHelp("With --fcm: only the message with this name (projects/P/messages/ID, or ID).", valueName: "name"))
    var name: String?

    /// Refuses `--project` and `--name` without `--fcm`.
    func refuseWithoutFCM() throws(InspectError) {
        if project != nil || name != nil { throw .usage("--project and --name filter FCM records: add --fcm.") }
    }
}
