import ArgumentParser
import Foundation

/// Reads `MOCKAPNS_<NAME>` environment variables, the fallback for every `serve` option.
struct EnvironmentOptions {
    /// Every variable, not only `MOCKAPNS_*` ones (HOME and XDG_DATA_HOME say where per-user files go).
    let variables: [String: String]

    /// The variables of `values`: the process's own unless a test gives others.
    init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        variables = values
    }

    /// The value of `MOCKAPNS_<name>`, if set and not empty.
    subscript(name: String) -> String? {
        guard let value = variables["MOCKAPNS_" + name], !value.isEmpty else { return nil }
        return value
    }

    /// An integer variable; a non-number is a usage error naming the variable.
    func int(_ name: String) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text) else { throw ValidationError("MOCKAPNS_\(name) must be a whole number, got \"\(text)\"") }
        return value
    }

    /// A boolean variable: 1, true or yes.
    func bool(_ name: String) -> Bool {
        guard let text = self[name]?.lowercased() else { return false }
        return ["1", "true", "yes"].contains(text)
    }
}
