import Foundation

/// How many requests a load test sends: a size that still finds a lost or doubled record in `make test`, and the
/// full size under `make soak` (`MOCKAPNS_SOAK=1`), which the nightly workflow runs.
public enum LoadSize {
    /// Whether this run is the soak tier.
    public static var isSoak: Bool { ProcessInfo.processInfo.environment["MOCKAPNS_SOAK"] == "1" }

    /// `standard` in `make test`, `soak` under `make soak`.
    public static func requests(standard: Int, soak: Int) -> Int { isSoak ? soak : standard }
}
