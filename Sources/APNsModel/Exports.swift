// The JSON values, parser, validator and escaping the model's rules are written in: every module that imports the model
// reads and writes JSON with them, so they come with it.
@_exported import JSON
