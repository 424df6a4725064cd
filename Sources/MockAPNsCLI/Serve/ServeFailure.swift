/// Why `mockapns serve` stopped before or while serving, as the one sentence it prints (`mockapns: <sentence>`)
/// before it exits 1.
struct ServeFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
