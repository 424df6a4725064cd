// What a sender's test suite needs, with `import APNsTesting` alone:
// - APNsClient: the client and its notification builders (`APNsClient`, `AlertNotification`, …), which the
//   README's test-kit snippets hand to the code under test;
// - APNsModel: reasons (`.serviceUnavailable`), push types, device profiles and delivery outcomes;
// - MockAPNs: fault rules and actions (`FaultRule`, `FaultAction`) and device states for `addFault` and
//   `APNsMockOptions`; MockAPNsHTTP2: `MockAPNsServer` behind `APNsMock.server`.
// Re-exported rather than wrapped in typealiases so a file that also imports one of these modules sees
// one declaration per name, never two that are ambiguous.
@_exported import APNsClient
@_exported import APNsModel
@_exported import MockAPNs
@_exported import MockAPNsHTTP2
