/// A `--retain-age` value: a whole number and a unit, `s`, `m`, `h` or `d` (`14d`, `12h`, `90m`, `3600s`).
struct RetentionAge: Equatable {
    /// The age in milliseconds.
    let millis: Int64

    /// Parses `text`; nil when it is not a positive whole number with one of the units (or overflows).
    init?(_ text: String) {
        guard let unit = text.last, let number = Int64(text.dropLast()), number > 0 else { return nil }
        let scale: Int64
        switch unit {
        case "s": scale = 1_000
        case "m": scale = 60_000
        case "h": scale = 3_600_000
        case "d": scale = 86_400_000
        default: return nil
        }
        let (product, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        millis = product
    }
}
