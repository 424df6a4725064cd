// The mock records every request: whoever holds a `Mock` reads its `Recorder` and `RecordedRequest`s without a second
// import. What only reads records imports MockAPNsRecording alone.
@_exported import MockAPNsRecording
