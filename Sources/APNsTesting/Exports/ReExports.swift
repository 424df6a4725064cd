// What a sender's test suite needs, with `import APNsTesting` alone (Tests/ConsumerPackage proves it: a package of
// its own, importing nothing else, compiles every Swift block of docs/swift-test-kit.md):
// - APNsClient: the client and its notification builders (`APNsClient`, `AlertNotification`, …), which the
//   README's test-kit snippets hand to the code under test;
// - APNsModel: reasons (`.serviceUnavailable`), push types, accepted pushes, and `JSONValue` (which APNsModel
//   re-exports by name: the `JSON` and `HTTPFields` modules themselves do not come along);
// - from DeviceSimulation, the types this module's API names (`onDevice(_:device:)`, `simulate(on:)`,
//   `VirtualDevice`, `change(_:_:)`, `setAppState`) and those their public members name, so a test can spell what it
//   builds (`DeviceProfile(…)`, `.settings(DeviceSettings(…))`) and what it reads (`Simulation.presentation`,
//   `DeviceTimelineEntry.rule`, `record.lint`) — never the simulator, the linter or the timeline machinery;
// - from MockAPNs, only the values a test writes or reads: fault rules and actions for `addFault`, device states
//   for `setDevice`, and the records and filters behind `notifications` — never the pipeline, the recorder or the
//   server, which stay behind `APNsMock`;
// - from MockAPNsRelay, the configuration values `APNsMockOptions.relay` takes (never the relay itself).
// Re-exported by name rather than wrapped in typealiases so a file that also imports one of these modules sees
// one declaration per name, never two that are ambiguous; and by name rather than whole, so a sender's module graph
// gets these types and not everything a module of this package declares.
@_exported import APNsClient
@_exported import APNsModel
// Also re-exported by APNsModel, by name; said again here so the kit's surface does not depend on a scoped re-export
// passing through a second module.
@_exported import enum JSON.JSONValue

// DeviceSimulation: named in APNsTesting's public API.
@_exported import enum DeviceSimulation.AppState
@_exported import enum DeviceSimulation.DeviceChange
@_exported import struct DeviceSimulation.DeviceLiveActivity
@_exported import struct DeviceSimulation.DeviceNotification
@_exported import struct DeviceSimulation.DeviceNotificationGroup
@_exported import struct DeviceSimulation.DeviceProfile
@_exported import struct DeviceSimulation.DeviceScreen
@_exported import struct DeviceSimulation.DeviceStoredPush
@_exported import struct DeviceSimulation.DeviceTimelineEntry
@_exported import struct DeviceSimulation.InAppStyle
@_exported import struct DeviceSimulation.Simulation
// DeviceSimulation: named in the public members of the types above (and of `RecordedRequest.lint`).
@_exported import enum DeviceSimulation.Authorization
@_exported import struct DeviceSimulation.DeliveryEvent
@_exported import struct DeviceSimulation.DeviceBackgroundBudget
@_exported import enum DeviceSimulation.DeviceModelError
@_exported import enum DeviceSimulation.DeviceRule
@_exported import struct DeviceSimulation.DeviceSettings
@_exported import struct DeviceSimulation.DeviceSound
@_exported import enum DeviceSimulation.Entitlement
@_exported import enum DeviceSimulation.ForegroundPresentation
@_exported import struct DeviceSimulation.LintFinding
@_exported import enum DeviceSimulation.LintRule
@_exported import struct DeviceSimulation.Presentation
@_exported import enum DeviceSimulation.PresentationOption
@_exported import struct DeviceSimulation.TapSimulation

@_exported import enum MockAPNs.DeviceState
@_exported import enum MockAPNs.FaultAction
@_exported import struct MockAPNs.FaultRule
@_exported import struct MockAPNsRecording.RecordFilter
@_exported import struct MockAPNsRecording.RecordedRequest
@_exported import struct MockAPNsRecording.RelayVerdict
@_exported import struct MockAPNsRelay.RelayClientCertificate
@_exported import struct MockAPNsRelay.RelayConfiguration
@_exported import enum MockAPNsRelay.RelayConfigurationError
@_exported import enum MockAPNsRelay.RelayCredentials
