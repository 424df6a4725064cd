/// One step of the store's schema: its version and the statements that take a database from the version before to
/// it. Applied in one transaction with the row that records it, so a step is either whole or absent.
struct StoreMigration: Sendable {
    /// The version this step brings the database to (1, 2, …).
    let version: Int
    /// What it does, for `mockapns store status`.
    let summary: String
    /// The statements, run in order.
    let statements: [String]
}
