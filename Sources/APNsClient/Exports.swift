// What a sender needs beside the client, with `import APNsClient` alone: the model its API is written in — push types,
// priorities, reasons (`APNsClientError.rejected`'s `.unregistered`), header fields and `JSONValue` payloads — so the
// product `APNsClient` is enough for a sender (the package publishes no `APNsModel` product). The model re-exports
// only `JSONValue` from the `JSON` module, so no module named `JSON` comes along whole.
@_exported import APNsModel
// Also re-exported by APNsModel, by name; said again here so the client's surface does not depend on a scoped
// re-export passing through a second module.
@_exported import enum JSON.JSONValue
