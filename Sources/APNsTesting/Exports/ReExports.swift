// What a sender's test suite needs, with `import APNsTesting` alone:
// - APNsClient: the client and its notification builders (`APNsClient`, `AlertNotification`, …), which the
//   README's test-kit snippets hand to the code under test;
// - APNsModel: reasons (`.serviceUnavailable`), push types, device profiles and delivery outcomes;
// - from MockAPNs, only the values a test writes or reads: fault rules and actions for `addFault`, device states
//   for `setDevice`, and the records and filters behind `notifications` — never the pipeline, the recorder or the
//   server, which stay behind `APNsMock`;
// - from MockAPNsRelay, the configuration values `APNsMockOptions.relay` takes (never the relay itself).
// Re-exported rather than wrapped in typealiases so a file that also imports one of these modules sees
// one declaration per name, never two that are ambiguous.
@_exported import APNsClient
@_exported import APNsModel
@_exported import enum MockAPNs.DeviceState
@_exported import enum MockAPNs.FaultAction
@_exported import struct MockAPNs.FaultRule
@_exported import struct MockAPNs.RecordFilter
@_exported import struct MockAPNs.RecordedRequest
@_exported import struct MockAPNsRelay.RelayClientCertificate
@_exported import struct MockAPNsRelay.RelayConfiguration
@_exported import enum MockAPNsRelay.RelayConfigurationError
@_exported import enum MockAPNsRelay.RelayCredentials
