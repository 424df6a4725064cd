// The one JSON type the model's public API is written in (payloads, `Verdict.payload`, `Alert.json`, …): every module
// that imports the model reads and writes payloads with it, so it comes with it, by name. The rest of the `JSON` module
// (the encoder and decoder, escaping, base64, the validator) does not: a module that uses it imports `JSON` itself, so
// a sender's module graph never gets a module named `JSON` whole through this one.
@_exported import enum JSON.JSONValue
