/// The one place the release version is written: `mockapns --version`, the ready file's `version` field and
/// `make dist`'s archive name (which asks the built binary) all read it from here.
public enum MockAPNsVersion {
    /// Semantic version of this checkout, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
